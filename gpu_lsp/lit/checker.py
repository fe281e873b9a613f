"""FileCheck in process, through the `filecheck` package, with the failing check line and the closest output line."""

from __future__ import annotations

import difflib
import io
import re
from dataclasses import dataclass

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_BLOCK = re.compile(r"\{\{.*?\}\}|\[\[.*?\]\]")


@dataclass(frozen=True)
class CheckOutcome:
    """FileCheck's verdict: the failing check (1-based line of the check file) and what it printed."""

    passed: bool
    message: str
    line: int | None = None  # the check line that failed
    pattern: str | None = None  # what that line expects (the text after `PREFIX:`)
    closest: tuple[int, str] | None = None  # (1-based output line, its text) closest to the pattern


def _closest(pattern: str, output: str, within: tuple[int, int] | None) -> tuple[int, str] | None:
    """The output line (among lines `within`, 1-based and inclusive, when given) that holds most of
    the literal text of a pattern (the more alike, on a tie)."""
    literal = _BLOCK.sub(" ", pattern).strip()
    best: tuple[int, float, int, str] | None = None
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(literal)
    first, last = within or (1, output.count("\n") + 1)
    for number, line in enumerate(output.split("\n"), 1):
        text = line.strip()
        if not text or not first <= number <= last:
            continue
        matcher.set_seq1(text)
        shared = sum(block.size for block in matcher.get_matching_blocks())
        score = (shared, matcher.ratio(), -number, text)
        if best is None or score[:2] > best[:2]:
            best = score
    return None if best is None else (-best[2], best[3])


def _pattern(check_text: str, line: int) -> str | None:
    lines = check_text.split("\n")
    if not 0 < line <= len(lines):
        return None
    _, colon, rest = lines[line - 1].partition(":")
    return rest.strip() if colon else None


def filecheck(args: tuple[str, ...], check_text: str, check_name: str, output: str, within: tuple[int, int] | None = None) -> CheckOutcome:
    """Run FileCheck with `args` (`%s` names the check file) over `output`; the closest line to a
    failed pattern is looked for among the output lines `within` (1-based, inclusive), else all."""
    from filecheck.finput import FInput
    from filecheck.matcher import Matcher
    from filecheck.options import parse_argv_options
    from filecheck.parser import Parser, pattern_for_opts

    argv = ["filecheck"] + [check_name if a == "%s" else a for a in args]
    err = io.StringIO()
    try:
        opts = parse_argv_options(argv)
        parser = Parser(opts, io.StringIO(check_text), *pattern_for_opts(opts))
        matcher = Matcher(opts, FInput("-", FInput.canonicalize_line_ends(output)), parser)
        matcher.stderr = err
        status = matcher.run()
    except (RuntimeError, ValueError, re.error) as exc:
        return CheckOutcome(False, f"FileCheck failed: {exc}")
    message = _ANSI.sub("", err.getvalue())
    if status == 0:
        return CheckOutcome(True, message)
    m = re.match(re.escape(check_name) + r":(\d+):(?:\d+)?:? ?(?:error: )?(.*)", message)
    if m is None:
        return CheckOutcome(False, message)
    line = int(m.group(1))
    pattern = _pattern(check_text, line)
    closest = _closest(pattern, output, within) if pattern else None
    return CheckOutcome(False, message, line, pattern, closest)
