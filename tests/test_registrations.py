"""Registrations name things that exist: a misspelled op name in a registration raises."""

from __future__ import annotations

import sys
import types

import pytest

from gpu_lsp import compiled
from gpu_lsp.diagnostics.registry import Hook, Stage, _docstring, check_op_names, load_rules
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


def test_a_format_hook_registered_twice_raises() -> None:
    import gpu_lsp.ir.printers  # noqa: F401  (files the custom printers)
    from gpu_lsp.ir.opdefs.format_print import CUSTOM_PRINTERS, custom_printer
    from gpu_lsp.ir.opdefs.format_read import CUSTOM_READERS, TYPE_INFERENCE, custom_reader, infers_types

    assert "AsyncDependencies" in CUSTOM_READERS and "AsyncDependencies" in CUSTOM_PRINTERS
    before = (dict(CUSTOM_READERS), dict(CUSTOM_PRINTERS), dict(TYPE_INFERENCE))
    with pytest.raises(ValueError, match=r"custom<AsyncDependencies> registered twice"):
        custom_reader("AsyncDependencies")(lambda c, st, fs, args: None)
    with pytest.raises(ValueError, match=r"custom<AsyncDependencies> registered twice"):
        custom_printer("AsyncDependencies")(lambda ctx, args: None)
    with pytest.raises(ValueError, match=r"type inference of vector.shuffle registered twice"):
        infers_types("vector.shuffle")(lambda st, fs: None)
    assert before == (CUSTOM_READERS, CUSTOM_PRINTERS, TYPE_INFERENCE)


def test_a_rule_docstring_mypyc_dropped_is_read_from_the_source(tmp_path, monkeypatch) -> None:
    # mypyc keeps no docstrings: a compiled check function's `__doc__` is None, and its module's
    # source (installed beside the compiled module) still has it.
    source = tmp_path / "compiled_rules.py"
    source.write_text('def check(op, ctx):\n    """## What it does\n    Checks.\n    """\n')
    module = types.ModuleType("compiled_rules")
    module.__file__ = str(tmp_path / "compiled_rules.cpython-311-x86_64-linux-gnu.so")
    monkeypatch.setitem(sys.modules, "compiled_rules", module)

    def check(op, ctx):
        return ()

    check.__doc__ = None
    check.__module__ = "compiled_rules"
    assert _docstring(check) == "## What it does\n    Checks.\n    "
    assert load_rules()["GPU201"].doc.startswith("## What it does"), f"compiled: {compiled()}"
