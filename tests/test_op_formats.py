"""Ops declared with an assembly format: gpu-opt prints each fixture as upstream's mlir-opt does.

Each `tests/fixtures/formats/<dialect>.mlir` writes its dialect's format-declared ops in
every form (optional groups present and absent, attribute dictionaries, variadic lists
empty and non-empty); gpu-opt's custom and generic output must equal the oracle's, and
every op declared with a format must appear in some fixture.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from support import oracle

from gpu_lsp.cli import gpu_opt
from gpu_lsp.ir.opdefs import OPS
from gpu_lsp.parser.api import parse

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
FIXTURE_FILES = sorted(FIXTURES.glob("*.mlir"))


def _gpu_opt(path: Path, *flags: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    text = path.read_text()
    status = gpu_opt.run(gpu_opt.parse_args([*flags, str(path)]), text, str(path), out, err)
    assert (status, err.getvalue()) == (0, "")
    return out.getvalue()


def _upstream(path: Path, generic: bool) -> str:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    result, diags = oracle._run(path.read_text(), "builtin.module()", False)
    assert diags == []
    return result.module.operation.get_asm(print_generic_op_form=generic)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.stem)
def test_custom_form_matches_upstream(path: Path) -> None:
    assert _gpu_opt(path) == _upstream(path, generic=False)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.stem)
def test_generic_form_matches_upstream(path: Path) -> None:
    assert _gpu_opt(path, "-mlir-print-op-generic") == _upstream(path, generic=True)


def test_every_op_declared_with_a_format_has_a_fixture() -> None:
    written: set[str] = set()
    for path in FIXTURE_FILES:
        parsed = parse(path.read_text())
        for chunk in parsed.chunks:
            written.update(op.name for op in chunk.module.walk())
    declared = {name for name, definition in OPS.items() if definition.format is not None}
    assert sorted(declared - written) == []
