"""docs/configuration.md's examples run as tests: each TOML block loads, and the main example does what it says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpu_lsp.lint.config import glob_match, load_settings
from gpu_lsp.lint.rules import known_codes

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
BLOCKS = re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)

# A memcpy with two dependencies: GPU201 with a safe fix in every LLVM version.
TWO_DEPENDENCIES = """\
func.func @main(%h: memref<4xf32>, %d: memref<4xf32>) {
  %a = gpu.wait async
  %b = gpu.wait async
  %t = gpu.memcpy async [%a, %b] %d, %h : memref<4xf32>, memref<4xf32>
  gpu.wait [%t]
  return
}
"""


def _install(block: str, folder: Path) -> Path:
    """Write a documented block where gpu-lint looks for it: pyproject.toml for `[tool.gpu-lint]`, else gpu-lint.toml."""
    name = "pyproject.toml" if "[tool.gpu-lint]" in block else "gpu-lint.toml"
    path = folder / name
    path.write_text(block, encoding="utf-8")
    return path


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.real_registry
@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_every_toml_example_loads(index: int, tmp_path: Path) -> None:
    path = _install(BLOCKS[index], tmp_path)
    settings = load_settings(tmp_path, known=known_codes())
    assert settings.config_file == path


@pytest.mark.real_registry
def test_the_main_example_protects_tests_and_fixes_the_rest(gpu_lint, write, tmp_path: Path) -> None:
    """`"tests/**/*.mlir" = ["GPU2"]` with `fix = true`: tests/x.mlir (zero folders below tests) is left alone."""
    _install(BLOCKS[0], tmp_path)
    protected = write("tests/x.mlir", TWO_DEPENDENCIES)
    nested = write("tests/a/y.mlir", TWO_DEPENDENCIES)
    fixed = write("src/z.mlir", TWO_DEPENDENCIES)
    result = gpu_lint("--output-format", "concise")
    assert protected.read_text() == TWO_DEPENDENCIES and nested.read_text() == TWO_DEPENDENCIES
    assert "gpu.wait async [%a, %b]" in fixed.read_text()
    assert "tests/" not in result.out
    assert result.code == 0, result.out + result.err


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("tests/**/*.mlir", "tests/x.mlir", True),  # fnmatch said no: `**/` is zero or more folders
        ("tests/**/*.mlir", "tests/a/b/x.mlir", True),
        ("tests/**/*.mlir", "testsx/y.mlir", False),
        ("**/gen/*.mlir", "gen/x.mlir", True),  # fnmatch said no
        ("**/gen/*.mlir", "a/b/gen/x.mlir", True),
        ("gen/**", "gen/a/b.mlir", True),
        ("gen/**", "generated/b.mlir", False),
        ("third_party/*", "third_party/a/b.mlir", True),  # `*` crosses `/`, as in ruff
        ("*_generated.mlir", "k_generated.mlir", True),
        ("[ab].mlir", "c.mlir", False),
    ],
)
def test_glob_semantics(pattern: str, path: str, matches: bool) -> None:
    assert glob_match(pattern, path) is matches


@pytest.mark.real_registry
def test_fix_never_writes_an_excluded_file(gpu_lint, write) -> None:
    """Named on the command line, an excluded file is still checked, but its fixes are not written."""
    write("gpu-lint.toml", 'extend-exclude = ["vendor"]\n')
    vendored = write("vendor/k.mlir", TWO_DEPENDENCIES)
    result = gpu_lint("--fix", "vendor/k.mlir")
    assert vendored.read_text() == TWO_DEPENDENCIES
    assert "warning: vendor/k.mlir: fixes not applied: the configuration excludes this file" in result.err


@pytest.mark.real_registry
def test_fix_never_writes_a_file_that_does_not_parse(gpu_lint, write) -> None:
    broken = TWO_DEPENDENCIES.replace("  return\n", "  %x = arith.addi %missing, %missing : i32\n  return\n")
    path = write("k.mlir", broken)
    result = gpu_lint("--fix", "k.mlir")
    assert path.read_text() == broken
    assert "fixes not applied: the fixed text does not parse" in result.err
