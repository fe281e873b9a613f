"""Each file is checked with the configuration file nearest to it (ruff's hierarchy), in one run."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from lintkit import Result

from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.lint import check, hierarchy
from gpu_lsp.lint.config import Settings
from gpu_lsp.lint.op_definitions import use_op_definitions

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "downstream"

# A launch with two dependencies (GPU201 with LLVM 22 only), a synchronous launch with one (GPU202),
# and a wait with one token (GPU205).
KERNEL = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index) {
    %a = gpu.wait async
    %b = gpu.wait async
    %t1 = gpu.launch_func async [%a, %b] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %t2 = gpu.wait async [%t1]
    gpu.launch_func [%t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
"""


@pytest.fixture
def tree(tmp_path: Path, write: Callable[[str, str], Path]) -> Iterator[Path]:
    """A project (its root ignores GPU205) with folders of their own: `only202` selects GPU202 alone,
    `llvm22` builds with LLVM 22, `plain` has no file of its own, `ops1` and `ops2` declare the
    example's ops (each from its own copy of the file), `bare` uses them without declaring them."""
    write("gpu-lint.toml", 'ignore = ["GPU205"]\n')
    write("only202/gpu-lint.toml", 'select = ["GPU202"]\n')
    write("llvm22/pyproject.toml", "[tool.gpu-lint]\nmlir-version = 22\n")
    for folder in ("only202", "llvm22", "plain"):
        write(f"{folder}/k.mlir", KERNEL)
    for folder in ("ops1", "ops2", "bare"):
        (tmp_path / folder).mkdir()
        shutil.copy(EXAMPLE / "kernel.mlir", tmp_path / folder / "kernel.mlir")
        if folder != "bare":
            for name in ("gpu-lint.toml", "scratch.ops.toml"):
                shutil.copy(EXAMPLE / name, tmp_path / folder / name)
    yield tmp_path
    use_op_definitions(())


def _codes(result: Result) -> dict[str, list[str]]:
    """The codes reported per folder of a `--output-format json` run, sorted."""
    found: dict[str, list[str]] = {}
    for row in json.loads(result.out):
        found.setdefault(Path(row["filename"]).parent.name, []).append(row["code"])
    return {folder: sorted(codes) for folder, codes in found.items()}


@pytest.mark.real_registry
def test_one_run_checks_each_folder_as_a_run_inside_it_would(gpu_lint: Callable[..., Result], tree: Path) -> None:
    run = gpu_lint("--output-format", "json", ".")
    assert run.code == 1 and run.err == ""
    codes = _codes(run)
    assert codes["only202"] == ["GPU202"]
    assert codes["llvm22"] == ["GPU201", "GPU202", "GPU205"], "the nearest file replaces the root's (no ignore)"
    assert codes["plain"] == ["GPU202"], "a folder without a file of its own takes the root's (GPU205 ignored)"
    assert "ops1" not in codes and "ops2" not in codes, "each folder's own op-definitions file declares the ops"
    assert codes["bare"] == ["GPU006"] * 4, "ops another folder declares are not known here"
    for folder in ("only202", "llvm22", "ops1", "bare"):
        inside = gpu_lint("--output-format", "json", ".", cwd=tree / folder)
        assert _codes(inside).get("", []) == codes.get(folder, [])


@pytest.mark.real_registry
def test_config_file_and_isolated_apply_one_configuration_to_every_file(gpu_lint: Callable[..., Result], tree: Path) -> None:
    root = _codes(gpu_lint("--output-format", "json", "--config", "gpu-lint.toml", "."))
    assert root["only202"] == root["llvm22"] == root["plain"] == ["GPU202"]
    assert root["ops1"] == root["bare"] == ["GPU006"] * 4
    isolated = _codes(gpu_lint("--output-format", "json", "--isolated", "."))
    assert isolated["only202"] == isolated["llvm22"] == ["GPU202", "GPU205"]
    assert isolated["ops2"] == ["GPU006"] * 4


