"""`python -m gpu_lsp` (console script `gpu-lsp`): the language server over stdio, or its `--help`/`--version`."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    """The command line: no option starts the server; `--stdio` is accepted because many clients pass it."""
    from gpu_lsp.cli.common import CliParser, version_line

    parser = CliParser(
        prog="gpu-lsp",
        description="Language server for MLIR's GPU dialect. It speaks the Language Server Protocol on standard "
        "input and output: start it from an editor (the VS Code extension, the Neovim plugin), not by hand.",
    )
    parser.add_argument("--stdio", action="store_true", help="talk over standard input/output (the default and only transport)")
    parser.add_argument("--version", action="version", version=version_line("gpu-lsp").rstrip())
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, then serve (or print help/version and exit); the exit status."""
    from gpu_lsp.cli.common import console_entry

    return console_entry("gpu-lsp")(_serve)(sys.argv[1:] if argv is None else argv)


def _serve(argv: list[str]) -> int:
    if argv:
        build_parser().parse_args(argv)
    from gpu_lsp.lsp.bootstrap import main as serve

    serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
