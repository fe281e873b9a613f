"""The answers about a whole document that VS Code asks for at open (outline, folding ranges,
semantic tokens, code lenses), as JSON: what the server answers from a snapshot, and what the
open of a large document computes ahead, once, from its first part parsed and its text
(`Document.keep_answer`), so that the event loop answers them without waiting for the analysis
thread (which the open keeps busy, and where these answers take 0.3-4 s at 100k lines once
much of the document is parsed)."""

from __future__ import annotations

from collections.abc import Callable

from gpu_lsp.lsp import lit, wire
from gpu_lsp.lsp.actions import code_lenses
from gpu_lsp.lsp.document_symbols import document_symbols
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.folding import folding_ranges
from gpu_lsp.lsp.semantic_tokens import semantic_tokens

OUTLINE = "textDocument/documentSymbol"  # hierarchical: the one VS Code asks for
FOLDING = "textDocument/foldingRange"
TOKENS = "textDocument/semanticTokens/full"
LENSES = "textDocument/codeLens"


def outline(snap: Snapshot) -> wire.JsonText:
    """`DocumentSymbol[]`."""
    return wire.document_symbols(snap, document_symbols(snap), True)


def folds(snap: Snapshot) -> wire.JsonText:
    """`FoldingRange[]`."""
    return wire.folding_ranges(folding_ranges(snap))


def tokens(snap: Snapshot) -> wire.JsonText:
    """`SemanticTokens` of the whole document."""
    return wire.semantic_tokens(semantic_tokens(snap))


def lenses(snap: Snapshot) -> wire.JsonText:
    """`CodeLens[]`: the functions' and the lit test's."""
    return wire.code_lenses(snap, code_lenses(snap) + lit.code_lenses(snap))


# Computed from the part parsed, once it covers the first screens (`opening.FIRST_LINES`), before
# the text views (the rest of the document comes with the refresh once it is analysed).
FROM_PARSE: dict[str, Callable[[Snapshot], wire.JsonText]] = {TOKENS: tokens, LENSES: lenses}
# Computed once the text views are built (the rest of the document from its text).
FROM_TEXT: dict[str, Callable[[Snapshot], wire.JsonText]] = {OUTLINE: outline, FOLDING: folds}
AHEAD: dict[str, Callable[[Snapshot], wire.JsonText]] = {**FROM_PARSE, **FROM_TEXT}
