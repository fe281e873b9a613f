"""Print an op by its declared assembly format: the printer half of what ODS generates."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DenseArrayAttr, IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from gpu_lsp.ir.core import Block, Operation, Region, Value
from gpu_lsp.ir.hooks import filed_under
from gpu_lsp.ir.opdefs import OPS
from gpu_lsp.ir.opdefs.defaults import default_attribute
from gpu_lsp.ir.opdefs.enums import ENUMS
from gpu_lsp.ir.opdefs.flags import FLAGS
from gpu_lsp.ir.opdefs.format import AttrDict, Custom, Directive, FunctionalType, Literal, OIList, OptionalGroup, TypeOf, Var, parse_format, variables
from gpu_lsp.ir.opdefs.model import VARIADIC, OpDef
from gpu_lsp.ir.opdefs.segments import operand_groups, result_groups
from gpu_lsp.ir.opdefs.typing import dense_array_element, integer_attr_type, stripped_type


class OpPrinter(Protocol):
    """What printing by a format needs of `gpu_lsp.ir.printer.OpPrinter` (which imports this module)."""

    fmt: Any
    indent: int

    def write(self, text: str) -> None: ...

    def value(self, value: Value) -> str: ...

    def values(self, values: Iterable[Value]) -> str: ...

    def types(self, types: Iterable[Any]) -> str: ...

    def type(self, ty: Any) -> str: ...

    def attr(self, attr: Attribute, elide_type: bool = False) -> str: ...

    def attr_dict(self, op: Operation, elided: Iterable[str] = (), keyword: bool = False) -> None: ...

    def region(self, region: Region, entry_args: bool = True, terminators: bool = True) -> None: ...

    def block_name(self, block: Block) -> str: ...

    def successor(self, block: Block, operands: list[Value]) -> str: ...

    def symbol(self, name: str) -> str: ...



class FormatContext:
    """One op being printed by its format: its values by name and ODS's spacing state."""

    def __init__(self, p: OpPrinter, op: Operation, definition: OpDef) -> None:
        self.p = p
        self.op = op
        self.definition = definition
        self.operands = operand_groups(definition, op) or {}
        self.results = result_groups(definition, op) or {}
        self.should_emit_space = True
        self.last_was_punctuation = False

    def space(self) -> None:
        """The space ODS writes before an element that is not a literal."""
        if self.should_emit_space or not self.last_was_punctuation:
            self.p.write(" ")
        self.should_emit_space = True
        self.last_was_punctuation = False

    def regions(self, name: str) -> list[Region] | None:
        """The op's regions declared as `name` (several for a VariadicRegion), None when no region has that name."""
        declared = self.definition.regions or ()
        index = next((k for k, r in enumerate(declared) if r.name == name), None)
        if index is None:
            return None
        extra = len(self.op.regions) - len(declared)
        variadic = next((k for k, r in enumerate(declared) if r.kind == VARIADIC), None)
        start = index if variadic is None or index <= variadic else index + extra
        count = extra + 1 if index == variadic else 1
        return list(self.op.regions[start : start + count])

    def values(self, name: str) -> list[Value]:
        if name in self.operands or name in self.results:
            return self.operands.get(name) or self.results.get(name) or []
        if name == "operands":
            return list(self.op.operands)
        if name == "results":
            return list(self.op.results)
        return []


# `custom<Name>(...)` hooks: fn(format context, the directive's arguments) writes the piece.
CustomPrinter = Callable[[FormatContext, tuple[Directive, ...]], None]
CUSTOM_PRINTERS: dict[str, CustomPrinter] = {}


def custom_printer(name: str) -> Callable[[CustomPrinter], CustomPrinter]:
    """Register the printer of `custom<name>`; a name registered twice is a programming error."""
    return filed_under(CUSTOM_PRINTERS, name, f"custom<{name}>")