@pytest.mark.real_registry
def test_command_line_options_override_each_files_settings(gpu_lint: Callable[..., Result], tree: Path) -> None:
    codes = _codes(gpu_lint("--output-format", "json", "--mlir-version", "23", "--extend-select", "GPU205", "."))
    assert codes["llvm22"] == ["GPU202", "GPU205"], "--mlir-version replaces the folder's mlir-version"
    assert codes["only202"] == ["GPU202", "GPU205"], "--extend-select adds to the folder's select"
    inline = _codes(gpu_lint("--output-format", "json", "--config", 'ignore = ["GPU202"]', "."))
    assert "only202" not in inline and inline["llvm22"] == ["GPU201", "GPU205"], "an inline --config applies in every folder"


@pytest.mark.real_registry
def test_show_settings_names_the_paths_configuration(gpu_lint: Callable[..., Result], tree: Path) -> None:
    shown = gpu_lint("--show-settings", "llvm22/k.mlir")
    assert "# config file: <ROOT>/llvm22/pyproject.toml" in shown.out and "mlir-version = 22" in shown.out
    assert "# config file: <ROOT>/gpu-lint.toml" in gpu_lint("--show-settings", "plain").out
    piped = gpu_lint("--output-format", "json", "--stdin-filename", "llvm22/k.mlir", stdin=KERNEL.encode())
    assert _codes(piped) == {"llvm22": ["GPU201", "GPU202", "GPU205"]}, "standard input takes its name's folder's settings"


@pytest.mark.real_registry
def test_a_broken_configuration_skips_its_files_only(gpu_lint: Callable[..., Result], tree: Path, write) -> None:
    write("only202/gpu-lint.toml", 'selec = ["GPU202"]\n')
    run = gpu_lint("--output-format", "json", ".")
    assert run.code == 2
    assert run.err == (
        "gpu-lint: error: <ROOT>/only202/gpu-lint.toml: unknown key 'selec' (did you mean 'select'?)"
        " (the files it configures are not checked)\n"
    )
    codes = _codes(run)
    assert "only202" not in codes and codes["llvm22"] == ["GPU201", "GPU202", "GPU205"]
    write("ops1/scratch.ops.toml", 'dialect = "scratch"\n[ops.fma]\ntraits = ["Comutative"]\n')
    broken = gpu_lint("--output-format", "json", "ops2", "ops1")
    assert broken.code == 2 and broken.err.count("\n") == 1
    assert broken.err.startswith("gpu-lint: error: <ROOT>/ops1/gpu-lint.toml: 'op-definitions': <ROOT>/ops1/scratch.ops.toml:3:")
    assert _codes(broken) == {}, "ops2 is still checked (and clean); ops1 is not"


@pytest.mark.real_registry
def test_exclusions_of_a_folders_configuration_apply_in_it(gpu_lint: Callable[..., Result], tree: Path, write) -> None:
    messy = "func.func @f() {\n  %a =   gpu.wait async\n  gpu.wait [%a]\n  return\n}\n"
    for folder in ("plain", "only202"):
        write(f"{folder}/messy.mlir", messy)
    write("plain/gpu-lint.toml", 'extend-exclude = ["messy.mlir", "k.mlir"]\n')
    listed = gpu_lint("format", "--check", ".").out.splitlines()
    assert [line for line in listed if "messy" in line] == ["Would reformat: only202/messy.mlir"]
    checked = gpu_lint("--output-format", "concise", ".")
    assert checked.code == 1 and "only202/k.mlir" in checked.out and "plain/" not in checked.out


