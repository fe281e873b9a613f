"""What projects' op-definitions files add to a built-in table (ops, enums), kept per source file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

D = TypeVar("D")


@dataclass
class Installs(Generic[D]):
    """The definitions each source installed into `table`: what it gave, the names kept, the refusals.

    `noun` names a definition in the refusals ("operation", "enum"); `key` gives its name.
    """

    table: dict[str, D]
    key: Callable[[D], str]
    noun: str
    by_source: dict[str, tuple[tuple[D, ...], tuple[str, ...], list[tuple[D, str]]]] = field(default_factory=dict)

    def install(self, source: str, given: tuple[D, ...]) -> list[tuple[D, str]]:
        """`given` known in place of what `source` installed before (none: forget it); each refused
        definition and why: a built-in name, or one another source (or `given` itself) declares.
        The same tuple installed again changes nothing (the language server asks for every document)."""
        last = self.by_source.get(source)
        if last is not None and last[0] is given:
            return last[2]
        for name in last[1] if last is not None else ():
            self.table.pop(name, None)
        self.by_source.pop(source, None)
        taken = {name: other for other, (_, names, _) in self.by_source.items() for name in names}
        added: list[str] = []
        refused: list[tuple[D, str]] = []
        for definition in given:
            name = self.key(definition)
            if name in added:
                refused.append((definition, f"{self.noun} {name} is declared twice"))
            elif name in taken:
                refused.append((definition, f"{self.noun} {name} is already declared in {taken[name]}"))
            elif name in self.table:
                refused.append((definition, f"{self.noun} {name} is built in; a project cannot declare it again"))
            else:
                self.table[name] = definition
                added.append(name)
        if given:
            self.by_source[source] = (given, tuple(added), refused)
        return refused

    def source_of(self, name: str) -> str | None:
        """The source that installed `name`; None for a built-in or unknown one."""
        return next((source for source, (_, names, _) in self.by_source.items() if name in names), None)
