"""Run a program: pick a backend, check what the runner supports, execute the entry function."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import SymbolRefAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.traits import REGION_RETURNS
from gpu_lsp.parser.api import parse_chunk, split_ranges
from gpu_lsp.runner import ops_affine, ops_core, ops_device, ops_host, ops_vector  # noqa: F401  (importing registers the handlers)
from gpu_lsp.runner.access_log import Conflict, Focus, Recorder, describe
from gpu_lsp.runner.backend_numpy import NumpyBackend
from gpu_lsp.runner.entry_args import entry_values
from gpu_lsp.runner.errors import Locator, NoDevice, RunError, Unsupported, Warning_
from gpu_lsp.runner.interp import BRANCHES, HANDLERS, Ctx, Interpreter
from gpu_lsp.runner.memory import MemoryPool, MemRef
from gpu_lsp.runner.program import Program
from gpu_lsp.runner.runtime import Runtime, format_g, print_memref
from gpu_lsp.runner.tokens import Tracker
from gpu_lsp.runner.trace import TracingTracker

BACKENDS = ("auto", "cupy", "numpy")
# Ops that only structure a program and never execute by themselves.
STRUCTURE = frozenset({"builtin.module", "gpu.module", "func.func", "gpu.func", "memref.global", "scf.reduce.return", "scf.forall.in_parallel"})


@dataclass
class RunResult:
    """What a run printed and how it ended."""

    stdout: str
    stderr: str
    exit_code: int
    backend: str
    error: RunError | None = None
    warnings: list[Warning_] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    timings: list[tuple[str, float]] = field(default_factory=list)
    note: str | None = None
    trace: dict | None = None  # Chrome trace-event JSON, when asked for
    races: list[Conflict] = field(default_factory=list)  # conflicting access pairs, with racecheck on


def select_backend(name, chunk_threads: int | None = None):
    """(backend, note): `auto` falls back to NumPy with a one-line note when no GPU is usable.

    `name` may also be a backend object (anything with the NumpyBackend interface).
    """
    if not isinstance(name, str):
        return name, None
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}")
    if name in ("auto", "cupy"):
        from gpu_lsp.runner.cupy_backend import CupyBackend, probe

        reason = probe()
        if reason is None:
            return CupyBackend(), None
        if name == "cupy":
            raise NoDevice(f"no GPU: {reason}")
        note = f"no GPU ({reason}); running on the NumPy backend"
    else:
        note = None
    backend = NumpyBackend() if chunk_threads is None else NumpyBackend(chunk_threads)
    return backend, note


def reachable_ops(program: Program, entry: Operation) -> list[Operation]:
    """Every op the entry function may execute: its body, callees and launched kernels."""
    todo = [entry]
    seen: set[int] = set()
    out: list[Operation] = []
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        for op in fn.nested():
            out.append(op)
            ref = None
            if op.name in ("func.call", "func.constant"):
                ref = op.get_attr("callee") or op.get_attr("value")
                if isinstance(ref, SymbolRefAttr):
                    target = program.lookup_function(op, ref)
                    if target is not None and target.regions and target.regions[0].blocks:
                        todo.append(target)
            elif op.name == "gpu.launch_func":
                ref = op.get_attr("kernel")
                if isinstance(ref, SymbolRefAttr) and ref.nested:
                    with contextlib.suppress(RunError):
                        todo.append(program.lookup_kernel(op, ref))
    return out


def check_supported(ops: list[Operation]) -> None:
    for op in ops:
        name = op.name
        for v in list(op.operands) + list(op.results):
            if isinstance(v.type, (T.TensorType, T.UnrankedTensorType)):
                raise Unsupported(f"'{name}' on {v.type} values is not supported by the runner (tensors are not)", op)
            if isinstance(v.type, T.VectorType) and in_kernel(op):
                raise Unsupported(f"'{name}' on {v.type} values in a kernel is not supported by the runner (vectors are, in host code)", op)
        if name in HANDLERS:
            ops_core.precheck(op)
            continue
        if name in REGION_RETURNS or name in BRANCHES or name in STRUCTURE:
            continue
        if not op.known:
            raise Unsupported(f"operation '{name}' is not known to gpu-lsp, so the runner cannot execute it", op)
        raise Unsupported(f"'{name}' is not supported by the runner", op)


def in_kernel(op: Operation) -> bool:
    return any(a.name in ("gpu.func", "gpu.launch") for a in op.ancestors())


def _format_result(value) -> str:
    if isinstance(value, (np.floating, float)):
        return format_g(float(value))
    if isinstance(value, (np.integer, int, np.bool_, bool)):
        return str(int(value))
    return str(value)


def run_text(text: str, *, split: bool = False, entry: str = "main", **kwargs) -> RunResult:
    """Run `entry` of the program in `text` (see `run_program` for the options).

    With `split`, the text is cut at `// -----` like `mlir-opt -split-input-file` and every
    chunk that defines the entry runs on its own, in order (locations stay those of the file).
    """
    chunks = [(s, e) for s, e in split_ranges(text) if _defines(text, s, e, entry)] if split else []
    if not chunks:
        return run_program(text, entry=entry, **kwargs)
    results = [run_program(_only(text, s, e), entry=entry, **kwargs) for s, e in chunks]
    first_error = next((r for r in results if r.error is not None), None)
    return RunResult(
        "".join(r.stdout for r in results),
        "".join(r.stderr for r in results),
        max(r.exit_code for r in results),
        results[-1].backend,
        first_error.error if first_error else None,
        [w for r in results for w in r.warnings],
        [d for r in results for d in r.diagnostics],
        [t for r in results for t in r.timings],
        next((r.note for r in results if r.note), None),
        races=[c for r in results for c in r.races],
    )


def _defines(text: str, start: int, end: int, entry: str) -> bool:
    chunk = parse_chunk(text, start, end)
    try:
        Program(text, chunk).entry(entry)
    except RunError:
        return False
    return True


def _only(text: str, start: int, end: int) -> str:
    """`text` with everything outside [start, end) blanked, lines and columns kept."""
    blank = re.compile(r"[^\n]")
    return blank.sub(" ", text[:start]) + text[start:end] + blank.sub(" ", text[end:])


def run_program(
    text: str,
    *,
    filename: str = "<stdin>",
    entry: str = "main",
    backend="auto",
    timeout: float | None = None,
    max_memory: int | None = None,
    stdout: Callable[[str], None] | None = None,
    stderr: Callable[[str], None] | None = None,
    chunk_threads: int | None = None,
    trace: bool = False,
    args: list[str] | None = None,
    print_args: bool = False,
    racecheck: int | None = None,
    racecheck_focus: frozenset[Focus] | None = None,
) -> RunResult:
    """Run `entry` of the program in `text` with `args` (`--arg` texts, see entry_args); output goes to the callbacks and into the result.

    With `print_args`, every memref argument is printed after the entry's results, as `printMemref` prints it.
    `racecheck` (a number of conflicting pairs to keep) records every kernel access on the NumPy
    backend and reports the first conflicting pair (racecheck.py); the run then exits with 1.
    `racecheck_focus` records only the accesses it names (racecheck.py).
    """
    out_parts: list[str] = []
    err_parts: list[str] = []

    def out(s: str) -> None:
        out_parts.append(s)
        if stdout is not None:
            stdout(s)

    def err(s: str) -> None:
        err_parts.append(s)
        if stderr is not None:
            stderr(s)

    locator = Locator(text, filename)
    program, errors = Program.load(text)
    if errors:
        for d in errors:
            line, col = locator.lines.position(d.range.start)
            err(f"{filename}:{line + 1}:{col + 1}: error: {d.message}\n")
        err(f"{filename}: error: not running a program that does not verify\n")
        return RunResult("".join(out_parts), "".join(err_parts), 1, str(backend), diagnostics=errors)

    if racecheck is not None:
        if backend == "cupy":
            err("gpu-run: --racecheck records accesses on the NumPy backend only\n")
            return RunResult("".join(out_parts), "".join(err_parts), 1, str(backend))
        backend = "numpy" if isinstance(backend, str) else backend
    try:
        dev, note = select_backend(backend, chunk_threads)
    except NoDevice as exc:
        err(f"gpu-run: {exc}\n")
        return RunResult("".join(out_parts), "".join(err_parts), 1, str(backend), note=str(exc))
    if note:
        err(f"gpu-run: {note}\n")

    tracker = TracingTracker(locator.where) if trace else Tracker(locator.where)
    runtime = Runtime(out, err)
    deadline = None if timeout is None else time.monotonic() + timeout
    it = Interpreter(program, dev, runtime, tracker, locator, deadline, MemoryPool(max_memory), out)
    if racecheck is not None:
        it.racecheck = Recorder(locator, racecheck, focus=racecheck_focus)
    error: RunError | None = None
    saved_errors = np.seterr(all="ignore")  # wrapping integers and IEEE specials are the semantics
    try:
        fn = program.entry(entry)
        values = entry_values(fn, list(args or []), it.pool)
        ops = reachable_ops(program, fn)
        check_supported(ops)
        prepare = getattr(dev, "prepare", None)
        if prepare is not None:
            try:
                prepare(program, ops)
            except Unsupported as exc:
                if backend != "auto":
                    raise
                dev = NumpyBackend() if chunk_threads is None else NumpyBackend(chunk_threads)
                it.backend = dev
                err(f"gpu-run: {locator.where(exc.op)}: {exc.message}; running on the NumPy backend\n")
        ctx = Ctx(None, False, it.host_access)
        results = it.call(fn, values, ctx, None)
        dev.synchronize()
        for value in results:
            out(_format_result(value) + "\n")
        if print_args:
            for k, value in enumerate(values):
                if isinstance(value, MemRef) and isinstance(value.type, T.MemRefType):
                    out(f"argument #{k} ({value.type}) after the run:\n{print_memref(value, value.type.element, unranked=False)}")
    except RunError as exc:
        error = exc
    except RecursionError:
        error = RunError("the program recursed too deeply")
    except MemoryError:
        error = RunError(
            "the runner ran out of memory (use --max-memory to cap the program's allocations)"
            if max_memory is None
            else f"the program needed more memory than --max-memory {max_memory} allows (the OS limit stopped it)"
        )
    finally:
        np.seterr(**saved_errors)
    warnings = tracker.finish()
    for w in warnings:
        err(locator.format("warning", w.message, w.op) + "\n")
    if error is not None:
        err(locator.format("error", error.message, error.op) + "\n")
    races = it.racecheck.conflicts if it.racecheck is not None else []
    if races:
        line, col = races[0].second.location
        more = f" ({len(races)} conflicting pairs found)" if len(races) > 1 else ""
        err(f"{filename}:{line}:{col}: error: {describe(races[0], filename)}{more}\n")
    diagnostics = [locator.warning_diagnostic(w) for w in warnings]
    if error is not None:
        diagnostics.append(locator.diagnostic(error))
    return RunResult(
        "".join(out_parts),
        "".join(err_parts),
        1 if error is not None or races else 0,
        dev.name,
        error,
        warnings,
        diagnostics,
        list(dev.timings),
        note,
        tracker.document(dev.name) if isinstance(tracker, TracingTracker) else None,
        races,
    )


def run_file(path: str, **kwargs) -> RunResult:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return run_text(text, filename=path, **kwargs)

