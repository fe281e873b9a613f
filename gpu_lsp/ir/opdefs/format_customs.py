"""The `custom<...>` directives of the declared formats, each one class that reads, prints and renders (upstream's C++ hooks)."""

from __future__ import annotations

import re

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DenseArrayAttr, DialectAttr, IntegerAttr, OpaqueAttr, TypeAttr, UnitAttr
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.ir.opdefs.common_read import mixed_values, paren_typed_operands
from gpu_lsp.ir.opdefs.format import Custom, Hover, custom_directive
from gpu_lsp.ir.opdefs.format_print import FormatContext, OpPrinter
from gpu_lsp.ir.opdefs.format_read import FormatState
from gpu_lsp.syntax.cursor import Cursor, OpState, Ref
from gpu_lsp.syntax.types import TypeSyntaxError, parse_type


class DynamicIndexList(Custom):
    """`custom<DynamicIndexList>($values, $static_values)`: `[%a, 4, %b]`."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        dynamic, static = self.var_names()[:2]
        fs.operands[dynamic], st.properties[static] = mixed_values(c)

    def print(self, ctx: FormatContext) -> None:
        dynamic, static = self.var_names()[:2]
        ctx.space()
        ctx.write(dynamic_index_list(ctx.p, ctx.op.get_attr(static), ctx.values(dynamic)))

    def render(self, h: Hover) -> None:
        h.element("[...]")


def dynamic_index_list(p: OpPrinter, static: Attribute | None, dynamic: list[Value]) -> str:
    """`[0, %i, 2]`: the static values, each dynamic one (`T.STATIC_DYNAMIC`) written as its value."""
    if not isinstance(static, DenseArrayAttr):
        return "[" + p.values(dynamic) + "]"
    it = iter(dynamic)
    return "[" + ", ".join(p.value(next(it)) if v == T.STATIC_DYNAMIC else str(v) for v in static.values) + "]"


# After the first size, the lexer reads `x16x32` as one word.
_MNK_REST = re.compile(r"(?:x\d+)+")


class MNKDimensionList(Custom):
    """`custom<MNKDimensionList>($m, $n, $k)`: `16x16x32`, three i32 attributes (upstream AMDGPUDialect.cpp)."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        names = self.var_names()
        sizes = [c.integer()]
        tok = c.peek()
        if c.is_token("BARE") and _MNK_REST.fullmatch(tok.value):
            c.next()
            sizes.extend(int(v) for v in tok.value[1:].split("x"))
        if len(sizes) != len(names):
            c.fail(f"expected {len(names)} dimensions in MNK dimension list")
        for name, size in zip(names, sizes):
            st.properties[name] = IntegerAttr(size, T.I32)

    def print(self, ctx: FormatContext) -> None:
        sizes = [ctx.op.get_attr(name) for name in self.var_names()]
        ctx.space()
        ctx.write("x".join(str(a.value) if isinstance(a, IntegerAttr) else "?" for a in sizes))

    def render(self, h: Hover) -> None:
        h.element("MxNxK")


class AwaitResultType(Custom):
    """`!async.value<T>` gives async.await a result of type T; `!async.token` none."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        operand, result = self.type_names()
        ty = c.type()
        fs.types[operand] = [ty]
        fs.types[result] = [unwrapped(ty)] if isinstance(ty, T.DialectType) and ty.name == "value" else []

    def print(self, ctx: FormatContext) -> None:
        operand = self.type_names()[0]
        ctx.space()
        ctx.write(ctx.p.types(v.type for v in ctx.values(operand)))

    def render(self, h: Hover) -> None:
        h.element("T")


def unwrapped(ty: T.Type) -> T.Type:
    """`T` for `!async.value<T>`; unknown for anything else."""
    if isinstance(ty, T.DialectType) and ty.dialect == "async" and ty.name == "value" and ty.body:
        try:
            return parse_type(ty.body)
        except TypeSyntaxError:
            return T.UNKNOWN
    return T.UNKNOWN


class GlobalMemrefOpTypeAndInitialValue(Custom):
    """`memref<4xf32>`, then nothing (external), `= uninitialized` or `= dense<...>` typed as the tensor of the memref."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        type_name, init_name = self.var_names()
        ty = c.type()
        st.properties[type_name] = TypeAttr(ty)
        if not c.optional_punct("="):
            return
        if c.optional_keyword("uninitialized"):
            st.properties[init_name] = UnitAttr()
            return
        init = c.attr()
        if isinstance(init, OpaqueAttr) and init.type is None and isinstance(ty, T.MemRefType):
            init = OpaqueAttr(init.text, init.kind, T.TensorType(ty.shape, ty.element))
        st.properties[init_name] = init

    def print(self, ctx: FormatContext) -> None:
        p = ctx.p
        type_name, init_name = self.var_names()
        ty = ctx.op.get_attr(type_name)
        ctx.space()
        if isinstance(ty, TypeAttr):
            p.write(p.type(ty.type))
        elif ty is not None:
            p.write(p.attr(ty))
        init = ctx.op.get_attr(init_name)
        if isinstance(init, UnitAttr):
            p.write(" = uninitialized")
        elif init is not None:
            text = p.attr(init)
            p.write(" = " + (text.rsplit(" : ", 1)[0] if " : " in text and text.startswith(("dense", "sparse")) else text))


