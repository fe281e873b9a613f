"""The cf dialect's op definitions (upstream ControlFlowOps.td)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, OpaqueAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs.model import OpDef, declare

OPS: tuple[OpDef, ...] = (
    declare(
        "cf.br",
        "Jumps to a block, passing values to its arguments.",
        traits="terminator",
        ins="Variadic<AnyType>:$destOperands",
        successors="AnySuccessor:$dest",
        successor_operands="destOperands",
        format="$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
    ),
    declare(
        "cf.cond_br",
        "Jumps to one of two blocks depending on an i1 condition.",
        traits="terminator",
        ins="I1:$condition, Variadic<AnyType>:$trueDestOperands, Variadic<AnyType>:$falseDestOperands, "
        "OptionalAttr<DenseI32ArrayAttr>:$branch_weights",
        successors="AnySuccessor:$trueDest, AnySuccessor:$falseDest",
        successor_operands="trueDestOperands falseDestOperands",
        format="$condition (`weights` `(` $branch_weights^ `)`)? `,` "
        "$trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` "
        "$falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
    ),
    declare(
        "cf.switch",
        "Jumps to the block whose case value matches an integer flag, else to the default block.",
        traits="terminator",
        ins=(
            "AnySignlessInteger:$flag, Variadic<AnyType>:$defaultOperands, "
            'VariadicOfVariadic<AnyType, "case_operand_segments">:$caseOperands, '
            "OptionalAttr<AnyIntElementsAttr>:$case_values, DenseI32ArrayAttr:$case_operand_segments"
        ),
        successors="AnySuccessor:$defaultDestination, VariadicSuccessor<AnySuccessor>:$caseDestinations",
        format=(
            "$flag `:` type($flag) `,` `[` `\\n` custom<SwitchOpCases>(ref(type($flag)),$defaultDestination, "
            "$defaultOperands, type($defaultOperands), $case_values, $caseDestinations, $caseOperands, "
            "type($caseOperands)) `]` attr-dict"
        ),
        syntax='cf.switch %flag : i32, [ default: ^bb1, 42: ^bb2(%a : T) ]',
    ),
    declare(
        "cf.assert",
        "Aborts with a message when the i1 condition is false.",
        ins="I1:$arg, StrAttr:$msg",
        format="$arg `,` $msg attr-dict",
    ),
)


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