def print_format(p: OpPrinter, op: Operation) -> None:
    """Write what follows the op name, by the op's declared assembly format."""
    definition = OPS[op.name]
    assert definition.format is not None
    directives = parse_format(definition.format)
    ctx = FormatContext(p, op, definition)
    # A format that opens with `` still has its first element spaced from the op name
    # (mlir-opt writes `index.cmp slt(%a, %b)` for "`` $pred `(` $lhs `,` $rhs `)`").
    if directives and isinstance(directives[0], Literal) and directives[0].text == "":
        directives = directives[1:]
    _print(ctx, directives)


def _should_emit_space_before(text: str, last_was_punctuation: bool) -> bool:
    if len(text) != 1 and text != "->":
        return True
    if last_was_punctuation:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


def _literal(ctx: FormatContext, text: str) -> None:
    if text == "\\n":
        # printNewline(): a line break at the op's indentation; the spacing state is unchanged.
        ctx.p.write("\n" + " " * ctx.p.indent)
        return
    if text in ("", " "):
        # ODS's genSpacePrinter: ` ` writes a space and is no punctuation, `` is.
        if text == " ":
            ctx.p.write(" ")
        ctx.should_emit_space = False
        ctx.last_was_punctuation = text == ""
        return
    if ctx.should_emit_space and _should_emit_space_before(text, ctx.last_was_punctuation):
        ctx.p.write(" ")
    ctx.p.write(text)
    ctx.should_emit_space = len(text) != 1 or text[0] not in "<({["
    ctx.last_was_punctuation = not (text[0] == "_" or text[0].isalpha())


def _print(ctx: FormatContext, directives: tuple[Directive, ...]) -> None:
    p = ctx.p
    definition = ctx.definition
    for d in directives:
        if isinstance(d, Literal):
            _literal(ctx, d.text)
        elif isinstance(d, AttrDict):
            elided = set(variables(directives_of(definition))) | {"operandSegmentSizes"} | _at_default(ctx) | _segment_attrs(definition)
            p.attr_dict(ctx.op, elided, keyword=d.keyword)
            ctx.last_was_punctuation = False
        elif isinstance(d, OptionalGroup):
            if _present(ctx, d.anchor):
                _print(ctx, tuple(e for e in d.elements if not _is_unit_anchor(ctx, e, d.anchor)))
            else:
                _print(ctx, d.else_elements)
        elif isinstance(d, Var):
            _variable(ctx, d.name)
        elif isinstance(d, TypeOf):
            ctx.space()
            p.write(_types_text(ctx, d))
        elif isinstance(d, FunctionalType):
            ctx.space()
            inputs = [v.type for v in ctx.values(d.inputs)]
            outputs = [v.type for v in ctx.values(d.outputs)]
            p.write(p.fmt.function_type(inputs, outputs))
        elif isinstance(d, Custom):
            CUSTOM_PRINTERS[d.name](ctx, d.args)
        elif isinstance(d, OIList):
            for clause in d.clauses:
                if any(_present(ctx, name) for name in variables(clause)):
                    _print(ctx, clause)


def _types_text(ctx: FormatContext, d: TypeOf) -> str:
    """`type($x)`: the types of `x`, a dialect type in ODS's stripped form (`<...>`) unless `qualified`."""
    types = [v.type for v in ctx.values(d.name)]
    arg = None if d.qualified else ctx.definition.operand(d.name) or ctx.definition.result(d.name)
    stripped = stripped_type(arg.constraint) if arg is not None else None
    if stripped is None:
        return ctx.p.types(types)
    prefix = "!{}.{}<".format(*stripped)
    texts = (ctx.p.type(ty) for ty in types)
    return ", ".join(text[len(prefix) - 1 :] if text.startswith(prefix) else text for text in texts)


def _segment_attrs(definition: OpDef) -> set[str]:
    """The attributes holding a VariadicOfVariadic's group sizes (`case_operand_segments`): ODS leaves them out."""
    out: set[str] = set()
    for arg in definition.operands or ():
        found = _SEGMENT_ATTR.search(arg.constraint)
        if found is not None:
            out.add(found[1])
    return out


_SEGMENT_ATTR = re.compile(r',\s*"(\w+)"\s*\Z')


