"""Ops declared with an assembly format read and print as upstream MLIR does (tests/fixtures/formats)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import oracle

from gpu_lsp.cli import gpu_opt
from gpu_lsp.ir.opdefs import OPS
from gpu_lsp.parser.api import parse

FORMATS = Path(__file__).parent / "fixtures" / "formats"
FIXTURES = sorted(FORMATS.glob("*.mlir"))


def _gpu_opt(path: Path, tmp_path: Path, *flags: str) -> str:
    out = tmp_path / "out.mlir"
    assert gpu_opt.main([str(path), *flags, "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def _upstream(text: str, generic: bool) -> str:
    result, diags = oracle._run(text, "builtin.module()", False)
    assert diags == []
    assert result.module is not None
    return str(result.module.operation.get_asm(print_generic_op_form=generic))


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_gpu_opt_prints_like_mlir_opt(path: Path, generic: bool, tmp_path: Path) -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    flags = ("-mlir-print-op-generic",) if generic else ()
    assert _gpu_opt(path, tmp_path, *flags) == _upstream(path.read_text(encoding="utf-8"), generic)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_printed_forms_read_back_to_the_same_text(path: Path, tmp_path: Path) -> None:
    for flags in ((), ("-mlir-print-op-generic",)):
        printed = _gpu_opt(path, tmp_path, *flags)
        again = tmp_path / "again.mlir"
        again.write_text(printed, encoding="utf-8")
        assert _gpu_opt(again, tmp_path, *flags) == printed


def test_every_op_declared_with_a_format_is_in_a_fixture() -> None:
    written: set[str] = set()
    for path in FIXTURES:
        chunk = parse(path.read_text(encoding="utf-8")).chunks[0]
        assert chunk.diagnostics == [], path.name
        written.update(op.name for op in chunk.module.walk())
    missing = sorted(name for name, op in OPS.items() if op.format is not None and name not in written)
    assert missing == []
