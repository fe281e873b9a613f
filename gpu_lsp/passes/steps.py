"""A pipeline step by step: the IR after each pass, and where each printed op came from.

The steps of `a,b,func.func(c)` are the input and the IR after `a`, after `b` and after
`func.func(c)` (each item of the outermost pipeline is one step), each printed as
gpu-opt prints it. An op that survives from the source keeps its source range: each
step lists, for the first line of every op printed there, the source offset of that op.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.printer import Aliases, Formatter, Names, OpPrinter
from gpu_lsp.parser.api import parse_chunk, split_ranges
from gpu_lsp.passes.base import PassFailure
from gpu_lsp.passes.pipeline import Nest, PipelineError, parse_pipeline, run_nest


@dataclass(frozen=True)
class Step:
    """The IR after one step (the first step is the input)."""

    name: str
    text: str
    origins: tuple[tuple[int, int], ...]  # (0-based line of `text`, source offset of the op printed there)


class StepError(Exception):
    """The pipeline cannot run on this text; the message says why."""


class _Recorder(OpPrinter):
    """OpPrinter that notes where in its output each op with a source range starts."""

    def __init__(self, root: Operation, source: str) -> None:
        aliases = Aliases()
        aliases.collect(root)
        super().__init__(Names(root), Formatter(aliases), False, source)
        self.aliases = aliases
        self.starts: list[tuple[int, int]] = []  # (index into self.out, source offset)

    def op(self, op: Operation) -> None:
        if op.range is not None and op.parent is not None:
            self.starts.append((len(self.out), op.range.start))
        super().op(op)


def print_with_origins(module: Operation, source: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A module printed as gpu-opt prints it, and (line, source offset) of each op from the source."""
    import gpu_lsp.ir.printers  # noqa: F401  (registers the custom printers and name hints)

    p = _Recorder(module, source)
    p.op(module)
    header = p.aliases.header()
    line = header.count("\n")
    origins: list[tuple[int, int]] = []
    done = 0
    for index, offset in p.starts:
        line += sum(piece.count("\n") for piece in p.out[done:index])
        done = index
        origins.append((line, offset))
    return header + "".join(p.out) + "\n", tuple(origins)


def chunk_range(text: str, offset: int) -> tuple[int, int]:
    """(start, end) of the `// -----` chunk of `text` holding `offset` (the whole text without markers)."""
    return next(((s, e) for s, e in split_ranges(text) if s <= offset <= e), (0, len(text)))


def pipeline_steps(text: str, pipeline: str, offset: int = 0) -> list[Step]:
    """The steps of `pipeline` on the `// -----` chunk of `text` holding `offset` (the whole text
    without markers); raises StepError when the pipeline or the chunk cannot run."""
    try:
        nest = parse_pipeline(pipeline)
    except (PipelineError, KeyError) as exc:
        raise StepError(f"invalid pass pipeline '{pipeline}': {exc}") from None
    start, end = chunk_range(text, offset)
    chunk = parse_chunk(text, start, end)
    errors = [d for d in chunk.diagnostics if d.severity >= Severity.ERROR]
    if errors:
        raise StepError(f"the chunk does not parse: {errors[0].message}")
    module = chunk.module
    steps = [Step("input", *print_with_origins(module, text))]
    for item in nest.items:
        try:
            run_nest(Nest(nest.op_name, [item]), module)
        except PassFailure as exc:
            first = exc.diagnostics[0].message if exc.diagnostics else "the pass failed"
            raise StepError(f"{item}: {first}") from None
        steps.append(Step(str(item), *print_with_origins(module, text)))
    return steps
