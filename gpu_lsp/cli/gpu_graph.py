"""`gpu-lint graph FILE`: the async dependency graph of a file's host functions as DOT, JSON, HTML or SVG."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import BinaryIO, TextIO

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.cli.common import CliError, file_parser, read_text, write_text
from gpu_lsp.diagnostics.mlir_versions import NEWEST, AtVersion, check_version
from gpu_lsp.diagnostics.sanitizer.graph import AsyncGraph, build_graphs, to_json
from gpu_lsp.diagnostics.sanitizer.render import RenderError, to_dot, to_html, to_svg_with_dot
from gpu_lsp.lint.config import ConfigError, load_settings
from gpu_lsp.lint.rules import known_codes
from gpu_lsp.parser.api import parse
from gpu_lsp.text import LineIndex

FORMATS = ("dot", "json", "html", "svg")


def build_parser() -> argparse.ArgumentParser:
    p = file_parser(
        "gpu-lint graph",
        "Draw the async dependency graph of the host functions of an MLIR file: GPU ops and waits, "
        "token edges, buffer conflicts (dashed), hazards (coloured), one lane per stream, joins as bars.",
    )
    p.add_argument("--function", metavar="NAME", help="only this function (with or without the @)")
    p.add_argument(
        "--format", choices=FORMATS, default="dot",
        help="dot (default), json, html (self-contained) or svg (needs Graphviz; one function: the first, or --function)",
    )
    p.add_argument("-o", "--output", metavar="PATH", help="write here instead of standard output")
    p.add_argument(
        "--mlir-version", type=int, metavar="N",
        help=f"the LLVM major version whose hazards are drawn (default: the configured mlir-version, else {NEWEST})",
    )
    return p


def render(text: str, graphs: list[AsyncGraph], fmt: str, title: str = "async graph") -> str:
    """`graphs` (of `text`) in `fmt` (RenderError when svg cannot be drawn; svg draws the first graph only)."""
    if fmt == "dot":
        return to_dot(graphs)
    if fmt == "svg":
        return to_svg_with_dot(graphs[:1])
    document = to_json(graphs, LineIndex(text).position)
    if fmt == "json":
        return json.dumps(document, indent=2) + "\n"
    return to_html(graphs, document, title)


def graphs_of(text: str, function: str | None = None, mlir_version: int = NEWEST) -> list[AsyncGraph]:
    """The graphs of `text`'s host functions (only `function` when given) with the hazards of `mlir_version`."""
    parsed = parse(text, split=True)
    return build_graphs(parsed, lint_parsed(parsed, AtVersion(mlir_version)), function)


def _mlir_version(given: int | None, file: str) -> int:
    """`--mlir-version`, else the `mlir-version` of the configuration gpu-lint would check `file` with
    (standard input: the current folder's)."""
    folder = Path.cwd() if file == "-" else (Path.cwd() / file).parent
    try:
        return check_version(given) if given is not None else load_settings(folder, known=known_codes()).mlir_version
    except ValueError as exc:
        raise CliError(f"--mlir-version {exc}") from None
    except ConfigError as exc:
        raise CliError(str(exc)) from None


def graph_command(argv: list[str], stdin: BinaryIO, out: TextIO, err: TextIO) -> int:
    """Run `gpu-lint graph`; a usage or I/O error is one line on `err` (exit status 2)."""
    try:
        return _graph(argv, stdin, out, err)
    except CliError as exc:
        err.write(f"gpu-lint graph: error: {exc.message}\n")
        return exc.status


def _graph(argv: list[str], stdin: BinaryIO, out: TextIO, err: TextIO) -> int:
    args = build_parser().parse_args(argv)
    text = read_text(args.file, stdin)
    version = _mlir_version(args.mlir_version, args.file)
    name = args.function.lstrip("@") if args.function else None
    graphs = graphs_of(text, name, version)
    if name is not None and not graphs:
        raise CliError(f"no host function @{name} issues GPU work in {args.file}")
    if not graphs:
        err.write(f"gpu-lint graph: nothing to draw: no host function issues GPU work in {args.file}\n")
    elif args.format == "svg" and len(graphs) > 1:
        err.write(
            f"gpu-lint graph: note: drew @{graphs[0].function}, the first of {len(graphs)} functions "
            "(--function NAME draws another; --format html draws them all)\n"
        )
    try:
        result = render(text, graphs, args.format, f"async graph of {args.file}") if graphs or args.format in ("json", "html") else ""
    except RenderError as exc:
        raise CliError(str(exc)) from None
    if args.output:
        write_text(args.output, result)
    else:
        out.write(result)
    return 0
