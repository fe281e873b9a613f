"""`gpu-lint format`: format `.mlir` files in place, or say which would change (ruff format's conventions).

    gpu-lint format [--check] [--diff] [PATH ...]     (`-`: standard input to standard output)

Files and folders are found as `gpu-lint check` finds them (each folder's nearest configuration
file's `exclude`, .gitignore), and each file is formatted with its configuration's `op-definitions`. Without
an option the files are rewritten; `--check` lists the files that would change, `--diff`
prints what would change as a unified diff; both write nothing and exit 1 when a file
would change. What the formatter leaves as written (a chunk with errors, an op it cannot
print exactly) is reported on standard error. Files are rewritten as `--fix` writes them
(lint/writeback.py: a temporary file renamed over the original, byte order mark, CRLF line
ends and mode kept, a file saved meanwhile skipped). Exit status 2: a usage error, a file
that cannot be read (missing, binary, not UTF-8) or written, or a configuration error.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import BinaryIO, TextIO

from gpu_lsp.cli.common import EXIT_USAGE, CliError, CliParser, read_source
from gpu_lsp.formatter.core import format_text
from gpu_lsp.lint.config import ConfigError
from gpu_lsp.lint.discovery import Source, discover
from gpu_lsp.lint.hierarchy import make_resolver
from gpu_lsp.lint.op_definitions import use_op_definitions
from gpu_lsp.lint.writeback import keep_line_endings, write_fixed


def format_command(argv: list[str], stdin: BinaryIO, out: TextIO, err: TextIO) -> int:
    """Run `gpu-lint format ARGS`; the exit status."""
    parser = CliParser(prog="gpu-lint format", description="Format MLIR files (comments, names and layout kept).")
    parser.add_argument("paths", nargs="*", help="files or folders (default: .); - reads standard input")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file would change")
    parser.add_argument("--diff", action="store_true", help="print a unified diff of the changes instead of writing them")
    try:
        args = parser.parse_args(argv)
        resolver = make_resolver(Path.cwd(), (), False, None, {})
    except SystemExit as exc:
        return int(exc.code or 0)
    except (CliError, ConfigError) as exc:
        err.write(f"gpu-lint format: error: {exc}\n")
        return EXIT_USAGE
    declared = use_op_definitions(resolver.base.op_definitions)
    if declared:
        err.write("".join(f"{line}\n" for line in declared))
        return EXIT_USAGE
    targets, problems = discover(args.paths, resolver.base, settings_of=resolver.for_folder)
    err.write("".join(f"gpu-lint format: error: {line}\n" for line in resolver.errors))
    status = EXIT_USAGE if resolver.errors else 0
    for problem in problems:
        err.write(f"gpu-lint format: {problem.line()}\n")
        status = EXIT_USAGE if problem.level == "error" else status
    changed = unchanged = 0
    for target in targets:
        try:
            source = read_source(target.path or "-", stdin, name=target.display)
        except CliError as exc:
            err.write(f"gpu-lint format: error: {exc}\n")
            status = EXIT_USAGE
            continue
        own = resolver.for_file(target.path) if target.path is not None else resolver.base
        use_op_definitions(own.op_definitions if own is not None else ())
        text = source.text.replace("\r\n", "\n")
        result = format_text(text)
        for kept_as_written in result.problems:
            err.write(f"gpu-lint format: {target.display}: {kept_as_written}\n")
        if result.text == text:
            unchanged += 1
            if target.path is None and not (args.check or args.diff):
                out.write(text)
            continue
        changed += 1
        if args.diff:
            name = target.display
            out.writelines(difflib.unified_diff(text.splitlines(True), result.text.splitlines(True), name, name))
        elif args.check:
            out.write(f"Would reformat: {target.display}\n")
        elif target.path is None:
            out.write(result.text)
        else:
            formatted = Source(keep_line_endings(source.text, result.text), source.bom)
            failure = write_fixed(target.path, source, formatted, target.root, what="the formatted text")
            if failure is not None:
                err.write(f"gpu-lint format: error: {target.display}: {failure}\n")
                status = EXIT_USAGE
    if changed + unchanged and not any(t.path is None for t in targets):
        dry = args.check or args.diff
        done, kept = ("would be reformatted", "already formatted") if dry else ("reformatted", "left unchanged")
        err.write(f"{_files(changed)} {done}, {_files(unchanged)} {kept}\n")
    if status == 0 and changed and (args.check or args.diff):
        status = 1
    return status



def _files(n: int) -> str:
    return f"{n} file{'s' if n != 1 else ''}"
