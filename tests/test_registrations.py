"""Registrations name things that exist: a misspelled op name in a registration raises."""

from __future__ import annotations

import pytest

from gpu_lsp.diagnostics.registry import Hook, Stage, check_op_names, load_rules
from gpu_lsp.ir.opdefs import printer, reader


def test_every_rule_names_known_operations() -> None:
    rules = load_rules()
    check_op_names(rules.values(), [])


def test_a_misspelled_op_in_a_rule_or_hook_raises() -> None:
    rules = load_rules()
    rule = next(r for r in rules.values() if r.ops)
    hook = Hook(rule.code, ("gpu.shufle",), lambda op, ctx: (), Stage.REGIONS)
    with pytest.raises(ValueError, match=f"{rule.code} 'gpu.shufle'"):
        check_op_names([rule], [hook])


def test_a_misspelled_printer_or_reader_name_raises() -> None:
    with pytest.raises(KeyError, match="gpu.shufle"):
        printer("gpu.shufle")(lambda p, op: None)
    with pytest.raises(KeyError, match="gpu.shufle"):
        reader("gpu.shufle")(lambda c, st: None)
