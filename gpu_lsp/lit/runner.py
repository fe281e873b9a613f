"""Run a lit test chunk by chunk: each RUN line's pipeline once over the file, FileCheck per chunk.

A chunk's result under a RUN line, the way `llvm-lit` would see that chunk alone:

* with a FileCheck stage, the chunk's check lines of the RUN line's prefixes (a check
  file holding only that chunk, line numbers kept) are matched against the output of
  the whole file; a chunk without such lines has no result;
* the chunk fails when the tools fail on it (exit status, e.g. an unexpected error or
  an unmet `expected-error` with -verify-diagnostics); without a FileCheck stage that
  is the whole verdict, and every chunk has one.

Which program runs `mlir-opt` is a `Tool`: gpu-opt in process, or a configured `mlir-opt`.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from gpu_lsp.lit.checker import CheckOutcome, filecheck
from gpu_lsp.lit.runlines import RunLine, run_lines
from gpu_lsp.parser.api import split_ranges

STDIN = "<stdin>"
# What separates the chunks' outputs of a -split-input-file run.
SPLIT_OUTPUT = re.compile(r"^// -----\n", re.M)


@dataclass(frozen=True)
class ToolRun:
    """What one tool invocation did."""

    status: int
    stdout: str
    stderr: str


class Tool(Protocol):
    """The program a RUN line's `mlir-opt` stands for."""

    name: str

    def refuses(self, args: Sequence[str]) -> str | None:
        """Why these arguments cannot run (None when they can)."""

    def run(self, args: Sequence[str], text: str, name: str) -> ToolRun:
        """Run with `args` (no input file among them) on `text`, called `name` in diagnostics."""


class ExternalTool:
    """A real `mlir-opt` (the user's setting), fed through a temporary file."""

    def __init__(self, path: str, timeout: float = 60.0) -> None:
        self.name = path
        self.timeout = timeout

    def refuses(self, args: Sequence[str]) -> str | None:
        return None

    def run(self, args: Sequence[str], text: str, name: str) -> ToolRun:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / (Path(name).name if name != STDIN else "input.mlir")
            path.write_text(text, encoding="utf-8")
            try:
                proc = subprocess.run([self.name, *args, str(path)], capture_output=True, text=True, timeout=self.timeout)
            except (OSError, subprocess.TimeoutExpired) as exc:
                return ToolRun(127, "", f"{self.name}: {exc}\n")
        return ToolRun(proc.returncode, proc.stdout, proc.stderr.replace(str(path), name))


@dataclass(frozen=True)
class Chunk:
    """A `// -----` piece of the file (the whole file without -split-input-file)."""

    index: int
    start: int  # offset in the file
    end: int
    first_line: int  # 0-based line holding `start`
    last_line: int

    def padded(self, text: str) -> str:
        """The chunk's text after blank lines, so that its line numbers are the file's."""
        return "\n" * self.first_line + text[self.start : self.end]


@dataclass(frozen=True)
class ChunkResult:
    """One chunk under one RUN line."""

    run: int  # index into FileResult.runs
    chunk: Chunk
    passed: bool
    message: str  # FileCheck's or the tool's complaint ('' when it passed)
    check: CheckOutcome | None = None  # the FileCheck verdict, when FileCheck ran


@dataclass
class FileResult:
    """Every RUN line of a file and the results of its chunks."""

    path: str
    runs: list[RunLine]
    results: list[ChunkResult] = field(default_factory=list)
    outputs: dict[int, ToolRun] = field(default_factory=dict)  # the whole file's tool run, per RUN index

    @property
    def failed(self) -> list[ChunkResult]:
        return [r for r in self.results if not r.passed]


def chunks_of(text: str, split: bool) -> list[Chunk]:
    """The chunks a RUN line sees: cut like -split-input-file when it says so."""
    ranges = split_ranges(text) if split else [(0, len(text))]
    out = []
    for i, (start, end) in enumerate(ranges):
        first = text.count("\n", 0, start)
        out.append(Chunk(i, start, end, first, first + text.count("\n", start, end)))
    return out


def refusal(run: RunLine, tool: Tool) -> str | None:
    """Why a RUN line cannot run here (None when it can)."""
    if run.unsupported is not None:
        return run.unsupported
    if not run.stages or "%s" not in run.stages[0]:
        return "its first stage does not read %s"
    for stage in run.stages:
        why = tool.refuses([a for a in stage if a != "%s"])
        if why is not None:
            return f"{tool.name}: {why}"
    return None


def run_pipeline(run: RunLine, tool: Tool, text: str, name: str) -> ToolRun:
    """The tool stages of a RUN line, `%s` being `text`; stops at the first failing stage."""
    data, label = text, name
    result = ToolRun(0, text, "")
    errors = ""
    for stage in run.stages:
        result = tool.run([a for a in stage if a != "%s"], data, label)
        errors += result.stderr
        if result.status != 0:
            return ToolRun(result.status, result.stdout, errors)
        data, label = result.stdout, STDIN
    return ToolRun(result.status, result.stdout, errors)


def chunk_output_lines(stdout: str, chunk: Chunk, chunks: int) -> tuple[int, int] | None:
    """The 1-based first and last lines of a -split-input-file run's `stdout` that `chunk` (of
    `chunks`) printed; None when the output is not cut into that many pieces."""
    marks = list(SPLIT_OUTPUT.finditer(stdout))
    if len(marks) != chunks - 1:
        return None
    start = marks[chunk.index - 1].end() if chunk.index > 0 else 0
    end = marks[chunk.index].start() if chunk.index < len(marks) else len(stdout)
    return stdout.count("\n", 0, start) + 1, stdout.count("\n", 0, max(start, end - 1)) + 1


def _has_checks(text: str, prefixes: tuple[str, ...]) -> bool:
    names = "|".join(map(re.escape, prefixes))
    return re.search(rf"(^|[^\w-])({names})(-(DAG|COUNT-\d+|NOT|EMPTY|NEXT|SAME|LABEL))?(\{{LITERAL\}})?:", text, re.M) is not None


def run_file(text: str, path: str, tool: Tool, only: tuple[int, int] = (-1, -1)) -> FileResult:
    """Run every runnable RUN line of `text` (named `path`); `only` = (RUN index, chunk index), -1 for all."""
    result = FileResult(path, run_lines(text))
    for index, run in enumerate(result.runs):
        if only[0] not in (-1, index) or refusal(run, tool) is not None:
            continue
        whole = run_pipeline(run, tool, text, path)
        result.outputs[index] = whole
        chunks = chunks_of(text, run.split)
        for chunk in chunks:
            if only[1] not in (-1, chunk.index):
                continue
            padded = chunk.padded(text)
            if run.filecheck is not None and not _has_checks(text[chunk.start : chunk.end], run.prefixes):
                continue
            mine = whole if whole.status == 0 or not run.split else run_pipeline(run, tool, padded, path)
            if mine.status != 0:
                result.results.append(ChunkResult(index, chunk, False, mine.stderr or f"exit status {mine.status}"))
            elif run.filecheck is None:
                result.results.append(ChunkResult(index, chunk, True, ""))
            else:
                within = chunk_output_lines(whole.stdout, chunk, len(chunks)) if run.split else None
                outcome = filecheck(run.filecheck, padded, path, whole.stdout, within)
                result.results.append(ChunkResult(index, chunk, outcome.passed, "" if outcome.passed else outcome.message, outcome))
    return result
