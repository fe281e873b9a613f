"""Diagnostics as text: a caret snippet (rustc/ruff style), one concise line each, or JSON objects."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix
from gpu_lsp.diagnostics.registry import get as get_rule
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


def _fix_marker(fix: Fix | None, level: Applicability) -> str:
    return " [*]" if fix is not None and fix.edits and fix.applicability >= level else ""


def emit_concise(out: TextIO, files: Iterable[FileDiagnostics], fix_level: Applicability = Applicability.SAFE) -> None:
    """`path:line:col: CODE message`, one line per diagnostic."""
    for f in files:
        index = LineIndex(f.text)
        for d in f.diagnostics:
            line, col = index.position(d.range.start)
            out.write(f"{f.display}:{line + 1}:{col + 1}: {d.code}{_fix_marker(d.fix, fix_level)} {d.message}\n")


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
    for f in files:
        index = LineIndex(f.text)
        for d in f.diagnostics:
            line, col = index.position(d.range.start)
            out.write(f"{d.severity.label}[{d.code}]: {d.message}\n")
            gutter = " " * len(str(min(len(index.starts), line + 2)))
            out.write(f"{gutter}--> {f.display}:{line + 1}:{col + 1}\n")
            for row in _snippet(index, d.range, d.code):
                out.write(row + "\n")
            for note in d.related:
                nline, ncol = index.position(note.range.start)
                out.write(f"{gutter} = note: {note.message} ({f.display}:{nline + 1}:{ncol + 1})\n")
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
        "edits": [
            {"content": e.new_text, "location": _position(index, e.range.start), "end_location": _position(index, e.range.end)}
            for e in sorted(fix.edits, key=lambda e: (e.range.start, e.range.end))
        ],
    }


def to_json(files: Iterable[FileDiagnostics]) -> list[dict]:
    """One object per diagnostic (ruff's JSON fields, plus severity and notes)."""
    out = []
    for f in files:
        index = LineIndex(f.text)
        for d in f.diagnostics:
            rule = get_rule(d.code)
            out.append(
                {
                    "code": d.code,
                    "message": d.message,
                    "severity": d.severity.label,
                    "filename": f.display,
                    "location": _position(index, d.range.start),
                    "end_location": _position(index, d.range.end),
                    "fix": fix_json(d.fix, index),
                    "url": rule.url if rule is not None else None,
                    "notes": [
                        {"message": r.message, "location": _position(index, r.range.start), "end_location": _position(index, r.range.end)}
                        for r in d.related
                    ],
                }
            )
    return out


def emit_json(out: TextIO, files: Iterable[FileDiagnostics], fix_level: Applicability = Applicability.SAFE) -> None:
    """A JSON list of diagnostic objects (see `to_json`)."""
    del fix_level
    json.dump(to_json(files), out, indent=2)
    out.write("\n")
