"""Acceptance 1: upstream's -verify-diagnostics files (no pass pipeline) through gpu-lsp's verifier."""

from __future__ import annotations

import pytest
from support.corpus import corpus_files

from diagnostics.expect import verify_file

INVALID = "mlir/test/Dialect/GPU/invalid.mlir"


def _verify_only_files() -> list:
    """Corpus files whose RUN line is `-verify-diagnostics` without a pass (the verifier alone)."""
    out = []
    for path in corpus_files():
        run = " ".join(line for line in path.read_text().splitlines() if line.startswith("// RUN:"))
        if "-verify-diagnostics" not in run:
            continue
        flags = [w for w in run.replace("|", " ").split() if w.startswith("-")]
        passes = [f for f in flags if f.lstrip("-").split("=")[0] not in ("split-input-file", "verify-diagnostics", "allow-unregistered-dialect")]
        if "FileCheck" in run:
            passes = [f for f in passes if not f.startswith("--check-prefix")]
        if not passes:
            out.append(path)
    return out


def test_invalid_mlir_matches_upstream_annotations(corpus) -> None:
    outcome = verify_file((corpus / "upstream" / INVALID).read_text())
    missing = [f"{e.line}: expected-{e.kind} {{{{{e.text}}}}}" for e in outcome.expected if not e.matched]
    assert len(outcome.expected) == 88
    assert outcome.matched >= 84, missing
    assert outcome.unexpected == []


@pytest.mark.parametrize("path", _verify_only_files(), ids=lambda p: p.name)
def test_verify_only_corpus_files(path) -> None:
    """Every such file parses and verifies without crashing; the figures are printed for the report."""
    outcome = verify_file(path.read_text())
    print(f"{path.name}: {outcome.matched}/{len(outcome.expected)} matched, {len(outcome.unexpected)} unexpected")
    if path.name == "invalid.mlir":
        assert outcome.unexpected == []
