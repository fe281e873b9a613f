"""Show IR after each pass: the `gpu-lsp/pipelineSteps` and `gpu-lsp/passes` requests (docs/pipelines.md)."""

from __future__ import annotations

from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.passes.catalog import PASSES
from gpu_lsp.passes.steps import pipeline_steps


def pass_list() -> list[dict]:
    """Every pass a pipeline may name, with its options and the op it runs on, for completion."""
    return [{"name": p.name, "summary": p.summary, "options": list(p.options), "anchor": p.anchor} for p in sorted(PASSES, key=lambda p: p.name)]


def steps_json(snap: Snapshot, pipeline: str, line: int) -> dict:
    """`{steps: [{name, text, origins: [[line, source line, source character], ...]}]}` for the chunk
    holding `line` (0-based); raises passes.steps.StepError."""
    offset = snap.offset(max(0, min(line, snap.lines.line_count - 1)), 0)
    out = []
    for step in pipeline_steps(snap.text, pipeline, offset):
        origins = [[at, *snap.position(source)] for at, source in step.origins]
        out.append({"name": step.name, "text": step.text, "origins": origins})
    return {"steps": out}
