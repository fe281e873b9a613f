"""mlir-opt's `-verify-diagnostics`: match `expected-*` annotations against a chunk's diagnostics.

Follows MLIR's SourceMgrDiagnosticVerifierHandler: an annotation is
`expected-(error|warning|note|remark)[-re] [@+N|@-N|@above|@below|@unknown] {{text}}`
at the end of a line; it applies to its own line unless a designator moves it.
`@above` is the last line that is not an annotation, `@below` the next such
line. Plain text matches a substring of the message; with `-re`, `{{...}}`
parts inside the text are regular expressions and the rest is literal. A
diagnostic (or one of its notes) matches an expectation on the same line with
the same text and kind; one that matches only by text is a "near miss".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ANNOTATION = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$"
)

# POSIX bracket classes (llvm::Regex is POSIX ERE) in Python's dialect.
_POSIX_CLASSES = {
    "[:alpha:]": "a-zA-Z", "[:digit:]": "0-9", "[:alnum:]": "a-zA-Z0-9", "[:upper:]": "A-Z",
    "[:lower:]": "a-z", "[:space:]": r" \t\n\r\f\v", "[:blank:]": r" \t", "[:punct:]": r"!-/:-@\[-`{-~",
    "[:xdigit:]": "0-9A-Fa-f", "[:word:]": r"\w", "[:print:]": r" -~", "[:graph:]": r"!-~", "[:cntrl:]": r"\x00-\x1f\x7f",
}


def posix_to_python(pattern: str) -> str:
    """Rewrite POSIX `[[:alpha:]]`-style classes so Python's `re` reads them."""
    for posix, py in _POSIX_CLASSES.items():
        pattern = pattern.replace(posix, py)
    return pattern


def compile_expectation(text: str) -> re.Pattern:
    """A `-re` expectation: literal text with `{{regex}}` blocks; raises ValueError when malformed."""
    out: list[str] = []
    rest = text
    while rest:
        start = rest.find("{{")
        if start < 0:
            out.append(re.escape(rest))
            break
        out.append(re.escape(rest[:start]))
        rest = rest[start + 2 :]
        end = rest.find("}}")
        if end < 0:
            raise ValueError("found start of regex with no end '}}'")
        block = posix_to_python(rest[:end])
        try:
            re.compile(block)
        except re.error as exc:
            raise ValueError(f"invalid regex: {exc}") from None
        out.append("(" + block + ")")
        rest = rest[end + 2 :]
    return re.compile("".join(out))


@dataclass
class Expectation:
    """One `expected-*` annotation."""

    kind: str  # error | warning | note | remark
    text: str
    line: int | None  # 1-based file line it applies to; None for @unknown
    annot_line: int  # 1-based file line of the annotation
    annot_col: int  # 1-based column of `expected-`
    regex: re.Pattern | None = None
    matched: bool = False

    def matches(self, message: str) -> bool:
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.text in message


@dataclass
class VerifyProblem:
    """A verifier finding, reported as `FILE:LINE:COL: error: MESSAGE`."""

    line: int
    col: int
    message: str
    width: int = 0  # characters to underline after the caret


@dataclass
class Reported:
    """A diagnostic as the verifier sees it: kind, message and 1-based position (0, 0: unknown)."""

    kind: str
    message: str
    line: int
    col: int
    notes: list[Reported] = field(default_factory=list)


def parse_expectations(lines: list[str], first_line: int) -> tuple[list[Expectation], list[VerifyProblem]]:
    """Scan a chunk's lines (its first line is file line `first_line`)."""
    found: list[Expectation] = []
    problems: list[VerifyProblem] = []
    last_plain = 0  # chunk-relative 0-based index of the last line without an annotation
    below: list[Expectation] = []
    for idx, raw in enumerate(lines):
        m = ANNOTATION.search(raw.rstrip())
        if m is None:
            for e in below:
                e.line = first_line + idx
            below.clear()
            last_plain = idx
            continue
        kind, is_re, _, designator, text = m.groups()
        line_no = first_line + idx
        record = Expectation(kind, text, line_no, line_no, m.start() + 1)
        if is_re:
            try:
                record.regex = compile_expectation(text)
            except ValueError as exc:
                problems.append(VerifyProblem(line_no, m.start() + 1, str(exc), len(text)))
                continue
        if designator:
            if designator[0] in "+-":
                offset = int(designator[1:])
                record.line = line_no + offset if designator[0] == "+" else line_no - offset
            elif designator == "unknown":
                record.line = None
            elif designator == "above":
                record.line = first_line + last_plain
            else:
                below.append(record)
                record.line = first_line + len(lines) - 1
        found.append(record)
    return found, problems


def check(expectations: list[Expectation], diagnostics: list[Reported]) -> list[VerifyProblem]:
    """Match diagnostics (and their notes) against expectations; the mismatches, in MLIR's order."""
    problems: list[VerifyProblem] = []

    def process(d: Reported) -> None:
        near: Expectation | None = None
        located = d.line > 0
        for e in expectations:
            if located:
                if e.line != d.line:
                    continue
            elif e.line is not None:
                continue
            if e.matches(d.message):
                if e.kind == d.kind:
                    e.matched = True
                    return
                near = e
        if near is not None:
            problems.append(
                VerifyProblem(near.annot_line, near.annot_col, f"'{d.kind}' diagnostic emitted when expecting a '{near.kind}'")
            )
        else:
            problems.append(VerifyProblem(d.line, d.col, f"unexpected {d.kind}: {d.message}"))

    for d in diagnostics:
        process(d)
        for n in d.notes:
            process(n)
    for e in expectations:
        if not e.matched:
            problems.append(VerifyProblem(e.annot_line, e.annot_col, f'expected {e.kind} "{e.text}" was not produced', len(e.text)))
    return problems
