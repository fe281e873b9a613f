"""Diagnostics as text: a caret snippet (rustc/ruff style), one concise line each, or JSON objects."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix
from gpu_lsp.diagnostics.registry import rule_url
from gpu_lsp.text import LineIndex, TextRange

APPLICABILITY = {Applicability.SAFE: "safe", Applicability.UNSAFE: "unsafe", Applicability.DISPLAY_ONLY: "display-only"}


@dataclass
class FileDiagnostics:
    """What the emitters need of one file: a name to show, its text, its diagnostics (sorted)."""

    display: str
    text: str
    diagnostics: list[Diagnostic]


def _position(index: LineIndex, offset: int) -> dict:
    line, column = index.position(offset)
    return {"row": line + 1, "column": column + 1}


def _span(index: LineIndex, rng: TextRange) -> dict:
    """A range as JSON's `location` and `end_location` (1-based rows and columns)."""
    return {"location": _position(index, rng.start), "end_location": _position(index, rng.end)}


def _each(files: Iterable[FileDiagnostics]) -> Iterator[tuple[FileDiagnostics, LineIndex, Diagnostic]]:
    """Every diagnostic of every file, with its file and the file's line index."""
    for f in files:
        index = LineIndex(f.text)
        for d in f.diagnostics:
            yield f, index, d


def _location(display: str, index: LineIndex, offset: int) -> str:
    """`path:line:column`, both counted from 1."""
    line, column = index.position(offset)
    return f"{display}:{line + 1}:{column + 1}"


def _fix_marker(fix: Fix | None, level: Applicability) -> str:
    return " [*]" if fix is not None and fix.edits and fix.applicability >= level else ""


def emit_concise(out: TextIO, files: Iterable[FileDiagnostics], fix_level: Applicability = Applicability.SAFE) -> None:
    """`path:line:col: CODE message`, one line per diagnostic."""
    for f, index, d in _each(files):
        out.write(f"{_location(f.display, index, d.range.start)}: {d.code}{_fix_marker(d.fix, fix_level)} {d.message}\n")


def _snippet(index: LineIndex, rng: TextRange, label: str) -> list[str]:
    """Source lines around `rng` with carets under it (only the first line of a multi-line range)."""
    line, col = index.position(rng.start)
    end_line, end_col = index.position(max(rng.start, rng.end))
    source = index.line_text(line).expandtabs(1)
    width = max(1, (end_col if end_line == line else len(source)) - col)
    first = max(0, line - 1)
    last = min(len(index.starts) - 1, line + 1)
    gutter = len(str(last + 1))
    pad = " " * gutter
    rows = [f"{pad} |"]
    for n in range(first, last + 1):
        text = index.line_text(n).expandtabs(1).rstrip()
        rows.append(f"{str(n + 1).rjust(gutter)} | {text}".rstrip())
        if n == line:
            rows.append(f"{pad} | {' ' * col}{'^' * width} {label}".rstrip())
    rows.append(f"{pad} |")
    return rows


def emit_text(out: TextIO, files: Iterable[FileDiagnostics], fix_level: Applicability = Applicability.SAFE) -> None:
    """rustc-style reports: `severity[CODE]: message`, the location, a caret snippet, notes and the fix."""
    for f, index, d in _each(files):
        line = index.position(d.range.start)[0]
        out.write(f"{d.severity.label}[{d.code}]: {d.message}\n")
        gutter = " " * len(str(min(len(index.starts), line + 2)))
        out.write(f"{gutter}--> {_location(f.display, index, d.range.start)}\n")
        for row in _snippet(index, d.range, d.code):
            out.write(row + "\n")
        for note in d.related:
            out.write(f"{gutter} = note: {note.message} ({_location(f.display, index, note.range.start)})\n")
        if d.fix is not None:
            kind = APPLICABILITY[d.fix.applicability]
            star = "" if d.fix.applicability >= fix_level else " (not applied by --fix)"
            out.write(f"{gutter} = help: {d.fix.title} [{kind} fix]{star}\n")
        out.write("\n")


def fix_json(fix: Fix | None, index: LineIndex) -> dict | None:
    if fix is None:
        return None
    return {
        "applicability": APPLICABILITY[fix.applicability],
        "message": fix.title,
        "edits": [{"content": e.new_text, **_span(index, e.range)} for e in sorted(fix.edits, key=lambda e: (e.range.start, e.range.end))],
    }


def to_json(files: Iterable[FileDiagnostics], docs_url: str = "") -> list[dict]:
    """One object per diagnostic (ruff's JSON fields, plus severity and notes); `url` is null without a `docs_url`."""
    out = []
    for f, index, d in _each(files):
        out.append(
            {
                "code": d.code,
                "message": d.message,
                "severity": d.severity.label,
                "filename": f.display,
                **_span(index, d.range),
                "fix": fix_json(d.fix, index),
                "url": rule_url(d.code, docs_url),
                "notes": [{"message": r.message, **_span(index, r.range)} for r in d.related],
            }
        )
    return out


def emit_json(out: TextIO, files: Iterable[FileDiagnostics], docs_url: str = "") -> None:
    """A JSON list of diagnostic objects (see `to_json`)."""
    json.dump(to_json(files, docs_url), out, indent=2)
    out.write("\n")
