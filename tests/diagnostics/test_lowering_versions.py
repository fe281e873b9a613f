"""Lowering readiness against upstream: the version table's rows and GPU201/202/209 versus the oracle's gpu-to-llvm."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from support import oracle

from diagnostics.fixtures import load
from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics import mlir_versions as mv
from gpu_lsp.diagnostics.mlir_versions import AtVersion, Lowering, LoweringFact
from gpu_lsp.text import LineIndex

LOWERING_CODES = ("GPU201", "GPU202", "GPU209")
CONVERTED_OPS = re.compile(r"\b(gpu\.(?:memcpy|memset|alloc|dealloc|launch_func))\b(?! <)")
LOC_ALIAS = re.compile(r'^(#loc\d*) = loc\("-":(\d+):\d+\)', re.M)
LOC_USE = re.compile(r"loc\((#loc\d*)\)\s*$")

KERNELS = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index) {
    %a = gpu.wait async
    %b = gpu.wait async
    OP
    return
  }
}
"""
BUFFERS = """func.func @main(%n: index, %h: memref<4xf32>, %d: memref<4xf32>, %v: f32) -> memref<?xf32> {
  %a = gpu.wait async
  %b = gpu.wait async
  %z = gpu.alloc host_shared (%n) : memref<?xf32>
  OP
  return %m : memref<?xf32>
}
"""
LAUNCH = "@kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)"


@dataclass(frozen=True)
class Form:
    """One op form of the table as a runnable chunk; `OP` is on line `line`."""

    fact: LoweringFact
    template: str
    op: str

    @property
    def text(self) -> str:
        body = self.op if "%m" in self.op or self.template is KERNELS else f"{self.op}\n  %m = memref.cast %z : memref<?xf32> to memref<?xf32>"
        return self.template.replace("OP", body)

    @property
    def line(self) -> int:
        return self.template.split("\n").index(next(ln for ln in self.template.split("\n") if "OP" in ln)) + 1


FORMS = [
    Form(mv.LAUNCH_FUNC_DEPENDENCIES, KERNELS, f"%t = gpu.launch_func async [%a, %b] {LAUNCH}\n    gpu.wait [%t]"),
    Form(mv.LAUNCH_FUNC_SYNC_DEPENDENCIES, KERNELS, f"gpu.launch_func [%a] {LAUNCH}"),
    Form(mv.COPY_DEPENDENCIES, BUFFERS, "%t = gpu.memcpy async [%a, %b] %d, %h : memref<4xf32>, memref<4xf32>\n  gpu.wait [%t]"),
    Form(mv.COPY_DEPENDENCIES, BUFFERS, "%t = gpu.memset async [%a, %b] %d, %v : memref<4xf32>, f32\n  gpu.wait [%t]"),
    Form(mv.COPY_SYNC_DEPENDENCIES, BUFFERS, "gpu.memcpy [%a] %d, %h : memref<4xf32>, memref<4xf32>"),
    Form(mv.COPY_SYNC_DEPENDENCIES, BUFFERS, "gpu.memset [%a] %d, %v : memref<4xf32>, f32"),
    Form(mv.ALLOC_DEPENDENCIES, BUFFERS, "%m, %t = gpu.alloc async [%a, %b] (%n) : memref<?xf32>\n  gpu.wait [%t]"),
    Form(mv.ALLOC_DEPENDENCIES, BUFFERS, "%t = gpu.dealloc async [%a, %b] %d : memref<4xf32>\n  gpu.wait [%t]"),
    Form(mv.ALLOC_SYNC_DEPENDENCIES, BUFFERS, "%m = gpu.alloc [%a] (%n) : memref<?xf32>"),
    Form(mv.ALLOC_SYNC, BUFFERS, "%m = gpu.alloc (%n) : memref<?xf32>"),
    Form(mv.ALLOC_SYNC, BUFFERS, "gpu.dealloc %d : memref<4xf32>"),
    Form(mv.WAIT_ASYNC_DEPENDENCIES, BUFFERS, "%t = gpu.wait async [%a, %b]\n  gpu.wait [%t]"),
]


def _needs_oracle() -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")


def oracle_problems(text: str) -> tuple[Lowering, set[int]]:
    """What the oracle's gpu-to-llvm does with `text`, and the lines of the ops it rejects or leaves unconverted."""
    output, diags = oracle.run_pass(text, "builtin.module(gpu-to-llvm)")
    if output is None:
        return Lowering.REJECTED, {line for line, _, severity, _ in diags if severity == "error"}
    result, _ = oracle._run(text, "builtin.module(gpu-to-llvm)", False)
    asm = str(result.module.operation.get_asm(enable_debug_info=True))
    aliases = {name: int(line) for name, line in LOC_ALIAS.findall(asm)}
    lines = set()
    for row in asm.split("\n"):
        if CONVERTED_OPS.search(row) and (use := LOC_USE.search(row)):
            lines.add(aliases[use.group(1)])
    return (Lowering.UNCONVERTED if lines else Lowering.LOWERED), lines


def flagged_lines(text: str, version: int) -> set[int]:
    index = LineIndex(text)
    found = lint_text(text, settings=AtVersion(version))
    return {index.position(d.range.start)[0] + 1 for d in found if d.code in LOWERING_CODES}


def oracle_version(fact: LoweringFact) -> int:
    """The newest `mlir-version` whose row agrees with the oracle (the oracle sits between LLVM 22 and 23)."""
    return max(v for v in range(mv.OLDEST, mv.NEWEST + 1) if fact.at(v) is fact.oracle)


def test_every_fact_has_a_form_and_a_source() -> None:
    assert {id(f.fact) for f in FORMS} == {id(f) for f in mv.LOWERING_FACTS if f is not mv.OTHER_ASYNC_DEPENDENCIES}
    assert all(f.source for f in mv.LOWERING_FACTS)


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.op.split(" = ")[-1].split(" [")[0].split(" %")[0])
def test_form_matches_the_oracle(form: Form) -> None:
    """The oracle does what the table says, and the rules fire on the op exactly when it is not lowered."""
    _needs_oracle()
    outcome, lines = oracle_problems(form.text)
    assert outcome is form.fact.oracle, form.text
    version = oracle_version(form.fact)
    assert lines == ({form.line} if outcome is not Lowering.LOWERED else set())
    assert flagged_lines(form.text, version) == lines


def test_versions_differ_where_upstream_changed() -> None:
    launch = FORMS[0].text
    assert flagged_lines(launch, 23) == set()
    assert flagged_lines(launch, 22) == {FORMS[0].line}
    sync_alloc = next(f for f in FORMS if f.fact is mv.ALLOC_SYNC)
    assert flagged_lines(sync_alloc.text, 23) == set()
    assert flagged_lines(sync_alloc.text, 22) == {sync_alloc.line}


@pytest.mark.parametrize("code", ["GPU201", "GPU202"])
def test_fixture_chunks_match_the_oracle(code: str) -> None:
    """Each fixture chunk linted at the oracle's version: GPU201/202/209 fire on exactly the ops the oracle rejects or leaves."""
    _needs_oracle()
    fx = load(code)
    checked = 0
    for chunk in fx.chunks:
        if chunk.version != mv.NEWEST:
            continue  # the oracle is LLVM 23: older versions are checked through the table's rows
        text = fx.text[chunk.start : chunk.end]
        _, lines = oracle_problems(text)
        assert flagged_lines(text, chunk.version) == lines, f"{code}: chunk at line {chunk.first_line}"
        checked += 1
    assert checked >= 2
