"""The cf dialect's op definitions (upstream ControlFlowOps.td)."""

from __future__ import annotations

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


