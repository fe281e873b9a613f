"""Print IR as text the way mlir-opt does: custom or generic op forms, SSA names, aliases.

`print_module(op)` gives what `mlir-opt FILE` writes for one module (attribute
aliases first, a trailing newline); `print_op(op)` one operation. Names follow
MLIR's `SSANameState`: values are numbered per region with the counters carried
in from the enclosing region (`%0`, `%arg0`, `^bb1`), ops may suggest result
names (`%c0`, `%thread_id_x`, `%memref`) made unique with `_N` suffixes, and the
generic form numbers every value uniquely. Custom forms are per-dialect
functions in `gpu_lsp/ir/printers/`, attached with `gpu_lsp.ir.opdefs.printer(name)`.
An op without one prints the text it was parsed from (on one line), with the SSA names,
successors and regions inside it re-printed (so that whatever its syntax
reader did not keep survives), or, when it has no source text (built by a
pass) or was written in generic form, in generic form. An opaque op (its
syntax could not be read, `op.known is False`) always prints its source text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

from mypy_extensions import mypyc_attr

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from gpu_lsp.ir.core import Block, Operation, OpResult, Region, Span, Value
from gpu_lsp.ir.floats import float_text
from gpu_lsp.ir.opdefs import OPS, OpDef
from gpu_lsp.ir.opdefs.format import print_format
from gpu_lsp.ir.opdefs.model import SINGLE
from gpu_lsp.syntax import names

INDENT = 2
UNKNOWN_VALUE = "<<UNKNOWN SSA VALUE>>"

# Op name -> function(op) yielding (result index, suggested name): OpAsmOpInterface's
# getAsmResultNames. Filled by the modules of gpu_lsp/ir/printers.
RESULT_NAMES: dict[str, Callable[[Operation], Iterable[tuple[int, str]]]] = {}
# Ops without a custom printer whose syntax reader keeps too little to print them
# back (static offsets, keywords): they print their source text, like opaque ops.
SOURCE_FORM: set[str] = set()
# Ops whose IR does not hold their attributes the way upstream's generic form needs
# them (an `!llvm.func` type, enum attributes, segment sizes): under
# -mlir-print-op-generic they keep their source text when they have one.
GENERIC_FROM_SOURCE: set[str] = set()
# Generic form: attribute names that upstream keeps among the properties (`<{...}>`)
# or among the discardable attributes (`{...}`) of an op, where our readers differ.
GENERIC_PROPERTIES: dict[str, frozenset[str]] = {}
GENERIC_DISCARDABLE: dict[str, frozenset[str]] = {}
# Generic form: `fn(op, properties, attributes)` adjusts the two dictionaries in place
# (adds `operandSegmentSizes` of branches, drops defaults upstream leaves out).
GENERIC_EXTRA: dict[str, Callable[[Operation, dict, dict], None]] = {}


def default_dialect(op: Operation) -> str:
    """The dialect whose prefix ops in the regions of `op` may omit (OpAsmOpInterface's getDefaultDialect)."""
    spec = OPS.get(op.name)
    return (spec.default_dialect or "") if spec is not None else ""


def declared_result_names(op: Operation) -> list[tuple[int, str]]:
    """An op with several results, none variadic, names them as its declaration does (ODS's default)."""
    spec = OPS.get(op.name)
    results = spec.results if spec is not None else None
    if not results or len(results) < 2 or any(r.kind != SINGLE for r in results):
        return []
    return list(enumerate(r.name for r in results))


def result_names(*names: str):
    """Decorator registering an op's suggested result names (OpAsmOpInterface)."""

    def wrap(fn: Callable[[Operation], Iterable[tuple[int, str]]]):
        for name in names:
            RESULT_NAMES[name] = fn
        return fn

    return wrap


# --- attributes and types ---------------------------------------------------------------------


def escape_string(value: str) -> str:
    r"""Quote a string like llvm::printEscapedString: `\\`, then `"` and non-printable bytes as `\XX`."""
    out = ['"']
    for ch in value:
        code = ord(ch)
        if ch == '"':
            out.append("\\22")
        elif ch == "\\":
            out.append("\\\\")
        elif 0x20 <= code < 0x7F:
            out.append(ch)
        elif code < 0x80:
            out.append(f"\\{code:02X}")
        else:
            out.extend(f"\\{b:02X}" for b in ch.encode("utf-8"))
    out.append('"')
    return "".join(out)


_BARE_ID = re.compile(rf"{names.BARE_ID}\Z")


def keyword_or_string(name: str) -> str:
    """A name (an attribute dictionary key, a symbol's after `@`) bare when it is a bare
    identifier, quoted otherwise (upstream's printKeywordOrString)."""
    return name if _BARE_ID.match(name) else escape_string(name)


def symbol_name(name: str) -> str:
    """`@name`, quoted when the name is not a bare identifier."""
    return "@" + keyword_or_string(name)


def int_text(value: int, ty: T.Type | None) -> str:
    """An integer as MLIR prints it: wrapped to its type, signed unless the type is unsigned."""
    if isinstance(ty, T.IntegerType) and ty.width > 0:
        mask = (1 << ty.width) - 1
        value &= mask
        if ty.signedness != "u" and value >> (ty.width - 1):
            value -= 1 << ty.width
    return str(value)


_DENSE_TOKEN = re.compile(r"\s*(\[|\]|,|\(|\)|true|false|[-+]?0x[0-9a-fA-F]+|[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan))")


def _dense_elements(body: str) -> tuple[list, bool] | None:
    """Flatten a dense literal's body into elements; None when it is not plain numbers/bools."""
    pos = 0
    out: list = []
    n = len(body)
    while pos < n:
        m = _DENSE_TOKEN.match(body, pos)
        if m is None:
            if body[pos:].strip() == "":
                break
            return None
        tok = m.group(1)
        pos = m.end()
        if tok in "[],":
            continue
        if tok in "()":
            return None
        out.append(tok)
    return out, body.lstrip().startswith("[")


def _dense_element_text(tok: str, elem: T.Type) -> str | None:
    if isinstance(elem, T.IntegerType) and elem.width == 1:
        if tok in ("true", "false"):
            return tok
        try:
            return "true" if int(tok, 0) else "false"
        except ValueError:
            return None
    if isinstance(elem, (T.IntegerType, T.IndexType)):
        try:
            return int_text(int(tok, 0), elem)
        except ValueError:
            return None
    if isinstance(elem, T.FloatType):
        if tok.lower().lstrip("+-").startswith("0x"):
            return float_text(0.0, elem, tok)
        try:
            return float_text(float(tok), elem)
        except ValueError:
            return None
    return None


def _nest(items: list[str], shape: tuple) -> str:
    if not shape:
        return items[0]
    if len(shape) == 1:
        return "[" + ", ".join(items) + "]"
    step = len(items) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nest(items[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


def dense_text(attr: OpaqueAttr) -> str:
    """`dense<...>` with its elements printed like MLIR (splat folded, floats normalised)."""
    text = attr.text
    ty = attr.type
    if attr.kind != "dense" or not isinstance(ty, (T.TensorType, T.VectorType)) or not text.endswith(">"):
        return text
    body = text[text.index("<") + 1 : -1]
    parsed = _dense_elements(body)
    if parsed is None:
        return text
    toks, nested = parsed
    shape = [d for d in ty.shape if d is not None]
    if not toks or len(shape) != len(ty.shape):
        return text
    elems = [e for e in (_dense_element_text(t, ty.element) for t in toks) if e is not None]
    if len(elems) != len(toks):
        return text
    count = math.prod(shape)
    if all(e == elems[0] for e in elems) and (len(elems) == count or (len(elems) == 1 and not nested)):
        return f"dense<{elems[0]}>"
    if len(elems) != count:
        return text
    return f"dense<{_nest(elems, tuple(shape))}>"


class Aliases:
    """Attribute aliases mlir-opt prints above the module (`#map = affine_map<...>`)."""

    __slots__ = ("names", "order")

    def __init__(self) -> None:
        self.names: dict[str, str] = {}  # the aliased text -> "#map", "#map1", ...
        self.order: list[str] = []

    def add(self, text: str) -> None:
        if text in self.names:
            return
        kind = "set" if text.startswith("affine_set") else "map"
        index = sum(1 for t in self.order if t.startswith("affine_set") == (kind == "set"))
        self.names[text] = f"#{kind}{index if index else ''}"
        self.order.append(text)

    def collect(self, root: Operation) -> None:
        for op in root.walk():
            for attr in op.properties.values():
                self._attr(attr)
            for attr in op.attributes.values():
                self._attr(attr)
            for result in op.results:
                self._type(result.type)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        self._type(arg.type)

    def _attr(self, attr: Attribute) -> None:
        if isinstance(attr, OpaqueAttr):
            if attr.kind in ("affine_map", "affine_set"):
                self.add(attr.text)
        elif isinstance(attr, ArrayAttr):
            for e in attr.elements:
                self._attr(e)
        elif isinstance(attr, DictAttr):
            for _, v in attr.entries:
                self._attr(v)
        elif isinstance(attr, TypeAttr):
            self._type(attr.type)

    def _type(self, ty: T.Type) -> None:
        if isinstance(ty, T.MemRefType):
            layout = ty.layout
            if isinstance(layout, OpaqueAttr) and layout.text.startswith("affine_map<"):
                self.add(layout.text)
        elif isinstance(ty, T.FunctionType):
            for t in ty.inputs + ty.results:
                self._type(t)

    def substitute(self, text: str) -> str:
        for source in self.order:
            if source in text:
                text = text.replace(source, self.names[source])
        return text

    def header(self) -> str:
        return "".join(f"{self.names[t]} = {t}\n" for t in self.order)


class Formatter:
    """Types and attributes to text, with aliases and per-object caches."""

    __slots__ = ("aliases", "_types")

    def __init__(self, aliases: Aliases | None = None) -> None:
        self.aliases = aliases if aliases is not None and aliases.order else None
        self._types: dict[int, tuple[T.Type, str]] = {}

    def type(self, ty: T.Type) -> str:
        hit = self._types.get(id(ty))
        if hit is not None and hit[0] is ty:
            return hit[1]
        text = str(ty)
        if self.aliases is not None and "affine_" in text:
            text = self.aliases.substitute(text)
        self._types[id(ty)] = (ty, text)
        return text

    def types(self, types: Iterable[T.Type]) -> str:
        return ", ".join(self.type(t) for t in types)

    def attr(self, attr: Attribute, elide_type: bool = False) -> str:
        """MLIR's printAttribute; `elide_type` is AttrTypeElision::May (array elements)."""
        if isinstance(attr, IntegerAttr):
            ty = attr.type
            if isinstance(ty, T.IntegerType) and ty.width == 1 and not ty.signedness:
                return "true" if attr.value & 1 else "false"
            text = int_text(attr.value, ty)
            if elide_type and ty == T.I64:
                return text
            return f"{text} : {self.type(ty)}"
        if isinstance(attr, StringAttr):
            return escape_string(attr.value)
        if isinstance(attr, DictAttr):
            return self.dict(attr.entries)
        if isinstance(attr, ArrayAttr):
            return "[" + ", ".join(self.attr(e, True) for e in attr.elements) + "]"
        if isinstance(attr, UnitAttr):
            return "unit"
        if isinstance(attr, BoolAttr):
            return "true" if attr.value else "false"
        if isinstance(attr, FloatAttr):
            text = float_text(attr.value, attr.type, attr.spelling)
            if elide_type and attr.type == T.F64:
                return text
            return f"{text} : {self.type(attr.type)}"
        if isinstance(attr, TypeAttr):
            return self.type(attr.type)
        if isinstance(attr, SymbolRefAttr):
            return "::".join(symbol_name(p) for p in attr.parts)
        if isinstance(attr, DenseArrayAttr):
            return self.dense_array(attr)
        if isinstance(attr, OpaqueAttr):
            if attr.kind in ("affine_map", "affine_set") and self.aliases is not None:
                return self.aliases.names.get(attr.text, attr.text)
            text = dense_text(attr) if attr.kind == "dense" else attr.text
            return text if attr.type is None else f"{text} : {self.type(attr.type)}"
        return str(attr)

    def dense_array(self, attr: DenseArrayAttr) -> str:
        elem = attr.element
        if not attr.values:
            return f"array<{self.type(elem)}>"
        if isinstance(elem, T.FloatType):
            body = ", ".join(float_text(float(v), elem) for v in attr.values)
        elif isinstance(elem, T.IntegerType) and elem.width == 1:
            body = ", ".join("true" if v else "false" for v in attr.values)
        else:
            body = ", ".join(int_text(int(v), elem) for v in attr.values)
        return f"array<{self.type(elem)}: {body}>"

    def named(self, name: str, value: Attribute) -> str:
        if type(value) is UnitAttr:
            return keyword_or_string(name)
        return f"{keyword_or_string(name)} = {self.attr(value)}"

    def dict(self, entries: Iterable[tuple[str, Attribute]]) -> str:
        """`{a = 1 : i32, b}`: entries sorted by name, as a DictionaryAttr keeps them."""
        return "{" + ", ".join(self.named(k, v) for k, v in sorted(entries, key=_first)) + "}"

    def function_type(self, inputs: Iterable[T.Type], results: list[T.Type] | tuple[T.Type, ...]) -> str:
        ins = "(" + self.types(inputs) + ")"
        if len(results) == 1 and not isinstance(results[0], T.FunctionType):
            return f"{ins} -> {self.type(results[0])}"
        return f"{ins} -> (" + self.types(results) + ")"


def _first(item: tuple) -> str:
    return item[0]


# --- SSA names --------------------------------------------------------------------------------


class _Scope:
    __slots__ = ("names", "parent")

    def __init__(self, parent: _Scope | None) -> None:
        self.names: set[str] = set()
        self.parent = parent

    def __contains__(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


_NAME_CHARS = re.compile(r"[A-Za-z0-9$._\-]*\Z")


def sanitize(name: str) -> str:
    """MLIR's sanitizeIdentifier: a leading digit gets `_`, other characters become `_` or hex."""
    if _NAME_CHARS.match(name) and not name[:1].isdigit():
        return name
    out = ["_"] if name[:1].isdigit() else []
    for ch in name:
        if ch.isascii() and (ch.isalnum() or ch in "$._-"):
            out.append(ch)
        elif ch == " ":
            out.append("_")
        else:
            out.extend(f"{b:X}" for b in ch.encode("utf-8"))
    return "".join(out)


class BlockLabels(Protocol):
    def get(self, block: Block, default: str, /) -> str: ...


class PrintNames(Protocol):
    """What OpPrinter asks of value and block names: `Names` numbers them as MLIR does,
    passes/edits.py keeps the source's names and invents fresh ones."""

    @property
    def blocks(self) -> BlockLabels: ...

    def use(self, value: Value) -> str: ...

    def result_groups(self, op: Operation) -> list[tuple[int, int]]: ...

    def group_def(self, op: Operation, start: int, count: int) -> str: ...


class Names:
    """SSA value and block names of everything under one root op (MLIR's SSANameState)."""

    def __init__(self, root: Operation, generic: bool = False) -> None:
        self.generic = generic
        self.values: dict[Value, str] = {}
        self.groups: dict[Operation, list[int]] = {}
        self.blocks: dict[Block, str] = {}
        self.next_value = 0
        self.next_arg = 0
        self.next_conflict = 0
        self._scope = _Scope(None)
        top = self._scope
        stack = [(r, 0, 0, 0, top) for r in root.regions]
        self._number_op(root)
        unique = generic  # the generic form implies unique SSA ids across regions
        while stack:
            region, nv, na, nc, parent = stack.pop()
            if not unique:
                self.next_value, self.next_arg, self.next_conflict = nv, na, nc
            self._scope = scope = _Scope(parent)
            self._number_region(region)
            for block in region.blocks:
                for op in block.operations:
                    for sub in op.regions:
                        stack.append((sub, self.next_value, self.next_arg, self.next_conflict, scope))

    def _unique(self, name: str) -> str:
        name = sanitize(name)
        scope = self._scope
        if name in scope:
            while True:
                probe = f"{name}_{self.next_conflict}"
                self.next_conflict += 1
                if probe not in scope:
                    name = probe
                    break
        scope.names.add(name)
        return name

    def _set(self, value: Value, name: str) -> None:
        if not name:
            self.values[value] = str(self.next_value)
            self.next_value += 1
        else:
            self.values[value] = self._unique(name)

    def _number_region(self, region: Region) -> None:
        for index, block in enumerate(region.blocks):
            self.blocks[block] = f"^bb{index}"
            entry = index == 0
            for arg in block.arguments:
                if arg in self.values:
                    continue
                if entry:
                    self._set(arg, f"arg{self.next_arg}")
                    self.next_arg += 1
                else:
                    self._set(arg, "")
            for op in block.operations:
                self._number_op(op)

    def _number_op(self, op: Operation) -> None:
        results = op.results
        groups = [0]
        if not self.generic and results:
            hook = RESULT_NAMES.get(op.name, declared_result_names)
            if op.known:
                try:
                    suggested = list(hook(op))
                except Exception:  # malformed IR: keep the default numbering
                    suggested = []
                for index, name in suggested:
                    if index < len(results) and results[index] not in self.values:
                        self._set(results[index], name)
                        if index:
                            groups.append(index)
        if not results:
            return
        first = results[0]
        if first not in self.values:
            self.values[first] = str(self.next_value)
            self.next_value += 1
        if len(groups) > 1:
            self.groups[op] = sorted(groups)

    def result_groups(self, op: Operation) -> list[tuple[int, int]]:
        """(first result, count) of each group of `op`'s results, in order."""
        n = len(op.results)
        starts = self.groups.get(op)
        if starts is None:
            return [(0, n)]
        bounds = starts + [n]
        return [(bounds[i], bounds[i + 1] - bounds[i]) for i in range(len(starts))]

    def use(self, value: Value) -> str:
        """`%name`, `%0` or `%0#1` for a use of `value`."""
        if isinstance(value, OpResult):
            owner = value.owner
            n = len(owner.results)
            if n != 1:
                index = value.index
                starts = self.groups.get(owner)
                if starts is None:
                    head = owner.results[0]
                    name = self.values.get(head)
                    return UNKNOWN_VALUE if name is None else f"%{name}#{index}"
                start = 0
                end = n
                for s in starts:
                    if s <= index:
                        start = s
                    else:
                        end = s
                        break
                head = owner.results[start]
                name = self.values.get(head)
                if name is None:
                    return UNKNOWN_VALUE
                return f"%{name}" if end - start == 1 else f"%{name}#{index - start}"
        name = self.values.get(value)
        return UNKNOWN_VALUE if name is None else f"%{name}"

    def group_def(self, op: Operation, start: int, count: int) -> str:
        name = self.values.get(op.results[start])
        text = UNKNOWN_VALUE if name is None else f"%{name}"
        return f"{text}:{count}" if count > 1 else text


# --- the printer ------------------------------------------------------------------------------


def _is_terminator(op: Operation) -> bool:
    spec = OPS.get(op.name)
    return spec is not None and "terminator" in spec.traits


def is_opaque(op: Operation) -> bool:
    """True when the op's syntax could not be read, so its types are unknown."""
    if op.known:
        return False
    if not op.generic:
        return True
    return any(isinstance(r.type, T.UnknownType) for r in op.results)


def custom_form(spec: OpDef | None) -> Callable[[OpPrinter, Operation], None] | None:
    """The printer of an op's custom form: hand-written, else by its assembly format, else None."""
    if spec is None:
        return None
    if spec.printer is not None:
        return spec.printer
    if spec.format is None:
        return None
    return lambda p, op: print_format(p, op, spec)


def _lossy_reader(spec: OpDef | None) -> bool:
    if spec is None or custom_form(spec) is not None:
        return False
    return spec.name in SOURCE_FORM or spec.reader is None


def needs_source(op: Operation) -> bool:
    """True when the IR does not hold enough to print `op`: opaque, read loosely, or of unknown types."""
    if is_opaque(op):
        return True
    if _lossy_reader(OPS.get(op.name)):
        return True
    for v in op.operands:
        if type(v.type) is T.UnknownType:
            return True
    return any(type(r.type) is T.UnknownType for r in op.results)


class CannotPrint(Exception):
    """Raised by a custom printer when the IR holds something its custom form cannot show.

    The op is then printed from its source text, or in generic form (so is an op
    whose custom printer fails on malformed IR).
    """


AttrT = TypeVar("AttrT", bound=Attribute)


def required_attr(op: Operation, name: str, kind: type[AttrT]) -> AttrT:
    """The attribute `name` a custom form cannot be printed without, of class `kind` (else CannotPrint)."""
    attr = op.get_attr(name)
    if not isinstance(attr, kind):
        raise CannotPrint
    return attr


def required_function_type(op: Operation) -> T.FunctionType:
    """The `function_type` property of a function op (else CannotPrint)."""
    ty = required_attr(op, "function_type", TypeAttr).type
    if not isinstance(ty, T.FunctionType):
        raise CannotPrint
    return ty


# The formatter and the pipeline view subclass it in interpreted code (compiled builds, setup.py).
@mypyc_attr(allow_interpreted_subclasses=True)
class OpPrinter:
    """Writes operations; the argument custom printers receive (MLIR's OpAsmPrinter).

    A custom printer `fn(p, op)` is called after the results and the op name
    are written and writes the rest of the op, each piece with its own leading
    space, like an ODS-generated printer.
    """

    def __init__(self, names: PrintNames, fmt: Formatter, generic: bool = False, source: str | None = None) -> None:
        self.names = names
        self.fmt = fmt
        self.generic = generic
        self.source = source
        self.out: list[str] = []
        self.indent = 0
        self.dialects: list[str] = ["builtin"]
        # The source's alias definitions (`#lhs`, `!t`): an op printed from its text names them.
        self.source_aliases: dict[str, object] = {}

    # --- pieces ---------------------------------------------------------------------------------

    def write(self, text: str) -> None:
        self.out.append(text)

    def value(self, value: Value) -> str:
        return self.names.use(value)

    def values(self, values: Iterable[Value]) -> str:
        use = self.names.use
        return ", ".join(use(v) for v in values)

    def type(self, ty: T.Type) -> str:
        return self.fmt.type(ty)

    def types(self, types: Iterable[T.Type]) -> str:
        return self.fmt.types(types)

    def value_types(self, values: Iterable[Value]) -> str:
        return self.fmt.types(v.type for v in values)

    def attr(self, attr: Attribute, elide_type: bool = False) -> str:
        return self.fmt.attr(attr, elide_type)

    def symbol(self, name: str) -> str:
        return symbol_name(name)

    def block_name(self, block: Block) -> str:
        return self.names.blocks.get(block, "^INVALIDBLOCK")

    def successor(self, block: Block, operands: list[Value] | tuple = ()) -> str:
        """`^bb1` or `^bb1(%a, %b : i32, f32)`."""
        name = self.block_name(block)
        if not operands:
            return name
        return f"{name}({self.values(operands)} : {self.value_types(operands)})"

    def functional_type(self, op: Operation) -> str:
        return self.fmt.function_type((v.type for v in op.operands), [r.type for r in op.results])

    def all_attrs(self, op: Operation) -> dict[str, Attribute]:
        """Inherent (properties) and discardable attributes, as `Operation::getAttrs()`."""
        if not op.properties:
            return op.attributes
        merged = dict(op.properties)
        merged.update(op.attributes)
        return merged

    def attr_dict(self, op: Operation, elided: Iterable[str] = (), keyword: bool = False) -> None:
        """printOptionalAttrDict[WithKeyword]: ` {a = 1}` / ` attributes {a = 1}` when not empty."""
        attrs = self.all_attrs(op)
        if not attrs:
            return
        skip = set(elided)
        skip.add("operandSegmentSizes")
        entries = [(k, v) for k, v in attrs.items() if k not in skip]
        if entries:
            self.out.append((" attributes " if keyword else " ") + self.fmt.dict(entries))

    def prop_dict(self, op: Operation, elided: Iterable[str] = ()) -> None:
        """A prop-dict: ` ` and, when some property is not elided, `<{a = 1}>`."""
        skip = set(elided)
        entries = [(k, v) for k, v in op.properties.items() if k not in skip]
        self.out.append(" <" + self.fmt.dict(entries) + ">" if entries else " ")

    def optional_dict(self, entries: Iterable[tuple[str, Attribute]] | DictAttr | None) -> str:
        """` {a = 1}` for a non-empty dictionary, else ''."""
        if entries is None:
            return ""
        if isinstance(entries, DictAttr):
            entries = entries.entries
        entries = list(entries)
        return " " + self.fmt.dict(entries) if entries else ""

    # --- regions and blocks ---------------------------------------------------------------------

    def region(
        self,
        region: Region,
        entry_args: bool = True,
        terminators: bool = True,
        empty_block: bool = False,
        implicit: str | None = None,
    ) -> None:
        """MLIR's printRegion: `{`, the blocks, `}` at the current indentation.

        `implicit` is the text of a terminator the op's syntax lets the source
        omit (SingleBlockImplicitTerminator) and mlir-opt prints: it is written
        when the last block does not end with a terminator.
        """
        w = self.out.append
        w("{\n")
        blocks = region.blocks
        if blocks:
            parent = region.parent
            self.dialects.append(default_dialect(parent) if parent is not None else "")
            preds = _predecessors(region) if len(blocks) > 1 else None
            entry = blocks[0]
            # An empty block gets its label, unless the implicit terminator is printed into it.
            header = (empty_block and not entry.operations and implicit is None) or (entry_args and bool(entry.arguments))
            self.block(entry, header, terminators, preds)
            for block in blocks[1:]:
                self.block(block, True, True, preds)
            last = blocks[-1].operations
            if implicit is not None and terminators and not (last and _is_terminator(last[-1])):
                w(" " * (self.indent + INDENT) + self._implicit_text(implicit) + "\n")
            self.dialects.pop()
        w(" " * self.indent + "}")

    def _implicit_text(self, implicit: str) -> str:
        """A custom form's implicit terminator as written (`scf.reduce `), or in generic form."""
        if not self.generic:
            return implicit
        name = implicit.strip()
        if name == "scf.forall.in_parallel":
            pad = " " * (self.indent + INDENT)
            return f'"{name}"() ({{\n{pad}^bb0:\n{pad}}}) : () -> ()'
        return f'"{name}"() : () -> ()'

    def block(self, block: Block, header: bool, terminators: bool = True, preds: dict | None = None) -> None:
        w = self.out.append
        if header:
            w(" " * self.indent + self.block_name(block))
            if block.arguments:
                use = self.names.use
                ty = self.fmt.type
                w("(" + ", ".join(f"{use(a)}: {ty(a.type)}" for a in block.arguments) + ")")
            w(":")
            w(self._pred_comment(block, preds))
            w("\n")
        self.indent += INDENT
        ops = block.operations
        if not terminators and ops and _is_terminator(ops[-1]):
            ops = ops[:-1]
        pad = " " * self.indent
        for op in ops:
            w(pad)
            self.op(op)
            w("\n")
        self.indent -= INDENT

    def _pred_comment(self, block: Block, preds: dict | None) -> str:
        blocks = block.parent.blocks if block.parent is not None else []
        entry = bool(blocks) and blocks[0] is block
        found = (preds or {}).get(block, [])
        if not found:
            return "" if entry else "  // no predecessors"
        if all(p is found[0] for p in found):
            return f"  // pred: {self.block_name(found[0])}"
        order = {b: i for i, b in enumerate(blocks)}
        names = [self.block_name(p) for p in sorted(found, key=lambda b: order.get(b, 0))]
        return f"  // {len(found)} preds: " + ", ".join(names)

    # --- operations -----------------------------------------------------------------------------

    def op(self, op: Operation) -> None:
        """Print one operation (results, name, body) without indentation or newline."""
        spec = OPS.get(op.name)
        custom_printer = custom_form(spec) if not self.generic and op.known else None
        custom = custom_printer is not None
        if (
            self.source is not None
            and op.span is not None
            and (
                needs_source(op)
                or not (custom or self.generic or op.generic)
                or (self.generic and op.name in GENERIC_FROM_SOURCE and not op.generic)
            )
        ):
            self._source_op(op, self.source, op.span)
            return
        w = self.out.append
        if op.results:
            names = self.names
            w(", ".join(names.group_def(op, s, c) for s, c in names.result_groups(op)) + " = ")
        if custom_printer is not None:
            name = op.name
            default = self.dialects[-1]
            if default and name.startswith(default) and name[len(default) : len(default) + 1] == "." and name.count(".") == 1:
                name = name[len(default) + 1 :]
            mark, indent, depth = len(self.out), self.indent, len(self.dialects)
            w(name)
            try:
                custom_printer(self, op)
                return
            except Exception:  # CannotPrint, or IR the custom form cannot show (e.g. a launch without its region arguments)
                del self.out[mark:]
                del self.dialects[depth:]
                self.indent = indent
            if self.source is not None and op.span is not None:
                del self.out[mark - 1 if op.results else mark :]
                self._source_op(op, self.source, op.span)
                return
        self.generic_op(op)

    def generic_op(self, op: Operation) -> None:
        """`"dialect.op"(%a) [^bb1] <{props}> ({...}) {attrs} : (T) -> R`."""
        w = self.out.append
        fmt = self.fmt
        w(escape_string(op.name))
        w("(" + self.values(op.operands) + ")")
        if op.successors:
            w("[" + ", ".join(self.block_name(b) for b in op.successors) + "]")
        props = dict(op.properties)
        attrs = dict(op.attributes)
        spec = OPS.get(op.name)
        inherent = set(spec.inherent) if spec is not None else set()
        inherent |= GENERIC_PROPERTIES.get(op.name, frozenset())
        for key in inherent:
            if key in attrs:
                props[key] = attrs.pop(key)
        for key in GENERIC_DISCARDABLE.get(op.name, ()):
            if key in props:
                attrs[key] = props.pop(key)
        extra = GENERIC_EXTRA.get(op.name)
        if extra is not None and op.known:
            extra(op, props, attrs)
        if props:
            w(" <" + fmt.dict(props.items()) + ">")
        if op.regions:
            w(" (")
            # SingleBlockImplicitTerminator: the generic form shows the terminator the custom form left out
            implicit = spec.implicit_terminator if spec is not None and op.known else None
            for i, region in enumerate(op.regions):
                if i:
                    w(", ")
                self.region(region, entry_args=True, terminators=True, empty_block=True, implicit=implicit)
            w(")")
        if attrs:
            w(" " + fmt.dict(attrs.items()))
        w(" : " + self.functional_type(op))

    def _source_op(self, op: Operation, source: str, where: Span) -> None:
        """An opaque op: its source text (`where` in `source`), with SSA names, successors and regions re-printed."""
        rng = where.range
        start, end = rng.start, rng.end
        edits: list[tuple[int, int, str | Region]] = []
        defs = [r.def_span.range for r in op.results if r.def_span is not None]
        w = self.out.append
        if op.results:
            names = self.names
            text = ", ".join(names.group_def(op, s, c) for s, c in names.result_groups(op))
            if defs:
                first = min(d.start for d in defs)
                last = max(d.end for d in defs)
                start = min(start, first)
                edits.append((first, last, text))
            else:
                w(text + " = ")
        for value, span in zip(op.operands, op.operand_spans):
            if span is not None:
                r = span.range
                edits.append((r.start, r.end, self.names.use(value)))
        for block, span in zip(op.successors, op.successor_spans):
            if span is not None:
                r = span.range
                edits.append((r.start, r.end, self.block_name(block)))
        for region in op.regions:
            if region.span is not None:
                r = region.span.range
                edits.append((r.start, r.end, region))
            for block in region.blocks[:1]:
                for arg in block.arguments:
                    if arg.def_span is not None:
                        r = arg.def_span.range
                        edits.append((r.start, r.end, self.names.use(arg)))
        edits.sort(key=lambda e: (e[0], -e[1]))
        pos = start
        aliases = self.fmt.aliases
        named = (lambda text: self._alias_uses(text)) if self.source_aliases else (lambda text: text)
        raw = (lambda text: aliases.substitute(one_line(named(text)))) if aliases is not None else (lambda text: one_line(named(text)))
        for s, e, what in edits:
            if s < pos or e > end:
                continue
            w(raw(source[pos:s]))
            if isinstance(what, Region):
                entry = what.blocks[0] if what.blocks else None
                self.region(what, entry_args=entry is not None and entry.label is not None)
            else:
                w(what)
            pos = e
        w(raw(_strip_trailing_loc(source[pos:end].rstrip())))

    def _alias_uses(self, text: str) -> str:
        """Source text with the source's alias names replaced by what they stand for, as printed."""

        def replace(m: re.Match) -> str:
            name = m.group("alias")
            if name is None:
                return m.group()
            target = self.source_aliases.get(name)
            if isinstance(target, T.Type):
                return self.type(target)
            if isinstance(target, Attribute):
                return self.attr(target)
            return name

        return _ALIAS_USE.sub(replace, text)


# A string literal (kept), or an alias use: `#name` / `!name` not followed by `<` or `.` (a dialect's own).
_ALIAS_USE = re.compile(rf"{names.STRING_LITERAL}|(?P<alias>[#!][A-Za-z_][\w$]*)(?![\w$.<])")


_OPEN_BREAK = re.compile(r"([(\[{<])[ \t]*\n\s*")
_CLOSE_BREAK = re.compile(r"\s*\n\s*([)\]}>])")
_BREAK = re.compile(r"[ \t]*\n\s*")


def one_line(text: str) -> str:
    """Source text with its line breaks (and the indentation after them) undone, as mlir-opt
    prints an op on one line: none after an opening or before a closing bracket, one space elsewhere.

    An op printed from its source text then prints the same however the source lays it out.
    Text with a comment is kept as written (joining lines would comment out code).
    """
    if "\n" not in text or "//" in text:
        return text
    return _BREAK.sub(" ", _CLOSE_BREAK.sub(r"\1", _OPEN_BREAK.sub(r"\1", text)))


def _strip_trailing_loc(text: str) -> str:
    """`text` without a final ` loc(...)`: mlir-opt prints no locations."""
    if not text.endswith(")"):
        return text
    start = text.rfind("loc(")
    while start > 0:
        if text[start - 1] in " \t\n" and _balanced(text[start + 3 :]):
            return text[:start].rstrip()
        start = text.rfind("loc(", 0, start)
    return text


def _balanced(text: str) -> bool:
    """True when `text` is one parenthesised group (strings skipped)."""
    depth = 0
    quoted = False
    escaped = False
    for i, ch in enumerate(text):
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False


def _predecessors(region: Region) -> dict[Block, list[Block]]:
    preds: dict[Block, list[Block]] = {}
    for block in region.blocks:
        for op in block.operations:
            for succ in op.successors:
                preds.setdefault(succ, []).append(block)
    return preds


# --- entry points -----------------------------------------------------------------------------


def root_of(op: Operation) -> Operation:
    while op.parent_op is not None:
        op = op.parent_op
    return op


