"""An op dated by its declaration (`since`) is reported by GPU009 below that LLVM version, wherever its format fixture uses it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.diagnostics.mlir_versions import OLDEST, OP_PIECES, AtVersion
from gpu_lsp.ir.opdefs import OPS
from gpu_lsp.ir.opdefs.model import OpDef
from gpu_lsp.parser.api import parse

FORMATS = Path(__file__).resolve().parents[1] / "fixtures" / "formats"
DATED = sorted((d for d in OPS.values() if d.since is not None), key=lambda d: d.name)


def _uses(op: OpDef) -> tuple[str, int]:
    """The first format-fixture chunk that writes `op`, and how often it does."""
    word = re.compile(rf"(?<![\w.]){re.escape(op.name)}(?![\w.])")
    for path in sorted(FORMATS.glob("*.mlir")):
        for chunk in path.read_text(encoding="utf-8").split("// -----\n"):
            found = len(word.findall(chunk))
            if found:
                return chunk, found
    raise AssertionError(f"{op.name} is in no format fixture")


def _reported(text: str, op: OpDef, version: int) -> list[str]:
    found = lint_parsed(parse(text), AtVersion(version))
    return [d.message for d in found if d.code == "GPU009" and f"`{op.name}` is an op of" in d.message]


def test_the_dated_ops_are_the_newer_gpu_ops_and_their_rows() -> None:
    assert {d.name for d in DATED} >= {"gpu.ballot", "gpu.rotate", "gpu.subgroup_broadcast", "gpu.initialize_named_barrier"}
    assert all(d.since.version > OLDEST for d in DATED if d.since is not None)
    assert {(r.op, r.since) for r in OP_PIECES if r.piece is None} == {(d.name, d.since.version) for d in DATED if d.since}


@pytest.mark.parametrize("op", DATED, ids=[d.name for d in DATED])
def test_a_dated_op_is_reported_before_its_version_and_not_from_it(op: OpDef) -> None:
    assert op.since is not None
    text, uses = _uses(op)
    before = _reported(text, op, op.since.version - 1)
    assert len(before) == uses
    assert all(f"LLVM ≥ {op.since.version}, not of LLVM {op.since.version - 1}" in m and op.since.source in m for m in before)
    assert _reported(text, op, op.since.version) == []
