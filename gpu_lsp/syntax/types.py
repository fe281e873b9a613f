"""Type parsing: one TYPE token's text to an `ir.types.Type`, cached."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Final

from lark import Lark, Transformer
from lark.exceptions import LarkError

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DialectAttr, IntegerAttr, OpaqueAttr, StringAttr
from gpu_lsp.ir.canonical_attrs import canonical_attr
from gpu_lsp.ir.flags import canonical_flags


def _memory_space(attr: Attribute | None) -> Attribute | None:
    """A memref's memory space as upstream keeps it: the integer 0 is the default space, none (so
    `memref<4xf32, 0>` is `memref<4xf32>`)."""
    if isinstance(attr, IntegerAttr) and not isinstance(attr.value, bool) and attr.value == 0:
        return None
    return attr


# An identity map (each result the dimension at its place, no symbols) and a strided layout's default offset.
# (Spaced as written: the lists are compared with their blanks taken out.)
_IDENTITY_MAP: Final = re.compile(r"affine_map<\s*\(([\w$\s,]*)\)\s*->\s*\(([\w$\s,]*)\)\s*>")
_ZERO_OFFSET: Final = re.compile(r",\s*offset\s*:\s*0\s*>$")


def _layout(attr: Attribute | None) -> Attribute | None:
    """A memref's layout as upstream keeps it: an identity map is the default layout, none, and a
    strided layout's offset 0 is left out (`strided<[1], offset: 0>` is `strided<[1]>`)."""
    if not isinstance(attr, OpaqueAttr):
        return attr
    identity = _IDENTITY_MAP.fullmatch(attr.text)
    if identity is not None:
        dims, results = ("".join(group.split()) for group in identity.groups())
        if dims == results:  # each result the dimension at its place (the pattern admits names only)
            return None
    zero = _ZERO_OFFSET.search(attr.text) if attr.text.startswith("strided<") else None
    if zero is not None:
        return OpaqueAttr(attr.text[: zero.start()] + ">")
    return attr


