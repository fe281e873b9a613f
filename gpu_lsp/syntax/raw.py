"""Raw operations, regions and blocks as written, and the top-down reader that builds them
from a token list in structure.lark's language (structure.py hands any other to Lark)."""

from __future__ import annotations

from typing import Final

from gpu_lsp.syntax.tokens import Tok

# Token kinds that are structure (brackets, regions, op and block starts); every other token is
# an atom of an operation's item list.
STRUCTURE: Final = frozenset(("RESULTS", "OPNAME", "ALIAS_DEF", "FILEMETA", "BLOCK_LABEL", "LPAR", "RPAR", "LSQB", "RSQB", "LBRACE", "RBRACE"))


class Bracketed:
    """Something between an opening and a closing token, which give its offsets."""

    __slots__ = ("open", "close")

    def __init__(self, open: Tok, close: Tok) -> None:
        self.open = open
        self.close = close

    @property
    def start_pos(self) -> int:
        return self.open.start_pos

    @property
    def end_pos(self) -> int:
        return self.close.end_pos


class Group(Bracketed):
    """A bracketed item list: `( ... )` or `[ ... ]`."""

    __slots__ = ("items",)

    def __init__(self, open: Tok, close: Tok, items: list) -> None:
        super().__init__(open, close)
        self.items = items


class RawBlock:
    """A block header (label and argument group) and its operations."""

    __slots__ = ("label", "args", "ops", "bad")

    def __init__(self, label: Tok | None, args: Group | None, ops: list, bad=None) -> None:
        self.label = label
        self.args = args
        self.ops = ops
        self.bad = bad


class RawRegion(Bracketed):
    """`{ ... }`: the entry block's operations and the labelled blocks."""

    __slots__ = ("blocks",)

    def __init__(self, open: Tok, close: Tok, blocks: list[RawBlock]) -> None:
        super().__init__(open, close)
        self.blocks = blocks


class RawOp:
    """An operation as written: result list, name and item list."""

    __slots__ = ("results", "name", "items")

    def __init__(self, results: Tok | None, name: Tok, items: list) -> None:
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

    def __init__(self, name: Tok, items: list) -> None:
        self.name = name
        self.items = items


def labelled_block(label: Tok, header: list, ops: list) -> RawBlock:
    """A labelled block; its header must be `(args)` then `:` (else `bad` is the first item off)."""
    args = header[0] if header and isinstance(header[0], Group) else None
    rest = header[1:] if args is not None else header
    if len(rest) != 1 or getattr(rest[0], "type", None) != "COLON":
        bad = rest[1] if rest and getattr(rest[0], "type", None) == "COLON" and len(rest) > 1 else (rest[0] if rest else label)
        return RawBlock(label, args, ops, bad)
    return RawBlock(label, args, ops)


class NotInGrammar(Exception):
    """The token list leaves structure.lark's language: Lark's parser, with its recovery, takes over."""


class Reader:
    """structure.lark read top-down over a token list in its language, building what structure.py's
    Lark transformer (`_Build`) builds.

    Every construct of the grammar starts with its own token, so one token of lookahead
    decides each step; anything else raises `NotInGrammar`.
    """

    __slots__ = ("tokens", "i")

    def __init__(self, tokens: list[Tok]) -> None:
        self.tokens = tokens
        self.i = 0

    def tops(self) -> list:
        tokens = self.tokens
        n = len(tokens)
        out: list = []
        while self.i < n:
            tok = tokens[self.i]
            kind = tok.type
            if kind == "OPNAME" or kind == "RESULTS":
                out.append(self.operation())
            elif kind == "ALIAS_DEF":
                self.i += 1
                items = self.items()
                if not items:
                    raise NotInGrammar
                out.append(RawAlias(tok, items))
            elif kind == "FILEMETA":
                self.i += 1
                out.append(tok)
            else:
                raise NotInGrammar
        return out

    def operation(self) -> RawOp:
        tokens = self.tokens
        tok = tokens[self.i]
        results = None
        if tok.type == "RESULTS":
            results = tok
            self.i += 1
            tok = tokens[self.i]
            if tok.type != "OPNAME":
                raise NotInGrammar
        self.i += 1
        return RawOp(results, tok, self.items())

    def items(self) -> list:
        """A possibly empty run of atoms, bracket groups and regions."""
        tokens = self.tokens
        n = len(tokens)
        out: list = []
        append = out.append
        i = self.i
        while i < n:
            tok = tokens[i]
            kind = tok.type
            if kind not in STRUCTURE:
                append(tok)
                i += 1
            elif kind == "LPAR" or kind == "LSQB":
                self.i = i + 1
                inner = self.items()
                close = tokens[self.i]
                if close.type != ("RPAR" if kind == "LPAR" else "RSQB"):
                    raise NotInGrammar
                append(Group(tok, close, inner))
                i = self.i + 1
            elif kind == "LBRACE":
                self.i = i
                append(self.region())
                i = self.i
            else:
                break
        self.i = i
        return out

    def region(self) -> RawRegion:
        tokens = self.tokens
        open_tok = tokens[self.i]
        self.i += 1
        blocks: list[RawBlock] = []
        entry_ops = self.ops()
        if entry_ops:
            blocks.append(RawBlock(None, None, entry_ops))
        while tokens[self.i].type == "BLOCK_LABEL":
            blocks.append(self.block())
        close = tokens[self.i]
        if close.type != "RBRACE":
            raise NotInGrammar
        self.i += 1
        return RawRegion(open_tok, close, blocks)

    def ops(self) -> list[RawOp]:
        tokens = self.tokens
        out: list[RawOp] = []
        while True:
            kind = tokens[self.i].type
            if kind != "OPNAME" and kind != "RESULTS":
                return out
            out.append(self.operation())

    def block(self) -> RawBlock:
        label = self.tokens[self.i]
        self.i += 1
        return labelled_block(label, self.items(), self.ops())
