"""The one place the editor features call the analysis core: parse, re-parse, diagnose."""

from __future__ import annotations

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.parser.api import SPLIT_MARKER, ParsedFile
from gpu_lsp.parser.incremental import Progressive, SegmentedFile, parse_units, reparse_units
from gpu_lsp.text import TextRange

# Enough of `// -----` to tell whether a file may be split (split_ranges looks for this).
_MARKER = SPLIT_MARKER[:-2]


def parse_document(text: str) -> SegmentedFile:
    """A full parse, split at `// -----` like mlir-lsp-server does (a file without a marker is
    one chunk either way, and is parsed unsplit so that re-parses need not look for markers).
    Top-level ops are parsed one segment at a time, so that an error stays in its op."""
    return parse_units(text, split=_MARKER in text)


def start_document(text: str) -> Progressive:
    """`parse_document(text)` to be done a batch of top-level ops at a time."""
    return Progressive(text, split=_MARKER in text)


def reparse_document(previous: ParsedFile, text: str, changed: TextRange) -> ParsedFile:
    """Re-parse after an edit of `changed` (a range of the previous text); consumes `previous`."""
    delta = len(text) - len(previous.text)
    near = text[max(0, changed.start - len(_MARKER)) : changed.end + delta + len(_MARKER)]
    if (not previous.split and _MARKER in near) or not isinstance(previous, SegmentedFile):
        fresh = parse_document(text)  # the edit may have written a split marker
        fresh.replaced = len(previous.text)
        return fresh
    return reparse_units(previous, text, changed)


def replaced_by(parsed: ParsedFile) -> int:
    """How many code points of the previous parse `reparse_document` parsed anew to give `parsed`."""
    return parsed.replaced if isinstance(parsed, SegmentedFile) else len(parsed.text)


def diagnose(parsed: ParsedFile, settings: object | None = None) -> list[Diagnostic]:
    """Every diagnostic of the file after suppression comments and `settings.select/ignore`, sorted."""
    return lint_parsed(parsed, settings)
