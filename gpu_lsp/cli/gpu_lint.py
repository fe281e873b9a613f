"""The `gpu-lint` console script: check files and folders, or print a rule's documentation.

    gpu-lint [check] [PATH ...] [--output-format text|concise|json|...] [--select CODES] [--ignore CODES] [--fix] ...
    gpu-lint rule GPU201|multiple-async-dependencies|--all
    gpu-lint format [--check] [--diff] [PATH ...]     (cli/gpu_format.py)
    gpu-lint merge-sarif SHARD.sarif... -o merged.sarif

Exit status: 0 when nothing at warning or above is reported, 1 otherwise, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from gpu_lsp.cli.common import quiet_on_closed_pipe, version_line
from gpu_lsp.diagnostics.docs import render_rule
from gpu_lsp.diagnostics.emitters import FileDiagnostics, emit_concise, emit_json, emit_text
from gpu_lsp.diagnostics.registry import by_name, get, load_rules
from gpu_lsp.lint import app, formats
from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.formats.common import Context, summary

EXIT_USAGE = 2


def _files(reports: list[FileReport]) -> list[FileDiagnostics]:
    return [FileDiagnostics(r.display, r.text or "", r.diagnostics) for r in reports if r.diagnostics]


def text_format(out: TextIO, reports: list[FileReport], context: Context) -> None:
    emit_text(out, _files(reports), context.fix_level)
    out.write(summary(reports, context))


def concise_format(out: TextIO, reports: list[FileReport], context: Context) -> None:
    emit_concise(out, _files(reports), context.fix_level)
    out.write(summary(reports, context))


def json_format(out: TextIO, reports: list[FileReport], context: Context) -> None:
    emit_json(out, [FileDiagnostics(r.display, r.text or "", r.diagnostics) for r in reports], context.fix_level)


EMITTERS = {**formats.FORMATS, "text": text_format, "concise": concise_format, "json": json_format}


def rule_command(argv: list[str], out: TextIO, err: TextIO) -> int:
    """`gpu-lint rule CODE|NAME` (or `--all`): the rule's documentation as Markdown."""
    parser = argparse.ArgumentParser(prog="gpu-lint rule", description="Print the documentation of a rule.")
    parser.add_argument("rule", nargs="?", help="a code (GPU201) or a name (multiple-async-dependencies)")
    parser.add_argument("--all", action="store_true", help="print every rule")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.all:
        out.write("\n".join(render_rule(r) for r in sorted(load_rules().values(), key=lambda r: r.code)))
        return 0
    if not args.rule:
        err.write("gpu-lint rule: error: give a rule code or name, or --all\n")
        return EXIT_USAGE
    found = get(args.rule) or by_name(args.rule)
    if found is None:
        err.write(f"gpu-lint rule: error: unknown rule '{args.rule}'\n")
        return EXIT_USAGE
    out.write(render_rule(found))
    return 0


@quiet_on_closed_pipe
def main(argv: list[str] | None = None) -> int:
    """Entry point of the `gpu-lint` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "rule":
        return rule_command(argv[1:], sys.stdout, sys.stderr)
    if argv and argv[0] == "format":
        from gpu_lsp.cli.gpu_format import format_command

        return format_command(argv[1:], sys.stdin, sys.stdout, sys.stderr)
    if argv and argv[0] == "graph":
        from gpu_lsp.cli.gpu_graph import graph_command

        return graph_command(argv[1:], sys.stdin, sys.stdout, sys.stderr)
    if argv and argv[0] == "merge-sarif":
        from gpu_lsp.lint.merge_sarif import merge_command

        return merge_command(argv[1:], sys.stdout, sys.stderr)
    if argv and argv[0] == "check":
        argv = argv[1:]
    parser = argparse.ArgumentParser(
        prog="gpu-lint",
        description="Check MLIR GPU-dialect files. `gpu-lint rule CODE` prints a rule's documentation; "
        "`gpu-lint graph FILE` draws the async dependency graph; `gpu-lint format` formats files; "
        "`gpu-lint merge-sarif FILE...` joins the SARIF logs of --shard runs.",
    )
    parser.add_argument("--version", action="version", version=version_line("gpu-lint").rstrip())
    app.add_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return app.run(args, EMITTERS)


if __name__ == "__main__":
    sys.exit(main())
