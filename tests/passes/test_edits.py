"""From pass to edit: applying the edits and re-parsing gives the pass output's IR.

For every fixture (the corpus chunks of the three upstream pass tests, the
examples, tests/passes/fixtures) and every generated input, a pass runs on a
fresh parse; its edits are applied to the text; the result must parse without
errors to the same IR (up to value names) as the pass output, and every comment
outside the edited ranges is still there.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from gen_variants import inputs
from passes_support import ASYNC, OUTLINE_ASYNC, SINK, SINK_OUTLINE, SINK_OUTLINE_DL, assert_same_ir
from support import REPO
from support.corpus import corpus_files, split_chunks

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir.core import Operation
from gpu_lsp.parser.api import parse
from gpu_lsp.passes.edits import ChunkBeforePass
from gpu_lsp.passes.legalize import legalize
from gpu_lsp.passes.pipeline import parse_pipeline, run_pipeline
from gpu_lsp.text import apply_edits

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GPU = "mlir/test/Dialect/GPU/"


def pipeline(text: str) -> Callable[[Operation, ChunkBeforePass], None]:
    nest = parse_pipeline(text)
    return lambda module, snap: run_pipeline(nest, module)


def legalize_all(module: Operation, snap: ChunkBeforePass) -> None:
    for op in legalize(module).named:
        snap.force(op)


def roundtrip(text: str, rewrite: Callable[[Operation, ChunkBeforePass], None], name: str) -> str:
    """Rewrite `text` via edits; check the re-parsed IR against the rewritten IR; the new text."""
    chunk = parse(text).chunks[0]
    snap = ChunkBeforePass(text, chunk)
    rewrite(chunk.module, snap)
    edits = snap.edits()
    new_text = apply_edits(text, edits)  # raises on overlapping edits
    reparsed = parse(new_text).chunks[0]
    errors = [d for d in reparsed.diagnostics if d.severity >= Severity.ERROR]
    assert not errors, (name, [d.message for d in errors], new_text)
    assert_same_ir(chunk.module, reparsed.module, name)
    changed = [e.range for e in edits]
    for comment in chunk.comments:
        inside = any(r.start < comment.range.end and comment.range.start < r.end for r in changed)
        if not inside:
            assert comment.text in new_text, (name, comment.text)
    return new_text


def _fixture_cases():
    cases = []
    for file, pipelines in (
        ("outlining.mlir", (SINK_OUTLINE, SINK_OUTLINE_DL)),
        ("sink-ops.mlir", (SINK,)),
        ("async-region.mlir", (ASYNC,)),
    ):
        for path in corpus_files(f"**/{GPU}{file}"):
            for k, chunk in enumerate(split_chunks(path.read_text())):
                for p in pipelines:
                    cases.append(pytest.param(chunk.text, p, id=f"{file}-{k}-{'dl' if 'dl_spec' in p else 'p'}"))
    for path in sorted(FIXTURES.glob("*.mlir")) + [REPO / "examples" / "async_pipeline.mlir"]:
        for k, chunk in enumerate(split_chunks(path.read_text())):
            for p in (SINK_OUTLINE, OUTLINE_ASYNC):
                cases.append(pytest.param(chunk.text, p, id=f"{path.name}-{k}-{p[15:40]}"))
    return cases


@pytest.mark.parametrize("text, pipe", _fixture_cases())
def test_fixture_edits_give_the_pass_output(text: str, pipe: str) -> None:
    roundtrip(text, pipeline(pipe), pipe)


@pytest.mark.parametrize("name, text", inputs(24), ids=[n for n, _ in inputs(24)])
def test_generated_edits_give_the_pass_output(name: str, text: str) -> None:
    for p in (SINK_OUTLINE, OUTLINE_ASYNC):
        roundtrip(text, pipeline(p), f"{name} {p}")
    roundtrip(text, legalize_all, f"{name} legalize")


def test_legalize_edits_on_the_examples() -> None:
    text = (REPO / "examples" / "mistakes.mlir").read_text()
    done = 0
    for chunk in split_chunks(text):
        if any(d.severity >= Severity.ERROR for d in parse(chunk.text).chunks[0].diagnostics):
            continue
        roundtrip(chunk.text, legalize_all, "mistakes.mlir")
        done += 1
    assert done >= 3


def test_comments_outside_rewritten_ops_survive_outlining() -> None:
    text = (FIXTURES / "comments.mlir").read_text()
    new_text = roundtrip(text, pipeline(SINK_OUTLINE), "comments")
    for kept in (
        "// before the function", "// signature", "// constants", "// one", "// trailing comment",
        "// the kernel", "// after the kernel", "// done", "// between functions", "// nothing GPU here",
        "// at the end",
    ):
        assert kept in new_text
    assert "// inside the kernel" not in new_text  # the launch body is printed anew in the kernel
    empty = text[text.index("func.func @empty") : text.index("// at the end")]
    # An untouched function keeps its exact text inside the module that outlining writes out: the module's lines are
    # inserted, the others not re-indented (issue 26).
    assert empty in new_text


def test_edits_are_minimal() -> None:
    """Only changed ops are printed: unchanged ops of a function keep their exact text."""
    text = (FIXTURES / "comments.mlir").read_text()
    chunk = parse(text).chunks[0]
    snap = ChunkBeforePass(text, chunk)
    run_pipeline(parse_pipeline(SINK_OUTLINE), chunk.module)
    edits = snap.edits()
    untouched = ("%c0 = arith.constant 0 : index", "%blocks = arith.ceildivui %n, %c128 : index", "func.func @empty()")
    for needle in untouched:
        pos = text.index(needle)
        assert not any(e.range.start <= pos < e.range.end for e in edits), needle
