"""MLIR attributes in structured form where analysis needs them, opaque text elsewhere."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from gpu_lsp.ir.attribute_base import Attribute
from gpu_lsp.ir.floats import float_text
from gpu_lsp.ir.types import FloatType, IndexType, IntegerType, Type


@dataclass(frozen=True, slots=True)
class UnitAttr(Attribute):
    """The unit attribute (presence only)."""

    def __str__(self) -> str:
        return "unit"


@dataclass(frozen=True, slots=True)
class BoolAttr(Attribute):
    """`true` / `false`."""

    value: bool

    def __str__(self) -> str:
        return "true" if self.value else "false"


@dataclass(frozen=True, slots=True)
class IntegerAttr(Attribute):
    """`42 : i32`."""

    value: int
    type: Type

    def __str__(self) -> str:
        if isinstance(self.type, IntegerType) and self.type.width == 1 and not self.type.signedness:
            return "true" if self.value else "false"
        return f"{self.value} : {self.type}"


@dataclass(frozen=True, slots=True)
class FloatAttr(Attribute):
    """`1.000000e+00 : f32` (hexadecimal spellings are kept as written)."""

    value: float
    type: Type
    spelling: str | None = None

    def __str__(self) -> str:
        return f"{self.spelling or float_text(self.value, self.type)} : {self.type}"


@dataclass(frozen=True, slots=True)
class StringAttr(Attribute):
    """`"text"`: `value` is the unescaped content."""

    value: str

    def __str__(self) -> str:
        return quote_string(self.value)


def double_quoted(chars: Iterable[str], escapes: Mapping[str, str], plain: Callable[[str], bool], other: Callable[[str], str]) -> str:
    """`chars` in double quotes: each written as in `escapes`, else as itself when `plain`, else by `other`."""
    out = ['"']
    for ch in chars:
        escape = escapes.get(ch)
        out.append(escape if escape is not None else ch if plain(ch) else other(ch))
    out.append('"')
    return "".join(out)


_MLIR_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\0A", "\t": "\\09"}


def quote_string(value: str) -> str:
    """Quote and escape a string the way MLIR prints string attributes."""
    return double_quoted(value, _MLIR_ESCAPES, lambda ch: ord(ch) >= 0x20 and ord(ch) != 0x7F, lambda ch: f"\\{ord(ch):02X}")


@dataclass(frozen=True, slots=True)
class TypeAttr(Attribute):
    """A type used as an attribute."""

    type: Type

    def __str__(self) -> str:
        return str(self.type)


@dataclass(frozen=True, slots=True)
class ArrayAttr(Attribute):
    """`[a, b, ...]`."""

    elements: tuple[Attribute, ...]

    def __str__(self) -> str:
        return "[" + ", ".join(map(str, self.elements)) + "]"


@dataclass(frozen=True, slots=True)
class DictAttr(Attribute):
    """`{name = value, unit_name}`, entries kept in source order."""

    entries: tuple[tuple[str, Attribute], ...]

    def get(self, name: str) -> Attribute | None:
        for key, value in self.entries:
            if key == name:
                return value
        return None

    def __str__(self) -> str:
        return "{" + ", ".join(print_named_attr(k, v) for k, v in self.entries) + "}"


def print_attr_name(name: str) -> str:
    """Print an attribute name bare when it is an identifier, quoted otherwise."""
    if name and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c in "_$." for c in name):
        return name
    return quote_string(name)


def print_named_attr(name: str, value: Attribute) -> str:
    """`name = value`, or just `name` for a unit attribute."""
    if isinstance(value, UnitAttr):
        return print_attr_name(name)
    return f"{print_attr_name(name)} = {value}"


@dataclass(frozen=True, slots=True)
class SymbolRefAttr(Attribute):
    """`@root::@nested::@leaf`."""

    root: str
    nested: tuple[str, ...] = ()

    @property
    def leaf(self) -> str:
        return self.nested[-1] if self.nested else self.root

    @property
    def parts(self) -> tuple[str, ...]:
        return (self.root, *self.nested)

    def __str__(self) -> str:
        return "::".join(print_symbol_name(p) for p in self.parts)


def print_symbol_name(name: str) -> str:
    """`@name`, quoted when the name is not a bare identifier."""
    if name and (name[0].isalpha() or name[0] in "_$.-") and all(c.isalnum() or c in "_$.-" for c in name):
        return "@" + name
    return "@" + quote_string(name)


@dataclass(frozen=True, slots=True)
class DenseArrayAttr(Attribute):
    """`array<i32: 1, 2, 3>`."""

    element: Type
    values: tuple

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.element}>"
        if isinstance(self.element, FloatType):
            body = ", ".join(float_text(v, self.element) for v in self.values)
        elif isinstance(self.element, IntegerType) and self.element.width == 1:
            body = ", ".join("true" if v else "false" for v in self.values)
        else:
            body = ", ".join(str(v) for v in self.values)
        return f"array<{self.element}: {body}>"


@dataclass(frozen=True, slots=True)
class DialectAttr(Attribute):
    """`#dialect.name<body>` or `#dialect<body>`: kept as text, split for analysis."""

    dialect: str
    name: str
    body: str | None = None

    def __str__(self) -> str:
        head = f"#{self.dialect}.{self.name}" if self.name else f"#{self.dialect}"
        return head if self.body is None else f"{head}<{self.body}>"


@dataclass(frozen=True, slots=True)
class OpaqueAttr(Attribute):
    """Any other attribute (dense, affine maps, locations, ...), kept as normalised text."""

    text: str
    kind: str = ""
    type: Type | None = None

    def __str__(self) -> str:
        return self.text if self.type is None else f"{self.text} : {self.type}"


def int_value(attr: Attribute | None) -> int | None:
    """The integer held by an IntegerAttr/BoolAttr, else None."""
    if isinstance(attr, IntegerAttr):
        return attr.value
    if isinstance(attr, BoolAttr):
        return int(attr.value)
    return None


def integer_literal_error(magnitude: int, negative: bool, ty: Type) -> str | None:
    """Why `[-]magnitude : ty` is no valid integer attribute (upstream's buildAttributeAPInt), or None."""
    if isinstance(ty, IndexType):
        width, signed = 64, True
    elif isinstance(ty, IntegerType):
        width, signed = ty.width, ty.signedness == "s"
        if negative and ty.signedness == "u":
            return "negative integer literal not valid for unsigned integer type"
    else:
        return None
    if negative:
        fits = 0 < magnitude <= 1 << (width - 1)
    else:
        fits = magnitude < 1 << (width - 1 if signed else width)
    return None if fits else "integer constant out of range for attribute"


class _LiteralError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def _skip_blank(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _literal_dims(text: str, i: int) -> tuple[list[int], int]:
    """The shape of the element or nested list at `i` (upstream's TensorLiteralParser), and where it ends."""
    i = _skip_blank(text, i)
    if i >= len(text) or text[i] != "[":
        depth = 0
        while i < len(text) and (depth or text[i] not in ",]"):
            if text[i] == '"':
                i = text.find('"', i + 1) % (len(text) + 1)
                while 0 < i < len(text) and text[i - 1] == "\\":
                    i = text.find('"', i + 1) % (len(text) + 1)
            depth += {"(": 1, ")": -1}.get(text[i], 0) if i < len(text) else 0
            i += 1
        return [], i
    i = _skip_blank(text, i + 1)
    if i < len(text) and text[i] == "]":
        return [0], i + 1
    first: list[int] | None = None
    size = 0
    while True:
        dims, i = _literal_dims(text, i)
        i = _skip_blank(text, i)
        size += 1
        if first is None:
            first = dims
        elif dims != first:
            raise _LiteralError("tensor literal is invalid; ranks are not consistent between elements", i)
        if i >= len(text) or text[i] != ",":
            return [size, *first], i + 1
        i += 1


def dense_literal_error(body: str, shape: tuple[int | None, ...]) -> tuple[str, int | None] | None:
    """Why the elements `body` (the text inside `dense<...>`) cannot have `shape`, and the offset in
    `body` upstream reports it at (None: at the attribute); None when they can (or it cannot be told)."""
    start = _skip_blank(body, 0)
    if start >= len(body) or body[start] != "[" or None in shape:
        return None
    try:
        dims, _ = _literal_dims(body, start)
    except _LiteralError as exc:
        return exc.message, exc.offset
    if tuple(dims) == shape:
        return None
    inferred = ", ".join(map(str, dims))
    expected = ", ".join(map(str, shape))
    return f"inferred shape of elements literal ([{inferred}]) does not match type ([{expected}])", None


INDEX_TYPE = IndexType()
