"""One diagnostic's JSON text as the server publishes it (a template with `%d` for its line
numbers), standard library and diagnostics only: compiled in the compiled build, where the open of
a large file builds thousands of them after its range workers end."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import TypeGuard

from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Severity
from gpu_lsp.diagnostics.registry import code_tags
from gpu_lsp.lsp.rule_links import rule_link
from gpu_lsp.text import TextRange

SOURCE = "gpu-lint"
DATA_VERSION = 1
LSP_SEVERITY = {Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFO: 3, Severity.HINT: 4}
LSP_TAGS = {"unnecessary": 1, "deprecated": 2}


@functools.lru_cache(maxsize=4096)
def _string(text: str) -> str:
    """A JSON string literal (cached: a rule repeats its messages)."""
    return json.dumps(text)


@functools.lru_cache(maxsize=4096)
def quote(text: str) -> str:
    """A JSON string literal, safe inside a `%` template."""
    return _string(text).replace("%", "%%")


def fix_title(fix: Fix) -> str:
    """The title of a fix; unsafe ones say so (ruff's convention)."""
    if fix.applicability == Applicability.UNSAFE:
        return f"{fix.title} (unsafe)"
    return fix.title


def offers_fix(fix: Fix | None) -> TypeGuard[Fix]:
    return fix is not None and fix.applicability >= Applicability.UNSAFE and bool(fix.edits)


class _Template:
    """Builds one diagnostic's JSON with `%d` where line numbers go."""

    __slots__ = ("position", "base_line", "lines")

    def __init__(self, position: Callable[[int], tuple[int, int]], base_line: int) -> None:
        self.position = position
        self.base_line = base_line
        self.lines: list[int] = []

    def range(self, rng: TextRange) -> str:
        sl, sc = self.position(rng.start)
        el, ec = self.position(rng.end)
        self.lines.append(sl - self.base_line)
        self.lines.append(el - self.base_line)
        return '{"start":{"line":%d,"character":' + str(sc) + '},"end":{"line":%d,"character":' + str(ec) + "}}"


@functools.lru_cache(maxsize=1024)
def _code_parts(code: str, severity: Severity) -> tuple[str, tuple[str, ...]]:
    """What a diagnostic's JSON holds between its range and its message (the same for every
    diagnostic of a code at a severity), and the tags every diagnostic of the code carries."""
    out = [',"severity":', str(LSP_SEVERITY.get(severity, 1))]
    if code:
        out += [',"code":', _string(code)]
        link = rule_link(code)
        if link is not None:
            out += [',"codeDescription":{"href":', _string(link), "}"]
    out += [',"source":"', SOURCE, '","message":']
    return "".join(out), code_tags(code)


@functools.lru_cache(maxsize=1024)
def _head(code: str, severity: Severity) -> str:
    """`_code_parts`' JSON, safe inside a `%` template."""
    return _code_parts(code, severity)[0].replace("%", "%%")


def item_json(d: Diagnostic, severity: Severity, uri_json: str, locate: Callable[[int], tuple[int, int]]) -> str:
    """The JSON of `d` (`template`'s, its lines filled in); a diagnostic with no tags, notes or fix
    (most of them) is written out at once."""
    head, tags = _code_parts(d.code, severity)
    if d.tags or tags or d.related or d.fix is not None:
        text, lines = template(d, severity, 0, uri_json, locate)
        return text % lines
    sl, sc = locate(d.range.start)
    el, ec = locate(d.range.end)
    return (
        f'{{"range":{{"start":{{"line":{sl},"character":{sc}}},"end":{{"line":{el},"character":{ec}}}}}'
        f'{head}{_string(d.message)},"data":{{"v":{DATA_VERSION}}}}}'
    )


def template(
    d: Diagnostic, severity: Severity, base_line: int, uri_json: str, locate: Callable[[int], tuple[int, int]]
) -> tuple[str, tuple[int, ...]]:
    """The JSON of `d` with `%d` for line numbers, and those lines relative to `base_line`
    (`locate`: a line table's `locator` of the text)."""
    t = _Template(locate, base_line)
    out = ['{"range":', t.range(d.range), _head(d.code, severity), quote(d.message)]
    tags = _code_parts(d.code, severity)[1]
    if d.tags or tags:
        names = set(d.tags) | set(tags)
        numbers = [str(LSP_TAGS[tag]) for tag in sorted(names) if tag in LSP_TAGS]
        if numbers:
            out += [',"tags":[', ",".join(numbers), "]"]
    if d.related:
        related = [
            '{"location":{"uri":' + uri_json + ',"range":' + t.range(r.range) + '},"message":' + quote(r.message) + "}"
            for r in d.related
        ]
        out += [',"relatedInformation":[', ",".join(related), "]"]
    out += [',"data":{"v":', str(DATA_VERSION)]
    fix = d.fix
    if offers_fix(fix):
        edits = ['{"range":' + t.range(e.range) + ',"newText":' + quote(e.new_text) + "}" for e in fix.edits]
        safe = "true" if fix.applicability == Applicability.SAFE else "false"
        out += [',"fix":{"title":', quote(fix_title(fix)), ',"safe":', safe, ',"edits":[', ",".join(edits), "]}"]
    out.append("}}")
    return "".join(out), tuple(t.lines)
