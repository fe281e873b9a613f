"""Lark LALR over the lexer's tokens: builds raw operations, regions and blocks."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer, Token

from gpu_lsp.gcpause import paused_gc
from gpu_lsp.parser.lexer import ItemsToken, LexError
from gpu_lsp.text import TextRange


class Group:
    """A bracketed item list: `( ... )` or `[ ... ]`."""

    __slots__ = ("open", "close", "items")

    def __init__(self, open: Token, close: Token, items: list) -> None:
        self.open = open
        self.close = close
        self.items = items

    @property
    def start_pos(self) -> int:
        return self.open.start_pos

    @property
    def end_pos(self) -> int:
        return self.close.end_pos


class RawBlock:
    """A block header (label and argument group) and its operations."""

    __slots__ = ("label", "args", "ops", "bad")

    def __init__(self, label: Token | None, args: Group | None, ops: list, bad=None) -> None:
        self.label = label
        self.args = args
        self.ops = ops
        self.bad = bad


class RawRegion:
    """`{ ... }`: the entry block's operations and the labelled blocks."""

    __slots__ = ("open", "close", "blocks")

    def __init__(self, open: Token, close: Token, blocks: list[RawBlock]) -> None:
        self.open = open
        self.close = close
        self.blocks = blocks

    @property
    def start_pos(self) -> int:
        return self.open.start_pos

    @property
    def end_pos(self) -> int:
        return self.close.end_pos


class RawOp:
    """An operation as written: result list, name and item list."""

    __slots__ = ("results", "name", "items")

    def __init__(self, results: Token | None, name: Token, items: list) -> None:
        self.results = results
        self.name = name
        self.items = items

    @property
    def start_pos(self) -> int:
        return (self.results or self.name).start_pos

    @property
    def end_pos(self) -> int:
        if self.items:
            return self.items[-1].end_pos
        return self.name.end_pos


class RawAlias:
    """`#name = ...` or `!name = ...` at the top level."""

    __slots__ = ("name", "items")

    def __init__(self, name: Token, items: list) -> None:
        self.name = name
        self.items = items


def _append(children):
    if len(children) == 1:
        return [children[0]]
    children[0].append(children[1])
    return children[0]


def _items(children):
    """Splice ITEMS runs into one flat list of atoms, groups and regions."""
    if len(children) == 1:
        first = children[0]
        return list(first.atoms) if isinstance(first, ItemsToken) else [first]
    out, last = children
    if isinstance(last, ItemsToken):
        out.extend(last.atoms)
    else:
        out.append(last)
    return out


class _Build(Transformer):
    """Reduce callbacks: raw nodes straight from the LALR parser, no parse tree."""

    def start(self, children):
        return children[0] if children else []

    tops = ops = blocks = staticmethod(_append)
    items = staticmethod(_items)

    def alias_def(self, children):
        return RawAlias(children[0], children[1])

    def operation(self, children):
        if children[0].type == "RESULTS":
            return RawOp(children[0], children[1], children[2] if len(children) > 2 else [])
        return RawOp(None, children[0], children[1] if len(children) > 1 else [])

    def paren(self, children):
        return Group(children[0], children[-1], children[1] if len(children) == 3 else [])

    square = paren

    def region(self, children):
        close = children[-1]
        blocks: list[RawBlock] = []
        entry_ops: list = []
        for child in children[1:-1]:
            if child and isinstance(child[0], RawBlock):
                blocks = child
            else:
                entry_ops = child
        if entry_ops:
            blocks.insert(0, RawBlock(None, None, entry_ops))
        return RawRegion(children[0], close, blocks)

    def block(self, children):
        label = children[0]
        header: list = []
        ops: list = []
        for child in children[1:]:
            if child and isinstance(child[0], RawOp):
                ops = child
            else:
                header = child
        args = header[0] if header and isinstance(header[0], Group) else None
        rest = header[1:] if args is not None else header
        if len(rest) != 1 or getattr(rest[0], "type", None) != "COLON":
            bad = rest[1] if rest and getattr(rest[0], "type", None) == "COLON" and len(rest) > 1 else (rest[0] if rest else label)
            return RawBlock(label, args, ops, bad)
        return RawBlock(label, args, ops)


class _Stream:
    """One shared iterator, so that resuming after an error continues past the bad token."""

    __slots__ = ("iterator",)

    def __init__(self, tokens: list[Token]) -> None:
        self.iterator = iter(tokens)


class _Feed(Lexer):
    """Hands Lark the token list our lexer already produced."""

    def __init__(self, lexer_conf) -> None:
        pass

    def lex(self, data):
        return data.iterator


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = (Path(__file__).with_name("structure.lark")).read_text()
    return Lark(grammar, parser="lalr", lexer=_Feed, transformer=_Build(), maybe_placeholders=False)


def parse_structure(tokens: list[Token]) -> tuple[list, list[LexError]]:
    """Parse tokens into raw top-level items; syntax errors skip to the next operation."""
    errors: list[LexError] = []
    parser = _parser()

    def recover(exc: UnexpectedInput) -> bool:
        tok = getattr(exc, "token", None)
        if tok is None or tok.type == "$END":
            return False
        first = tok.atoms[0] if isinstance(tok, ItemsToken) else tok
        errors.append(LexError(f"unexpected '{first.value}'", TextRange(first.start_pos, first.end_pos)))
        return True

    with paused_gc():
        try:
            result = parser.parse(_Stream(tokens), on_error=recover)
        except UnexpectedInput as exc:
            tok = getattr(exc, "token", None)
            pos = tok.start_pos if tok is not None and tok.start_pos is not None else 0
            errors.append(LexError("unexpected end of input", TextRange(pos, pos)))
            result = []
    return result, errors
