"""The answers about a whole document that VS Code asks for at open (outline, folding ranges,
semantic tokens, code lenses; the inlay hints of the lines it shows), as JSON: what the server
answers from a snapshot, and what the open of a large document computes ahead, once, from its
first part parsed and its text (`Document.keep_answer`), so that the event loop answers them
without waiting for the analysis thread (which the open keeps busy, and where these answers take
0.3-4 s at 100k lines once much of the document is parsed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gpu_lsp.lsp import lit, wire
from gpu_lsp.lsp.actions import code_lenses
from gpu_lsp.lsp.convert import inlay_hint_json
from gpu_lsp.lsp.document_symbols import document_symbols
from gpu_lsp.lsp.documents import EARLY_ANSWERS, PARTIAL_TOKENS, Document, Snapshot
from gpu_lsp.lsp.folding import folding_ranges
from gpu_lsp.lsp.hints import inlay_hints
from gpu_lsp.lsp.semantic_tokens import WHOLE, encoded

OUTLINE = "textDocument/documentSymbol"  # hierarchical: the one VS Code asks for
FOLDING = "textDocument/foldingRange"
TOKENS = "textDocument/semanticTokens/full"
LENSES = "textDocument/codeLens"
HINTS = "textDocument/inlayHint"  # a range request: answered from `KeptHints.within`


def outline(snap: Snapshot) -> wire.JsonText:
    """`DocumentSymbol[]`."""
    return wire.document_symbols(snap, document_symbols(snap), True)


def folds(snap: Snapshot) -> wire.JsonText:
    """`FoldingRange[]`."""
    return wire.folding_ranges(folding_ranges(snap))


def tokens(snap: Snapshot) -> wire.JsonText:
    """`SemanticTokens` of the whole document."""
    return encoded(snap)


def tokens_now(doc: Document) -> wire.JsonText | None:
    """The semantic tokens of an analysed document that need no analysis thread: all of them once
    kept (`semantic_tokens.keep_step`), else those its open kept (`documents.EARLY_ANSWERS`; the
    client is then asked to refresh them once all are kept); None otherwise."""
    snap = doc.snapshot
    if snap is None or snap.text is not doc.text:
        return None
    whole = snap.cache.get(WHOLE)
    if whole is not None:
        return whole
    early = snap.cache.get(EARLY_ANSWERS, {}).get(TOKENS)
    if early is not None:
        snap.cache[PARTIAL_TOKENS] = True
    return early


def lenses(snap: Snapshot) -> wire.JsonText:
    """`CodeLens[]`: the functions' and the lit test's."""
    return wire.code_lenses(snap, code_lenses(snap) + lit.code_lenses(snap))


@dataclass(frozen=True)
class KeptHints:
    """The inlay hints of the part parsed of a document being opened, for the range requests
    within it (VS Code asks for those of the lines it shows)."""

    covered: tuple[int, int]  # the LSP position (line, character) up to which every hint is known
    hints: tuple[tuple[tuple[int, int], str], ...]  # each hint's LSP position and JSON, in order

    def within(self, start: tuple[int, int], end: tuple[int, int]) -> wire.JsonText | None:
        """`InlayHint[]` of `[start, end]` (LSP positions); None when it reaches past `covered`."""
        if end > self.covered:
            return None
        return wire.JsonText("[" + ",".join(text for at, text in self.hints if start <= at <= end) + "]")


def hints(snap: Snapshot) -> KeptHints:
    """The inlay hints of the part of `snap` parsed (`Snapshot.parsed_to`: all of it once analysed)."""
    end = len(snap.text) if snap.parsed_to is None else snap.parsed_to
    return KeptHints(snap.position(end), tuple(inlay_hint_json(snap, hint) for hint in inlay_hints(snap, 0, end)))


# Computed from the part parsed, once it covers the first screens (`documents.FIRST_LINES`), before
# the text views (the rest of the document comes with the refresh once it is analysed).
FROM_PARSE: dict[str, Callable[[Snapshot], wire.JsonText | KeptHints]] = {TOKENS: tokens, LENSES: lenses, HINTS: hints}
# Computed once the text views are built (the rest of the document from its text).
FROM_TEXT: dict[str, Callable[[Snapshot], wire.JsonText]] = {OUTLINE: outline, FOLDING: folds}
AHEAD: dict[str, Callable[[Snapshot], wire.JsonText | KeptHints]] = {**FROM_PARSE, **FROM_TEXT}
