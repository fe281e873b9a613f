"""`gpu-opt --lit FILE...`: a lit test's RUN lines, chunk by chunk, with FileCheck's verdict per chunk.

    gpu-opt --lit [--mlir-opt PATH] [-v | --json] [--only RUN:CHUNK] [--name NAME] FILE...
    gpu-opt --lit --update RUN:CHUNK [--mlir-opt PATH] [--name NAME] FILE

`mlir-opt` in a RUN line is gpu-opt itself (in process) unless --mlir-opt names a
real one; FileCheck is the `filecheck` package. With --json, one JSON object per
chunk result and line (what the editors read). --only runs one RUN line (1-based;
0: all) and one chunk (0: all). --update prints the file with that chunk's CHECK
lines regenerated. FILE `-` is standard input, called NAME in messages. The exit
status is 1 when a chunk fails (or the update is refused), 2 for a usage error or a
file that cannot be read.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from gpu_lsp.cli.common import EXIT_USAGE, CliError, read_text
from gpu_lsp.lit.report import as_json, render
from gpu_lsp.lit.runner import ExternalTool, Tool, run_file
from gpu_lsp.lit.update import UpdateError, update_chunk

USAGE = (
    "usage: gpu-opt --lit [--mlir-opt PATH] [-v | --json] [--only RUN:CHUNK] [--name NAME] FILE...\n"
    "       gpu-opt --lit --update RUN:CHUNK [--mlir-opt PATH] [--name NAME] FILE"
)
_VALUED = ("mlir-opt", "only", "update", "name")


class _Usage(Exception):
    """A command line --lit does not understand."""


@dataclass
class _Args:
    files: list[str] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)
    verbose: bool = False
    json: bool = False


def _pair(text: str, option: str) -> tuple[int, int]:
    """`RUN:CHUNK` (1-based, 0 for all) as 0-based indices (-1 for all)."""
    run, colon, chunk = text.partition(":")
    if not (colon and run.isdigit() and chunk.isdigit()):
        raise _Usage(f"option --{option} takes RUN:CHUNK (numbers), not '{text}'")
    return int(run) - 1, int(chunk) - 1


def _parse(argv: Sequence[str]) -> _Args:
    out = _Args()
    args = list(argv)
    while args:
        arg = args.pop(0)
        name, eq, value = arg.lstrip("-").partition("=")
        if arg.startswith("-") and name in _VALUED:
            if not eq and not args:
                raise _Usage(f"option --{name} needs a value")
            out.values[name] = value if eq else args.pop(0)
        elif arg in ("-v", "--verbose"):
            out.verbose = True
        elif arg in ("-json", "--json"):
            out.json = True
        elif arg.startswith("-") and arg != "-":
            raise _Usage(f"unknown option '{arg}' with --lit")
        else:
            out.files.append(arg)
    if not out.files:
        raise _Usage("--lit needs a test file")
    if "update" in out.values and len(out.files) != 1:
        raise _Usage("--update takes one file")
    return out


def main(argv: Sequence[str], gpu_opt: Tool) -> int:
    """Run (or update) the lit tests named in `argv` (what follows `--lit`); `gpu_opt` is gpu-opt in process.
    A usage error raises CliError (status 2); a file that cannot be read is one line `gpu-opt: error: ...`, status 2."""
    if any(arg in ("-h", "--help", "-help") for arg in argv):
        sys.stdout.write(USAGE + "\n")
        return 0
    try:
        args = _parse(argv)
        only = _pair(args.values["only"], "only") if "only" in args.values else (-1, -1)
        update = _pair(args.values["update"], "update") if "update" in args.values else None
    except _Usage as exc:
        raise CliError(f"{exc} (see gpu-opt --lit --help)") from None
    tool = ExternalTool(args.values["mlir-opt"]) if "mlir-opt" in args.values else gpu_opt
    status = 0
    for path in args.files:
        name = args.values.get("name", "<stdin>" if path == "-" else path)
        try:
            text = read_text(path)
        except CliError as exc:
            sys.stderr.write(f"gpu-opt: error: {exc.message}\n")
            status = EXIT_USAGE
            continue
        if update is not None:
            try:
                sys.stdout.write(update_chunk(text, name, tool, max(update[0], 0), max(update[1], 0)))
            except UpdateError as exc:
                sys.stderr.write(f"gpu-opt: error: {name}: cannot update the CHECK lines: {exc}\n")
                return 1
            return 0
        result = run_file(text, name, tool, only)
        sys.stdout.write(as_json(result) if args.json else render(result, tool, args.verbose))
        if result.failed and status == 0:
            status = 1
    return status
