"""`gpu-lint graph FILE`: the async dependency graph of a file's host functions as DOT, JSON, HTML or SVG."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.cli.common import file_parser
from gpu_lsp.diagnostics.sanitizer.graph import AsyncGraph, build_graphs, to_json
from gpu_lsp.diagnostics.sanitizer.render import RenderError, to_dot, to_html, to_svg_with_dot
from gpu_lsp.parser.api import parse
from gpu_lsp.text import LineIndex

FORMATS = ("dot", "json", "html", "svg")
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    p = file_parser(
        "gpu-lint graph",
        "Draw the async dependency graph of the host functions of an MLIR file: GPU ops and waits, "
        "token edges, buffer conflicts (dashed), hazards (coloured), one lane per stream, joins as bars.",
    )
    p.add_argument("--function", metavar="NAME", help="only this function (without the @)")
    p.add_argument("--format", choices=FORMATS, default="dot", help="dot (default), json, html (self-contained) or svg (needs Graphviz)")
    p.add_argument("-o", "--output", metavar="PATH", help="write here instead of standard output")
    return p


def render(text: str, graphs: list[AsyncGraph], fmt: str, title: str = "async graph") -> str:
    """`graphs` (of `text`) in `fmt` (RenderError when svg cannot be drawn)."""
    if fmt == "dot":
        return to_dot(graphs)
    if fmt == "svg":
        return to_svg_with_dot(graphs)
    document = to_json(graphs, LineIndex(text).position)
    if fmt == "json":
        return json.dumps(document, indent=2) + "\n"
    return to_html(graphs, document, title)


def graphs_of(text: str, function: str | None = None) -> list[AsyncGraph]:
    parsed = parse(text, split=True)
    return build_graphs(parsed, lint_parsed(parsed), function)


def graph_command(argv: list[str], stdin: TextIO, out: TextIO, err: TextIO) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.file == "-":
            text = stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        err.write(f"gpu-lint graph: cannot read {args.file}: {exc.strerror}\n")
        return EXIT_USAGE
    name = args.function.lstrip("@") if args.function else None
    graphs = graphs_of(text, name)
    if name is not None and not graphs:
        err.write(f"gpu-lint graph: no host function @{name} issues GPU work in {args.file}\n")
        return 1
    try:
        result = render(text, graphs, args.format, f"async graph of {args.file}")
    except RenderError as exc:
        err.write(f"gpu-lint graph: {exc}\n")
        return EXIT_USAGE
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(result)
    else:
        out.write(result)
    return 0