class TypeSyntaxError(ValueError):
    """The text is not a valid type; `offset`: where in it upstream's parser reports the error, when known."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset


def _dims(text: str | None) -> tuple:
    if not text:
        return ()
    return tuple(None if d == "?" else int(d) for d in text.split("x")[:-1])


_SPACING: Final = re.compile(r"\s|[,=](?=\S)")
_SQUEEZE: Final = re.compile(
    r'(?P<str>"(?:[^"\\]|\\.)*")|(?P<colon>\s*(?<!:):(?!:))|\s+(?=[)\]},]|>(?!=))|(?<=[<(\[{])\s+|(?P<eq>\s*(?<![<>=!])=(?!=)\s*)|(?P<ws>\s+)|(?P<comma>,\s*)'
)


def _squeeze_match(m: re.Match) -> str:
    kind = m.lastgroup
    if kind == "str":
        return m.group()
    if kind == "ws":
        return " "
    if kind == "comma":
        return ", "
    if kind == "eq":
        return " = "
    if kind == "colon":
        before = m.string[: m.start()].rstrip()
        return ":" if before[-1:].isalpha() or before[-1:] == "_" else " :"
    return ""


def squeeze(text: str) -> str:
    """Opaque attribute or type text with its layout normalised (MLIR's whitespace is not meaning).

    Whitespace runs become one blank, none after an opening or before a closing bracket or
    a comma; a comma is followed by one blank, `=` has one on each side (the comparisons `>=`
    and `==` are kept whole), and a colon has one before it unless it follows a word
    (`offset: ?` but `0 : i64`), as mlir-opt prints. Strings are kept as written.
    """
    if _SPACING.search(text) is None:
        return text
    return _SQUEEZE.sub(_squeeze_match, text)


def hash_attr(text: str) -> DialectAttr | OpaqueAttr:
    """Split `#dialect.name<body>` into its parts (aliases keep their text)."""
    text = squeeze(text)
    lt = text.find("<")
    head = text[1:] if lt < 0 else text[1:lt]
    body = None if lt < 0 else text[lt + 1 : -1]
    dialect, _, name = head.partition(".")
    return canonical_flags(canonical_attr(DialectAttr(dialect, name, body)))


class _ToType(Transformer):
    def start(self, c):
        return c[0]

    def int_type(self, c):
        s = str(c[0])
        if s[0] in "su":
            return T.IntegerType(int(s[2:]), s[0])
        return T.IntegerType(int(s[1:]))

    def float_type(self, c):
        return T.FloatType(str(c[0]))

    def index_type(self, c):
        return T.INDEX

    def none_type(self, c):
        return T.NONE

    def memref(self, c):
        dims = ()
        if c and not isinstance(c[0], T.Type) and c[0].type == "DIMS":
            dims = _dims(str(c[0]))
            c = c[1:]
        elem = c[0]
        layout = space = None
        extra = c[1:]
        if len(extra) == 2:
            layout, space = extra[0][1], extra[1][1]
        elif extra:
            kind, attr = extra[0]
            if kind == "layout":
                layout = attr
            else:
                space = attr
        return T.MemRefType(dims, elem, _layout(layout), _memory_space(space))

    def unranked_memref(self, c):
        space = c[1][1] if len(c) > 1 else None
        return T.UnrankedMemRefType(c[0], _memory_space(space))

    def tensor(self, c):
        dims = ()
        if c and not isinstance(c[0], T.Type):
            dims = _dims(str(c[0]))
            c = c[1:]
        enc = c[1][1] if len(c) > 1 else None
        return T.TensorType(dims, c[0], enc)

    def unranked_tensor(self, c):
        return T.UnrankedTensorType(c[0])

    def vector(self, c):
        if len(c) == 1:
            return T.VectorType((), c[0])
        parts = str(c[0]).split("x")[:-1]
        shape = tuple(int(p.strip("[]")) for p in parts)
        scalable = tuple(p.startswith("[") for p in parts)
        return T.VectorType(shape, c[1], scalable if any(scalable) else ())

    def complex(self, c):
        return T.ComplexType(c[0])

    def tuple(self, c):
        return T.TupleType(tuple(x for x in c if x is not None))

    def dialect_type(self, c):
        text = squeeze(str(c[0]))
        lt = text.find("<")
        head = text[1:] if lt < 0 else text[1:lt]
        body = None if lt < 0 else text[lt + 1 : -1]
        dialect, _, name = head.partition(".")
        return T.DialectType(dialect, name, body)

    def function_type(self, c):
        *inputs, results = c
        return T.FunctionType(tuple(x for x in inputs if x is not None), results)

    def single_result(self, c):
        return (c[0],)

    def result_list(self, c):
        return tuple(x for x in c if x is not None)

    def mattr(self, c):
        tok = c[0]
        text = str(tok)
        if tok.type in ("STRIDED", "AFFINE_MAP"):
            return ("layout", OpaqueAttr(squeeze(text)))
        if tok.type == "HASH_ATTR" and "." not in text and "<" not in text:
            return ("layout", OpaqueAttr(text))
        return self.space(c)

    def space(self, c):
        tok = c[0]
        if tok.type == "INT":  # `1` or `1 : i32`
            return ("space", IntegerAttr(int(tok), self.int_type(c[1:]) if len(c) > 1 and c[1] is not None else T.I64))
        if tok.type == "STRING":
            return ("space", StringAttr(str(tok)[1:-1]))
        return ("space", hash_attr(str(tok)))


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = Path(__file__).with_name("types.lark").read_text()
    return Lark(grammar, parser="lalr", lexer="contextual", transformer=_ToType(), maybe_placeholders=True)


_CACHE: Final[dict[str, T.Type]] = {}


def parse_type(text: str, aliases: dict | None = None) -> T.Type:
    """Parse the text of one type; raises TypeSyntaxError.

    `aliases` maps `!name` and `#name` to the type or attribute they stand for; uses inside
    the type are replaced by their definitions (so printed IR needs no alias definitions).
    """
    cached = _CACHE.get(text)
    if cached is not None:
        return cached
    if aliases and text.startswith("!") and text in aliases:
        return aliases[text]
    substituted = False
    if aliases and ("!" in text or "#" in text):
        for name in sorted(aliases, key=len, reverse=True):
            if name in text:
                text = _substitute(text, name, str(aliases[name]))
                substituted = True
    parser = _parser()
    try:
        # lark types parse() as returning a Tree; with the inline transformer it returns a Type.
        result: T.Type = parser.parse(text)  # type: ignore[assignment]
    except LarkError as exc:
        raise _error(exc, text, substituted) from None
    if not substituted:
        if len(_CACHE) > 50000:
            _CACHE.clear()
        _CACHE[text] = result
    return result


def _substitute(text: str, alias: str, value: str) -> str:
    out = []
    i = 0
    n = len(alias)
    while True:
        j = text.find(alias, i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        after = text[j + n : j + n + 1]
        out.append(text[i:j])
        if after and (after.isalnum() or after in "_$."):
            out.append(alias)
        else:
            out.append(value)
        i = j + n


def _error(exc: LarkError, text: str, substituted: bool) -> TypeSyntaxError:
    """The error of a type that does not parse: upstream's where a type was expected and none is written
    (`vector<4xfoo>`: its parseNonFunctionType), else a description of what failed."""
    expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()
    offset = getattr(exc, "pos_in_stream", None)
    if "INT_TYPE" in expected and isinstance(offset, int) and not substituted:
        # reported as upstream's emitWrongTokenError does: right after the previous token
        return TypeSyntaxError("expected non-function type", len(text[:offset].rstrip()))
    return TypeSyntaxError(_describe(exc, text))


def _describe(exc: LarkError, text: str) -> str:
    token = getattr(exc, "token", None)
    if token is not None and getattr(token, "type", "") == "$END":
        return f"unexpected end of type '{text}'"
    col = getattr(exc, "column", None)
    if col is not None and col > 0:
        return f"invalid type '{text}' at '{text[col - 1:col + 9]}'"
    return f"invalid type '{text}'"