class SwitchCases(Custom):
    """scf.index_switch's `case 2 {...} case 5 {...}`: each case value and its region, each case on a new line."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        cases_name, regions_name = self.var_names()
        values: list[int] = []
        regions = fs.regions.setdefault(regions_name, [])
        while c.optional_keyword("case"):
            values.append(c.integer())
            regions.append(c.region())
        st.properties[cases_name] = DenseArrayAttr(T.I64, tuple(values))

    def print(self, ctx: FormatContext) -> None:
        cases_name, regions_name = self.var_names()
        p = ctx.p
        ctx.space()
        cases = ctx.op.get_attr(cases_name)
        for value, region in zip(cases.values if isinstance(cases, DenseArrayAttr) else (), ctx.regions(regions_name) or ()):
            p.write(f"\n{' ' * p.indent}case {value} ")
            p.region(region, entry_args=False)


class SwitchOpCases(Custom):
    """cf.switch's `default: ^bb(%a : T), 42: ^bb2, ...`: the default and each case's successor and operands."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        default, default_operands, values_name, destinations, case_operands = self.var_names()
        flag = fs.types.get("flag", [T.UNKNOWN])[0]
        c.keyword("default")
        c.punct(":")
        fs.successors[default] = [c.block_ref()]
        fs.operands[default_operands] = _successor_operands(c)
        values: list[int] = []
        sizes: list[int] = []
        fs.successors[destinations] = []
        fs.operands[case_operands] = []
        while c.optional_punct(","):
            values.append(c.integer())
            c.punct(":")
            fs.successors[destinations].append(c.block_ref())
            refs = _successor_operands(c)
            fs.operands[case_operands].extend(refs)
            sizes.append(len(refs))
        for name in (default_operands, case_operands):
            fs.types[name] = [ref.type for ref in fs.operands[name] if ref.type is not None]
        if values:
            st.properties[values_name] = case_values_attr(values, flag)
        st.properties["case_operand_segments"] = DenseArrayAttr(T.I32, tuple(sizes))

    def print(self, ctx: FormatContext) -> None:
        """printSwitchOpCases: `  default: ^bb1(...)`, then `,` and `  42: ^bb2(...)` per case, each on its own line."""
        p, op = ctx.p, ctx.op
        ctx.space()
        p.write("  default: " + p.successor(op.successors[0], ctx.values("defaultOperands")))
        segments = op.get_attr("case_operand_segments")
        sizes = segments.values if isinstance(segments, DenseArrayAttr) else ()
        operands = ctx.values("caseOperands")
        values = case_values(op)
        if not values:
            return
        # Upstream writes each value as APInt::getLimitedValue(): unsigned at the flag's width.
        flag = op.operands[0].type if op.operands else None
        mask = (1 << flag.width) - 1 if isinstance(flag, T.IntegerType) else -1
        pos = 0
        for value, block, size in zip(values, op.successors[1:], sizes):
            p.write(f",\n{' ' * p.indent}  {value & mask}: {p.successor(block, operands[pos : pos + size])}")
            pos += size
        p.write("\n" + " " * p.indent)


def _successor_operands(c: Cursor) -> list[Ref]:
    """`(%a, %b : T, U)` after a successor, or nothing."""
    if not c.is_group("("):
        return []
    sub = c.group("(")
    refs = sub.operand_list()
    types = sub.colon_type_list()
    if len(types) != len(refs):
        sub.fail(f"expected {len(refs)} types")
    for ref, ty in zip(refs, types):
        ref.type = ty
    sub.done()
    return refs


def case_values_attr(values: list[int], flag: T.Type) -> Attribute:
    """The `case_values` property: a dense vector of the flag's type (a splat when all are equal, as upstream prints)."""
    body = str(values[0]) if len(set(values)) == 1 else "[" + ", ".join(map(str, values)) + "]"
    return OpaqueAttr(f"dense<{body}>", "dense", T.VectorType((len(values),), flag))


def case_values(op: Operation) -> list[int]:
    """cf.switch's case values, in successor order (its `case_values` property)."""
    attr = op.get_attr("case_values")
    if not isinstance(attr, OpaqueAttr) or not attr.text.startswith("dense<"):
        return []
    values = [int(v) for v in attr.text[len("dense<") : -1].strip("[]").split(",") if v.strip()]
    count = attr.type.shape[0] if isinstance(attr.type, T.VectorType) and attr.type.shape else len(values)
    return values * count if len(values) == 1 else values


