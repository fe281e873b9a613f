"""Semantic tokens of an analysed document: a request answers what its budget allows (a prefix
of every token, flagged for a refresh), the server keeps the rest a step at a time, and the next
request answers every token, equal to lexing the whole document at once."""

from __future__ import annotations

import random

from support.typing import generated

from gpu_lsp.lsp import semantic_tokens, wire
from gpu_lsp.lsp.documents import PARTIAL_TOKENS, Document


def test_a_request_answers_what_its_budget_allows_and_the_rest_is_kept_in_steps(monkeypatch) -> None:
    text = generated("inline", 300)
    monkeypatch.setattr(semantic_tokens, "FULL_BUDGET_S", float("inf"))  # the whole answer, however loaded the machine
    whole = Document("file:///a.mlir", text, 1).analysed()
    every = semantic_tokens.semantic_tokens(whole)
    assert PARTIAL_TOKENS not in whole.cache
    snap = Document("file:///b.mlir", text, 1).analysed()
    monkeypatch.setattr(semantic_tokens, "FULL_BUDGET_S", 0.0)
    first = semantic_tokens.semantic_tokens(snap)
    assert 0 < len(first) < len(every) and first == every[: len(first)], "the tokens up to the first unit not lexed yet"
    assert snap.cache.pop(PARTIAL_TOKENS) is True
    steps = 1
    while not semantic_tokens.keep_step(snap, 0.0):  # one unit per step
        steps += 1
    assert steps > 5
    assert semantic_tokens.semantic_tokens(snap) == every and PARTIAL_TOKENS not in snap.cache
    assert semantic_tokens.keep_step(snap, 0.0), "nothing left to keep"


def test_the_json_of_every_token_is_joined_from_each_unit_s_json_kept(monkeypatch) -> None:
    monkeypatch.setattr(semantic_tokens, "FULL_BUDGET_S", float("inf"))
    text = generated("inline", 300)
    doc = Document("file:///a.mlir", text, 1)
    snap = doc.analysed()
    assert semantic_tokens.encoded(snap) == wire.semantic_tokens(semantic_tokens.semantic_tokens(snap))
    at = text.index("func.func @fn2")
    doc.replace(at, at, "// two lines\n// above fn2\n", 2)
    moved = doc.analysed()
    assert not moved.full_parse, "an incremental parse: the other units keep their tokens"
    assert semantic_tokens.encoded(moved) == wire.semantic_tokens(semantic_tokens.semantic_tokens(moved))
    fresh = Document("file:///b.mlir", moved.text, 1).analysed()
    assert semantic_tokens.encoded(moved) == semantic_tokens.encoded(fresh), "the units moved by lines, their JSON kept"


def test_a_range_of_a_long_unit_lexes_the_lines_asked_for(monkeypatch) -> None:
    """The `gpu.module` of an outlined file is half of it: a range request (and the first screens
    of an open) lexes the lines asked for, not the whole unit, with the tokens the whole gives."""
    text = generated("outlined", 3000)
    snap = Document("file:///a.mlir", text, 1).analysed()
    kernels = next(unit for unit in semantic_tokens.document_index(snap).units if unit.op.name == "gpu.module")
    assert kernels.range.end - kernels.range.start > semantic_tokens.CLIP_BYTES
    lines = snap.lines
    first = lines.line_of(kernels.range.start) + 200
    lo, hi = lines.line_start(first), lines.line_end(first + 40)
    lexed: list[int] = []
    tokenize = semantic_tokens.tokenize

    def counting(text, names, start, end, *args, **kwargs):
        lexed.append(end - start)
        return tokenize(text, names, start, end, *args, **kwargs)

    monkeypatch.setattr(semantic_tokens, "tokenize", counting)
    ranged = semantic_tokens.semantic_tokens(snap, lo, hi)
    assert lexed and max(lexed) <= hi - lo + 200, "the lines of the range, not the unit"
    monkeypatch.setattr(semantic_tokens, "CLIP_BYTES", len(text))  # lexed whole
    assert ranged == semantic_tokens.semantic_tokens(snap, lo, hi)


def test_a_long_unit_is_lexed_a_piece_per_step_with_the_tokens_of_the_whole(monkeypatch) -> None:
    """A long unit (a host function of an outlined file here, a `gpu.module` read whole) kept an op
    of its body at a time: the analysis thread is free between pieces (a keystroke waited seconds
    behind one unit's tokens), the answer unchanged."""
    text = generated("outlined", 600)
    monkeypatch.setattr(semantic_tokens, "FULL_BUDGET_S", float("inf"))
    every = semantic_tokens.semantic_tokens(Document("file:///a.mlir", text, 1).analysed())
    snap = Document("file:///b.mlir", text, 1).analysed()
    host = max((unit for unit in semantic_tokens.document_index(snap).units if unit.op.name == "func.func"), key=lambda u: u.range.end - u.range.start)
    monkeypatch.setattr(semantic_tokens, "CLIP_BYTES", (host.range.end - host.range.start) // 2)
    lexed: list[tuple[int, int]] = []
    tokenize = semantic_tokens.tokenize

    def counting(text, names, start, end, *args, **kwargs):
        if not kwargs.get("attr_mode"):  # a dictionary's inside is lexed apart
            lexed.append((start, end))
        return tokenize(text, names, start, end, *args, **kwargs)

    monkeypatch.setattr(semantic_tokens, "tokenize", counting)
    steps = 1
    while not semantic_tokens.keep_step(snap, 0.0):
        steps += 1
    inside = [span for span in lexed if host.range.start <= span[0] < host.range.end]
    body = host.op.regions[0].blocks[0].operations
    assert body[-1].name == "func.return" and len(inside) == len(body), "its head, then a piece per op but `return` (no dotted name)"
    assert steps > len(inside), "a step per piece"
    assert semantic_tokens.semantic_tokens(snap) == every


def test_corpus_files_cut_into_pieces_have_the_tokens_of_the_whole(monkeypatch) -> None:
    """Every unit lexed a piece (an op of its regions) at a time equals it lexed whole: both corpora,
    each file as written, reflowed (line breaks and indentation moved) and broken by typing."""
    from support.corpus import all_corpus_files
    from support.reflow import reflow
    from support.typing import typing_edits

    monkeypatch.setattr(semantic_tokens, "FULL_BUDGET_S", float("inf"))
    rng = random.Random(20)

    def tokens(text: str, clip: int) -> list[int]:
        monkeypatch.setattr(semantic_tokens, "CLIP_BYTES", clip)
        return semantic_tokens.semantic_tokens(Document("file:///a.mlir", text, 1).analysed())

    checked = 0
    for path in all_corpus_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        if len(text) > 60_000:
            continue
        typed = text
        for start, end, new in typing_edits(text, rng, 3):
            typed = typed[:start] + new + typed[end:]
        for variant in (text, reflow(text, rng, 0.3), typed):
            assert tokens(variant, 0) == tokens(variant, 1 << 30), path.name
            checked += 1
    assert checked > 300
