"""The pass and refactoring registries drive gpu-opt, the code actions and the command list."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout

import pytest
from lsp_samples import OUTLINED, snapshot
from support import REPO

from gpu_lsp.cli import gpu_opt
from gpu_lsp.lsp import advertised, commands
from gpu_lsp.lsp.actions import compute_refactoring, refactorings_available
from gpu_lsp.passes.catalog import PASSES, REFACTORINGS
from gpu_lsp.passes.pass_pages import render
from gpu_lsp.passes.refactor import pass_refactoring
from gpu_lsp.passes.registration import DuplicateName, PassDef, RefactoringDef, UnknownName, gpu_pass
from gpu_lsp.passes.sink import sink_index_computations
from gpu_lsp.text import apply_edits

SINKABLE = """\
func.func @f(%a: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%c1] : memref<?xf32>
    gpu.terminator
  }
  return
}
"""


@gpu_pass("test-toy-sink", anchor="func.func")
def toy_pass(func, options: dict[str, str]) -> None:
    """A toy pass: sink index computations, one function at a time."""
    sink_index_computations(func)


TOY_ACTION = pass_refactoring(toy_pass, "test.toy-sink", "Toy: sink this function's index computations", command="gpuLsp.server.toySink")


@contextmanager
def registered(pass_def: PassDef, refactoring: RefactoringDef) -> Iterator[None]:
    PASSES.add(pass_def)
    REFACTORINGS.add(refactoring)
    try:
        yield
    finally:
        PASSES.remove(pass_def.name)
        REFACTORINGS.remove(refactoring.id)


def help_text() -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert gpu_opt.main(["--help"]) == 0
    return out.getvalue()


def test_a_toy_pass_registered_once_is_everywhere() -> None:
    assert "-test-toy-sink" not in help_text()
    with registered(toy_pass, TOY_ACTION):
        assert re.search(r"\n  -test-toy-sink +A toy pass: sink index computations, one function at a time\.\n", help_text())
        snap = snapshot(SINKABLE)
        offset = SINKABLE.index("gpu.launch")
        assert "test.toy-sink" in [r.id for r in refactorings_available(snap, offset)]
        in_kernel_module = OUTLINED.index("gpu.thread_id")
        assert "test.toy-sink" not in [r.id for r in refactorings_available(snapshot(OUTLINED), in_kernel_module)]
        title, edits = compute_refactoring(snap, "test.toy-sink", offset)
        assert title == TOY_ACTION.title
        launch_body = apply_edits(SINKABLE, edits).split("gpu.launch", 1)[1].split("gpu.terminator")[0]
        assert "arith.constant 1 : index" in launch_body
        assert "gpuLsp.server.toySink" in commands.advertised()
        assert "| `-test-toy-sink` | `func.func` |" in render() and "| `test.toy-sink` |" in render()
        status, out, err = opt_run(["-test-toy-sink"], SINKABLE)
        assert status == 0, err
        assert out.split("gpu.launch", 1)[1].split("gpu.terminator")[0].count("arith.constant") == 1
    assert "gpuLsp.server.toySink" not in commands.advertised()


def opt_run(args: list[str], text: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = gpu_opt.run(gpu_opt.parse_args(args), text, "input.mlir", out, err)
    return status, out.getvalue(), err.getvalue()


def test_docs_passes_md_is_current() -> None:
    path = REPO / "docs" / "passes.md"
    assert path.read_text(encoding="utf-8") == render(), "regenerate: python -m gpu_lsp.passes.pass_pages > docs/passes.md"


def test_a_name_registered_twice_raises() -> None:
    with pytest.raises(DuplicateName, match="pass 'gpu-async-region' is registered twice"):
        PASSES.add(gpu_pass("gpu-async-region")(lambda op, options: None))
    with pytest.raises(DuplicateName, match="refactoring 'gpu.outline-launch' is registered twice"):
        REFACTORINGS.add(pass_refactoring(toy_pass, "gpu.outline-launch", "again"))


def test_a_pass_anchored_on_an_unknown_op_raises() -> None:
    with pytest.raises(UnknownName, match="'test-misspelled' is anchored on 'func.fucn'"):
        PASSES.add(gpu_pass("test-misspelled", anchor="func.fucn")(lambda op, options: None))
    assert "test-misspelled" not in PASSES


def _client_ids(path: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, (REPO / path).read_text(encoding="utf-8")))


def test_the_bootstrap_advertises_the_registered_commands() -> None:
    assert advertised.CAPABILITIES["executeCommandProvider"]["commands"] == commands.advertised()


def test_the_editor_clients_use_the_advertised_command_ids() -> None:
    advertised = set(commands.advertised())
    assert all(c.startswith("gpuLsp.server.") for c in advertised), "one id style: gpuLsp.server.<name>"
    vscode = _client_ids("editors/vscode/src/manifest.ts", r"'(gpuLsp\.server\.[A-Za-z]+)'")
    neovim = _client_ids("editors/neovim/lua/gpu_lsp/manifest.lua", r"'(gpuLsp\.server\.[A-Za-z]+)'")
    assert vscode == advertised
    assert neovim == advertised
