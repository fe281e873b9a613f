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
    import gpu_lsp.ir.opdefs.readers  # noqa: F401  (files the type inference of the readers)
    from gpu_lsp.ir.opdefs.format import CUSTOM_DIRECTIVES, Custom, custom_directive
    from gpu_lsp.ir.opdefs.format_read import TYPE_INFERENCE, infers_types

    assert "AsyncDependencies" in CUSTOM_DIRECTIVES
    before = (dict(CUSTOM_DIRECTIVES), dict(TYPE_INFERENCE))
    with pytest.raises(ValueError, match=r"custom<AsyncDependencies> registered twice"):
        custom_directive("AsyncDependencies")(Custom)
    with pytest.raises(ValueError, match=r"type inference of vector.shuffle registered twice"):
        infers_types("vector.shuffle")(lambda st, fs: None)
    assert before == (CUSTOM_DIRECTIVES, TYPE_INFERENCE)


def test_every_custom_directive_a_format_names_reads_and_prints() -> None:
    """Each `custom<Name>` of a format read by the engine is one registered class, with both halves."""
    from gpu_lsp.ir.opdefs import OPS
    from gpu_lsp.ir.opdefs.format import Custom, parse_format

    def customs(directives: tuple) -> list[Custom]:
        out = []
        for d in directives:
            if isinstance(d, Custom):
                out.append(d)
            for inner in (getattr(d, "elements", ()), getattr(d, "else_elements", ()), *getattr(d, "clauses", ())):
                out.extend(customs(inner))
        return out

    used = {type(c) for op in OPS.values() if op.format is not None and op.reader is None for c in customs(parse_format(op.format))}
    assert Custom not in used and len(used) >= 8
    assert all(kind.read is not Custom.read and kind.print is not Custom.print for kind in used)


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
