"""The publishDiagnostics JSON built a few units per step equals the JSON built at once."""

from __future__ import annotations

import json

from support.typing import generated

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.publish import SeverityOverrides, diagnostics_json, prepare_json


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
