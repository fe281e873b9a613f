"""MLIR's identifier grammar (LangRef, upstream's Lexer.cpp) as regular-expression sources, written once."""

from __future__ import annotations

from typing import Final

# bare-id ::= (letter|`_`) (letter|digit|[_$.])*: keywords, op names, attribute keys, alias names.
BARE_ID: Final = r"[A-Za-z_][\w$.]*"
# suffix-id without its all-digit form: (letter|id-punct) (letter|id-punct|digit)*, id-punct ::= [$._-].
WORD_ID: Final = r"[A-Za-z_$.\-][\w$.\-]*"
# suffix-id ::= digit+ | WORD_ID: the name after `%` (a value), `^` (a block), `#` and `!` (an alias).
SUFFIX_ID: Final = rf"(?:{WORD_ID}|\d+)"
# What follows the opening `"` of a string-literal up to its closing one: characters other than a
# newline, or backslash escapes (`\"`, `\\`, `\n`, `\t`, `\XX`).
STRING_BODY: Final = r'(?:[^"\\\n]|\\.)*'
STRING_LITERAL: Final = rf'"{STRING_BODY}"'
# A symbol's name after `@`: a bare-id or a string literal, as upstream's lexer reads it (`@my-k` is
# `@my` and a stray `-`), so the printer quotes every other name.
SYMBOL_NAME: Final = rf"(?:{BARE_ID}|{STRING_LITERAL})"
# symbol-ref ::= `@` name (`::` `@` name)*.
SYMBOL_REF: Final = rf"@{SYMBOL_NAME}(?:::@{SYMBOL_NAME})*"