@pytest.mark.real_registry
def test_the_cache_misses_only_for_the_folder_whose_configuration_changed(
    gpu_lint: Callable[..., Result], tree: Path, write, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    inner = check.analyze

    def counting(text: str, **version: int) -> list[Diagnostic]:
        seen.append(text)
        return inner(text, **version)

    monkeypatch.setattr(check, "analyze", counting)
    cold = gpu_lint("-j", "1", ".")
    assert len(seen) == 6 and (tree / "only202" / ".gpu-lint-cache").is_dir(), "each configuration has its own cache"
    assert gpu_lint("-j", "1", ".") == cold and len(seen) == 6
    write("llvm22/pyproject.toml", "[tool.gpu-lint]\nmlir-version = 23\n")
    warm = gpu_lint("-j", "1", ".")
    assert len(seen) == 7 and warm.out != cold.out, "only llvm22/k.mlir is analysed again"


def test_each_folder_is_resolved_once(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[Path] = []
    real = hierarchy.config_in
    monkeypatch.setattr(hierarchy, "config_in", lambda folder: looked.append(folder) or real(folder))
    loaded: list[Path] = []
    resolver = hierarchy.Resolver(Settings(root=tree), lambda path: loaded.append(path) or Settings(root=path.parent), False)
    for _ in range(3):
        for folder in ("only202", "plain", "llvm22", "plain/deeper"):
            resolver.for_folder(tree / folder)
    assert sorted(looked) == sorted({tree / "only202", tree / "plain", tree / "llvm22", tree / "plain" / "deeper", tree})
    assert sorted(loaded) == [tree / "gpu-lint.toml", tree / "llvm22" / "pyproject.toml", tree / "only202" / "gpu-lint.toml"]


@pytest.mark.real_registry
def test_worker_processes_declare_each_files_own_ops(gpu_lint: Callable[..., Result], tree: Path) -> None:
    for folder in ("ops1", "bare"):
        for i in range(4):
            shutil.copy(EXAMPLE / "kernel.mlir", tree / folder / f"kernel{i}.mlir")
    run = gpu_lint("--output-format", "json", "--no-cache", "-j", "2", "ops1", "bare")
    assert _codes(run) == {"bare": ["GPU006"] * 20}


@pytest.mark.real_registry
def test_run_wide_keys_come_from_the_current_folder(gpu_lint: Callable[..., Result], tree: Path, write) -> None:
    write("plain/gpu-lint.toml", 'output-format = "json"\nfail-on = "error"\nfix = true\n')
    shown = gpu_lint("--show-settings", "plain").out
    assert 'output-format = "text"' in shown and 'fail-on = "warning"' in shown and "fix = false" in shown
    assert "# config file: <ROOT>/plain/gpu-lint.toml" in shown


@pytest.mark.real_registry
def test_fix_and_diff_follow_each_files_settings(gpu_lint: Callable[..., Result], tree: Path) -> None:
    joined = "%t0 = gpu.wait async [%a, %b]"  # the fix of GPU201, reported with LLVM 22 only
    diff = gpu_lint("--diff", "only202", "llvm22").out
    assert diff.count(f"+    {joined}") == 1 and diff.index(joined) < diff.index("--- only202/k.mlir")
    assert gpu_lint("--fix", "only202", "llvm22").code == 0
    only202, llvm22 = ((tree / folder / "k.mlir").read_text() for folder in ("only202", "llvm22"))
    assert joined in llvm22 and joined not in only202
    assert "%t2 = gpu.wait async [%t1]" in only202, "GPU205's fix is not applied where only GPU202 is selected"


@pytest.mark.real_registry
def test_two_folders_declaring_one_op_differently_each_get_their_own(gpu_lint: Callable[..., Result], write) -> None:
    """`t.op` takes a float in `float` and an integer in `int`: one run checks each file with its folder's."""
    try:
        for folder, constraint in (("float", "AnyFloat"), ("int", "AnyInteger")):
            write(f"{folder}/gpu-lint.toml", 'op-definitions = ["t.ops.toml"]\n')
            write(f"{folder}/t.ops.toml", f'dialect = "t"\n[ops.op]\narguments = "(ins {constraint}:$x)"\nassemblyFormat = "$x attr-dict `:` type($x)"\n')
            write(f"{folder}/k.mlir", "func.func @f(%x: f32) {\n  t.op %x : f32\n  return\n}\n")
        run = gpu_lint("--output-format", "concise", "float", "int", "float")
        assert (run.code, run.err) == (1, "")
        assert [line for line in run.out.splitlines() if ".mlir" in line] == [
            "int/k.mlir:2:3: GPU141 't.op' op operand #0 must be integer, but got 'f32'"
        ]
    finally:
        use_op_definitions(())
