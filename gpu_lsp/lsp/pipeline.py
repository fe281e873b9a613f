"""Show IR after each pass: the `gpu-lsp/pipelineSteps` and `gpu-lsp/passes` requests (docs/pipelines.md).

The steps come from gpu-opt's own passes, or, when the settings name a real `mlir-opt`
(`gpuLsp.lit.mlirOpt`), from that program's `-mlir-print-ir-after-all` dump, for any pass it knows.
"""

from __future__ import annotations

from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.tool_child import ChildError, run_child
from gpu_lsp.passes.catalog import PASSES
from gpu_lsp.passes.ir_dump import command, dump_steps
from gpu_lsp.passes.steps import Step, StepError, chunk_range, pipeline_steps


def pass_list() -> list[dict]:
    """Every pass a pipeline may name, with its options and the op it runs on, for completion."""
    return [{"name": p.name, "summary": p.summary, "options": list(p.options), "anchor": p.anchor} for p in sorted(PASSES, key=lambda p: p.name)]


def _offset(snap: Snapshot, line: int) -> int:
    return snap.offset(max(0, min(line, snap.lines.line_count - 1)), 0)


def _as_json(snap: Snapshot, steps: list[Step]) -> dict:
    out = []
    for step in steps:
        origins = [[at, *snap.position(source)] for at, source in step.origins]
        out.append({"name": step.name, "text": step.text, "origins": origins})
    return {"steps": out}


def steps_json(snap: Snapshot, pipeline: str, line: int) -> dict:
    """`{steps: [{name, text, origins: [[line, source line, source character], ...]}]}` for the chunk
    holding `line` (0-based), through gpu-opt's passes; raises passes.steps.StepError."""
    return _as_json(snap, pipeline_steps(snap.text, pipeline, _offset(snap, line)))


async def mlir_opt_steps(text: str, offset: int, pipeline: str, mlir_opt: str, timeout: float, max_memory: int) -> list[Step]:
    """The steps of `pipeline` on the chunk of `text` holding `offset`, through the `mlir-opt` at
    `mlir_opt` in a limited child (no origins); raises StepError when it does not run or no pass ran."""
    start, end = chunk_range(text, offset)
    # The chunk after blank lines: mlir-opt's messages give the document's line numbers.
    padded = "\n" * text.count("\n", 0, start) + text[start:end]
    try:
        status, out, err = await run_child(command(mlir_opt, pipeline), padded, timeout, max_memory)
    except ChildError as exc:
        raise StepError(f"{mlir_opt} {exc}") from None
    return dump_steps(status, out, err)


async def mlir_opt_steps_json(snap: Snapshot, pipeline: str, line: int, mlir_opt: str, timeout: float, max_memory: int) -> dict:
    """`steps_json`'s answer through a user's `mlir-opt` (see `mlir_opt_steps`)."""
    return _as_json(snap, await mlir_opt_steps(snap.text, _offset(snap, line), pipeline, mlir_opt, timeout, max_memory))
