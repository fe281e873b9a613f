"""`gpu-run`: execute a host function of an MLIR file and its kernels, printing what the program prints."""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
from pathlib import Path

from gpu_lsp.cli.common import CliError, console_entry, file_parser, read_text, version_line, write_text
from gpu_lsp.runner import BACKENDS

_SIZE = re.compile(r"^\s*(\d+)\s*([kKmMgGtT]?)(i?[bB])?\s*$")
# The limits a run has unless --timeout / --max-memory say otherwise (`none` lifts one); README, "gpu-run".
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_MEMORY = "4G"
NO_LIMIT = "none"


def parse_size(text: str) -> int:
    """`1048576`, `512M`, `2G`, `64KiB` to bytes."""
    m = _SIZE.match(text)
    if not m:
        raise argparse.ArgumentTypeError(f"not a size in bytes: {text!r}")
    scale = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[m.group(2).lower()]
    return int(m.group(1)) * scale


def memory_limit(text: str) -> int | None:
    """`--max-memory`: a size above zero, or `none` (no cap)."""
    if text.strip().lower() == NO_LIMIT:
        return None
    size = parse_size(text)
    if size <= 0:
        raise argparse.ArgumentTypeError(f"must be above zero, or '{NO_LIMIT}' (got {text!r})")
    return size


def time_limit(text: str) -> float | None:
    """`--timeout`: seconds above zero, or `none` (no limit)."""
    if text.strip().lower() == NO_LIMIT:
        return None
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not seconds > 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above zero, or '{NO_LIMIT}' (got {text!r})")
    return seconds


def build_parser() -> argparse.ArgumentParser:
    p = file_parser(
        "gpu-run",
        "Run a host function of an MLIR file (default @main) and the GPU kernels it launches, "
        "on a GPU through CuPy or on the CPU with NumPy; prints the program's output like mlir-runner.",
    )
    p.add_argument("--entry", default="main", help="the func.func to run, with or without the @ (default: main)")
    p.add_argument(
        "--arg",
        action="append",
        default=[],
        metavar="VALUE",
        help="one per argument of the entry function, in order: a number for a scalar; for a memref a shape "
        "(4x8: zeros), SHAPE:VALUE (a constant), SHAPE:range (0, 1, 2, ...) or a .npy file",
    )
    p.add_argument(
        "--split-input-file",
        action="store_true",
        help="cut the file at '// -----' lines and run every piece that defines the entry function",
    )
    p.add_argument("--backend", choices=BACKENDS, default="auto", help="auto picks cupy when a GPU is usable, else numpy")
    p.add_argument(
        "--timeout", type=time_limit, default=DEFAULT_TIMEOUT, metavar="S",
        help=f"stop the program after S seconds (default: {DEFAULT_TIMEOUT:g}; '{NO_LIMIT}': no limit)",
    )
    p.add_argument(
        "--max-memory", type=memory_limit, default=parse_size(DEFAULT_MAX_MEMORY), metavar="BYTES",
        help=f"cap the program's allocations (e.g. 512M; default: {DEFAULT_MAX_MEMORY}; '{NO_LIMIT}': no cap)",
    )
    p.add_argument(
        "--no-print-args", dest="print_args", action="store_false",
        help="do not print the memref arguments given with --arg after the run",
    )
    p.add_argument("--time", action="store_true", help="report each kernel's time on standard error")
    p.add_argument(
        "--racecheck", action="store_true", help="record kernel accesses (NumPy backend) and report the first race; exit 1 if any"
    )
    p.add_argument("--trace", metavar="PATH", help="write the run as Chrome trace-event JSON (Perfetto, chrome://tracing)")
    p.add_argument("--version", action="version", version=version_line("gpu-run").rstrip())
    p.add_argument("--emit-cuda", action="store_true", help="print the generated CUDA C of every kernel instead of running")
    return p


@console_entry("gpu-run")
def main(argv: list[str] | None = None) -> int:
    """The gpu-run program (`argv` None: the command line, in a process of its own, which the OS
    limits apply to) or a library call with `argv` (the calling process's limits stay as they are)."""
    own_process = argv is None
    args = build_parser().parse_args(argv)
    text = read_text(args.file)
    if args.trace is not None and not Path(args.trace).absolute().parent.is_dir():
        raise CliError(f"cannot write {args.trace}: no such folder")
    filename = "<stdin>" if args.file == "-" else args.file
    if args.emit_cuda:
        from gpu_lsp.runner.codegen import emit_program_cuda

        source, errors = emit_program_cuda(text, filename)
        sys.stdout.write(source)
        for line in errors:
            print(line, file=sys.stderr)
        return 1 if errors else 0

    from gpu_lsp.runner import run_text
    from gpu_lsp.runner.errors import RunTimeout
    from gpu_lsp.runner.oslimits import enforce

    alarm = own_process and args.timeout is not None and hasattr(signal, "SIGALRM")
    if own_process:
        enforce(args.backend, args.max_memory, args.timeout)  # the OS backs --max-memory and --timeout
    from gpu_lsp.runner.racecheck import MAX_CONFLICTS

    if alarm:
        # A hard stop a little after the interpreter's own deadline (which it checks between ops).
        def on_alarm(_signum, _frame):
            raise RunTimeout("the program ran past its time limit")

        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, args.timeout + 1.0)

    def out(s: str) -> None:
        sys.stdout.write(s)

    def err(s: str) -> None:
        sys.stdout.flush()
        sys.stderr.write(s)
        sys.stderr.flush()

    try:
        result = run_text(
            text,
            filename=filename,
            entry=args.entry.removeprefix("@"),
            args=args.arg,
            split=args.split_input_file,
            backend=args.backend,
            timeout=args.timeout,
            max_memory=args.max_memory,
            stdout=out,
            stderr=err,
            trace=args.trace is not None,
            print_args=args.print_args,
            racecheck=MAX_CONFLICTS if args.racecheck else None,
        )
    except RunTimeout as exc:
        sys.stdout.flush()
        print(f"{filename}: error: {exc.message}", file=sys.stderr)
        return 1
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
    sys.stdout.flush()
    if args.trace is not None and result.trace is not None:
        write_text(args.trace, json.dumps(result.trace))
    if args.time:
        for name, seconds in result.timings:
            print(f"gpu-run: kernel {name} ({result.backend}): {seconds * 1e3:.3f} ms", file=sys.stderr)
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
