"""The publishDiagnostics JSON built a few units per step equals the JSON built at once."""

from __future__ import annotations

import json

from support.corpus import all_corpus_files
from support.typing import generated

from gpu_lsp.diagnostics.model import Diagnostic, Fix, Related, Severity
from gpu_lsp.lsp.diagnostic_json import item_json, quote, template
from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.publish import SeverityOverrides, diagnostics_json, items_json, joined_items, prepare_json
from gpu_lsp.text import Edit, TextRange


def test_the_json_prepared_a_unit_per_step_is_the_json_built_at_once() -> None:
    text = generated("inline", 4000)  # 100 functions, two inline launches each
    at_once = Document("file:///a.mlir", text, 1).analysed()
    stepped = Document("file:///a.mlir", text, 1).analysed()
    overrides = SeverityOverrides({"GPU204": Severity.INFO})
    steps = 1
    while not prepare_json(stepped, overrides, 0.0):  # no time at all: one unit per step
        steps += 1
    units = sum(1 for part in stepped.lint.parts if part.op is not None and part.items)
    assert units >= 100 and units <= steps <= units + 1  # (a last step may find only the chunk's own part)
    items = diagnostics_json(stepped, overrides)
    assert items == diagnostics_json(at_once, overrides)
    published = json.loads("[" + ",".join(items) + "]")
    assert len(published) == len(stepped.diagnostics) >= 200
    assert {d["severity"] for d in published if d["code"] == "GPU204"} == {3}
    assert prepare_json(stepped, overrides, 0.0), "nothing is left to prepare"


def test_the_json_joined_from_parts_is_that_of_the_whole_list_in_their_order_only() -> None:
    text = generated("inline", 2000)
    snap = Document("file:///a.mlir", text, 1).analysed()
    found = snap.diagnostics
    overrides = SeverityOverrides({})
    locate = snap.locator()
    half = len(found) // 2
    parts = [(part, items_json(part, overrides, quote(snap.uri), locate)) for part in (found[:half], found[half:])]
    assert half > 0
    assert joined_items(parts, found) == items_json(found, overrides, quote(snap.uri), locate)
    assert joined_items(parts[::-1], found) is None, "not in the list's order"
    assert joined_items(parts[:1], found) is None, "not all of the list"


def test_a_diagnostic_written_out_at_once_is_its_template_filled_in() -> None:
    text = "a = 1 // 50%\nb = 2\n"
    snap = Document("file:///50%25/a.mlir", text, 1).analysed()
    locate = snap.locator()
    at = TextRange(6, 12)
    found = [
        Diagnostic("GPU204", "100% of the \"launches\" \u00e9", at, Severity.INFO),
        Diagnostic("GPU204", "tagged", at, Severity.HINT, tags=("unnecessary",)),
        Diagnostic("GPU101", "noted", at, related=(Related("here, 5%", TextRange(14, 15)),)),
        Diagnostic("GPU101", "fixed", at, fix=Fix("drop 1%", (Edit(at, "%d"),))),
        Diagnostic("", "no code", TextRange(0, 0), Severity.WARNING),
    ]
    uri_json = quote(snap.uri)
    for d in found:
        written = item_json(d, d.severity, uri_json, locate)
        template_text, lines = template(d, d.severity, 0, uri_json, locate)
        assert written == template_text % lines
        assert json.loads(written)["message"] == d.message


def test_every_diagnostic_of_both_corpora_written_out_at_once_is_its_template_filled_in() -> None:
    """Upstream's files, as the server publishes them: notes, fixes, messages quoting IR (`%`
    included) and text beyond ASCII (their diagnostics carry no tags: the test above has some)."""
    checked = 0
    kinds: set[str] = set()
    for path in all_corpus_files():
        snap = Document(path.as_uri(), path.read_text(encoding="utf-8"), 1).analysed()
        locate = snap.locator()
        uri_json = quote(snap.uri)
        for d in snap.diagnostics:
            template_text, lines = template(d, d.severity, 0, uri_json, locate)
            assert item_json(d, d.severity, uri_json, locate) == template_text % lines, (path.name, d)
            checked += 1
            kinds.update(k for k, present in (("related", d.related), ("fix", d.fix)) if present)
            kinds.update(("percent",) if "%" in d.message else ())
    assert checked > 400 and kinds == {"related", "fix", "percent"}, (checked, kinds)
