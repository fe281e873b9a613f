"""Lexer tokens: Lark tokens with offsets (an interpreted module: compiled code makes them)."""

from __future__ import annotations

from lark.lexer import Token

_new_str = str.__new__


class Tok(Token):
    """A lexer token: Lark's Token whose offsets are always set (Lark declares them optional)."""

    __slots__ = ()
    start_pos: int
    end_pos: int


def make_token(kind: str, value: str, start: int, end: int) -> Tok:
    """A token without Lark's constructor overhead (the lexer makes ~10 per line).

    It has offsets only: no line and column (structure.py gives Lark's error recovery the
    ones it reads).
    """
    tok = _new_str(Tok, value)
    tok.type = kind
    tok.value = value
    tok.start_pos = start
    tok.end_pos = end
    return tok

