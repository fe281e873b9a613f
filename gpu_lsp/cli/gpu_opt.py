"""gpu-opt: an mlir-opt-compatible driver: parse, verify, run passes, print.

    gpu-opt [-split-input-file] [-allow-unregistered-dialect] [-mlir-print-op-generic]
            [-verify-diagnostics] [-mlir-version=N] [-PASS[=OPTIONS] ...] [-o OUT] [FILE|-]
    gpu-opt --lit [--mlir-opt PATH] [-v | --json] [--update RUN:CHUNK] FILE...   (cli/gpu_lit.py)

Options take one dash or two. Each chunk (the whole file, or each `// -----`
piece with -split-input-file) is parsed and verified by `verify_chunk`; passes
run in command-line order on a chunk without errors; the chunk is then printed
like mlir-opt prints it. Errors and warnings go to standard error as
`FILE:LINE:COL: error: MESSAGE` with the source line and a caret, and the exit
status is 1 (2 for a usage error or an unreadable input, unwritable output). With -verify-diagnostics the diagnostics are
matched against `expected-*` annotations instead and the exit status says
whether they all matched.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from gpu_lsp.analysis import verify_chunk
from gpu_lsp.cli.common import EXIT_USAGE, CliError, console_entry, print_version, read_text, write_text
from gpu_lsp.cli.verify_diagnostics import Reported, VerifyProblem, check, parse_expectations
from gpu_lsp.diagnostics.mlir_versions import NEWEST, check_version
from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.ir.core import Operation
from gpu_lsp.lint.op_definitions import use_op_definitions
from gpu_lsp.lit.runner import ToolRun
from gpu_lsp.parser.api import Chunk, parse
from gpu_lsp.passes.catalog import PASSES
from gpu_lsp.passes.driver import PipelineError, flag_pass, option_error, pass_pipeline
from gpu_lsp.text import LineIndex

USAGE = (
    "usage: gpu-opt [-split-input-file] [-allow-unregistered-dialect] [-mlir-print-op-generic]\n"
    "               [-verify-diagnostics] [-mlir-version=N] [-op-definitions=FILE ...]\n"
    "               [-PASS[=OPTIONS] ...] [-o OUT] [FILE|-]\n"
    "               [--version] [--help]\n"
    "       gpu-opt --lit [--mlir-opt PATH] [-v | --json] [--update RUN:CHUNK] FILE..."
)
SPLIT_MARKER = "// -----"

# A pass flag or pipeline as gpu-opt runs it: `run(module, **options)` rewrites the module in
# place and returns diagnostics (an error-severity one fails the chunk).
PassFn = Callable[..., list[Diagnostic]]


class UsageError(Exception):
    """A command line gpu-opt does not understand."""


@dataclass
class Options:
    """The parsed command line."""

    input: str = "-"
    output: str | None = None
    split: bool = False
    allow_unregistered: bool = False
    generic: bool = False
    verify_diagnostics: bool = False
    mlir_version: int = NEWEST
    op_definitions: list[str] = field(default_factory=list)  # a project's own ops (docs/downstream-dialects.md)
    passes: list[tuple[str, PassFn, dict[str, str]]] = field(default_factory=list)


FLAGS = {
    "split-input-file": "split",
    "allow-unregistered-dialect": "allow_unregistered",
    "mlir-print-op-generic": "generic",
    "verify-diagnostics": "verify_diagnostics",
}


def parse_pass_options(text: str) -> dict[str, str]:
    """`a=1 b="x y"` (mlir-opt pass options; braces around the list are allowed)."""
    text = text.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    out: dict[str, str] = {}
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] == " ":
            i += 1
        if i >= n:
            break
        eq = text.find("=", i)
        space = text.find(" ", i)
        if eq < 0 or (0 <= space < eq):
            end = n if space < 0 else space
            out[text[i:end]] = "true"
            i = end
            continue
        key = text[i:eq]
        i = eq + 1
        if i < n and text[i] in "\"'":
            quote = text[i]
            end = text.find(quote, i + 1)
            end = n if end < 0 else end
            out[key] = text[i + 1 : end]
            i = end + 1
        else:
            end = text.find(" ", i)
            end = n if end < 0 else end
            out[key] = text[i:end]
            i = end
    return out


def _option_value(argv: list[str], i: int, given: str | None, option: str, what: str) -> tuple[str, int]:
    """The value of `option`: `given` after its `=`, else the argument at `i`; and the index after it."""
    if given is not None:
        return given, i
    if i >= len(argv):
        raise UsageError(f"option {option} needs {what}")
    return argv[i], i + 1


def parse_args(argv: list[str]) -> Options:
    """Read mlir-opt style arguments; raises UsageError."""
    opts = Options()
    inputs: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            inputs.append(arg)
            continue
        name = arg[2:] if arg.startswith("--") else arg[1:]
        name, eq, value = name.partition("=")
        if name in ("h", "help"):
            raise SystemExit(_help())
        if name == "version":
            raise SystemExit(print_version("gpu-opt"))
        if name == "mlir-version":
            value, i = _option_value(argv, i, value if eq else None, "--mlir-version", "a version")
            try:
                opts.mlir_version = check_version(int(value) if value.isdigit() else value)
            except ValueError as exc:
                raise UsageError(f"option --mlir-version {exc}") from None
        elif name == "op-definitions":
            value, i = _option_value(argv, i, value if eq else None, "--op-definitions", "a file name")
            opts.op_definitions.append(value)
        elif name == "o":
            value, i = _option_value(argv, i, value if eq else None, "-o", "a file name")
            opts.output = value
        elif name in FLAGS:
            if eq and not (name == "split-input-file" and value == SPLIT_MARKER):
                raise UsageError(f"option -{name} takes no value")
            setattr(opts, FLAGS[name], True)
        elif name == "pass-pipeline":
            # gpu_lsp/passes: a textual pipeline, e.g. 'builtin.module(func.func(gpu-async-region))'.
            value, i = _option_value(argv, i, value if eq else None, "--pass-pipeline", "a pipeline")
            try:
                opts.passes.append((name, pass_pipeline(value), {}))
            except PipelineError as exc:
                raise UsageError(f"invalid pass pipeline '{value}': {exc}") from None
        elif (runner := flag_pass(name)) is not None:
            options = parse_pass_options(value) if eq else {}
            problem = option_error(name, options)
            if problem is not None:
                raise UsageError(problem)
            opts.passes.append((name, runner, options))
        else:
            raise UsageError(f"unknown option '{arg}'")
    if len(inputs) > 1:
        raise UsageError("only one input file is allowed")
    if inputs:
        opts.input = inputs[0]
    return opts


def _help() -> int:
    sys.stdout.write(USAGE + "\n")
    passes = sorted(PASSES, key=lambda p: p.name)
    width = max((len(p.name) for p in passes), default=0)
    sys.stdout.write("passes:\n" + "".join(f"  -{p.name:<{width}}  {p.summary}".rstrip() + "\n" for p in passes))
    return 0


# --- diagnostics ------------------------------------------------------------------------------

_KINDS = {Severity.ERROR: "error", Severity.WARNING: "warning"}


def is_mlir_diagnostic(d: Diagnostic) -> bool:
    """What mlir-opt itself would report: GPU0xx/GPU1xx errors and warnings, not linter findings."""
    return d.severity in _KINDS and d.code[:4] in ("GPU0", "GPU1")


class Reporter:
    """Formats positions and diagnostics of one input buffer like llvm::SourceMgr."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        self.index = LineIndex(text)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based line and (byte) column of an offset."""
        line, col = self.index.position(offset)
        prefix = self.index.line_text(line)[:col]
        return line + 1, len(prefix.encode("utf-8")) + 1

    def reported(self, d: Diagnostic) -> Reported:
        line, col = self.position(d.range.start)
        notes = []
        for rel in d.related:
            nline, ncol = self.position(rel.range.start)
            notes.append(Reported("note", rel.message, nline, ncol))
        return Reported(_KINDS.get(d.severity, "remark"), d.message, line, col, notes)

    def message(self, line: int, col: int, kind: str, message: str, width: int = 0) -> str:
        """`FILE:LINE:COL: kind: message`, the source line and a caret (byte columns)."""
        if line <= 0:
            return f"{self.name}: {kind}: {message}\n"
        head = f"{self.name}:{line}:{col}: {kind}: {message}\n"
        if line - 1 >= len(self.index.starts):
            return head
        source = self.index.line_text(line - 1).rstrip("\r")
        raw = source.encode("utf-8")
        pad = raw[: max(col - 1, 0)].decode("utf-8", "replace")
        marker = "".join("\t" if ch == "\t" else " " for ch in pad) + "^" + "~" * max(width - 1, 0)
        return head + source + "\n" + marker + "\n"

    def diagnostic(self, r: Reported) -> str:
        out = self.message(r.line, r.col, r.kind, r.message)
        for n in r.notes:
            out += self.message(n.line, n.col, n.kind, n.message)
        return out

    def problem(self, p: VerifyProblem) -> str:
        return self.message(p.line, p.col, "error", p.message, p.width)


