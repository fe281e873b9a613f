"""Project set-up: the upstream corpus is in place and the examples say what upstream says."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import REPO, oracle
from support.corpus import corpus_files, split_chunks

EXAMPLES = REPO / "examples"
VALID_EXAMPLES = ["async_pipeline.mlir", "outlined_module.mlir"]
LOWERING = "gpu-kernel-outlining,convert-scf-to-cf,convert-gpu-to-nvvm,gpu-to-llvm"
UNNAMED_ASYNC = "custom op 'gpu.wait' needs to be named when marked 'async'"


def test_corpus_is_present(corpus: Path) -> None:
    files = corpus_files()
    assert len(files) >= 80, f"only {len(files)} .mlir files under {corpus}"
    assert all(f.is_relative_to(corpus) for f in files)


def test_split_matches_the_oracle_on_the_corpus() -> None:
    split_input = oracle.module().split_input
    for path in corpus_files():
        text = path.read_text(encoding="utf-8")
        ours = [(c.text, c.offset, c.line, c.col) for c in split_chunks(text)]
        theirs = [(c.text, c.offset, c.line, c.col) for c in split_input(text)]
        assert ours == theirs, path


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a\n", [("a\n", 0, 1, 0)]),
        ("a\n// -----\nb\n", [("a\n", 0, 1, 0), ("\nb\n", 10, 2, 8)]),
        ("a\n// -----   \nb", [("a\n", 0, 1, 0), ("   \nb", 10, 2, 8)]),
        ("a\n// ---\nb", [("a\n// ---\nb", 0, 1, 0)]),  # near miss: no split
        ("x // -----\ny", [("x ", 0, 1, 0), ("\ny", 10, 1, 10)]),  # mid-line, as mlir-opt
    ],
)
def test_split_edge_cases(text: str, expected: list[tuple[str, int, int, int]]) -> None:
    assert [(c.text, c.offset, c.line, c.col) for c in split_chunks(text)] == expected
    assert [(c.text, c.offset, c.line, c.col) for c in oracle.module().split_input(text)] == expected


@pytest.mark.parametrize("name", VALID_EXAMPLES)
def test_valid_example_verifies_and_lowers(name: str) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    assert len(split_chunks(text)) == 1, "a valid example is one chunk"
    assert oracle.verify(text) == []
    lowered, diags = oracle.run_pass(text, LOWERING)
    assert diags == [] and lowered is not None
    assert "gpu.launch " not in lowered and "llvm.call @mgpuStreamSynchronize" in lowered


def test_mistakes_verify_except_the_unnamed_async_op() -> None:
    text = (EXAMPLES / "mistakes.mlir").read_text(encoding="utf-8")
    chunks = split_chunks(text)
    assert len(chunks) == 5
    *verifying, unnamed = chunks
    for chunk in verifying:
        assert oracle.verify(chunk.text) == [], chunk.text
    diags = oracle.verify(unnamed.text)
    assert [(sev, msg) for _, _, sev, msg in diags] == [("error", UNNAMED_ASYNC)]
    line, col, _, _ = diags[0]
    source_line = unnamed.text.splitlines()[line - 1]
    assert source_line.strip() == "gpu.wait async" and source_line[col - 1 :] == "async"
