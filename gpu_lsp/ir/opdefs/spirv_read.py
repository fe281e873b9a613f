"""The spirv dialect: the SPIR-V ops GPU code lowers to (modules, functions, memory, arithmetic)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import BoolAttr, StringAttr
from gpu_lsp.ir.brackets import split_commas
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import (
    comma_operands,
    comma_separated,
    read_branch,
    read_cond_branch,
    read_conversion,
    read_optional_body,
    read_select,
    read_signature,
    read_symbol_name,
    shape_of,
    typed_operand_list,
    unary_same_type,
)
from gpu_lsp.syntax.cursor import Cursor, OpState
from gpu_lsp.syntax.tolerant import read_tolerant
from gpu_lsp.syntax.types import TypeSyntaxError, parse_type

BINARY = (
    "IAdd", "ISub", "IMul", "SDiv", "UDiv", "SMod", "SRem", "UMod", "FAdd", "FSub", "FMul", "FDiv",
    "FRem", "FMod", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "ShiftLeftLogical", "ShiftRightArithmetic",
    "ShiftRightLogical", "LogicalAnd", "LogicalOr",
)
COMPARISONS = (
    "IEqual", "INotEqual", "SLessThan", "SLessThanEqual", "SGreaterThan", "SGreaterThanEqual",
    "ULessThan", "ULessThanEqual", "UGreaterThan", "UGreaterThanEqual", "FOrdEqual", "FOrdNotEqual",
    "FOrdLessThan", "FOrdLessThanEqual", "FOrdGreaterThan", "FOrdGreaterThanEqual", "FUnordEqual",
    "FUnordNotEqual", "FUnordLessThan", "FUnordLessThanEqual", "FUnordGreaterThan",
    "FUnordGreaterThanEqual", "LogicalEqual", "LogicalNotEqual",
)
UNARY = ("FNegate", "SNegate", "Not", "LogicalNot")
CONVERSIONS = ("ConvertFToS", "ConvertFToU", "ConvertSToF", "ConvertUToF", "SConvert", "UConvert", "FConvert", "Bitcast", "ConvertPtrToU", "ConvertUToPtr")

def _component(ty: T.Type, index: int) -> T.Type:
    """The type of member `index` of a vector, `!spirv.array` or `!spirv.struct`."""
    if isinstance(ty, T.VectorType):
        return ty.element
    if isinstance(ty, T.DialectType) and ty.dialect == "spirv" and ty.body:
        body = ty.body
        try:
            if ty.name == "array":
                elem = body.partition("x")[2]
                elem = elem.rsplit(",", 1)[0] if "stride" in elem else elem
                return parse_type(elem.strip())
            if ty.name == "struct":
                members = split_commas(body.strip("()"), drop_empty=True)
                if 0 <= index < len(members):
                    return parse_type(members[index].split("[")[0].strip())
        except TypeSyntaxError:
            return T.UNKNOWN
    return T.UNKNOWN


@reader("spirv.module")
def _module(c: Cursor, st: OpState) -> None:
    if c.is_symbol():
        read_symbol_name(c, st)
    st.properties["addressing_model"] = StringAttr(c.any_keyword().value)
    st.properties["memory_model"] = StringAttr(c.any_keyword().value)
    if c.optional_keyword("requires"):
        st.properties["vce_triple"] = c.attr()
    c.attr_dict_with_keyword(st)
    st.add_region(c.region())


@reader("spirv.func")
def _func(c: Cursor, st: OpState) -> None:
    read_symbol_name(c, st)
    args, _, named = read_signature(c, st)
    st.properties["function_control"] = StringAttr(c.string())
    c.attr_dict_with_keyword(st)
    read_optional_body(c, st, args if named else [])


@reader("spirv.GlobalVariable")
def _global_variable(c: Cursor, st: OpState) -> None:
    read_symbol_name(c, st)
    read_tolerant(c, st)


@reader("spirv.Variable")
def _variable(c: Cursor, st: OpState) -> None:
    if c.optional_keyword("init"):
        sub = c.group("(")
        st.refs.append(sub.operand())
        sub.done()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@reader("spirv.Constant")
def _constant(c: Cursor, st: OpState) -> None:
    """`spirv.Constant V [: T]`: the type is written where the value carries none, or none or a tensor's
    (upstream's ConstantOp::parse)."""
    attr = c.attr()
    ty = T.I1 if isinstance(attr, BoolAttr) else getattr(attr, "type", None)
    if not isinstance(ty, T.Type) or isinstance(ty, (T.NoneType, T.TensorType)):
        ty = c.colon_type()
    st.properties["value"] = attr
    c.optional_attr_dict(st)
    st.result_types.append(ty)


@reader("spirv.Undef")
def _undef(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@reader("spirv.mlir.addressof")
def _addressof(c: Cursor, st: OpState) -> None:
    st.properties["variable"] = c.symbol()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


def _memory_access(c: Cursor) -> None:
    if c.is_group("["):
        c.next()


@reader("spirv.Load")
def _load(c: Cursor, st: OpState) -> None:
    c.string()
    st.refs.append(c.operand())
    _memory_access(c)
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@reader("spirv.Store")
def _store(c: Cursor, st: OpState) -> None:
    c.string()
    ptr, value = comma_operands(c, 2)
    _memory_access(c)
    c.optional_attr_dict(st)
    value.type = c.colon_type()
    st.refs.extend([ptr, value])


def _index_attrs(c: Cursor) -> list[int]:
    return comma_separated(c, "[", lambda sub: getattr(sub.attr(), "value", 0))


@reader("spirv.CompositeExtract")
def _composite_extract(c: Cursor, st: OpState) -> None:
    src = c.operand()
    indices = _index_attrs(c)
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    st.refs.append(src)
    ty = src.type
    for i in indices:
        ty = _component(ty, i)
    st.result_types.append(ty)


@reader("spirv.CompositeInsert")
def _composite_insert(c: Cursor, st: OpState) -> None:
    obj, comp = comma_operands(c, 2)
    _index_attrs(c)
    c.optional_attr_dict(st)
    obj.type = c.colon_type()
    c.keyword("into")
    comp.type = c.type()
    st.refs.extend([obj, comp])
    st.result_types.append(comp.type)


@reader("spirv.CompositeConstruct")
def _composite_construct(c: Cursor, st: OpState) -> None:
    refs = c.operand_list()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.extend(refs)
    st.result_types.extend(fn.results)


def _access_chain(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        base = c.operand()
        sub = c.group("[")
        indices = sub.operand_list()
        sub.done()
        c.optional_attr_dict(st)
        types = c.colon_type_list()
        refs = [base] + indices
        for r, t in zip(refs, types):
            r.type = t
        st.refs.extend(refs)
        c.punct("->")
        st.result_types.append(c.type())

    reader(name)(parse)


_access_chain("spirv.AccessChain", "A pointer into a composite.")
_access_chain("spirv.PtrAccessChain", "A pointer into a composite, offset by an element index.")
_access_chain("spirv.InBoundsPtrAccessChain", "An in-bounds pointer into a composite, offset by an element index.")


def _binary(name: str, compare: bool) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        lhs, rhs = comma_operands(c, 2)
        c.optional_attr_dict(st)
        types = c.colon_type_list()
        lhs.type = types[0]
        rhs.type = types[-1]
        st.refs.extend([lhs, rhs])
        st.result_types.append(shape_of(lhs.type, T.I1) if compare else lhs.type)

    reader(f"spirv.{name}")(parse)


for _n in BINARY:
    _binary(_n, False)
for _n in COMPARISONS:
    _binary(_n, True)


reader(*(f"spirv.{n}" for n in UNARY))(unary_same_type)
reader(*(f"spirv.{n}" for n in CONVERSIONS))(read_conversion)
reader("spirv.Select")(read_select)
reader("spirv.Branch")(read_branch)


def _skip_weights(c: Cursor, st: OpState) -> None:
    """`[weights]`: branch weights, not kept."""
    if c.is_group("["):
        c.next()


@reader("spirv.BranchConditional")
def _branch_conditional(c: Cursor, st: OpState) -> None:
    read_cond_branch(c, st, _skip_weights)


@reader("spirv.Return")
def _return(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)


@reader("spirv.ReturnValue")
def _return_value(c: Cursor, st: OpState) -> None:
    typed_operand_list(c, st)
    c.optional_attr_dict(st)
