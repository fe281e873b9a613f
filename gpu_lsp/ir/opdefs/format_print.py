"""The printer's side of the format engine: ODS's spacing rules, and an op's values and attributes by name."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Protocol

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DenseArrayAttr, IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from gpu_lsp.ir.core import Block, Operation, Region, Value
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.flags import FLAGS
from gpu_lsp.ir.opdefs.defaults import default_attribute
from gpu_lsp.ir.opdefs.opdef import VARIADIC, OpDef
from gpu_lsp.ir.opdefs.segments import operand_groups, result_groups
from gpu_lsp.ir.opdefs.typing import dense_array_element, integer_attr_type, stripped_type


class OpPrinter(Protocol):
    """What printing by a format needs of `gpu_lsp.ir.printer.OpPrinter` (which imports the engine)."""

    fmt: Any
    indent: int

    def write(self, text: str) -> None: ...

    def value(self, value: Value) -> str: ...

    def values(self, values: Iterable[Value]) -> str: ...

    def types(self, types: Iterable[Any]) -> str: ...

    def type(self, ty: Any) -> str: ...

    def attr(self, attr: Attribute, elide_type: bool = False) -> str: ...

    def attr_dict(self, op: Operation, elided: Iterable[str] = (), keyword: bool = False) -> None: ...

    def prop_dict(self, op: Operation, elided: Iterable[str] = ()) -> None: ...

    def region(self, region: Region, entry_args: bool = True, terminators: bool = True) -> None: ...

    def block_name(self, block: Block) -> str: ...

    def successor(self, block: Block, operands: list[Value]) -> str: ...

    def symbol(self, name: str) -> str: ...


SPACING = ("", " ", "\\n")


class Spacing:
    """ODS's spacing rules (OpFormatGen's shouldEmitSpaceBefore and genSpacePrinter), for the printer and hover text."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.should_emit_space = True
        self.last_was_punctuation = False

    def write(self, text: str) -> None:
        self.parts.append(text)

    def space(self) -> None:
        """The space written before an element that is not a literal."""
        if self.should_emit_space or not self.last_was_punctuation:
            self.write(" ")
        self.should_emit_space = True
        self.last_was_punctuation = False

    def literal(self, text: str) -> None:
        """A literal: `` ` ` `` writes a space and is no punctuation, `` `` `` is; `\\n` is a line break."""
        if text == "\\n":
            self.newline()
            return
        if text in ("", " "):
            if text == " ":
                self.write(" ")
            self.should_emit_space = False
            self.last_was_punctuation = text == ""
            return
        if self.should_emit_space and _space_before(text, self.last_was_punctuation):
            self.write(" ")
        self.write(text)
        self.should_emit_space = len(text) != 1 or text[0] not in "<({["
        self.last_was_punctuation = not (text[0] == "_" or text[0].isalpha())

    def newline(self) -> None:
        """printNewline(): a line break; the spacing state is unchanged (hover text writes a space)."""
        self.write(" ")


def _space_before(text: str, last_was_punctuation: bool) -> bool:
    if len(text) != 1 and text != "->":
        return True
    if last_was_punctuation:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


class FormatContext(Spacing):
    """One op being printed by its format: its values by name, written through the printer."""

    def __init__(self, p: OpPrinter, op: Operation, definition: OpDef) -> None:
        super().__init__()
        self.p = p
        self.op = op
        self.definition = definition
        self.operands = operand_groups(definition, op) or {}
        self.results = result_groups(definition, op) or {}

    def write(self, text: str) -> None:
        self.p.write(text)

    def newline(self) -> None:
        self.p.write("\n" + " " * self.p.indent)

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

    def present(self, anchor: str | None) -> bool:
        """Whether an optional group anchored at `anchor` is printed: its values, regions or a non-default attribute."""
        if anchor is None:
            return False
        definition = self.definition
        if definition.operand(anchor) is not None or definition.result(anchor) is not None:
            return bool(self.values(anchor))
        regions = self.regions(anchor)
        if regions is not None:
            return any(r.blocks for r in regions)
        attr = self.op.get_attr(anchor)
        declared = definition.attribute(anchor)
        if attr is not None and declared is not None and declared.default is not None:
            return attr != default_attribute(declared.constraint, declared.default)
        return attr is not None

    def is_unit(self, name: str) -> bool:
        attr = self.definition.attribute(name)
        return attr is not None and attr.constraint == "UnitAttr"

    def attr_dict(self, mentioned: Iterable[str], keyword: bool) -> None:
        """The attributes the format does not write: not those it names, nor defaults, nor segment sizes."""
        elided = set(mentioned) | {"operandSegmentSizes", "resultSegmentSizes"} | self._at_default() | _segment_attrs(self.definition)
        self.p.attr_dict(self.op, elided, keyword=keyword)
        self.last_was_punctuation = False

    def prop_dict(self, mentioned: Iterable[str]) -> None:
        """ODS's prop-dict: a space, then `<{...}>` of the properties the format does not write."""
        elided = set(mentioned) | {"operandSegmentSizes", "resultSegmentSizes"} | self._at_default()
        self.p.prop_dict(self.op, elided)
        self.last_was_punctuation = False

    def _at_default(self) -> set[str]:
        """Declared attributes holding their default value, which the attr-dict leaves out (as ODS does)."""
        out: set[str] = set()
        for declared in self.definition.attributes:
            if declared.default is None:
                continue
            attr = self.op.get_attr(declared.name)
            if attr is not None and attr == default_attribute(declared.constraint, declared.default):
                out.add(declared.name)
        return out

    def variable(self, name: str) -> None:
        """`$name`: an operand group, a region, a successor or an attribute, as ODS prints each."""
        p = self.p
        definition = self.definition
        if definition.operand(name) is not None or name == "operands":
            self.space()
            p.write(p.values(self.values(name)))
            return
        regions = self.regions(name)
        if regions is not None:
            self.space()
            for k, region in enumerate(regions):
                if k:
                    p.write(", ")
                p.region(region, terminators=_prints_terminator(definition, region))
            return
        successor_index = next((k for k, s in enumerate(definition.successors or ()) if s.name == name), None)
        if successor_index is not None:
            self.space()
            p.write(p.block_name(self.op.successors[successor_index]))
            return
        attr = self.op.get_attr(name)
        declared = definition.attribute(name)
        if attr is None or declared is None or isinstance(attr, UnitAttr):
            return
        self.space()
        p.write(_attribute_text(p, declared.constraint, attr))

    def types_text(self, name: str, qualified: bool) -> str:
        """`type($x)`: the types of `x`, a dialect type in ODS's stripped form (`<...>`) unless `qualified`."""
        types = [v.type for v in self.values(name)]
        arg = None if qualified else self.definition.operand(name) or self.definition.result(name)
        stripped = stripped_type(arg.constraint) if arg is not None else None
        if stripped is None:
            return self.p.types(types)
        prefix = "!{}.{}<".format(*stripped)
        texts = (self.p.type(ty) for ty in types)
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
