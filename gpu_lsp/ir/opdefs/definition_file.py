"""Where things are in an op-definitions file (tomllib gives values, not positions): errors with their line and columns."""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass


@dataclass(frozen=True)
class DefinitionError:
    """A mistake in an op-definitions file, at 0-based `line`, columns `start`..`end` of that line."""

    message: str
    line: int
    start: int
    end: int

    def describe(self, path: str) -> str:
        """`path:line:col: error: message`, the one-line form gpu-lint prints."""
        return f"{path}:{self.line + 1}:{self.start + 1}: error: {self.message}"


class Locator:
    """Where tables and keys sit in the TOML text (tomllib gives values, not positions)."""

    _HEADER = re.compile(r"\s*\[\s*(ops|enums|classes)\s*\.\s*(\"[^\"]*\"|'[^']*'|[A-Za-z_][\w.$-]*)\s*\]")
    _KEY = re.compile(r"\s*([A-Za-z_][\w-]*)\s*=")

    def __init__(self, text: str) -> None:
        self.text = text

    @functools.cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @functools.cached_property
    def places(self) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
        """The line of each table header and of each key in its table (found on the first error: most files have none)."""
        tables: dict[str, int] = {}
        keys: dict[tuple[str, str], int] = {}
        current: str | None = None
        for number, line in enumerate(self.lines):
            header = self._HEADER.match(line)
            if header is not None:
                current = f"{header[1]}.{header[2].strip(chr(34) + chr(39))}"
                tables.setdefault(current, number)
            elif line.lstrip().startswith("["):
                current = None
            elif current is not None and (key := self._KEY.match(line)) is not None:
                keys.setdefault((current, key[1]), number)
        return tables, keys

    def error(self, message: str, table: str, key: str | None = None, piece: str | None = None) -> DefinitionError:
        """An error on `piece` of the value of `key` in table `[table]` (`ops.x`; the key, else the header)."""
        tables, keys = self.places
        line = keys.get((table, key)) if key is not None else None
        if line is None:
            line = tables.get(table, 0)
            text = self.lines[line] if line < len(self.lines) else ""
            return DefinitionError(message, line, len(text) - len(text.lstrip()), len(text.rstrip()))
        found = self._find(line, piece) if piece else None
        if found is not None:
            return DefinitionError(message, found[0], found[1], found[1] + len(piece or ""))
        text = self.lines[line]
        start = text.index("=") + 1
        start += len(text[start:]) - len(text[start:].lstrip())
        return DefinitionError(message, line, start, len(text.rstrip()))

    def _find(self, line: int, piece: str) -> tuple[int, int] | None:
        """The first place at or after `line` (a value may span lines) where `piece` is written."""
        for number in range(line, min(line + 40, len(self.lines))):
            text = self.lines[number]
            quoted = max(text.find(f'"{piece}"'), text.find(f"'{piece}'"))
            column = quoted + 1 if quoted >= 0 else text.find(piece)
            if column >= 0:
                return number, column
            if number > line and self._KEY.match(self.lines[number]):
                return None
        return None


def syntax_error(text: str, exc: tomllib.TOMLDecodeError) -> DefinitionError:
    """tomllib's message says `(at line L, column C)`; the range is that place."""
    found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
    message = "invalid TOML: " + re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
    if found is None:
        return DefinitionError(message, 0, 0, 0)
    line, column = int(found[1]) - 1, int(found[2]) - 1
    return DefinitionError(message, line, column, column + 1)


class Mistake(Exception):
    """A mistake that leaves its op or enum out of the declarations."""

    def __init__(self, error: DefinitionError) -> None:
        super().__init__(error.message)
        self.error = error
