"""Requests about a whole document while it is opened: the outline and the folding ranges of
the whole text (the part parsed, then the text alone), semantic tokens of the first units, range
requests parsed as far as their range, all equal to what the analysed document gives."""

from __future__ import annotations

import itertools
import json

import pytest
from lsp_samples import lsp_inlay_hint
from support.typing import generated

from gpu_lsp.lsp import ahead, documents, semantic_tokens, wire
from gpu_lsp.lsp.document_symbols import SymbolNode, document_symbols, text_outline
from gpu_lsp.lsp.documents import FIRST_LINES, Document, Phase
from gpu_lsp.lsp.folding import folding_ranges
from gpu_lsp.lsp.hints import inlay_hints
from gpu_lsp.lsp.opening import answer_during_open, open_step
from gpu_lsp.lsp.skeleton import brace_pairs


@pytest.fixture
def small_progressive(monkeypatch):
    monkeypatch.setattr(documents, "PROGRESSIVE_SIZE", 1000)
    # A few segments per step, whatever the machine's speed (a quiet one parses 64 in its 20 ms).
    monkeypatch.setattr(documents, "STEP_SEGMENTS", 2)


def _flat(nodes: list[SymbolNode], depth: int = 0) -> list[tuple]:
    out = []
    for n in nodes:
        out.append((depth, n.name, n.kind, n.range, n.selection, n.detail))
        out.extend(_flat(n.children, depth + 1))
    return out


@pytest.mark.parametrize("mode", ["inline", "outlined"])
def test_the_outline_of_the_text_alone_is_the_outline_of_its_parse(mode: str) -> None:
    text = generated(mode, 300)
    analysed = Document("file:///a.mlir", text, 1).analysed()
    assert _flat(text_outline(text, 0, len(text))) == _flat(document_symbols(analysed))


def test_braces_in_comments_and_strings_are_not_regions() -> None:
    text = 'func.func @f() {\n  // not a region {\n  %s = "x.op"() {note = "}{"} : () -> ()\n  return\n}\n'
    pairs = brace_pairs(text, 0, len(text))
    assert pairs == {text.index("{"): text.rindex("}"), text.index("{note"): text.index('"} :') + 1}


def test_a_string_ending_in_an_escaped_quote_is_still_open() -> None:
    # `"\"}"` holds a `}`; `"a\\"` is closed, so the `}` after it is a brace.
    text = (
        'func.func @f() {\n  "x.op"() {note = "\\"}"} : () -> ()\n  return\n}\n'
        'func.func @g() {\n  "x.op"() {note = "a\\\\"} : () -> ()\n  return\n}\n'
    )
    f_body, g_body = text.index("{"), text.index("{", text.index("@g"))
    f_attr, g_attr = text.index("{note"), text.index("{note", g_body)
    pairs = brace_pairs(text, 0, len(text))
    assert pairs == {
        f_body: text.index("}\nfunc.func @g"),
        f_attr: text.index('"} :') + 1,
        g_body: text.rindex("}"),
        g_attr: text.index('"} :', g_attr) + 1,
    }
    analysed = Document("file:///a.mlir", text, 1).analysed()
    assert _flat(text_outline(text, 0, len(text))) == _flat(document_symbols(analysed))


