"""Ops declared with an assembly format read and print as upstream MLIR does (tests/fixtures/formats vs the oracle)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from support import oracle

from gpu_lsp.cli import gpu_opt
from gpu_lsp.ir.opdefs import OPS
from gpu_lsp.ir.opdefs.model import declare
from gpu_lsp.ir.printers import print_module
from gpu_lsp.parser.api import parse

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
SPLIT = "// -----\n"


def _chunks() -> list[tuple[str, int, str]]:
    cases = []
    for path in sorted(FIXTURES.glob("*.mlir")):
        for k, chunk in enumerate(path.read_text(encoding="utf-8").split(SPLIT)):
            cases.append((path.stem, k, chunk))
    return cases


CHUNKS = _chunks()
# ../shared/tools/oracle.py registers no bufferization dialect, so upstream cannot print these
# fixtures for us; they are written as mlir-opt prints them (custom form, from upstream's
# mlir/test/Dialect/Bufferization/ops.mlir) and checked against that text and by round trips.
# gpu_llvm23 holds ops of LLVM 23 newer than the oracle's MLIR (named barriers, barrier scopes:
# llvm-project PR #195692), written as the CHECK lines of upstream's tests for them print them.
WITHOUT_ORACLE = frozenset({"bufferization", "gpu_llvm23"})
ORACLE_CHUNKS = [chunk for chunk in CHUNKS if chunk[0] not in WITHOUT_ORACLE]
PRINTED_CHUNKS = [chunk for chunk in CHUNKS if chunk[0] in WITHOUT_ORACLE]


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
@pytest.mark.parametrize(("fixture", "index", "text"), ORACLE_CHUNKS, ids=[f"{f}-{k}" for f, k, _ in ORACLE_CHUNKS])
def test_prints_like_upstream(fixture: str, index: int, text: str, generic: bool) -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    assert _ours(text, generic) == _upstream(text, generic)


@pytest.mark.parametrize(("fixture", "index", "text"), PRINTED_CHUNKS, ids=[f"{f}-{k}" for f, k, _ in PRINTED_CHUNKS])
def test_prints_as_written_without_oracle(fixture: str, index: int, text: str) -> None:
    """A fixture the oracle cannot print is mlir-opt's own output: we print it unchanged, and its
    generic form reads back to the same custom form and generic form."""
    generic = _ours(text, True)
    assert _ours(text, False) == text
    assert _ours(generic, False) == text
    assert _ours(generic, True) == generic


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_printed_forms_read_back_to_themselves(generic: bool) -> None:
    for _fixture, _index, text in CHUNKS:
        printed = _ours(text, generic)
        assert _ours(printed, generic) == printed


def test_every_op_declared_with_a_format_is_in_a_fixture() -> None:
    written: set[str] = set()
    for fixture, index, text in CHUNKS:
        chunk = parse(text).chunks[0]
        assert chunk.diagnostics == [], (fixture, index)
        written.update(op.name for op in chunk.module.walk())
    missing = sorted(name for name, op in OPS.items() if op.format is not None and name not in written)
    assert missing == []


def test_space_literal_is_no_punctuation(monkeypatch: pytest.MonkeyPatch) -> None:
    # ODS's genSpacePrinter (mlir-tblgen OpFormatGen.cpp): ` ` writes a space and is no punctuation,
    # so the variable after it gets its own space too; `` is punctuation and writes nothing.
    monkeypatch.setitem(OPS, "test.spaced", declare("test.spaced", ins="AnyType:$a, AnyType:$b", format="$a ` ` $b `` ` ` `:` type($a) attr-dict"))
    chunk = parse("func.func @f(%x: i32) {\n  test.spaced %x %x : i32\n  return\n}\n").chunks[0]
    assert chunk.diagnostics == []
    spaced = next(op for op in chunk.module.walk() if op.name == "test.spaced")
    spaced.span = None
    assert "test.spaced %arg0  %arg0 : i32\n" in print_module(chunk.module)