# --- the driver -------------------------------------------------------------------------------


@dataclass
class ChunkResult:
    """What one chunk produced: printed module (None on failure) and its diagnostics."""

    output: str | None
    diagnostics: list[Diagnostic]


def _verify(chunk: Chunk, text: str, opts: Options) -> list[Diagnostic]:
    found = verify_chunk(chunk, allow_unregistered=opts.allow_unregistered, text=text, mlir_version=opts.mlir_version)
    return [d for d in found if is_mlir_diagnostic(d)]


def _run_passes(module: Operation, opts: Options) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for _name, run, options in opts.passes:
        produced = run(module, **options)
        out.extend(produced)
        if any(d.severity >= Severity.ERROR for d in produced):
            break
    return out


def process_chunk(chunk: Chunk, text: str, opts: Options) -> ChunkResult:
    """Verify, run passes and print one chunk."""
    from gpu_lsp.ir.printers import print_module

    diags = _verify(chunk, text, opts)
    if any(d.severity >= Severity.ERROR for d in diags):
        return ChunkResult(None, diags)
    if opts.passes:
        diags = diags + _run_passes(chunk.module, opts)
        if any(d.severity >= Severity.ERROR for d in diags):
            return ChunkResult(None, diags)
    return ChunkResult(print_module(chunk.module, generic=opts.generic, source=text), diags)


