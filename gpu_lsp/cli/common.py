"""What every console script shares: the `--version` line, a quiet end when its output pipe closes, the file argument."""

from __future__ import annotations

import argparse
import functools
import os
import signal
import sys
from collections.abc import Callable

from gpu_lsp import __version__, compiled
from gpu_lsp.diagnostics.mlir_versions import NEWEST

# What a shell reports for a process killed by SIGPIPE (128 + 13), as `yes | head` does.
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE


def version_line(prog: str) -> str:
    """`gpu-lint 0.1.0 (MLIR up to LLVM 23, compiled)`: the program, the package version, the newest MLIR
    described, and whether the parser and the checks are compiled (setup.py) or pure Python."""
    build = "compiled" if compiled() else "pure Python"
    return f"{prog} {__version__} (MLIR up to LLVM {NEWEST}, {build})\n"


def print_version(prog: str) -> int:
    """Print the version line on standard output; the exit status (0)."""
    sys.stdout.write(version_line(prog))
    return 0


def quiet_on_closed_pipe(main: Callable[..., int]) -> Callable[..., int]:
    """Wrap a console entry point: a reader that closes the pipe early (`| head`) ends it with status 141, silently."""

    @functools.wraps(main)
    def wrapper(*args: object, **kwargs: object) -> int:
        try:
            status = main(*args, **kwargs)
            sys.stdout.flush()
            return status
        except BrokenPipeError:
            # Python flushes stdout again at exit; point it at /dev/null so that flush cannot fail.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
            return EXIT_BROKEN_PIPE

    return wrapper


def file_parser(prog: str, description: str) -> argparse.ArgumentParser:
    """An argument parser whose first argument is one .mlir file (`-`: standard input)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("file", help="the .mlir file ('-' for standard input)")
    return parser
