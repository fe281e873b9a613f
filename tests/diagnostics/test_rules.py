"""Every rule: its fixture (OK and Errors sections), its documentation, and every fix it offers."""

from __future__ import annotations

import pytest
from support import oracle

from diagnostics.fixtures import fixture_path, load, mismatches
from gpu_lsp.analysis import lint_parsed
from gpu_lsp.diagnostics.mlir_versions import NEWEST, AtVersion
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import DOC_SECTIONS, FixAvailability, load_rules
from gpu_lsp.parser.api import parse
from gpu_lsp.text import apply_edits

RULES = load_rules()
# GPU999 stands for a crashing rule: it has no fixture, test_engine.py provokes it.
FIXTURE_CODES = sorted(code for code, rule in RULES.items() if code != "GPU999" and rule.linted)


def test_every_rule_has_a_fixture() -> None:
    missing = [code for code in FIXTURE_CODES if not fixture_path(code).is_file()]
    assert missing == []


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_documentation(code: str) -> None:
    rule = RULES[code]
    positions = [rule.doc.find(s) for s in DOC_SECTIONS]
    assert all(p >= 0 for p in positions), f"{code} lacks a section of {DOC_SECTIONS}"
    assert positions == sorted(positions), f"{code}: sections out of order"
    assert rule.summary, code


@pytest.mark.parametrize("code", FIXTURE_CODES)
def test_fixture(code: str) -> None:
    fx = load(code)
    kinds = {c.kind for c in fx.chunks}
    assert {"OK", "Errors"} <= kinds, f"{fx.path.name} needs OK and Errors sections"
    assert any(c.diagnostics for c in fx.chunks if c.kind == "Errors"), f"{code} never fires"
    assert mismatches(fx) == []


def _oracle_errors(text: str) -> list:
    return [d for d in oracle.verify(text) if d[2] == "error"]


@pytest.mark.parametrize("code", FIXTURE_CODES)
def test_fixture_ok_sections_are_valid_upstream(code: str) -> None:
    """Differential: upstream MLIR accepts every OK section (so the rule has no false positive there)."""
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    fx = load(code)
    for chunk in fx.chunks:
        if chunk.kind == "OK" and chunk.version == NEWEST:  # the oracle is LLVM 23
            assert _oracle_errors(fx.text[chunk.start : chunk.end]) == [], f"{code}: OK section at line {chunk.first_line}"


def _fix_cases() -> list[tuple[str, int]]:
    cases = []
    for code in FIXTURE_CODES:
        fx = load(code)
        with_fix = [d for c in fx.chunks for d in c.diagnostics if d.fix is not None]
        cases.extend((code, i) for i in range(len(with_fix)))
    return cases


def test_rules_with_fixes_offer_them() -> None:
    offered = {code for code, _ in _fix_cases()}
    declared = {code for code, r in RULES.items() if r.fix is not FixAvailability.NONE}
    assert declared - offered == set(), "rules that declare a fix but whose fixture shows none"
    assert offered - declared == set(), "rules that offer fixes without declaring it"


@pytest.mark.parametrize("code,index", _fix_cases())
def test_fix(code: str, index: int) -> None:
    """Applying the fix re-parses, removes the diagnostic, adds no error, and upstream accepts the result."""
    fx = load(code)
    diagnostics = [d for c in fx.chunks for d in c.diagnostics if d.fix is not None]
    target = diagnostics[index]
    chunk_no = next(i for i, c in enumerate(fx.chunks) if c.start <= target.range.start <= c.end)
    fixed = apply_edits(fx.text, list(target.fix.edits))
    before = fx.diagnostics
    after_parsed = parse(fixed, split=True)
    old_chunk = fx.chunks[chunk_no]
    after = lint_parsed(after_parsed, AtVersion(old_chunk.version))
    assert len(after_parsed.chunks) == len(fx.chunks)
    chunk = after_parsed.chunks[chunk_no]
    in_chunk = [d for d in after if chunk.start <= d.range.start <= chunk.end]
    old = [d for d in before if old_chunk.start <= d.range.start <= old_chunk.end]
    assert sum(d.code == code for d in in_chunk) < sum(d.code == code for d in old), "the diagnostic is still there"
    new_errors = sorted(d.message for d in in_chunk if d.severity >= Severity.ERROR)
    old_errors = sorted(d.message for d in old if d.severity >= Severity.ERROR and d is not target)
    assert all(m in old_errors for m in new_errors), f"new errors: {new_errors}"
    if oracle.available():
        assert _oracle_errors(fixed[chunk.start : chunk.end]) == [], fixed[chunk.start : chunk.end]


# Upstream's verifier errors word for word: an op it prints in its message is numbered from its
# function, generic, on a line of its own when it takes several; a block's terminator is checked
# on leaving the block, before the op holding it runs its own region checks (`verifyRegions`).
UPSTREAM_ERROR_CASES = {
    "numbered from its function": (
        "func.func @f(%a: index) -> index {\n  %0 = arith.addi %a, %a : index\n}\n"
        "func.func @g(%b: index) -> index {\n  return %b : index\n}\n",
        'block with no terminator, has %0 = "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index',
    ),
    "on a line of its own": (
        "func.func @f(%c: i1) {\n  scf.if %c {\n    scf.yield\n  }\n}\n",
        'block with no terminator, has \n"scf.if"(%arg0) ({\n  "scf.yield"() : () -> ()\n}, {\n}) : (i1) -> ()',
    ),
    "before the launch's region checks": (
        "func.func @f(%n: index) {\n  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)"
        " threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {\n    %c0 = arith.constant 0 : index\n  }\n  return\n}\n",
        'block with no terminator, has %0 = "arith.constant"() <{value = 0 : index}> : () -> index',
    ),
}


@pytest.mark.parametrize("case", sorted(UPSTREAM_ERROR_CASES))
def test_verifier_errors_are_upstreams(case: str) -> None:
    text, message = UPSTREAM_ERROR_CASES[case]
    ours = [d.message for d in lint_parsed(parse(text)) if d.severity is Severity.ERROR]
    assert ours == [message]
    if oracle.available():
        assert [d[3] for d in _oracle_errors(text)] == [message]
