"""The `gpu-lint` console script: check files and folders, or print a rule's documentation.

    gpu-lint [check] [PATH ...] [--output-format text|concise|json|...] [--select CODES] [--ignore CODES] [--fix] ...
    gpu-lint rule GPU201|multiple-async-dependencies|--all
    gpu-lint format [--check] [--diff] [PATH ...]     (cli/gpu_format.py)
    gpu-lint merge-sarif SHARD.sarif... -o merged.sarif

Exit status: 0 when nothing at warning or above is reported, 1 otherwise, 2 on usage errors or a file that
cannot be read, 130 when interrupted (README, "Exit status").
"""

from __future__ import annotations

import sys
from typing import TextIO

from gpu_lsp.cli.common import EXIT_USAGE, CliError, CliParser, console_entry, version_line
from gpu_lsp.diagnostics.docs import render_rule
from gpu_lsp.diagnostics.emitters import FileDiagnostics, emit_concise, emit_json, emit_text
from gpu_lsp.diagnostics.registry import by_name, get, load_rules
from gpu_lsp.lint import app, formats
from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.formats.common import Context, summary


def _files(reports: list[FileReport]) -> list[FileDiagnostics]:
    return [FileDiagnostics(r.display, r.text or "", r.diagnostics) for r in reports if r.diagnostics]


def text_format(out: TextIO, reports: list[FileReport], context: Context) -> None:
    emit_text(out, _files(reports), context.fix_level)
    out.write(summary(reports, context))


def concise_format(out: TextIO, reports: list[FileReport], context: Context) -> None:
    emit_concise(out, _files(reports), context.fix_level)
    out.write(summary(reports, context))


def json_format(out: TextIO, reports: list[FileReport], context: Context) -> None:
    emit_json(out, [FileDiagnostics(r.display, r.text or "", r.diagnostics) for r in reports], context.docs_url)


EMITTERS = {**formats.FORMATS, "text": text_format, "concise": concise_format, "json": json_format}


def rule_command(argv: list[str], out: TextIO, err: TextIO) -> int:
    """`gpu-lint rule CODE|NAME` (or `--all`): the rule's documentation as Markdown."""
    parser = CliParser(prog="gpu-lint rule", description="Print the documentation of a rule.")
    parser.add_argument("rule", nargs="?", help="a code (GPU201) or a name (multiple-async-dependencies)")
    parser.add_argument("--all", action="store_true", help="print every rule")
    args = parser.parse_args(argv)
    if args.all:
        out.write("\n".join(render_rule(r) for r in sorted(load_rules().values(), key=lambda r: r.code)))
        return 0
    if not args.rule:
        raise CliError("give a rule code or name, or --all (gpu-lint rule)")
    found = get(args.rule) or by_name(args.rule)
    if found is None:
        raise CliError(f"unknown rule '{args.rule}' (gpu-lint rule --all lists them)", EXIT_USAGE)
    out.write(render_rule(found))
    return 0


@console_entry("gpu-lint")
def main(argv: list[str] | None = None) -> int:
    """Entry point of the `gpu-lint` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "rule":
        return rule_command(argv[1:], sys.stdout, sys.stderr)
    if argv and argv[0] == "format":
        from gpu_lsp.cli.gpu_format import format_command

        return format_command(argv[1:], sys.stdin.buffer, sys.stdout, sys.stderr)
    if argv and argv[0] == "graph":
        from gpu_lsp.cli.gpu_graph import graph_command

        return graph_command(argv[1:], sys.stdin.buffer, sys.stdout, sys.stderr)
    if argv and argv[0] == "merge-sarif":
        from gpu_lsp.lint.merge_sarif import merge_command

        return merge_command(argv[1:], sys.stdout, sys.stderr)
    if argv and argv[0] == "check":
        argv = argv[1:]
    parser = CliParser(
        prog="gpu-lint",
        description="Check MLIR GPU-dialect files. `gpu-lint rule CODE` prints a rule's documentation; "
        "`gpu-lint graph FILE` draws the async dependency graph; `gpu-lint format` formats files; "
        "`gpu-lint merge-sarif FILE...` joins the SARIF logs of --shard runs.",
    )
    parser.add_argument("--version", action="version", version=version_line("gpu-lint").rstrip())
    app.add_arguments(parser)
    args = parser.parse_args(argv)
    return app.run(args, EMITTERS)


if __name__ == "__main__":
    sys.exit(main())
