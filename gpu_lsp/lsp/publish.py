"""The publishDiagnostics payload as JSON text, built per unit and reused while a unit is unchanged.

Each diagnostic of a unit becomes a JSON template whose line numbers are relative to the
unit's first line; an edit elsewhere only moves the unit, so publishing it again is one
`%` formatting per diagnostic (no conversion, no serialisation library). Diagnostics carry
the LSP fields of `convert.diagnostic`: code, codeDescription, source, severity, tags,
relatedInformation, and their fix in `data` (ruff's approach: code actions never
re-analyse).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable

from gpu_lsp.diagnostics.model import MAX_DIAGNOSTICS, Applicability, Diagnostic, Severity
from gpu_lsp.diagnostics.registry import code_tags
from gpu_lsp.lsp import actions as A
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.lint_cache import Part
from gpu_lsp.lsp.rule_links import rule_link
from gpu_lsp.text import TextRange

SOURCE = "gpu-lint"
DATA_VERSION = 1
LSP_SEVERITY = {Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFO: 3, Severity.HINT: 4}
LSP_TAGS = {"unnecessary": 1, "deprecated": 2}


@functools.lru_cache(maxsize=4096)
def _quote(text: str) -> str:
    """A JSON string literal, safe inside a `%` template (cached: a rule repeats its messages)."""
    return json.dumps(text).replace("%", "%%")


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
def _head(code: str, severity: Severity) -> str:
    """What a diagnostic's JSON holds between its range and its message: the same for every
    diagnostic of a code at a severity."""
    out = [',"severity":', str(LSP_SEVERITY.get(severity, 1))]
    if code:
        out += [',"code":', _quote(code)]
        link = rule_link(code)
        if link is not None:
            out += [',"codeDescription":{"href":', _quote(link), "}"]
    out += [',"source":"', SOURCE, '","message":']
    return "".join(out)


def template(
    snap: Snapshot, d: Diagnostic, severity: Severity, base_line: int, uri_json: str, locate: Callable[[int], tuple[int, int]] | None = None
) -> tuple[str, tuple[int, ...]]:
    """The JSON of `d` with `%d` for line numbers, and those lines relative to `base_line`
    (`locate`: `snap.locator()`, where the caller has it for many diagnostics)."""
    t = _Template(snap.locator() if locate is None else locate, base_line)
    out = ['{"range":', t.range(d.range), _head(d.code, severity), _quote(d.message)]
    tags = code_tags(d.code)
    if d.tags or tags:
        names = set(d.tags) | set(tags)
        numbers = [str(LSP_TAGS[tag]) for tag in sorted(names) if tag in LSP_TAGS]
        if numbers:
            out += [',"tags":[', ",".join(numbers), "]"]
    if d.related:
        related = [
            '{"location":{"uri":' + uri_json + ',"range":' + t.range(r.range) + '},"message":' + _quote(r.message) + "}"
            for r in d.related
        ]
        out += [',"relatedInformation":[', ",".join(related), "]"]
    out += [',"data":{"v":', str(DATA_VERSION)]
    fix = d.fix
    if A.offers_fix(fix):
        edits = ['{"range":' + t.range(e.range) + ',"newText":' + _quote(e.new_text) + "}" for e in fix.edits]
        safe = "true" if fix.applicability == Applicability.SAFE else "false"
        out += [',"fix":{"title":', _quote(A.fix_title(fix)), ',"safe":', safe, ',"edits":[', ",".join(edits), "]}"]
    out.append("}}")
    return "".join(out), tuple(t.lines)


class SeverityOverrides:
    """The user's `gpuLsp.lint.severity` (code prefix -> severity, longest prefix wins)."""

    def __init__(self, overrides: dict[str, Severity]) -> None:
        self.items = sorted(overrides.items(), key=lambda kv: -len(kv[0]))
        self.key = tuple(sorted((k, int(v)) for k, v in overrides.items()))
        self._memo: dict[str, Severity | None] = {}

    def __call__(self, d: Diagnostic) -> Severity:
        code = d.code
        if code not in self._memo:
            self._memo[code] = next((sev for prefix, sev in self.items if code.startswith(prefix)), None)
        override = self._memo[code]
        return d.severity if override is None else override


