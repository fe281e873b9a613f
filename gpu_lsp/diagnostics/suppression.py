"""`// gpu-lint: ignore[...]` and `// gpu-lint: ignore-file[...]`: reading, applying, reporting unused ones."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Severity
from gpu_lsp.diagnostics.registry import aliased, suppressible
from gpu_lsp.ir.core import Operation, source_start
from gpu_lsp.text import Edit, LineIndex, TextRange

UNUSED = "GPU901"
INVALID = "GPU902"

_DIRECTIVE = re.compile(r"^//\s*gpu-lint\s*:\s*(?P<kind>[A-Za-z-]*)\s*(?:\[(?P<codes>[^\]]*)\])?")
_CODE = re.compile(r"^GPU\d{0,3}$")


@dataclass
class Code:
    """One entry of a directive's code list, with where it is written."""

    text: str
    range: TextRange
    used: bool = False


@dataclass
class Directive:
    """One suppression comment and the text it covers."""

    file_level: bool
    comment: TextRange
    codes: list[Code]  # empty: every code
    covers: TextRange | None  # for a line directive: the offsets it applies to
    used: bool = False
    entries: tuple[str, ...] = field(default_factory=tuple)

    def match(self, d: Diagnostic) -> bool:
        if not self.file_level and (self.covers is None or not (self.covers.start <= d.range.start < self.covers.end)):
            return False
        if not self.codes:
            self.used = True
            return True
        hit = False
        for code in self.codes:
            if d.code.startswith(aliased(code.text)):
                code.used = True
                hit = True
        return hit


def _header_end(op: Operation) -> int:
    """End of an op's own text: up to its first region, or the whole op."""
    for region in op.regions:
        if region.span is not None:
            return region.span.range.start
    rng = op.range
    return rng.end if rng is not None else 0


def may_have_directives(comments: Iterable) -> bool:
    """Whether a suppression directive can be among `comments` (one names `gpu-lint`)."""
    return any("gpu-lint" in comment.text for comment in comments)


def read_directives(
    text: str, comments: Iterable, ops: list[Operation], lines: LineIndex
) -> tuple[list[Directive], list[Diagnostic]]:
    """The suppression comments of a file, and GPU902 for the ones that cannot be read.

    `ops` are the file's operations in text order (used to find "the next operation").
    """
    directives: list[Directive] = []
    problems: list[Diagnostic] = []
    starts: list[int] | None = None  # op starts, computed when a directive stands alone on its line
    for comment in comments:
        m = _DIRECTIVE.match(comment.text)
        if m is None:
            continue
        base = comment.range.start
        kind = m.group("kind")
        if kind not in ("ignore", "ignore-file"):
            problems.append(
                Diagnostic(
                    INVALID,
                    f"`{kind or '(none)'}` is not a gpu-lint directive; use `ignore[...]` or `ignore-file[...]`",
                    comment.range,
                    Severity.WARNING,
                )
            )
            continue
        codes: list[Code] = []
        bad = False
        if m.group("codes") is not None:
            offset = base + m.start("codes")
            for piece in re.finditer(r"[^,\s]+", m.group("codes")):
                entry = piece.group(0)
                rng = TextRange(offset + piece.start(), offset + piece.end())
                if not _CODE.match(entry.upper()):
                    problems.append(
                        Diagnostic(INVALID, f"`{entry}` is not a rule code or code prefix (such as `GPU2` or `GPU201`)", rng, Severity.WARNING)
                    )
                    bad = True
                    continue
                codes.append(Code(entry.upper(), rng))
            if not codes and bad:
                continue
        file_level = kind == "ignore-file"
        covers = None
        if not file_level:
            line, _ = lines.position(comment.range.start)
            line_start = lines.starts[line]
            if text[line_start : comment.range.start].strip():
                line_end = line_start + len(lines.line_text(line))
                covers = TextRange(line_start, line_end + 1)
            else:
                if starts is None:
                    starts = [source_start(op, 0) for op in ops]
                i = bisect_right(starts, comment.range.end)
                if i < len(ops):
                    op = ops[i]
                    covers = TextRange(starts[i], max(starts[i] + 1, _header_end(op)))
        directives.append(Directive(file_level, comment.range, codes, covers))
    return directives, problems


def apply(
    diagnostics: list[Diagnostic], directives: list[Directive]
) -> list[Diagnostic]:
    """The diagnostics no directive suppresses (marking which directives were used)."""
    if not directives:
        return diagnostics
    kept = []
    for d in diagnostics:
        if not suppressible(d.code):
            kept.append(d)
            continue
        suppressed = False
        for directive in directives:
            if directive.match(d):
                suppressed = True
        if not suppressed:
            kept.append(d)
    return kept


def unused(
    text: str, directives: list[Directive], enabled: Callable[[str], bool], known_codes: Iterable[str]
) -> list[Diagnostic]:
    """GPU901 for each directive entry that suppressed nothing (codes that are disabled are not reported)."""
    if not enabled(UNUSED):
        return []
    codes = list(known_codes)
    out: list[Diagnostic] = []
    for directive in directives:
        if not directive.codes:
            if not directive.used:
                out.append(
                    Diagnostic(
                        UNUSED,
                        "this suppression is unused: nothing is reported where it applies",
                        directive.comment,
                        Severity.WARNING,
                        _remove_comment(text, directive.comment),
                    )
                )
            continue
        stale = [c for c in directive.codes if not c.used and any(k.startswith(aliased(c.text)) and enabled(k) for k in codes)]
        if not stale:
            continue
        for code in stale:
            if len(stale) == len(directive.codes):
                edit_fix = _remove_comment(text, directive.comment)
            else:
                edit_fix = _remove_code(text, code)
            out.append(
                Diagnostic(
                    UNUSED,
                    f"the suppression of `{code.text}` is unused: nothing reports `{code.text}` where it applies",
                    code.range,
                    Severity.WARNING,
                    edit_fix,
                )
            )
    return out


def _remove_comment(text: str, comment: TextRange) -> Fix:
    start = comment.start
    line_start = text.rfind("\n", 0, start) + 1
    end = comment.end
    if text[line_start:start].strip() == "":
        stop = end + 1 if end < len(text) and text[end] == "\n" else end
        return Fix("Remove the unused suppression comment", (Edit(TextRange(line_start, stop), ""),), Applicability.SAFE)
    while start > line_start and text[start - 1] in " \t":
        start -= 1
    return Fix("Remove the unused suppression comment", (Edit(TextRange(start, end), ""),), Applicability.SAFE)


def _remove_code(text: str, code: Code) -> Fix:
    start, end = code.range.start, code.range.end
    # take the separating comma with it: the one after, or else the one before
    j = end
    while j < len(text) and text[j] in " \t":
        j += 1
    if j < len(text) and text[j] == ",":
        j += 1
        while j < len(text) and text[j] in " \t":
            j += 1
        rng = TextRange(start, j)
    else:
        i = start
        while i > 0 and text[i - 1] in " \t":
            i -= 1
        if i > 0 and text[i - 1] == ",":
            i -= 1
        rng = TextRange(i, end)
    return Fix(f"Remove `{code.text}` from the suppression", (Edit(rng, ""),), Applicability.SAFE)
