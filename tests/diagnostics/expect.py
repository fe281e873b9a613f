"""A small `-verify-diagnostics` harness: match `expected-*` annotations against gpu-lsp's diagnostics."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gpu_lsp.analysis import verify_chunk
from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.parser.api import parse
from gpu_lsp.text import LineIndex

ANNOTATION = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$"
)
KIND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "remark"}


@dataclass
class Expected:
    kind: str
    text: str
    regex: re.Pattern | None
    line: int | None  # 1-based line of the file; None for @unknown
    annotation_line: int
    matched: bool = False

    def matches(self, message: str) -> bool:
        return self.regex.search(message) is not None if self.regex else self.text in message


@dataclass
class Outcome:
    expected: list[Expected] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)

    @property
    def matched(self) -> int:
        return sum(e.matched for e in self.expected)


def _regex(text: str) -> re.Pattern:
    out, i = [], 0
    while i < len(text):
        j = text.find("{{", i)
        if j < 0:
            out.append(re.escape(text[i:]))
            break
        k = text.find("}}", j + 2)
        out.append(re.escape(text[i:j]) + "(" + text[j + 2 : k] + ")")
        i = k + 2
    return re.compile("".join(out))


def parse_expected(lines: list[str], first_line: int) -> list[Expected]:
    """Annotations of one chunk (`lines`, whose first line is file line `first_line`)."""
    out: list[Expected] = []
    last_plain = first_line
    pending: list[Expected] = []
    for i, raw in enumerate(lines):
        line = first_line + i
        m = ANNOTATION.search(raw.rstrip())
        if not m:
            for e in pending:
                e.line = line
            pending.clear()
            last_plain = line
            continue
        kind, is_re, _, where, text = m.groups()
        e = Expected(kind, text, _regex(text) if is_re else None, line, line)
        if where:
            if where[0] in "+-":
                e.line = line + int(where) if where[0] == "+" else line - int(where[1:])
            elif where == "unknown":
                e.line = None
            elif where == "above":
                e.line = last_plain
            else:
                pending.append(e)
        out.append(e)
    return out


def verify_file(text: str) -> Outcome:
    """Run every `// -----` chunk through `verify_chunk` and match its annotations."""
    parsed = parse(text, split=True)
    index = LineIndex(text)
    outcome = Outcome()
    for chunk in parsed.chunks:
        first = index.position(chunk.start)[0] + 1
        lines = text[chunk.start : chunk.end].split("\n")
        expected = parse_expected(lines, first)
        outcome.expected.extend(expected)
        for d in verify_chunk(chunk, text=text):
            _match(d, expected, outcome, index)
    return outcome


def _match(d: Diagnostic, expected: list[Expected], outcome: Outcome, index: LineIndex) -> None:
    kind = KIND.get(d.severity)
    if kind is None:
        return
    entries = [(kind, d.message, d.range.start)] + [("note", r.message, r.range.start) for r in d.related]
    for k, message, offset in entries:
        line = index.position(offset)[0] + 1
        for e in expected:
            if e.line == line and e.kind == k and e.matches(message):
                e.matched = True
                break
        else:
            outcome.unexpected.append(f"{line}: {k}: {message}")
