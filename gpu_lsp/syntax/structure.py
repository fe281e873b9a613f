"""The structure of a token list: raw operations, regions and blocks (raw.Reader; Lark's recovery on errors)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import cast

from lark import Lark, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer, Token

from gpu_lsp.gcpause import paused_gc
from gpu_lsp.syntax.lexer import LexError
from gpu_lsp.syntax.raw import STRUCTURE, Group, NotInGrammar, RawAlias, RawBlock, RawOp, RawRegion, Reader, labelled_block
from gpu_lsp.syntax.result_list import result_list_error
from gpu_lsp.syntax.tokens import Tok
from gpu_lsp.text import TextRange


class _Terminal(Token):
    """A structure token as Lark sees it; `source` is the lexer's token."""

    __slots__ = ("source",)
    source: Tok


class _Items(Token):
    """A run of atom tokens between two structure tokens, handed to Lark as one ITEMS token."""

    __slots__ = ("atoms",)
    atoms: list[Tok]


def _terminal(tok: Tok) -> _Terminal:
    out = _Terminal(tok.type, tok.value, tok.start_pos, end_pos=tok.end_pos)
    out.source = tok
    return out


def _items_token(atoms: list[Tok]) -> _Items:
    out = _Items("ITEMS", "", atoms[0].start_pos, end_pos=atoms[-1].end_pos)
    out.atoms = atoms
    return out


def lark_tokens(tokens: list[Tok]) -> list[Token]:
    """The lexer's tokens as structure.lark's terminals: each run of atoms one ITEMS token."""
    out: list[Token] = []
    run: list[Tok] = []
    for tok in tokens:
        if tok.type in STRUCTURE:
            if run:
                out.append(_items_token(run))
                run = []
            out.append(_terminal(tok))
        else:
            run.append(tok)
    if run:
        out.append(_items_token(run))
    return out


def _source(node):
    """The lexer's token behind a Lark terminal (anything else as it is)."""
    return node.source if isinstance(node, _Terminal) else node


def _append(children):
    if len(children) == 1:
        return [children[0]]
    children[0].append(children[1])
    return children[0]


def _items(children):
    """Splice ITEMS runs into one flat list of atoms, groups and regions."""
    if len(children) == 1:
        first = children[0]
        return list(first.atoms) if isinstance(first, _Items) else [first]
    out, last = children
    if isinstance(last, _Items):
        out.extend(last.atoms)
    else:
        out.append(last)
    return out


class _Build(Transformer):
    """Reduce callbacks: raw nodes straight from the LALR parser, no parse tree."""

    def start(self, children: list) -> list:
        return children[0] if children else []

    ops = blocks = staticmethod(_append)

    def tops(self, children: list) -> list:
        return _append([children[0], _source(children[1])] if len(children) == 2 else [_source(children[0])])

    items = staticmethod(_items)

    def alias_def(self, children: list) -> RawAlias:
        return RawAlias(_source(children[0]), children[1])

    def operation(self, children: list) -> RawOp:
        if children[0].type == "RESULTS":
            return RawOp(_source(children[0]), _source(children[1]), children[2] if len(children) > 2 else [])
        return RawOp(None, _source(children[0]), children[1] if len(children) > 1 else [])

    def paren(self, children: list) -> Group:
        return Group(_source(children[0]), _source(children[-1]), children[1] if len(children) == 3 else [])

    square = paren

    def region(self, children: list) -> RawRegion:
        close = _source(children[-1])
        blocks: list[RawBlock] = []
        entry_ops: list = []
        for child in children[1:-1]:
            if child and isinstance(child[0], RawBlock):
                blocks = child
            else:
                entry_ops = child
        if entry_ops:
            blocks.insert(0, RawBlock(None, None, entry_ops))
        return RawRegion(_source(children[0]), close, blocks)

    def block(self, children: list) -> RawBlock:
        header: list = []
        ops: list = []
        for child in children[1:]:
            if child and isinstance(child[0], RawOp):
                ops = child
            else:
                header = child
        return labelled_block(_source(children[0]), header, ops)


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


def parse_structure(tokens: list[Tok]) -> tuple[list, list[LexError]]:
    """Parse tokens into raw top-level items; syntax errors skip to the next operation.

    A token list in the grammar's language (any file without a structural error) is
    read by `raw.Reader`; otherwise Lark's LALR parser reads it and recovers from each
    unexpected token by dropping it.
    """
    with paused_gc():
        try:
            return Reader(tokens).tops(), []
        except (NotInGrammar, IndexError, RecursionError):
            return _parse_with_recovery(tokens)


def _unexpected(tokens: list[Tok], first: Tok, at: int | None) -> LexError:
    """The error for a token where an op starts that starts none (`tokens[at]`), upstream's, just
    after the token before: for a value that makes no result list, that list's (`%x index = ...`:
    "expected '=' after SSA name"); for anything else "expected operation name in quotes"."""
    if at is None:
        return LexError(f"unexpected '{first.value}'", TextRange(first.start_pos, first.end_pos))
    message, k = "expected operation name in quotes", 0
    if first.type == "VALUE":
        message, k = result_list_error(lambda j: tokens[at + j] if at + j < len(tokens) else None)
    before = min(at + k, len(tokens)) - 1
    pos = tokens[before].end_pos if before >= 0 else first.start_pos
    return LexError(message, TextRange(pos, pos))


def _parse_with_recovery(tokens: list[Tok]) -> tuple[list, list[LexError]]:
    errors: list[LexError] = []
    parser = _parser()
    terminals = lark_tokens(tokens)

    where: dict[int, int] = {}  # each token's index, made on the first error (once: errors may be thousands)

    def recover(exc: UnexpectedInput) -> bool:
        tok = getattr(exc, "token", None)
        if tok is None or tok.type == "$END":
            return False
        first = tok.atoms[0] if isinstance(tok, _Items) else _source(tok)
        if not where:
            where.update((id(t), i) for i, t in enumerate(tokens))
        errors.append(_unexpected(tokens, first, where.get(id(first))))
        return True

    try:
        result = cast(list, parser.parse(_Stream(terminals), on_error=recover))  # the transformer's list
    except UnexpectedInput as exc:
        tok = getattr(exc, "token", None)
        pos = tok.start_pos if tok is not None and tok.start_pos is not None else 0
        errors.append(LexError("unexpected end of input", TextRange(pos, pos)))
        result = []
    return result, errors