def diagnostics_json(snap: Snapshot, overrides: SeverityOverrides, limit: int = MAX_DIAGNOSTICS) -> list[str]:
    """The JSON of the diagnostics of `snap`, unit by unit (cached per unchanged unit): each
    item holds one or more diagnostics, comma-separated. Units stop once `limit` diagnostics
    are in (a document of random text has hundreds of thousands)."""
    uri_json = _quote(snap.uri)
    out: list[str] = []
    key = _json_key(snap, overrides)
    count = 0
    locate = snap.locator()
    for part in snap.lint.parts:
        if count >= limit:
            break
        if part.op is None:
            for d in part.current()[: limit - count]:
                text, lines = template(snap, d, overrides(d), 0, uri_json, locate)
                out.append(text % lines)
                count += 1
        elif part.items:
            out.append(_unit_json(snap, part, key, overrides, uri_json))
            count += len(part.items)
    return out


def prepare_json(snap: Snapshot, overrides: SeverityOverrides, budget_s: float) -> bool:
    """Build the JSON of the units of `snap` that have diagnostics, for `diagnostics_json`, until
    `budget_s` has passed; whether every unit is done (so that the language server answers
    requests in between when thousands of diagnostics are new)."""
    deadline = time.perf_counter() + budget_s
    uri_json = _quote(snap.uri)
    key = _json_key(snap, overrides)
    parts = snap.lint.parts
    prepared = snap.cache.get("prepared_json")
    done, count = 0, 0
    if prepared is not None and prepared[0] == key and prepared[1] is snap.lint:
        done, count = prepared[2], prepared[3]
    while done < len(parts) and count < MAX_DIAGNOSTICS:
        part = parts[done]
        done += 1
        count += len(part.items)
        if part.op is not None and part.items:
            _unit_json(snap, part, key, overrides, uri_json)
            if time.perf_counter() >= deadline:
                break
    snap.cache["prepared_json"] = (key, snap.lint, done, count)
    return done >= len(parts) or count >= MAX_DIAGNOSTICS


def _json_key(snap: Snapshot, overrides: SeverityOverrides) -> tuple:
    return ("json", overrides.key, snap.encoding, snap.uri)


def _unit_json(snap: Snapshot, part: Part, key: tuple, overrides: SeverityOverrides, uri_json: str) -> str:
    """The JSON of the diagnostics of one unit, its templates kept in the part while the unit
    is unchanged (only its line numbers are filled in again when it moves)."""
    lines = snap.lines
    assert part.op is not None, "a unit's part"
    base = part.op.anchor.base
    base_line = lines.line_of(base)
    base_col = base - lines.starts[base_line]
    cached = part.derived.get(key)
    if cached is None or cached[0] != base_col:
        locate = snap.locator()
        templates = [template(snap, d, overrides(d), base_line, uri_json, locate) for d in part.current()]
        cached = part.derived[key] = [base_col, templates, None, None]
    if cached[2] != base_line:  # the unit moved by whole lines: fill in its new line numbers
        cached[2] = base_line
        cached[3] = ",".join(text % tuple([base_line + r for r in rel]) for text, rel in cached[1])
    return cached[3]


def publish_message(uri: str, version: int | None, items: list[str]) -> str:
    """The whole `textDocument/publishDiagnostics` notification as JSON text."""
    version_json = "null" if version is None else str(int(version))
    return (
        '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":'
        + json.dumps(uri)
        + ',"version":'
        + version_json
        + ',"diagnostics":['
        + ",".join(items)
        + "]}}"
    )


def diagnostic_dict(snap: Snapshot, d: Diagnostic, severity: Severity | None = None) -> dict:
    """One diagnostic as the JSON object the server publishes."""
    text, lines = template(snap, d, severity or d.severity, 0, _quote(snap.uri))
    return json.loads(text % lines)
