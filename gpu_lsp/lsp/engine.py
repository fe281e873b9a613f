"""The one place the editor features call the analysis core: parse, re-parse, diagnose."""

from __future__ import annotations

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.parser.api import ParsedFile, parse
from gpu_lsp.text import TextRange


def parse_document(text: str) -> ParsedFile:
    """A full parse; documents are always split at `// -----` like mlir-lsp-server does."""
    return parse(text, split=True)


def reparse_document(previous: ParsedFile, text: str, changed: TextRange) -> ParsedFile:
    """Re-parse after an edit of `changed` (a range of the previous text); consumes `previous`."""
    try:
        from gpu_lsp.parser.incremental import reparse
    except ImportError:
        return parse_document(text)
    return reparse(previous, text, changed)


def diagnose(parsed: ParsedFile, settings: object | None = None) -> list[Diagnostic]:
    """Every diagnostic of the file after suppression comments and `settings.select/ignore`, sorted."""
    return lint_parsed(parsed, settings)