class AllReduceOperation(Custom):
    """`custom<AllReduceOperation>($op)`: an optional reduction keyword (upstream's parseAllReduceOperation)."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        (name,) = self.var_names()
        if not c.is_token("BARE"):
            return
        kind = c.next().value
        enum = ENUMS["GPU_AllReduceOperationAttr"]
        if kind not in enum.cases:
            c.fail("invalid op kind")
        st.properties[name] = enum.attribute(kind)

    def print(self, ctx: FormatContext) -> None:
        (name,) = self.var_names()
        ctx.space()
        kind = ctx.op.get_attr(name)
        if kind is not None:
            ctx.write(enum_keyword(kind))


def enum_keyword(attr: Attribute | None) -> str:
    """`#gpu<dim x>` -> `x`: the bare spelling custom formats use."""
    if isinstance(attr, DialectAttr) and attr.body is not None:
        return attr.body.split(None, 1)[-1]
    return str(attr)


class AsyncDependencies(Custom):
    """`custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)`: `async [%deps]`, each when present."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        (token,), (deps,) = self.type_names(), self.var_names()
        is_async, refs = read_async_dependencies(c, st)
        fs.types[token] = [T.TOKEN] if is_async else []
        fs.operands[deps] = refs

    def print(self, ctx: FormatContext) -> None:
        (token,), (deps,) = self.type_names(), self.var_names()
        ctx.space()
        text = "async" if ctx.values(token) else ""
        values = ctx.values(deps)
        if values:
            text += (" " if text else "") + "[" + ctx.p.values(values) + "]"
        ctx.write(text)


def read_async_dependencies(c: Cursor, st: OpState) -> tuple[bool, list[Ref]]:
    """`[async] [[%dep, ...]]` (upstream's parseAsyncDependencies): whether `async` is written, and the deps.

    An unnamed `async` op is still read (with an unnamed token result) and
    marked, so that one diagnostic with a fix reports it.
    """
    tok = c.optional_keyword("async")
    if tok is not None and st.num_results == 0:
        writable_facts(st).unnamed_async = (tok.start_pos, tok.end_pos)
    refs: list[Ref] = []
    if c.is_group("["):
        sub = c.group("[")
        refs = sub.operand_list(T.TOKEN)
        sub.done()
    return tok is not None, refs


# gpu.binary's offloading handler when none is written (upstream's #gpu.select_object default).
DEFAULT_HANDLER = DialectAttr("gpu", "select_object")


class OffloadingHandler(Custom):
    """gpu.binary's `<#handler>`, left out when it is the default handler (upstream's parseOffloadingHandler)."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        (name,) = self.var_names()
        if c.optional_punct("<"):
            st.properties[name] = c.attr()
            c.punct(">")
        else:
            st.properties[name] = DEFAULT_HANDLER

    def print(self, ctx: FormatContext) -> None:
        (name,) = self.var_names()
        handler = ctx.op.get_attr(name)
        ctx.space()
        if handler is not None and handler != DEFAULT_HANDLER:
            ctx.write("<" + ctx.p.attr(handler) + ">")

    def render(self, h: Hover) -> None:
        h.element("[<handler>]")


_LAUNCH_DIMENSIONS = tuple(f"{kind}Size{axis}" for kind in ("grid", "block") for axis in "XYZ")


class LaunchDimType(Custom):
    """gpu.launch_func's `: T` after the sizes: the type of every grid, block and cluster size, `index` when left out."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        ty = c.type() if c.optional_punct(":") else T.INDEX
        clusters = self.type_names()[1:] if fs.operands.get(self.type_names()[1]) else []
        for name in _LAUNCH_DIMENSIONS + tuple(clusters):
            fs.types[name] = [ty]

    def print(self, ctx: FormatContext) -> None:
        ctx.space()
        sizes = ctx.values(self.type_names()[0])
        if sizes and not sizes[0].type.is_index:
            ctx.write(": " + ctx.p.type(sizes[0].type))

    def render(self, h: Hover) -> None:
        h.element("[: T]")


class LaunchFuncOperands(Custom):
    """gpu.launch_func's `args(%a : T, ...)`, left out when the kernel takes no operands."""

    def read(self, c: Cursor, st: OpState, fs: FormatState) -> None:
        (name,) = self.var_names()
        refs = paren_typed_operands(c, "')' in argument list") if c.optional_keyword("args") else []
        fs.operands[name] = refs
        fs.types[name] = [ref.type for ref in refs if ref.type is not None]

    def print(self, ctx: FormatContext) -> None:
        (name,) = self.var_names()
        ctx.space()
        values = ctx.values(name)
        if values:
            ctx.write("args(" + ", ".join(f"{ctx.p.value(v)} : {ctx.p.type(v.type)}" for v in values) + ")")

    def render(self, h: Hover) -> None:
        h.element("[args(%a : T, ...)]")


# Filed by class name (a decorator would make mypyc compile the classes as non-extension classes).
for _kind in (
    DynamicIndexList, MNKDimensionList, AwaitResultType, GlobalMemrefOpTypeAndInitialValue, SwitchCases, SwitchOpCases,
    AllReduceOperation, AsyncDependencies, OffloadingHandler, LaunchDimType, LaunchFuncOperands,
):
    custom_directive(_kind.__name__)(_kind)
