"""What every console script shares: the `--version` line, the error contract (exit statuses, one-line errors), the file argument.

Exit statuses, the same for every tool (README, "Exit status"): 0 ok; 1 findings or an error in the
program checked or run; 2 a usage error or an input/output failure; 130 interrupted (Ctrl-C); 141 the
reader of the output went away (`| head`).
"""

from __future__ import annotations

import argparse
import functools
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NoReturn

from gpu_lsp import __version__, compiled
from gpu_lsp.diagnostics.mlir_versions import NEWEST

if TYPE_CHECKING:
    from gpu_lsp.lint.discovery import Source

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
# What a shell reports for a process stopped by SIGINT (128 + 2) or killed by SIGPIPE (128 + 13), as `yes | head` does.
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE


class CliError(Exception):
    """A failure the user can act on (bad option, unreadable input, unwritable output): one line, then `status`."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class CliParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line `PROG: error: MESSAGE` (exit status 2), without the usage text."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see {self.prog} --help)")


def version_line(prog: str) -> str:
    """`gpu-lint 0.1.0 (MLIR up to LLVM 23, compiled)`: the program, the package version, the newest MLIR
    described, and whether the parser and the checks are compiled (setup.py) or pure Python."""
    build = "compiled" if compiled() else "pure Python"
    return f"{prog} {__version__} (MLIR up to LLVM {NEWEST}, {build})\n"


def print_version(prog: str) -> int:
    """Print the version line on standard output; the exit status (0)."""
    sys.stdout.write(version_line(prog))
    return 0


def _silence_stdout() -> None:
    """Point standard output at /dev/null: Python flushes it again at exit, and that flush must not fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def console_entry(prog: str) -> Callable[[Callable[..., int]], Callable[..., int]]:
    """Wrap a console entry point in the error contract: a CliError is one line `PROG: error: ...` and its status,
    Ctrl-C is `PROG: error: interrupted` and 130, and a reader that closes the pipe early (`| head`) ends it with
    status 141, silently. Never a traceback for any of them."""

    def decorate(main: Callable[..., int]) -> Callable[..., int]:
        @functools.wraps(main)
        def wrapper(*args: object, **kwargs: object) -> int:
            try:
                status = main(*args, **kwargs)
                sys.stdout.flush()
                return status
            except BrokenPipeError:
                _silence_stdout()
                return EXIT_BROKEN_PIPE
            except CliError as exc:
                _flush_quietly()
                sys.stderr.write(f"{prog}: error: {exc.message}\n")
                return exc.status
            except KeyboardInterrupt:
                _flush_quietly()
                sys.stderr.write(f"{prog}: error: interrupted\n")
                return EXIT_INTERRUPTED

        return wrapper

    return decorate


def _flush_quietly() -> None:
    """Flush what the program printed before an error; a closed pipe only silences it."""
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        _silence_stdout()


def read_text(path: str, stdin: BinaryIO | None = None) -> str:
    """The UTF-8 text of `path` ('-': `stdin`, standard input by default); CliError (status 2) for a missing,
    unreadable, binary or non-UTF-8 file or a folder."""
    return read_source(path, stdin).text


def read_source(path: str, stdin: BinaryIO | None = None, name: str = "") -> Source:
    """`read_text`, with whether the file starts with a byte order mark (to write it back with one); messages call
    the file `name` (default: `path`)."""
    from gpu_lsp.lint.discovery import read_named

    name = name or ("<stdin>" if path == "-" else path)
    source = read_named(name, (stdin or sys.stdin.buffer).read if path == "-" else Path(path).read_bytes)
    if isinstance(source, str):
        raise CliError(source)
    return source


def write_text(path: str, text: str) -> None:
    """Write `text` to the file `path`; CliError (status 2) when it cannot be written."""
    try:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None


def file_parser(prog: str, description: str) -> argparse.ArgumentParser:
    """An argument parser whose first argument is one .mlir file (`-`: standard input)."""
    parser = CliParser(prog=prog, description=description)
    parser.add_argument("file", help="the .mlir file ('-' for standard input)")
    return parser
