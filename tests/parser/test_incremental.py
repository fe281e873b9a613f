"""Incremental re-parsing gives exactly the IR, ranges and diagnostics of a full parse."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from support import SHARED
from support.corpus import corpus_files
from support.irdump import dump_file

from gpu_lsp.parser.api import parse
from gpu_lsp.parser.incremental import reparse
from gpu_lsp.text import TextRange

GEN = SHARED / "tools" / "gen_gpu_mlir.py"


def _generated(mode: str, lines: int) -> str:
    out = subprocess.run(
        [sys.executable, str(GEN), "--mode", mode, "--lines", str(lines)], check=True, capture_output=True, text=True
    )
    return out.stdout


def _edits(text: str, rng: random.Random, count: int):
    """Random small edits: insert, delete or replace a few characters anywhere."""
    for _ in range(count):
        pos = rng.randrange(len(text))
        kind = rng.choice(("insert", "delete", "replace"))
        length = 0 if kind == "insert" else rng.randint(1, 3)
        new = "" if kind == "delete" else rng.choice(["x", "1", "%", " ", "\n", "}", "{", "(", "gpu.wait", ", %t0", "// c"])
        end = min(len(text), pos + length)
        yield pos, end, new
        text = text[:pos] + new + text[end:]


@pytest.mark.parametrize("mode", ["inline", "outlined"])
def test_random_edits_match_full_parse(mode: str) -> None:
    text = _generated(mode, 400)
    rng = random.Random(7 if mode == "inline" else 11)
    parsed = parse(text)
    incremental_hits = 0
    for pos, end, new in _edits(text, rng, 120):
        before = len(text)
        text = text[:pos] + new + text[end:]
        previous_chunks = parsed.chunks[0].module
        parsed = reparse(parsed, text, TextRange(pos, end))
        incremental_hits += parsed.chunks[0].module is previous_chunks
        assert len(text) == before - (end - pos) + len(new)
        assert dump_file(parsed) == dump_file(parse(text)), f"edit at {pos}:{end} -> {new!r}"
    if mode == "inline":
        assert incremental_hits > 15, "edits inside functions should be handled incrementally"


def test_edit_inside_one_function_reparses_only_that_function() -> None:
    text = _generated("inline", 200)
    parsed = parse(text)
    funcs = parsed.chunks[0].top_level
    target = funcs[3]
    others = [op for op in funcs if op is not target]
    pos = text.index("gpu.thread_id x", target.range.start)
    new_text = text[:pos] + "gpu.thread_id y" + text[pos + len("gpu.thread_id x") :]
    again = reparse(parsed, new_text, TextRange(pos, pos + len("gpu.thread_id x")))
    kept = again.chunks[0].top_level
    assert [op for op in kept if op is not kept[3]] == others
    assert kept[3] is not target
    assert dump_file(again) == dump_file(parse(new_text))


def test_split_files_and_corpus_edits_match_full_parse() -> None:
    rng = random.Random(3)
    for path in corpus_files("**/Dialect/GPU/*.mlir")[:25]:
        text = path.read_text()
        parsed = parse(text, split=True)
        for pos, end, new in _edits(text, rng, 6):
            text = text[:pos] + new + text[end:]
            parsed = reparse(parsed, text, TextRange(pos, end))
            assert dump_file(parsed) == dump_file(parse(text, split=True)), f"{path.name}: edit at {pos}"


def test_a_module_inside_another_op_moves_with_it() -> None:
    """A `gpu.module` in the region of an op that is no module (a generic op's, or a damaged one's)
    moves with that op: its kernels' places were left behind by an edit before it (they had anchors
    of their own, which only a module's own move shifts); found by an edit sweep over the corpus."""
    from gpu_lsp.lsp.documents import Document
    from gpu_lsp.lsp.engine import parse_document

    text = (
        "func.func @f() {\n  return\n}\n"
        '"test.holder"() ({\n  gpu.module @m {\n    gpu.func @k() kernel {\n      gpu.return\n    }\n  }\n'
        '  "test.end"() : () -> ()\n}) : () -> ()\n'
    )
    doc = Document("file:///held.mlir", text, 1)
    doc.analysed()
    doc.replace(0, 0, "// a line before\n", 2)
    assert dump_file(doc.analysed().parsed) == dump_file(parse_document(doc.text))
    kernel = next(op for op in doc.analysed().parsed.chunks[0].module.walk() if op.name == "gpu.func")
    assert kernel.range is not None and doc.text[kernel.range.start :].startswith("gpu.func @k")
