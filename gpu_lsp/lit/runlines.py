"""The `// RUN:` lines of a test file, cut into the stages of their shell pipeline."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

RUN_LINE = re.compile(r"^\s*//\s*RUN:\s?(.*)$")
# Shell syntax a RUN line may use that the in-editor runner does not emulate.
_SHELL = re.compile(r"^(\d?>|<|&&|;|\|\||&|\d?>&\d)")
MLIR_OPT = "mlir-opt"
FILECHECK = "FileCheck"


@dataclass(frozen=True)
class RunLine:
    """One RUN command: its 0-based first and last source lines, the command, its stages."""

    first: int
    last: int
    command: str
    stages: tuple[tuple[str, ...], ...]  # the tool stages (`mlir-opt ...`), in pipe order
    filecheck: tuple[str, ...] | None  # the arguments of a final `FileCheck` stage
    unsupported: str | None  # why the runner cannot run it, else None

    @property
    def prefixes(self) -> tuple[str, ...]:
        """The FileCheck prefixes the command checks (CHECK when it names none)."""
        return check_prefixes(self.filecheck or ())

    @property
    def split(self) -> bool:
        """Whether the first stage cuts its input at `// -----` (-split-input-file)."""
        return bool(self.stages) and any(a.lstrip("-").startswith("split-input-file") for a in self.stages[0])


def check_prefixes(args: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The prefixes named by FileCheck arguments (`--check-prefix X`, `-check-prefixes=A,B`)."""
    out: list[str] = []
    for i, arg in enumerate(args):
        name, eq, value = arg.lstrip("-").partition("=")
        if name not in ("check-prefix", "check-prefixes"):
            continue
        if not eq:
            value = args[i + 1] if i + 1 < len(args) else ""
        out.extend(p for p in value.split(",") if p)
    return tuple(out) or ("CHECK",)


def run_commands(text: str) -> list[tuple[int, int, str]]:
    """(first line, last line, command) of every RUN command, continuation lines joined."""
    out: list[tuple[int, int, str]] = []
    if "RUN:" not in text:  # what every RUN line holds: a large file without one is not split in lines
        return out
    pending: list[str] = []
    first = 0
    for number, line in enumerate(text.split("\n")):
        m = RUN_LINE.match(line)
        if m is None:
            continue
        part = m.group(1).rstrip()
        if not pending:
            first = number
        if part.endswith("\\"):
            pending.append(part[:-1].strip())
            continue
        pending.append(part.strip())
        out.append((first, number, " ".join(p for p in pending if p)))
        pending = []
    return out


def _tokens(command: str) -> list[str] | str:
    """The shell words of a command with `|` as words of their own; a string says why not."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|")
    lexer.commenters = ""
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError as exc:
        return f"cannot read the command: {exc}"


def parse_run(first: int, last: int, command: str) -> RunLine:
    """A RUN command as stages: `mlir-opt ... [| mlir-opt ...] [| FileCheck ...]`."""
    words = _tokens(command)
    if isinstance(words, str):
        return RunLine(first, last, command, (), None, words)
    pipeline: list[list[str]] = [[]]
    for word in words:
        if word == "|":
            pipeline.append([])
        else:
            pipeline[-1].append(word)
    stages: list[tuple[str, ...]] = []
    filecheck: tuple[str, ...] | None = None
    why: str | None = None
    for i, stage in enumerate(pipeline):
        shell = next((w for w in stage if _SHELL.match(w)), None)
        if not stage or shell is not None:
            why = f"uses shell syntax '{shell}'" if shell else "has an empty pipeline stage"
        elif stage[0] == FILECHECK and i == len(pipeline) - 1 and stages:
            filecheck = tuple(stage[1:])
        elif stage[0] != MLIR_OPT:
            why = f"runs '{stage[0]}'"
        elif any("%" in w and w != "%s" for w in stage):
            why = "uses a lit substitution other than %s"
        else:
            stages.append(tuple(stage[1:]))
        if why is not None:
            return RunLine(first, last, command, (), None, why)
    return RunLine(first, last, command, tuple(stages), filecheck, None)


def run_lines(text: str) -> list[RunLine]:
    """Every RUN command of a test file, parsed."""
    return [parse_run(first, last, command) for first, last, command in run_commands(text)]
