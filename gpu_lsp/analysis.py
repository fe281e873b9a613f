"""One entry point for analysing a buffer: parse, then every check, per chunk."""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.parser.api import Chunk, ParsedFile, parse


def verify_chunk(chunk: Chunk) -> list[Diagnostic]:
    """What `mlir-opt` would report for one chunk: parser errors, then verifier errors."""
    return sorted(chunk.diagnostics, key=Diagnostic.sort_key)


def analyze_text(text: str, split: bool = False) -> tuple[ParsedFile, list[Diagnostic]]:
    """Parse `text` and return the file with all its diagnostics, sorted."""
    parsed = parse(text, split)
    out: list[Diagnostic] = []
    for chunk in parsed.chunks:
        out.extend(verify_chunk(chunk))
    out.sort(key=Diagnostic.sort_key)
    return parsed, out
