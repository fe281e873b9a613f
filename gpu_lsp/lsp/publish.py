"""The publishDiagnostics payload as JSON text, built per unit and reused while a unit is unchanged.

Each diagnostic of a unit becomes a JSON template whose line numbers are relative to the
unit's first line; an edit elsewhere only moves the unit, so publishing it again is one
`%` formatting per diagnostic (no conversion, no serialisation library). Diagnostics carry
the LSP fields of `convert.diagnostic`: code, codeDescription, source, severity, tags,
relatedInformation, and their fix in `data` (ruff's approach: code actions never
re-analyse).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from gpu_lsp.diagnostics.model import MAX_DIAGNOSTICS, Diagnostic, Severity
from gpu_lsp.lsp.diagnostic_json import item_json, quote, template
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.lint_cache import Part


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
    uri_json = quote(snap.uri)
    out: list[str] = []
    key = _json_key(snap, overrides)
    count = 0
    locate = snap.locator()
    for part in snap.lint.parts:
        if count >= limit:
            break
        if part.op is None:
            found = part.current()[: limit - count]
            out += items_json(found, overrides, uri_json, locate)
            count += len(found)
        elif part.items:
            out.append(_unit_json(snap, part, key, overrides, uri_json))
            count += len(part.items)
    return out


def items_json(found: list[Diagnostic], overrides: SeverityOverrides, uri_json: str, locate: Callable[[int], tuple[int, int]]) -> list[str]:
    """The JSON of each of `found` (`locate`: the locator of their text)."""
    return [item_json(d, overrides(d), uri_json, locate) for d in found]


def joined_items(parts: list[tuple[list[Diagnostic], list[str]]], found: list[Diagnostic]) -> list[str] | None:
    """The JSON of `found` from that of its parts (`items_json` of each), where `found` is those
    parts' diagnostics in their order; None otherwise."""
    if sum(len(diagnostics) for diagnostics, _ in parts) != len(found):
        return None
    at = 0
    out: list[str] = []
    for diagnostics, items in parts:
        if any(d is not f for d, f in zip(diagnostics, found[at : at + len(diagnostics)])):
            return None
        at += len(diagnostics)
        out += items
    return out


def prepare_json(snap: Snapshot, overrides: SeverityOverrides, budget_s: float) -> bool:
    """Build the JSON of the units of `snap` that have diagnostics, for `diagnostics_json`, until
    `budget_s` has passed; whether every unit is done (so that the language server answers
    requests in between when thousands of diagnostics are new)."""
    deadline = time.perf_counter() + budget_s
    uri_json = quote(snap.uri)
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
        templates = [template(d, overrides(d), base_line, uri_json, locate) for d in part.current()]
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
    text, lines = template(d, severity or d.severity, 0, quote(snap.uri), snap.locator())
    return json.loads(text % lines)
