"""`OpFacts`: what an op's custom syntax said that is neither an operand, an attribute nor a property."""

from __future__ import annotations

from typing import Protocol


class OpFacts:
    """The few facts a custom-form reader records beside the attributes, one typed field each.

    Most ops have none: they share `NO_FACTS`, which cannot be written, and a
    writer asks `writable_facts` for a record of the op's own (so that parsing
    allocates nothing for them). A misspelled field is an AttributeError (the
    record has `__slots__`) and a mypy error.

    Facts upstream keeps as attributes or properties are kept there instead
    (llvm.icmp's `predicate`, gpu.launch's clusters in `operandSegmentSizes`);
    what is left is either how the text was written or a count upstream
    derives from the region or stores in a form the printers cannot read back.
    """

    __slots__ = ("implicit", "unnamed_async", "segments", "successor_operands", "keywords", "aliases", "mistyped")

    def __init__(self) -> None:
        # The parser made this op (the `builtin.module` around top-level ops): it has no text of its own.
        self.implicit = False
        # Where an `async` keyword with no result name to hold the token was written (start, end offsets
        # from the op's anchor, as a `Span`'s: the reader records offsets in the text, the builder moves them).
        self.unnamed_async: tuple[int, int] | None = None
        # async.execute: (dependencies, operands); upstream's `operandSegmentSizes`.
        self.segments: tuple[int, int] | None = None
        # The number of operands each successor takes, in successor order (upstream's segment sizes).
        self.successor_operands: tuple[int, ...] = ()
        # llvm.func / llvm.mlir.global: the linkage and other leading keywords as written.
        self.keywords: tuple[str, ...] = ()
        # A chunk's builtin.module: the alias definitions of its text (`#lhs` -> attribute, `!t` -> type),
        # which an op printed from its source text names.
        self.aliases: dict[str, object] | None = None
        # Operands whose use was written with another type than their definition's (GPU005): checks
        # of their type would repeat that error.
        self.mistyped: frozenset[int] = frozenset()

    def for_clone(self) -> OpFacts:
        """The facts a copy of the op keeps (a record of its own): all but where something was written."""
        if self is NO_FACTS:
            return self
        copy = OpFacts()
        for name in OpFacts.__slots__:
            setattr(copy, name, getattr(self, name))
        copy.unnamed_async = None
        copy.mistyped = frozenset()
        return copy


class _SharedEmpty(OpFacts):
    """The one record of every op without facts; writing to it would give them all the fact."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"NO_FACTS is shared and read-only (writing '{name}'): use writable_facts(op)")


def _shared_empty() -> OpFacts:
    empty = OpFacts()
    shared = _SharedEmpty.__new__(_SharedEmpty)
    for name in OpFacts.__slots__:
        object.__setattr__(shared, name, getattr(empty, name))
    return shared


NO_FACTS: OpFacts = _shared_empty()


class HasFacts(Protocol):
    """An operation or a parser's op state."""

    facts: OpFacts


def writable_facts(holder: HasFacts) -> OpFacts:
    """The facts of `holder` to write to: its own record, made on the first write."""
    facts = holder.facts
    if facts is NO_FACTS:
        facts = holder.facts = OpFacts()
    return facts
