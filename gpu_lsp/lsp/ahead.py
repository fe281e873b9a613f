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


# What the open computes ahead once the text views are built, in this order (the outline, which
# VS Code asks for first and takes the longest, first): the outline and the folding ranges of the
# whole text, the semantic tokens and code lenses of its first screens parsed
# (`opening.FIRST_LINES`; the rest comes with the refresh once it is analysed).
AHEAD: dict[str, Callable[[Snapshot], wire.JsonText]] = {OUTLINE: outline, TOKENS: tokens, LENSES: lenses, FOLDING: folds}
