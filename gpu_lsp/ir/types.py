"""MLIR types in structured form, printed the way mlir-opt prints them."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_lsp.ir.attribute_base import Attribute

DYNAMIC = None  # a `?` dimension
STATIC_DYNAMIC = -(2**63)  # ShapedType::kDynamic: in a static_* index array, the place of an SSA operand


class Type:
    """Base class of every type; subclasses are frozen dataclasses."""

    __slots__ = ()

    @property
    def is_index(self) -> bool:
        return isinstance(self, IndexType)

    @property
    def is_integer(self) -> bool:
        return isinstance(self, IntegerType)

    @property
    def is_float(self) -> bool:
        return isinstance(self, FloatType)

    @property
    def is_token(self) -> bool:
        return isinstance(self, DialectType) and self.dialect == "gpu" and self.name == "async.token"


@dataclass(frozen=True, slots=True)
class IntegerType(Type):
    """`i32`, `si8`, `ui64`: width and signedness ('' signless, 's', 'u')."""

    width: int
    signedness: str = ""

    def __str__(self) -> str:
        return f"{self.signedness}i{self.width}"


@dataclass(frozen=True, slots=True)
class FloatType(Type):
    """`f16`, `bf16`, `f32`, `f8E4M3FN`, ...: identified by spelling."""

    name: str

    @property
    def width(self) -> int:
        n = self.name
        if n == "bf16":
            return 16
        if n == "tf32":
            return 32
        digits = ""
        for ch in n[1:]:
            if not ch.isdigit():
                break
            digits += ch
        return int(digits or 0)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class IndexType(Type):
    """The `index` type."""

    def __str__(self) -> str:
        return "index"


@dataclass(frozen=True, slots=True)
class NoneType(Type):
    """The `none` type."""

    def __str__(self) -> str:
        return "none"


@dataclass(frozen=True, slots=True)
class ComplexType(Type):
    """`complex<T>`."""

    element: Type

    def __str__(self) -> str:
        return f"complex<{self.element}>"


@dataclass(frozen=True, slots=True)
class TupleType(Type):
    """`tuple<T, ...>`."""

    types: tuple[Type, ...]

    def __str__(self) -> str:
        return "tuple<" + ", ".join(map(str, self.types)) + ">"


def _dims(shape: tuple, scalable: tuple = ()) -> str:
    parts = []
    for i, d in enumerate(shape):
        s = "?" if d is None else str(d)
        if scalable and scalable[i]:
            s = f"[{s}]"
        parts.append(s + "x")
    return "".join(parts)


def _space(attr: Attribute) -> str:
    """A memory space as upstream prints it: an i64 integer bare, any other attribute whole (`1 : i32`)."""
    value = getattr(attr, "value", None)
    if isinstance(value, int) and not isinstance(value, bool) and getattr(attr, "type", None) == I64:
        return str(value)
    return str(attr)


@dataclass(frozen=True, slots=True)
class VectorType(Type):
    """`vector<4x[8]xf32>`: shape, element type and scalable dimensions."""

    shape: tuple[int, ...]
    element: Type
    scalable: tuple[bool, ...] = ()

    def __str__(self) -> str:
        return f"vector<{_dims(self.shape, self.scalable)}{self.element}>"


@dataclass(frozen=True, slots=True)
class TensorType(Type):
    """Ranked `tensor<4x?xf32, #enc>`."""

    shape: tuple[int | None, ...]
    element: Type
    encoding: Attribute | None = None

    def __str__(self) -> str:
        enc = f", {self.encoding}" if self.encoding is not None else ""
        return f"tensor<{_dims(self.shape)}{self.element}{enc}>"


@dataclass(frozen=True, slots=True)
class UnrankedTensorType(Type):
    """`tensor<*xf32>`."""

    element: Type

    def __str__(self) -> str:
        return f"tensor<*x{self.element}>"


@dataclass(frozen=True, slots=True)
class MemRefType(Type):
    """Ranked `memref<4x?xf32, layout, memory-space>`."""

    shape: tuple[int | None, ...]
    element: Type
    layout: Attribute | None = None
    memory_space: Attribute | None = None

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def num_dynamic_dims(self) -> int:
        return sum(1 for d in self.shape if d is None)

    def __str__(self) -> str:
        tail = ""
        if self.layout is not None:
            tail += f", {self.layout}"
        if self.memory_space is not None:
            tail += f", {_space(self.memory_space)}"
        return f"memref<{_dims(self.shape)}{self.element}{tail}>"


@dataclass(frozen=True, slots=True)
class UnrankedMemRefType(Type):
    """`memref<*xf32, space>`."""

    element: Type
    memory_space: Attribute | None = None

    def __str__(self) -> str:
        tail = f", {_space(self.memory_space)}" if self.memory_space is not None else ""
        return f"memref<*x{self.element}{tail}>"


@dataclass(frozen=True, slots=True)
class FunctionType(Type):
    """`(inputs) -> results`."""

    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def __str__(self) -> str:
        ins = "(" + ", ".join(map(str, self.inputs)) + ")"
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"{ins} -> {self.results[0]}"
        return f"{ins} -> (" + ", ".join(map(str, self.results)) + ")"


@dataclass(frozen=True, slots=True)
class UnknownType(Type):
    """The type of a value whose definition could not be read (an opaque op's result)."""

    def __str__(self) -> str:
        return "<<unknown>>"


class NullType(Type):
    """No type: what upstream's gpu.launch parser resolves its dependencies with when `async` is not
    written (any value defined before is then used with another type); printed as upstream prints it."""

    def __str__(self) -> str:
        return "<<NULL TYPE>>"


@dataclass(frozen=True, slots=True)
class DialectType(Type):
    """`!dialect.name<body>` (pretty form) or `!dialect<"body">` (opaque form)."""

    dialect: str
    name: str
    body: str | None = None

    def __str__(self) -> str:
        head = f"!{self.dialect}.{self.name}" if self.name else f"!{self.dialect}"
        return head if self.body is None else f"{head}<{self.body}>"


INDEX: IndexType = IndexType()
NONE: NoneType = NoneType()
I1: IntegerType = IntegerType(1)
I8: IntegerType = IntegerType(8)
I32: IntegerType = IntegerType(32)
I64: IntegerType = IntegerType(64)
F16: FloatType = FloatType("f16")
F32: FloatType = FloatType("f32")
F64: FloatType = FloatType("f64")
UNKNOWN: UnknownType = UnknownType()
NULL: NullType = NullType()
TOKEN: DialectType = DialectType("gpu", "async.token")
