"""Ops declared with an assembly format print like upstream MLIR (tests/fixtures/formats vs the oracle)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from support import oracle

from gpu_lsp.cli import gpu_opt
from gpu_lsp.ir.opdefs import OPS

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
SPLIT = "// -----\n"


def _chunks() -> list[tuple[str, int, str]]:
    cases = []
    for path in sorted(FIXTURES.glob("*.mlir")):
        for k, chunk in enumerate(path.read_text(encoding="utf-8").split(SPLIT)):
            cases.append((path.stem, k, chunk))
    return cases


CHUNKS = _chunks()


def _ours(text: str, generic: bool) -> str:
    out, err = io.StringIO(), io.StringIO()
    status = gpu_opt.run(gpu_opt.Options(generic=generic), text, "in.mlir", out, err)
    assert (status, err.getvalue()) == (0, "")
    return out.getvalue()


def _upstream(text: str, generic: bool) -> str:
    result, diags = oracle._run(text, "builtin.module()", False)
    assert diags == []
    return str(result.module.operation.get_asm(print_generic_op_form=generic))


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
@pytest.mark.parametrize(("fixture", "index", "text"), CHUNKS, ids=[f"{f}-{k}" for f, k, _ in CHUNKS])
def test_prints_like_upstream(fixture: str, index: int, text: str, generic: bool) -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    assert _ours(text, generic) == _upstream(text, generic)


def test_printed_form_reads_back_to_itself() -> None:
    for _fixture, _index, text in CHUNKS:
        printed = _ours(text, False)
        assert _ours(printed, False) == printed


_OP_NAME = re.compile(r"(?<![\w.%@^#!\"])([a-z_]+\.[a-z_][\w.]*)\b")


def test_every_op_with_a_format_is_in_a_fixture() -> None:
    written = {name for _f, _k, text in CHUNKS for name in _OP_NAME.findall(text)}
    missing = sorted(name for name, op in OPS.items() if op.format is not None and name not in written)
    assert missing == []
