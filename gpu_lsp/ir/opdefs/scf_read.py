"""The scf dialect: structured loops and conditionals (for, if, while, parallel, forall, ...)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr, UnitAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import assignment_list, bind_types, loop_carried, mixed_index_list, value_defs
from gpu_lsp.syntax.cursor import ArgDef, Cursor, OpState, Ref, item_end, item_start


def _arrow_types(c: Cursor) -> list[T.Type]:
    """`-> (T, ...)` or `-> T`, or nothing."""
    if c.optional_punct("->"):
        return c.result_types()
    return []


@reader("scf.for")
def _for(c: Cursor, st: OpState) -> None:
    if c.optional_keyword("unsigned"):
        st.properties["unsignedCmp"] = UnitAttr()
    iv = c.def_value()
    c.punct("=")
    lb = c.operand()
    c.keyword("to")
    ub = c.operand()
    c.keyword("step")
    step = c.operand()
    args, inits = loop_carried(c, st, "iter_args")
    iv_type: T.Type = T.INDEX
    if c.optional_punct(":"):
        iv_type = c.type()
    lb.type = ub.type = step.type = iv_type
    st.refs.extend([lb, ub, step] + inits)
    st.add_region(c.region(), [ArgDef(iv.value[1:], item_start(iv), item_end(iv), iv_type)] + args)
    c.optional_attr_dict(st)


@reader("scf.if")
def _if(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(T.I1))
    st.result_types.extend(_arrow_types(c))
    st.add_region(c.region())
    if c.optional_keyword("else"):
        st.add_region(c.region())
    else:
        st.add_region(None)
    c.optional_attr_dict(st)


@reader("scf.while")
def _while(c: Cursor, st: OpState) -> None:
    args: list[ArgDef] = []
    inits: list[Ref] = []
    if c.is_group("("):
        args, inits = assignment_list(c)
    c.punct(":")
    fn = c.function_type()
    bind_types(c, args, inits, list(fn.inputs))
    st.refs.extend(inits)
    st.result_types.extend(fn.results)
    st.add_region(c.region(), args)
    c.keyword("do")
    st.add_region(c.region())
    c.attr_dict_with_keyword(st)


@reader("scf.parallel")
def _parallel(c: Cursor, st: OpState) -> None:
    ivs = value_defs(c)
    c.punct("=")
    bounds = []
    for keyword in (None, "to", "step"):
        if keyword:
            c.keyword(keyword)
        sub = c.group("(")
        refs = sub.operand_list(T.INDEX)
        sub.done()
        if len(refs) != len(ivs):
            c.fail(f"expected {len(ivs)} operands")
        bounds.extend(refs)
    inits: list[Ref] = []
    if c.optional_keyword("init"):
        sub = c.group("(")
        inits = sub.operand_list()
        sub.done()
    results = _arrow_types(c)
    if len(results) != len(inits):
        c.fail(f"expected {len(inits)} result types")
    for r, t in zip(inits, results):
        r.type = t
    st.refs.extend(bounds + inits)
    st.result_types.extend(results)
    st.add_region(c.region(), ivs)
    c.optional_attr_dict(st)
    n = len(ivs)
    st.properties["operandSegmentSizes"] = DenseArrayAttr(T.I32, (n, n, n, len(inits)))


def _mixed_bounds(c: Cursor) -> tuple[list[Ref], list[int]]:
    """`(%a, 10, %b)`: SSA values or integer constants (kDynamic in the static array for values);
    their count is the verifier's to check (GPU150), as upstream's."""
    return mixed_index_list(c, "(")


@reader("scf.forall")
def _forall(c: Cursor, st: OpState) -> None:
    ivs = value_defs(c)
    n = len(ivs)
    operands: list[Ref] = []
    if c.optional_keyword("in"):
        refs, static = _mixed_bounds(c)
        operands.extend(refs)
        st.properties["staticUpperBound"] = DenseArrayAttr(T.I64, tuple(static))
        st.properties["staticLowerBound"] = DenseArrayAttr(T.I64, (0,) * n)
        st.properties["staticStep"] = DenseArrayAttr(T.I64, (1,) * n)
        sizes = (0, len(refs), 0)
    else:
        c.punct("=")
        lb, lbs = _mixed_bounds(c)
        c.keyword("to")
        ub, ubs = _mixed_bounds(c)
        c.keyword("step")
        step, steps = _mixed_bounds(c)
        operands.extend(lb + ub + step)
        st.properties["staticLowerBound"] = DenseArrayAttr(T.I64, tuple(lbs))
        st.properties["staticUpperBound"] = DenseArrayAttr(T.I64, tuple(ubs))
        st.properties["staticStep"] = DenseArrayAttr(T.I64, tuple(steps))
        sizes = (len(lb), len(ub), len(step))
    outs, inits = loop_carried(c, st, "shared_outs")
    st.refs.extend(operands + inits)
    st.add_region(c.region(), ivs + outs)
    c.optional_attr_dict(st)
    st.properties["operandSegmentSizes"] = DenseArrayAttr(T.I32, sizes + (len(inits),))


@reader("scf.forall.in_parallel")
def _in_parallel(c: Cursor, st: OpState) -> None:
    st.add_region(c.region())
    c.optional_attr_dict(st)


@reader("scf.execute_region")
def _execute_region(c: Cursor, st: OpState) -> None:
    st.result_types.extend(_arrow_types(c))
    if c.optional_keyword("no_inline"):
        st.properties["no_inline"] = UnitAttr()
    st.add_region(c.region())
    c.optional_attr_dict(st)


