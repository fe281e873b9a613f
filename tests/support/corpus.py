"""The upstream MLIR test corpus in ../shared/corpus and -split-input-file chunking."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from support import SHARED

CORPUS = SHARED / "corpus"
EXTENDED = SHARED / "corpus-extended"  # more upstream files: NVVM, ROCDL, LLVM-SPV, NVGPU, XeGPU, ...
SPLIT_MARKER = "// -----"


def require_corpus() -> Path:
    """Return the corpus folder, failing the calling test when it is missing."""
    if not CORPUS.is_dir():
        pytest.fail(
            f"upstream corpus not found at {CORPUS}: the tests read it from ../shared/corpus "
            "beside the repository root; put (or symlink) the project's shared/ folder there",
            pytrace=False,
        )
    return CORPUS


def corpus_files(pattern: str = "**/*.mlir") -> list[Path]:
    """Corpus files matching a glob pattern, sorted; fails when the corpus is missing."""
    return sorted(p for p in require_corpus().glob(pattern) if p.is_file())


def all_corpus_files() -> list[Path]:
    """The files of both corpora (../shared/corpus, then ../shared/corpus-extended), sorted in each."""
    if not EXTENDED.is_dir():
        pytest.fail(f"extended corpus not found at {EXTENDED}", pytrace=False)
    return corpus_files() + sorted(p for p in EXTENDED.glob("**/*.mlir") if p.is_file())


@dataclass(frozen=True)
class Chunk:
    """One piece of a file cut like ``mlir-opt -split-input-file``."""

    text: str
    offset: int  # character offset of the chunk in the whole file
    line: int  # 1-based line of the whole file where the chunk starts
    col: int  # 0-based column where the chunk starts on that line


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1)
    return line, col


def split_chunks(text: str) -> list[Chunk]:
    """Split ``text`` at its ``// -----`` markers exactly as mlir-opt does.

    Mirrors ``split_input`` of ``../shared/tools/oracle.py`` (itself a copy of
    ``mlir::splitAndProcessBuffer``): every occurrence of ``// ---`` followed by
    ``--`` and one more character other than ``0`` is a boundary, and the next
    chunk starts right after the marker, so its first line is the rest of the
    marker line (usually just the newline). Any other ``// ---`` is a near miss
    and no boundary. In the corpus every marker is a line of its own.
    """
    probe = SPLIT_MARKER[:-2]
    raw: list[tuple[int, int]] = []
    start = 0
    while (pos := text.find(probe, start)) >= 0:
        raw.append((start, pos))
        start = pos + len(probe)
    raw.append((start, len(text)))
    pieces: list[tuple[int, int]] = []
    cur_start, cur_end = raw[0]
    for s, e in raw[1:]:
        rest = text[s:e]
        if rest.startswith("--") and len(rest) > 2 and rest[2] != "0":
            pieces.append((cur_start, cur_end))
            cur_start, cur_end = s + 2, e
        else:
            cur_end = e
    pieces.append((cur_start, cur_end))
    return [Chunk(text[s:e], s, *_line_col(text, s)) for s, e in pieces]
