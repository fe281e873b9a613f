"""Rule scopes (`registry.Scope`), found by a differential test: every rule that is not declared
whole-module finds on each top-level unit parsed alone (`parser/ranges.py`) exactly what it finds
there in the whole file, on every corpus chunk that may be cut and on generated files."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from support.corpus import all_corpus_files, split_chunks
from support.typing import generated

from gpu_lsp.analysis import lint_findings, not_whole_module, range_findings
from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.diagnostics.registry import Scope, load_rules
from gpu_lsp.diagnostics.rule_engine import run_rules
from gpu_lsp.lsp import engine
from gpu_lsp.parser.ranges import parse_range, unit_starts

# Top-level units that see each other: a call and a kernel across units, a symbol defined twice, an alias.
CROSS_UNITS = """!buf = memref<?xf32>
func.func @helper(%a: !buf) {
  return
}
func.func @caller(%a: !buf) {
  func.call @helper(%a) : (!buf) -> ()
  func.call @missing(%a) : (!buf) -> ()
  return
}
func.func @helper(%a: !buf) {
  return
}
"""

# A finding of a scan of the text (GPU146: a dialect that parses no types), in one unit of two.
TEXT_SCAN = """func.func @waits(%t: !memref.async.token) {
  return
}
func.func @other() {
  return
}
"""


def _by_code(found: list[Diagnostic]) -> Counter:
    return Counter((d.code, d.sort_key(), d.message) for d in found)


def _per_unit(text: str, starts: list[int]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for lo, hi in zip(starts, [*starts[1:], len(text)]):
        found, part = range_findings(text, starts, lo, hi)
        assert part.exact, f"the unit at {lo} is not parsed alone as in the file"
        out.extend(found)
    return out


def _unwrapped(text: str) -> str:
    """An outlined generated file without its `module {}`: gpu.module and host functions at the top."""
    body = text[text.index("{\n", text.index("\nmodule")) + 2 : text.rindex("}")]
    return re.sub(r"(?m)^  ", "", body)


def _texts() -> list[tuple[str, str]]:
    out = []
    for path in all_corpus_files():
        text = path.read_text(encoding="utf-8")
        pieces = [c.text for c in split_chunks(text)] if "// -----" in text else [text]
        out.extend((f"{path.name}#{i}", piece) for i, piece in enumerate(pieces))
    out.append(("inline", generated("inline", 2000)))
    out.append(("outlined, unwrapped", _unwrapped(generated("outlined", 2000))))
    out.append(("cross units", CROSS_UNITS))
    out.append(("text scan", TEXT_SCAN))
    return out


def test_every_rule_not_whole_module_finds_the_same_in_a_unit_alone() -> None:
    differs: dict[str, list[str]] = {}
    cut = 0
    for name, text in _texts():
        starts = unit_starts(text)
        if starts is None:
            continue
        cut += 1
        whole = _by_code(lint_findings(engine.start_document(text).result(), rules=not_whole_module))
        alone = _by_code(_per_unit(text, starts))
        for code in sorted({key[0] for key in whole | alone}):
            if Counter({k: n for k, n in whole.items() if k[0] == code}) != Counter({k: n for k, n in alone.items() if k[0] == code}):
                differs.setdefault(code, []).append(name)
    assert cut > 300, "the corpus chunks are cut into units"
    assert differs == {}


@pytest.mark.parametrize("code", ["GPU119", "GPU121"])
def test_the_symbol_rules_are_whole_module(code: str) -> None:
    """On units parsed alone, the symbol rules would miss what the file has (so they are whole-module)."""
    starts = unit_starts(CROSS_UNITS)
    assert starts is not None
    rule = load_rules()[code]
    whole = [d for d in lint_findings(engine.start_document(CROSS_UNITS).result(), rules=lambda r: r is rule) if d.code == code]
    alone = []
    for lo, hi in zip(starts, [*starts[1:], len(CROSS_UNITS)]):
        chunk = parse_range(CROSS_UNITS, starts, lo, hi).chunk
        alone.extend(run_rules(RuleContext(chunk, CROSS_UNITS), [rule]))
    assert whole, f"{code} reports the file's cross-unit problem"
    assert _by_code(alone) != _by_code(whole)
    assert rule.scope is Scope.MODULE
