"""Refactorings change only the ops they transform: every other op of the corpus and the examples keeps its text.

For each chunk (without errors) of the upstream corpus and of examples/, every refactoring the
editor offers at each `gpu.launch` and each top-level function is computed and applied. Each op
the refactoring does not transform (nor contains one it transforms, nor sits inside one) must
appear in the result with its exact text, names included; only its indentation may change, by
the one level a written-out `module attributes {gpu.container_module}` adds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import REPO
from support.corpus import corpus_files, split_chunks

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation
from gpu_lsp.parser.api import Chunk, parse
from gpu_lsp.passes import catalog
from gpu_lsp.passes import refactor as R
from gpu_lsp.text import apply_edits


def _sources() -> list[tuple[str, str]]:
    files = [*corpus_files(), *sorted((REPO / "examples").glob("*.mlir"))]
    out = []
    for path in files:
        for i, chunk in enumerate(split_chunks(path.read_text(encoding="utf-8"))):
            out.append((f"{path.name}-{i}", chunk.text))
    return out


def _dedent(text: str) -> str:
    return "\n".join(line.strip() for line in text.split("\n"))


def _walk(op: Operation):
    yield op
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                yield from _walk(child)


def _has_token(op: Operation) -> bool:
    return any(v.type == T.TOKEN for v in (*op.operands, *op.results))


def _transformed(refactoring_id: str, chunk: Chunk, offset: int) -> list[Operation]:
    """The ops a refactoring may rewrite."""
    module = chunk.module
    if refactoring_id == R.OUTLINE_LAUNCH:
        return [R.launch_at(chunk, offset)]
    if refactoring_id == R.OUTLINE_FUNCTION:
        return [o for o in _walk(R.top_level_at(chunk, offset)) if o.name == "gpu.launch"]
    if refactoring_id == R.OUTLINE_FILE:
        return [o for o in _walk(module) if o.name == "gpu.launch"]
    scope = R.top_level_at(chunk, offset) if refactoring_id == R.ASYNC_FUNCTION else module
    return [o for o in _walk(scope) if o.dialect in ("gpu", "async") or _has_token(o)]


def _untouched(chunk: Chunk, transformed: list[Operation]) -> list[Operation]:
    """The ops to keep: not transformed, not around or inside one; a `gpu.module` may receive a kernel (its ops are kept)."""
    touched = {id(o) for o in transformed}
    touched.update(id(o) for o in _walk(chunk.module) if o.name == "gpu.module")
    for op in transformed:
        touched.update(id(a) for a in op.ancestors())
        touched.update(id(n) for n in _walk(op))
    return [o for o in _walk(chunk.module) if id(o) not in touched and o.range is not None and not o.facts.implicit]


def _positions(chunk: Chunk) -> list[int]:
    out = [o.name_range.start for o in _walk(chunk.module) if o.name == "gpu.launch" and o.name_range is not None]
    body = chunk.module.regions[0].blocks[0].operations if chunk.module.regions else []
    out.extend(o.name_range.start for o in body if o.name_range is not None and o.regions)
    return out


def _check(name: str, text: str) -> int:
    parsed = parse(text)
    chunk = parsed.chunks[0]
    if any(d.severity >= Severity.ERROR for d in chunk.diagnostics):
        return 0
    checked = 0
    seen: set[str] = set()
    for offset in _positions(chunk):
        for item in catalog.available_at(text, offset):
            if item.id in (R.OUTLINE_FILE, R.LEGALIZE) and item.id in seen:
                continue
            seen.add(item.id)
            try:
                done = catalog.compute(item.id, text, offset)
            except R.RefactorError:
                continue
            if not done.edits:
                continue
            after = _dedent(apply_edits(text, list(done.edits)))
            for op in _untouched(chunk, _transformed(item.id, chunk, offset)):
                original = text[op.range.start : op.range.end]
                assert _dedent(original) in after, f"{name}: {item.id} at {offset} changed `{original[:120]}`"
            checked += 1
    return checked


SOURCES = _sources()


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_refactorings_change_only_what_they_transform(name: str, text: str) -> None:
    _check(name, text)


def test_refactorings_were_checked() -> None:
    """The cases above are not vacuous: the examples offer refactorings that rewrite something."""
    total = sum(_check(n, t) for n, t in SOURCES if n.startswith(("async_pipeline", "mistakes", "outlined_module")))
    assert total >= 5


def test_the_untouched_launch_after_an_outlined_one_keeps_its_text_and_names() -> None:
    """The issue's case: outlining one launch left the next one re-printed on one line, its `%t4` renamed `%t`."""
    text = Path(__file__).with_name("fixtures").joinpath("two_launches.mlir").read_text(encoding="utf-8")
    done = R.outline_launch(text, text.index("gpu.launch async [%t0]") + 3)
    after = apply_edits(text, list(done.edits))
    second = text[text.index("  %t5 = gpu.launch") : text.index("  gpu.wait [%t5]")]
    assert second in after  # not re-indented inside the module outlining writes out (issue 26)
    assert "%t4 = gpu.launch_func async [%t0]" in after
    assert after.startswith("// Two inline launches; outline the first one only.\nmodule attributes {gpu.container_module} {\nfunc.func @two(")
