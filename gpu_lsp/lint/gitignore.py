"""`.gitignore` patterns: parse a file and decide whether a path below its folder is ignored."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Pattern:
    """One `.gitignore` line, compiled."""

    regex: re.Pattern[str]
    negated: bool
    dir_only: bool


def _class(pattern: str, i: int) -> tuple[str, int]:
    """Translate a `[...]` bracket expression starting at `i`; a lone `[` is literal."""
    j = i + 1
    if j < len(pattern) and pattern[j] in "!^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 1
    if j >= len(pattern):
        return re.escape("["), i + 1
    body = pattern[i + 1 : j]
    if body[:1] in ("!", "^"):
        body = "^" + body[1:]
    body = body.replace("\\", "\\\\")
    return f"(?!/)[{body}]", j + 1


def translate(pattern: str) -> str:
    """The regex body for a gitignore glob (`*`, `?`, `[...]`, `**` as git defines them)."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*" and pattern.startswith("**", i):
            j = i + 2
            at_start = i == 0 or pattern[i - 1] == "/"
            if at_start and j == n:
                out.append(".*")
                i = j
                continue
            if at_start and pattern[j] == "/":
                out.append("(?:.*/)?")
                i = j + 1
                continue
            out.append("[^/]*")
            i = j
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            piece, i = _class(pattern, i)
            out.append(piece)
            continue
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def parse_line(line: str) -> Pattern | None:
    """Compile one line; None for blank lines and comments."""
    line = line.rstrip("\n").rstrip("\r")
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line):
        stripped += " "
    line = stripped
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    dir_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    body = translate(line.lstrip("/"))
    prefix = "" if anchored else "(?:.*/)?"
    return Pattern(re.compile(f"{prefix}{body}", re.DOTALL), negated, dir_only)


class GitIgnore:
    """The patterns of one `.gitignore` (or `.git/info/exclude`), relative to `base`."""

    def __init__(self, base: Path, lines: list[str]) -> None:
        self.base = base
        self.patterns = [p for p in map(parse_line, lines) if p is not None]

    @classmethod
    def load(cls, file: Path, base: Path | None = None) -> GitIgnore | None:
        """Read a gitignore file; None when it cannot be read (an unreadable ignore file ignores nothing)."""
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        return cls(base or file.parent, text.splitlines())

    def decide(self, path: Path, is_dir: bool) -> bool | None:
        """True (ignored), False (re-included by `!`) or None (no pattern matches)."""
        try:
            relative = path.relative_to(self.base).as_posix()
        except ValueError:
            return None
        verdict: bool | None = None
        for pattern in self.patterns:
            if pattern.dir_only and not is_dir:
                continue
            if pattern.regex.fullmatch(relative):
                verdict = not pattern.negated
        return verdict


def is_ignored(stack: list[GitIgnore], path: Path, is_dir: bool) -> bool:
    """The last verdict wins; deeper files are later in `stack`."""
    verdict = False
    for ignore in stack:
        decision = ignore.decide(path, is_dir)
        if decision is not None:
            verdict = decision
    return verdict


def repo_root(folder: Path) -> Path | None:
    """The folder holding `.git` at or above `folder`, if any."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def ancestor_ignores(folder: Path) -> list[GitIgnore]:
    """The ignore files that apply to `folder` from above: the repo's info/exclude and every .gitignore from the repo root down."""
    root = repo_root(folder)
    if root is None:
        return []
    stack: list[GitIgnore] = []
    exclude = GitIgnore.load(root / ".git" / "info" / "exclude", base=root)
    if exclude is not None:
        stack.append(exclude)
    chain = [folder, *folder.parents]
    for candidate in reversed(chain[1 : chain.index(root) + 1]):
        loaded = GitIgnore.load(candidate / ".gitignore")
        if loaded is not None:
            stack.append(loaded)
    return stack