def run(opts: Options, text: str, name: str, out: TextIO, err: TextIO) -> int:
    """Process a buffer; writes the printed chunks to `out`, diagnostics to `err`; the exit status."""
    reporter = Reporter(name, text)
    parsed = parse(text, split=opts.split)
    outputs: list[str] = []
    failed = False
    verify_failed = False
    for chunk in parsed.chunks:
        result = process_chunk(chunk, text, opts)
        reported = [reporter.reported(d) for d in result.diagnostics]
        if opts.verify_diagnostics:
            first_line = reporter.position(chunk.start)[0]
            lines = text[chunk.start : chunk.end].split("\n")
            expectations, problems = parse_expectations(lines, first_line)
            problems += check(expectations, reported)
            for p in problems:
                err.write(reporter.problem(p))
            verify_failed |= bool(problems)
        else:
            for r in reported:
                err.write(reporter.diagnostic(r))
        if result.output is None:
            failed = True
            outputs.append("")
        else:
            outputs.append(result.output)
    status = int(verify_failed) if opts.verify_diagnostics else int(failed)
    if opts.split:
        out.write((SPLIT_MARKER + "\n").join(outputs))
    elif outputs[0]:
        out.write(outputs[0])
    return status


class InProcess:
    """gpu-opt as the `mlir-opt` of a lit RUN line (gpu_lsp/lit): this driver, in this process."""

    name = "gpu-opt"

    def refuses(self, args: Sequence[str]) -> str | None:
        try:
            opts = parse_args(list(args))
        except UsageError as exc:
            return str(exc)
        except SystemExit:
            return "only prints its help or version"
        return None if opts.output in (None, "-") else "writes to a file (-o)"

    def run(self, args: Sequence[str], text: str, name: str) -> ToolRun:
        import io

        out, err = io.StringIO(), io.StringIO()
        status = run(parse_args(list(args)), text, name, out, err)
        return ToolRun(status, out.getvalue(), err.getvalue())


@console_entry("gpu-opt")
def main(argv: list[str] | None = None) -> int:
    """Console entry point (`gpu-opt`)."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("--lit", "-lit"):
        from gpu_lsp.cli.gpu_lit import main as lit_main

        return lit_main(args[1:], InProcess())
    try:
        opts = parse_args(args)
    except UsageError as exc:
        raise CliError(f"{exc} (see gpu-opt --help)", EXIT_USAGE) from None
    except SystemExit as done:
        return int(done.code or 0)
    declared = use_op_definitions(opts.op_definitions)
    if declared:
        sys.stderr.write("".join(f"{line}\n" for line in declared))
        return EXIT_USAGE
    text, name = read_text(opts.input), "<stdin>" if opts.input == "-" else opts.input
    if opts.output is None or opts.output == "-":
        return run(opts, text, name, sys.stdout, sys.stderr)
    import io

    buffer = io.StringIO()
    status = run(opts, text, name, buffer, sys.stderr)
    if status == 0:
        write_text(opts.output, buffer.getvalue())
    return status


if __name__ == "__main__":
    sys.exit(main())
