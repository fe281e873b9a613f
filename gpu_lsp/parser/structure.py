"""The structure grammar over the lexer's tokens: raw operations, regions and blocks (top-down, Lark on errors)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import cast

from lark import Lark, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from gpu_lsp.gcpause import paused_gc
from gpu_lsp.parser.lexer import LexError
from gpu_lsp.parser.tokens import Tok
from gpu_lsp.text import TextRange

# Token kinds that are structure (brackets, regions, op and block starts); every other token is
# an atom of an operation's item list.
STRUCTURE = frozenset(
    ("RESULTS", "OPNAME", "ALIAS_DEF", "FILEMETA", "BLOCK_LABEL", "LPAR", "RPAR", "LSQB", "RSQB", "LBRACE", "RBRACE")
)


class ItemsToken(Tok):
    """A run of atom tokens between two structure tokens, handed to Lark as one ITEMS token."""

    __slots__ = ("atoms",)
    atoms: list[Tok]


def items_token(atoms: list[Tok]) -> ItemsToken:
    tok = str.__new__(ItemsToken, "")
    tok.type = "ITEMS"
    tok.value = ""
    tok.start_pos = atoms[0].start_pos
    tok.end_pos = atoms[-1].end_pos
    tok.atoms = atoms
    return tok


def lark_tokens(tokens: list[Tok]) -> list[Tok]:
    """The lexer's tokens with each run of atoms made one ITEMS token (structure.lark's terminals)."""
    out: list[Tok] = []
    run: list[Tok] = []
    for tok in tokens:
        if tok.type in STRUCTURE:
            if run:
                out.append(items_token(run))
                run = []
            out.append(tok)
        else:
            run.append(tok)
    if run:
        out.append(items_token(run))
    return out


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

    def start(self, children: list) -> list:
        return children[0] if children else []

    tops = ops = blocks = staticmethod(_append)
    items = staticmethod(_items)

    def alias_def(self, children: list) -> RawAlias:
        return RawAlias(children[0], children[1])

    def operation(self, children: list) -> RawOp:
        if children[0].type == "RESULTS":
            return RawOp(children[0], children[1], children[2] if len(children) > 2 else [])
        return RawOp(None, children[0], children[1] if len(children) > 1 else [])

    def paren(self, children: list) -> Group:
        return Group(children[0], children[-1], children[1] if len(children) == 3 else [])

    square = paren

    def region(self, children: list) -> RawRegion:
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

    def block(self, children: list) -> RawBlock:
        header: list = []
        ops: list = []
        for child in children[1:]:
            if child and isinstance(child[0], RawOp):
                ops = child
            else:
                header = child
        return _block(children[0], header, ops)


def _block(label: Tok, header: list, ops: list) -> RawBlock:
    """A labelled block; its header must be `(args)` then `:` (else `bad` is the first item off)."""
    args = header[0] if header and isinstance(header[0], Group) else None
    rest = header[1:] if args is not None else header
    if len(rest) != 1 or getattr(rest[0], "type", None) != "COLON":
        bad = rest[1] if rest and getattr(rest[0], "type", None) == "COLON" and len(rest) > 1 else (rest[0] if rest else label)
        return RawBlock(label, args, ops, bad)
    return RawBlock(label, args, ops)


class _Stream:
    """One shared iterator, so that resuming after an error continues past the bad token."""

    __slots__ = ("iterator",)

    def __init__(self, tokens: list[Tok]) -> None:
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


class _NotInGrammar(Exception):
    """The token list leaves structure.lark's language: Lark's parser, with its recovery, takes over."""


class _Reader:
    """structure.lark read top-down over a token list in its language, building what `_Build` builds.

    Every construct of the grammar starts with its own token, so one token of lookahead
    decides each step; anything else raises `_NotInGrammar`.
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
                    raise _NotInGrammar
                out.append(RawAlias(tok, items))
            elif kind == "FILEMETA":
                self.i += 1
                out.append(tok)
            else:
                raise _NotInGrammar
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
                raise _NotInGrammar
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
                    raise _NotInGrammar
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
            raise _NotInGrammar
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
        return _block(label, self.items(), self.ops())


def parse_structure(tokens: list[Tok]) -> tuple[list, list[LexError]]:
    """Parse tokens into raw top-level items; syntax errors skip to the next operation.

    A token list in the grammar's language (any file without a structural error) is
    read by `_Reader`; otherwise Lark's LALR parser reads it and recovers from each
    unexpected token by dropping it.
    """
    with paused_gc():
        try:
            return _Reader(tokens).tops(), []
        except (_NotInGrammar, IndexError, RecursionError):
            return _parse_with_recovery(tokens)


def _parse_with_recovery(tokens: list[Tok]) -> tuple[list, list[LexError]]:
    errors: list[LexError] = []
    parser = _parser()
    tokens = lark_tokens(tokens)
    if tokens:
        # Lark's end-of-input token borrows the last token's line and column (ours have none).
        last = tokens[-1]
        last.line = last.column = last.end_line = last.end_column = None

    def recover(exc: UnexpectedInput) -> bool:
        tok = getattr(exc, "token", None)
        if tok is None or tok.type == "$END":
            return False
        first = tok.atoms[0] if isinstance(tok, ItemsToken) else tok
        errors.append(LexError(f"unexpected '{first.value}'", TextRange(first.start_pos, first.end_pos)))
        return True

    try:
        result = cast(list, parser.parse(_Stream(tokens), on_error=recover))  # the transformer's list
    except UnexpectedInput as exc:
        tok = getattr(exc, "token", None)
        pos = tok.start_pos if tok is not None and tok.start_pos is not None else 0
        errors.append(LexError("unexpected end of input", TextRange(pos, pos)))
        result = []
    return result, errors
