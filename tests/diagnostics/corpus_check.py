"""Acceptance 2: gpu-lsp's diagnostics on every corpus chunk that upstream MLIR verifies cleanly."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from support import oracle

from gpu_lsp.analysis import lint_chunk
from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.parser.api import parse
from gpu_lsp.text import LineIndex


@dataclass
class ChunkReport:
    path: Path
    line: int
    diagnostics: list[Diagnostic]
    index: LineIndex

    def describe(self, d: Diagnostic) -> str:
        line, col = self.index.position(d.range.start)
        return f"{self.path.name}:{line + 1}:{col + 1}: {d.severity.label} {d.code} {d.message}"


def _run_lines(text: str) -> str:
    return " ".join(line for line in text.splitlines() if line.lstrip().startswith("// RUN:"))


def clean_chunks(paths: list[Path]) -> list[ChunkReport]:
    """Lint every chunk the oracle accepts (parse + verify, no passes); one report per chunk."""
    mod = oracle.module()
    backend = mod.load_backend("numba-cuda-mlir")
    backend.threads = False  # several failing functions in one chunk deadlock the threaded verifier
    out: list[ChunkReport] = []
    for path in paths:
        text = path.read_text()
        run = _run_lines(text)
        split = "split-input-file" in run
        allow = "allow-unregistered-dialect" in run
        o = mod.Oracle(backend, allow, keep_op_notes=False)
        pieces = mod.split_input(text, split)
        parsed = parse(text, split=split)
        index = LineIndex(text)
        if len(pieces) != len(parsed.chunks):
            raise AssertionError(f"{path}: {len(pieces)} oracle chunks but {len(parsed.chunks)} gpu-lsp chunks")
        for piece, chunk in zip(pieces, parsed.chunks):
            result = o.run_chunk(piece, None)
            if any(d.severity == "error" for d in result.diags):
                continue
            out.append(ChunkReport(path, piece.line, lint_chunk(chunk, text), index))
    return out


def errors(report: ChunkReport) -> list[Diagnostic]:
    return [d for d in report.diagnostics if d.severity >= Severity.ERROR]