def test_the_two_text_views_of_a_slice_share_its_brace_scan() -> None:
    """The open extends its outline and its folding ranges over the same slice one after the other."""
    text = generated("inline", 300)
    half = text.index("func.func", len(text) // 2)
    first = brace_pairs(text, 0, half)
    assert brace_pairs(text, 0, half) is first
    rest = brace_pairs(text, half, len(text))
    assert rest is not first and rest == brace_pairs(text + " ", half, len(text)), "a new text is scanned anew"
    assert first | rest == brace_pairs(text + " ", 0, len(text)), "the cut is between two top-level ops"


def test_whole_document_requests_during_the_open_answer_like_the_analysed_document(small_progressive, monkeypatch) -> None:
    monkeypatch.setattr(semantic_tokens, "FULL_BUDGET_S", float("inf"))  # the analysed document's tokens: all of them, however loaded the machine
    text = generated("inline", 600)
    doc = Document("file:///large.mlir", text, 1)
    assert doc.opening_view() is not None
    for _ in range(3):  # the text views, then a step of the parse
        open_step(doc)
    view = doc.opening_view()
    assert view is not None and 0 < view.parsed_to < len(text)
    early_symbols, early_folds = _flat(document_symbols(view)), folding_ranges(view)
    early_tokens = semantic_tokens.semantic_tokens(view)
    assert doc.take_early_answers() and not doc.take_early_answers(), "asked once: refreshed once"
    last_line = text.count("\n", 0, len(text) - 1)
    ranged = doc.opening_view((last_line - 5, 0))
    assert ranged is not None and ranged.parsed_to > ranged.offset(last_line - 5, 0), "parsed as far as the range"
    start, end = ranged.offset(last_line - 40, 0), ranged.offset(last_line - 5, 0)
    early_hints = inlay_hints(ranged, start, end)
    analysed = doc.analysed()
    assert early_symbols == _flat(document_symbols(analysed))
    assert early_folds == folding_ranges(analysed)
    assert early_hints and early_hints == inlay_hints(analysed, start, end)
    full = semantic_tokens.semantic_tokens(analysed)
    assert 0 < len(early_tokens) < len(full) and full[: len(early_tokens)] == early_tokens, "the first units' tokens"
    assert doc.opening_view() is None, "an analysed document answers from its snapshot"


def test_the_first_step_of_an_open_parses_its_first_screens() -> None:
    """What the open answers from first; the rest of its parse waits while range workers run."""
    text = generated("inline", 20_000)
    doc = Document("file:///large.mlir", text, 1)
    while (view := doc.partial) is None or view.position(view.parsed_to)[0] < FIRST_LINES:
        open_step(doc)  # (a step's time budget may stop it sooner)
    assert view.position(view.parsed_to)[0] < 2 * FIRST_LINES, "not further"


def test_the_tokens_of_an_open_cover_its_first_screens(monkeypatch) -> None:
    """Beyond the first screens they would take the budget's time on a core the range workers need."""
    monkeypatch.setattr(semantic_tokens, "OPENING_BUDGET_S", float("inf"))
    text = generated("inline", 20_000)
    doc = Document("file:///large.mlir", text, 1)
    while (view := doc.opening_view()) is None or view.position(view.parsed_to)[0] < 4 * FIRST_LINES:
        open_step(doc)
    tokens = semantic_tokens.semantic_tokens(view)
    lines = list(itertools.accumulate(tokens[0::5]))  # each token's line (relative encoding)
    assert FIRST_LINES - 5 <= lines[-1] < 2 * FIRST_LINES, "the units on the first screens"


def test_the_tokens_of_an_open_take_a_bounded_time(small_progressive, monkeypatch) -> None:
    monkeypatch.setattr(semantic_tokens, "OPENING_BUDGET_S", 0.0)  # one unit, then the budget is spent
    text = generated("inline", 400)
    doc = Document("file:///large.mlir", text, 1)
    while not doc.analyse_step():
        pass
    view = doc.opening_view()
    assert view is not None and view.parsed_to == len(text)
    one = semantic_tokens.semantic_tokens(view)
    assert 0 < len(one) < len(semantic_tokens.semantic_tokens(doc.analysed())) / 10


def test_a_document_goes_from_opening_to_usable_to_settled(small_progressive) -> None:
    text = generated("inline", 200)
    doc = Document("file:///large.mlir", text, 1)
    assert doc.phase is Phase.OPENING
    open_step(doc)
    assert doc.phase is Phase.OPENING and doc.opening_view() is not None
    doc.analysed()
    assert doc.phase is Phase.SETTLED and doc.opening_view() is None
    at = text.index("arith.constant 32") + len("arith.constant 3")
    doc.replace(at, at + 1, "7", 2)
    assert doc.phase is Phase.USABLE, "edited, not analysed yet"
    assert not doc.analysed().complete and doc.phase is Phase.USABLE, "a quick lint"
    doc.settle()
    assert doc.phase is Phase.SETTLED


def test_the_answers_computed_ahead_are_those_of_the_text_and_only_while_it_is_opened(small_progressive, monkeypatch) -> None:
    monkeypatch.setattr(semantic_tokens, "FULL_BUDGET_S", 60.0)  # the analysed document's tokens: all of them
    text = generated("inline", 600)
    doc = Document("file:///large.mlir", text, 1)
    while len(doc.kept_answers()) < len(ahead.AHEAD):
        assert not open_step(doc)
    assert doc.partial is not None and doc.partial.parsed_to < len(text), "before the parse goes on"
    kept = {method: doc.answer_ahead(method) for method in ahead.AHEAD}
    assert doc.take_early_answers(), "answered from a part of the open: refreshed once analysed"
    open_step(doc)
    assert doc.answer_ahead(ahead.OUTLINE) is kept[ahead.OUTLINE], "kept while the parse goes on"
    analysed = doc.analysed()
    assert doc.answer_ahead(ahead.OUTLINE) is None and doc.kept_answers() == [], "the analysed document answers"
    assert kept[ahead.OUTLINE] == ahead.outline(analysed)
    assert kept[ahead.FOLDING] == ahead.folds(analysed)
    early_tokens, tokens = json.loads(kept[ahead.TOKENS].text)["data"], json.loads(ahead.tokens(analysed).text)["data"]
    assert 0 < len(early_tokens) < len(tokens) and tokens[: len(early_tokens)] == early_tokens, "the first units' tokens"
    early_lenses, lenses = json.loads(kept[ahead.LENSES].text), json.loads(ahead.lenses(analysed).text)
    assert 0 < len(early_lenses) < len(lenses) and lenses[: len(early_lenses)] == early_lenses, "the lenses of the part parsed"


def test_an_answer_computed_ahead_that_raises_leaves_the_open_going(small_progressive, monkeypatch, caplog) -> None:
    """A failure in what the open computes ahead is logged and its request answered when asked:
    the open still ends (it raised again at every step, and the document never got diagnostics)."""

    def broken(snap: documents.Snapshot) -> wire.JsonText:
        raise RuntimeError("broken lenses")

    monkeypatch.setitem(ahead.FROM_PARSE, ahead.LENSES, broken)
    text = generated("inline", 400)
    doc = Document("file:///large.mlir", text, 1)
    with caplog.at_level("ERROR"):
        steps = 0
        while not open_step(doc):
            steps += 1
            assert steps < 10_000
    assert "the answer to textDocument/codeLens computed ahead during the open failed" in caplog.text
    assert doc.answer_ahead(ahead.LENSES) is None
    assert doc.analysed().diagnostics == Document("file:///same.mlir", text, 1).analysed().diagnostics


def test_an_edit_drops_the_answers_computed_ahead(small_progressive) -> None:
    text = generated("inline", 400)
    doc = Document("file:///large.mlir", text, 1)
    while len(doc.kept_answers()) < len(ahead.AHEAD):
        assert not open_step(doc)
    at = text.index("func.func @fn1")
    doc.replace(at, at, "// a comment\n", 2)
    assert doc.kept_answers() == [] and all(doc.answer_ahead(method) is None for method in ahead.AHEAD)


def test_a_request_before_the_answers_are_ready_takes_the_open_up_to_its_own(small_progressive) -> None:
    text = generated("inline", 600)
    doc = Document("file:///large.mlir", text, 1)
    outline, more = answer_during_open(doc, ahead.OUTLINE, lambda: False)
    assert outline is not None and not more
    assert doc.kept_answers() == [*ahead.FROM_PARSE, ahead.OUTLINE], "the open's steps up to the outline, no further"
    assert doc.partial is not None and doc.partial.parsed_to < len(text)
    assert answer_during_open(doc, ahead.FOLDING, lambda: True) == (None, True), "stopped before the folds: more steps give them"
    assert answer_during_open(doc, ahead.OUTLINE, lambda: True) == (outline, False)
    assert outline == ahead.outline(doc.analysed())
    assert answer_during_open(doc, ahead.OUTLINE, lambda: False) == (None, False), "analysed: answered from the snapshot"
    small = Document("file:///small.mlir", generated("inline", 10), 1)
    assert answer_during_open(small, ahead.OUTLINE, lambda: False) == (None, False), "not opened a step at a time"
    assert small.phase is Phase.OPENING


def test_quoted_symbol_names_with_escaped_quotes_are_read_whole() -> None:
    text = (
        "module attributes {gpu.container_module} {\n"
        'gpu.module @"k\\"s" {\n  gpu.func @"a\\"b"() kernel {\n    gpu.return\n  }\n}\n'
        "func.func @host() {\n  %c1 = arith.constant 1 : index\n"
        '  gpu.launch_func @"k\\"s"::@"a\\"b" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)\n'
        "  return\n}\n}\n"
    )
    analysed = Document("file:///a.mlir", text, 1).analysed()
    assert not analysed.diagnostics
    outline = _flat(text_outline(text, 0, len(text)))
    assert outline == _flat(document_symbols(analysed))
    assert [name for _, name, *_ in outline][1:3] == ['k"s', 'a"b']


def test_the_inlay_hints_of_the_part_parsed_first_are_kept_for_the_ranges_within_it(small_progressive) -> None:
    text = generated("inline", 600)
    doc = Document("file:///large.mlir", text, 1)
    hints, more = answer_during_open(doc, ahead.HINTS, lambda: False)
    assert isinstance(hints, ahead.KeptHints) and not more
    assert doc.partial is not None and doc.partial.parsed_to < len(text), "kept before the parse goes on"
    assert hints.covered == doc.partial.position(doc.partial.parsed_to) and hints.covered[0] >= FIRST_LINES
    assert hints.within((0, 0), (hints.covered[0] + 1, 0)) is None, "a range past the part parsed is not answered from it"
    analysed = doc.analysed()
    for start, end in (((0, 0), (100, 0)), ((37, 9), (FIRST_LINES - 1, 4)), (hints.covered, hints.covered)):
        kept = hints.within(start, end)
        assert kept is not None
        expected = inlay_hints(analysed, analysed.offset(*start), analysed.offset(*end))
        assert json.loads(kept.text) == [lsp_inlay_hint(analysed, h) for h in expected]
    assert json.loads(hints.within((0, 0), (100, 0)).text), "the first screen has hints"


def test_an_analysed_document_answers_its_tokens_from_what_is_kept_without_the_analysis_thread(small_progressive) -> None:
    text = generated("inline", 600)
    doc = Document("file:///large.mlir", text, 1)
    while len(doc.kept_answers()) < len(ahead.AHEAD):
        assert not open_step(doc)
    early = doc.answer_ahead(ahead.TOKENS)
    snap = doc.analysed()
    while not semantic_tokens.keep_step(snap, 0.0):
        assert ahead.tokens_now(doc) is early, "the open's tokens while the analysed document's are kept"
    assert snap.cache.pop(documents.PARTIAL_TOKENS), "to be refreshed once all are kept"
    every = ahead.tokens_now(doc)
    assert every is not None and every != early and every == wire.semantic_tokens(semantic_tokens.semantic_tokens(snap))
    assert documents.PARTIAL_TOKENS not in snap.cache, "all of them: nothing to refresh"
    doc.replace(0, 0, "// edited\n", 2)
    assert ahead.tokens_now(doc) is None, "an edited document's tokens come from its next analysis"
    assert ahead.tokens_now(Document("file:///small.mlir", generated("inline", 10), 1)) is None, "not analysed yet"
