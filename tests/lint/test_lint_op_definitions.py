"""gpu-lint with `op-definitions`: the example dialect (examples/downstream) checked end to end, and mistakes as one-line errors."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gpu_lsp.ir.opdefs import lookup
from gpu_lsp.lint.op_definitions import use_op_definitions

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "downstream"

WRONG = """\
func.func @f(%x: f32, %i: i32) {
  %r = scratch.fma %x, %x, %i : f32
  scratch.yield
  "scratch.fma"(%x, %x, %i) : (f32, f32, i32) -> f32
  return
}
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    """A copy of the example project; what it declared is forgotten afterwards."""
    for name in ("gpu-lint.toml", "scratch.ops.toml", "kernel.mlir"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
    yield tmp_path
    use_op_definitions(())


@pytest.mark.real_registry
def test_the_example_is_clean_and_wrong_uses_are_reported(gpu_lint: Callable, project: Path) -> None:
    clean = gpu_lint("kernel.mlir", cwd=project)
    assert (clean.code, clean.err) == (0, "") and "All checks passed!" in clean.out
    (project / "wrong.mlir").write_text(WRONG, encoding="utf-8")
    wrong = gpu_lint("--output-format", "concise", "wrong.mlir", cwd=project)
    assert wrong.code == 1
    assert wrong.out.splitlines()[:3] == [
        "wrong.mlir:2:28: GPU005 use of value '%i' expects different type than prior uses: 'f32' vs 'i32'",
        "wrong.mlir:3:3: GPU102 'scratch.yield' op expects parent op 'scratch.for_each_lane'",
        "wrong.mlir:4:3: GPU141 'scratch.fma' op operand #2 must be floating-point, but got 'i32'",
    ]


@pytest.mark.real_registry
def test_without_the_declarations_the_ops_are_unknown(gpu_lint: Callable, project: Path) -> None:
    unknown = gpu_lint("--isolated", "--output-format", "concise", "kernel.mlir", cwd=project)
    assert [line.split()[1] for line in unknown.out.splitlines() if line.startswith("kernel.mlir")] == ["GPU006"] * 4


def test_mistakes_in_the_definitions_are_one_line_errors(gpu_lint: Callable, project: Path) -> None:
    (project / "scratch.ops.toml").write_text('dialect = "scratch"\n[ops.fma]\ntraits = ["Pure", "Comutative"]\n', encoding="utf-8")
    result = gpu_lint("kernel.mlir", cwd=project)
    assert result.code == 2 and result.out == ""
    assert result.err == (
        "<ROOT>/scratch.ops.toml:3:20: error: unknown trait 'Comutative' "
        "(see docs/downstream-dialects.md for the traits gpu-lsp reads)\n"
    )


def test_paths_are_relative_to_the_config_file_and_stay_in_the_project(gpu_lint: Callable, project: Path) -> None:
    (project / "sub").mkdir()
    shown = gpu_lint("--show-settings", cwd=project / "sub")
    assert f'op-definitions = ["{project.resolve() / "scratch.ops.toml"}"]' in shown.out
    (project / "gpu-lint.toml").write_text('op-definitions = ["../elsewhere.toml"]\n', encoding="utf-8")
    escaped = gpu_lint("kernel.mlir", cwd=project)
    assert escaped.code == 2
    assert escaped.err == (
        "gpu-lint: error: <ROOT>/gpu-lint.toml: 'op-definitions' path '../elsewhere.toml' leaves the project folder "
        "(write an absolute path)\n"
    )


@pytest.mark.real_registry
def test_the_cache_is_keyed_by_the_definitions(gpu_lint: Callable, project: Path) -> None:
    (project / "wrong.mlir").write_text(WRONG, encoding="utf-8")
    assert "GPU102" in gpu_lint("--output-format", "concise", "wrong.mlir", cwd=project).out
    definitions = project / "scratch.ops.toml"
    definitions.write_text(definitions.read_text(encoding="utf-8").replace(', \'HasParent<"scratch.for_each_lane">\'', ""), encoding="utf-8")
    assert "GPU102" not in gpu_lint("--output-format", "concise", "wrong.mlir", cwd=project).out
    assert (project / ".gpu-lint-cache").is_dir()


def test_a_file_that_is_not_toml_keeps_its_last_good_declarations(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('dialect = "t"\n[ops.a]\n[ops.b]\n', encoding="utf-8")
    try:
        assert use_op_definitions([str(path)]) == [] and lookup("t.b") is not None
        path.write_text('dialect = "t"\n[ops.a]\n[ops.b\n', encoding="utf-8")
        (error,) = use_op_definitions([str(path)])
        assert error.startswith(f"{path}:3:7: error: invalid TOML: Expected ']'")
        assert lookup("t.a") is not None and lookup("t.b") is not None, "the last good text is still declared"
        path.write_text('dialect = "t"\n[ops.a]\n', encoding="utf-8")
        assert use_op_definitions([str(path)]) == [] and lookup("t.b") is None
        path.unlink()
        (gone,) = use_op_definitions([str(path)])
        assert gone.endswith("error: cannot read op definitions: No such file or directory") and lookup("t.a") is None
    finally:
        use_op_definitions(())