def _at_default(ctx: FormatContext) -> set[str]:
    """Declared attributes holding their default value, which the attr-dict leaves out (as ODS does)."""
    out: set[str] = set()
    for declared in ctx.definition.attributes:
        if declared.default is None:
            continue
        attr = ctx.op.get_attr(declared.name)
        if attr is not None and attr == default_attribute(declared.constraint, declared.default):
            out.add(declared.name)
    return out


def directives_of(definition: OpDef) -> tuple[Directive, ...]:
    assert definition.format is not None
    return parse_format(definition.format)


def _is_unit_anchor(ctx: FormatContext, element: Directive, anchor: str | None) -> bool:
    if not isinstance(element, Var) or element.name != anchor:
        return False
    attr = ctx.definition.attribute(element.name)
    return attr is not None and attr.constraint == "UnitAttr"


def _present(ctx: FormatContext, anchor: str | None) -> bool:
    if anchor is None:
        return False
    definition = ctx.definition
    if definition.operand(anchor) is not None or definition.result(anchor) is not None:
        return bool(ctx.values(anchor))
    regions = ctx.regions(anchor)
    if regions is not None:
        return any(r.blocks for r in regions)
    attr = ctx.op.get_attr(anchor)
    declared = definition.attribute(anchor)
    if attr is not None and declared is not None and declared.default is not None:
        return attr != default_attribute(declared.constraint, declared.default)
    return attr is not None


def _variable(ctx: FormatContext, name: str) -> None:
    p = ctx.p
    definition = ctx.definition
    if definition.operand(name) is not None or name == "operands":
        ctx.space()
        p.write(p.values(ctx.values(name)))
        return
    regions = ctx.regions(name)
    if regions is not None:
        ctx.space()
        for k, region in enumerate(regions):
            if k:
                p.write(", ")
            p.region(region, terminators=_prints_terminator(definition, region))
        return
    successor_index = next((k for k, s in enumerate(definition.successors or ()) if s.name == name), None)
    if successor_index is not None:
        ctx.space()
        p.write(p.block_name(ctx.op.successors[successor_index]))
        return
    attr = ctx.op.get_attr(name)
    declared = definition.attribute(name)
    if attr is None or declared is None or isinstance(attr, UnitAttr):
        return
    ctx.space()
    p.write(_attribute_text(p, declared.constraint, attr))


def _prints_terminator(definition: OpDef, region: Region) -> bool:
    """ODS prints an implicit terminator only when it carries something: attributes, operands or results."""
    if definition.implicit_terminator is None or not region.blocks or not region.blocks[0].operations:
        return True
    last = region.blocks[0].operations[-1]
    return last.name != definition.implicit_terminator or bool(last.attributes or last.properties or last.operands or last.results)


def _attribute_text(p: OpPrinter, constraint: str, attr: Attribute) -> str:
    enum = ENUMS.get(constraint)
    if enum is not None:
        case = enum.case(attr)
        if case is not None:
            return f"<{case}>" if enum.angled else case
    flags = FLAGS.get(constraint)
    if flags is not None:
        text = flags.text(attr)
        if text is not None:
            return text
    if isinstance(attr, DenseArrayAttr) and dense_array_element(constraint) == attr.element:
        return "[" + ", ".join(str(v) for v in attr.values) + "]"
    if isinstance(attr, SymbolRefAttr):
        return p.attr(attr)
    if isinstance(attr, StringAttr) and constraint == "StrAttr":
        return p.attr(attr)
    if isinstance(attr, StringAttr) and constraint == "SymbolNameAttr":
        return p.symbol(attr.value)
    if isinstance(attr, TypeAttr) and constraint.startswith("TypeAttr"):
        return p.type(attr.type)
    if isinstance(attr, IntegerAttr) and integer_attr_type(constraint) is not None:
        # The constraint fixes the type, so the format writes the value alone (`index.constant 4`).
        if attr.type == T.I1:
            return p.attr(attr)
        return p.attr(IntegerAttr(attr.value, T.I64), elide_type=True)
    return p.attr(attr)
