"""The record types of the pass and refactoring registries, and the registry itself.

A pass is declared with `@gpu_pass(name, anchor, options)` on a function
`run(op, options)`; a refactoring (a code action, and optionally a server
command) is a `RefactoringDef`. Declaring creates a record; `catalog.py`
lists the records gpu-lsp offers (one line per pass or refactoring), and
every front end (gpu-opt, pipelines, code actions, executeCommand, the
advertised command list) reads that list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Generic, TypeVar

from gpu_lsp.ir.opdefs import op_names

if TYPE_CHECKING:
    from gpu_lsp.ir.core import Operation
    from gpu_lsp.parser.api import Chunk, ParsedFile
    from gpu_lsp.text import Edit

PassRun = Callable[["Operation", dict[str, str]], None]


@dataclass(frozen=True)
class PassDef:
    """A pass: its mlir-opt flag name, the op it is restricted to (None: any op), its options."""

    name: str
    anchor: str | None
    options: tuple[str, ...]
    summary: str
    run: PassRun


def gpu_pass(name: str, anchor: str | None = None, options: tuple[str, ...] = (), summary: str = "") -> Callable[[PassRun], PassDef]:
    """Declare `run(op, options)` as the pass `-name`; the summary defaults to its docstring's first line."""

    def declare(run: PassRun) -> PassDef:
        doc = summary or (run.__doc__ or "").strip().split("\n")[0]
        return PassDef(name, anchor, tuple(options), doc, run)

    return declare


def top_level_at(chunk: Chunk, offset: int) -> Operation | None:
    """The op directly in the chunk's module whose text contains `offset`."""
    module = chunk.module
    if not module.regions or not module.regions[0].blocks:
        return None
    for op in module.regions[0].blocks[0].operations:
        rng = op.range
        if rng is not None and rng.start <= offset <= rng.end:
            return op
    return None


@dataclass
class Site:
    """Where a refactoring is asked for: the parse, the offset and what the checks read there."""

    parsed: ParsedFile
    offset: int
    launch: Operation | None
    """The innermost gpu.launch around the offset."""
    file_has_launch: Callable[[], bool]
    """Whether any chunk has a gpu.launch (a callable: the server caches it per snapshot)."""

    @cached_property
    def chunk(self) -> Chunk:
        return self.parsed.chunk_at(self.offset)

    @cached_property
    def top(self) -> Operation | None:
        """The op directly in the chunk's module whose text contains the offset."""
        return top_level_at(self.chunk, self.offset)

    @cached_property
    def top_has_launch(self) -> bool:
        return self.top is not None and any(o.name == "gpu.launch" for o in self.top.walk())


@dataclass(frozen=True)
class Refactoring:
    """A titled set of edits (an LSP code action with a workspace edit)."""

    id: str
    title: str
    kind: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class RefactoringDef:
    """A refactoring: id, title, code action kind, when it applies, what it runs, its command.

    `applies(site)` must be cheap (it runs at every cursor move). `run(text, offset, split)`
    parses afresh and returns the refactoring's edits, or raises `RefactorError`.
    `tolerate`: a chunk with errors offers the refactoring only when every error message
    contains it (None: never). `command`: the workspace/executeCommand id that runs it at a
    position (`uri, line, character`), if any. `versioned`: `run` also takes `mlir_version=`
    (what it rewrites depends on the LLVM version lowered with).
    """

    id: str
    title: str
    kind: str
    applies: Callable[[Site], bool]
    run: Callable[..., Refactoring]
    command: str | None = None
    tolerate: str | None = None
    versioned: bool = False

    def result(self, edits: Iterable[Edit]) -> Refactoring:
        """This refactoring with its computed edits."""
        return Refactoring(self.id, self.title, self.kind, tuple(edits))


class DuplicateName(ValueError):
    """A registration under a name that is already taken."""


class UnknownName(ValueError):
    """A registration that names an operation no dialect registers."""


K = TypeVar("K", PassDef, RefactoringDef)


@dataclass
class Registry(Generic[K]):
    """Records by name, in registration order; a second record under one name raises."""

    what: str
    items: dict[str, K] = field(default_factory=dict)

    @staticmethod
    def key(item: PassDef | RefactoringDef) -> str:
        return item.name if isinstance(item, PassDef) else item.id

    @classmethod
    def of(cls, what: str, items: Iterable[K]) -> Registry[K]:
        registry: Registry[K] = cls(what)
        for item in items:
            registry.add(item)
        return registry

    def add(self, item: K) -> None:
        """Register `item`; a name taken already, or a pass anchored on an unknown op, raises."""
        name = self.key(item)
        if name in self.items:
            raise DuplicateName(f"{self.what} '{name}' is registered twice")
        if isinstance(item, PassDef) and item.anchor is not None and item.anchor not in op_names():
            raise UnknownName(f"pass '{name}' is anchored on '{item.anchor}', which no dialect registers")
        self.items[name] = item

    def remove(self, name: str) -> None:
        del self.items[name]

    def get(self, name: str) -> K | None:
        return self.items.get(name)

    def __getitem__(self, name: str) -> K:
        return self.items[name]

    def __contains__(self, name: object) -> bool:
        return name in self.items

    def __iter__(self) -> Iterator[K]:
        return iter(list(self.items.values()))
