"""Acceptance 2: no error on any corpus chunk upstream MLIR verifies cleanly; warnings are listed."""

from __future__ import annotations

import pytest
from support import oracle
from support.corpus import corpus_files

from diagnostics.corpus_check import clean_chunks, errors
from gpu_lsp.diagnostics.model import Severity


@pytest.fixture(scope="module")
def reports():
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    return clean_chunks(corpus_files())


def test_no_false_errors_on_chunks_upstream_accepts(reports) -> None:
    assert len(reports) > 100
    false_errors = [r.describe(d) for r in reports for d in errors(r)]
    assert false_errors == []


def test_warnings_on_valid_chunks_are_listed(reports) -> None:
    """Not a check: prints the warnings found on valid upstream code (reviewed in the report)."""
    for r in reports:
        for d in r.diagnostics:
            if d.severity == Severity.WARNING:
                print(r.describe(d))
