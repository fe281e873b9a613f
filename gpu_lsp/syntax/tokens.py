"""Lexer tokens: a kind, the text and its offsets (a native class in the compiled build)."""

from __future__ import annotations


class Tok:
    """A lexer token: its kind (a terminal of structure.lark, or the kind of an atom), its text
    and its offsets in the buffer.

    Not a Lark token: making one copied the text into a new string. structure.py wraps the
    structure tokens for Lark's recovery only.
    """

    __slots__ = ("type", "value", "start_pos", "end_pos")

    def __init__(self, type: str, value: str, start_pos: int, end_pos: int) -> None:
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos

    def __repr__(self) -> str:
        return f"Tok({self.type!r}, {self.value!r}, {self.start_pos}, {self.end_pos})"
