"""The func dialect's op definitions (upstream FuncOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import returning
from gpu_lsp.ir.opdefs.model import OpDef, declare

OPS: tuple[OpDef, ...] = (
    declare(
        "func.func",
        "A function with a body of blocks.",
        ins="SymbolNameAttr:$sym_name, TypeAttrOf<FunctionType>:$function_type, OptionalAttr<StrAttr>:$sym_visibility, "
        "OptionalAttr<DictArrayAttr>:$arg_attrs, OptionalAttr<DictArrayAttr>:$res_attrs, UnitAttr:$no_inline",
        regions="AnyRegion:$body",
        traits="function isolated symbol",
        default_dialect="func",
        syntax="func.func [private] @name(%arg: T, ...) -> (R, ...) [attributes {...}] { ... }",
    ),
    returning("func.return", "Returns from a func.func."),
    declare(
        "func.call",
        "Calls a function by symbol.",
        ins="FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands, OptionalAttr<DictArrayAttr>:$arg_attrs, "
        "OptionalAttr<DictArrayAttr>:$res_attrs, UnitAttr:$no_inline",
        outs="Variadic<AnyType>:$results",
        format="$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)",
    ),
    declare(
        "func.call_indirect",
        "Calls a function value.",
        ins="FunctionType:$callee, Variadic<AnyType>:$callee_operands, OptionalAttr<DictArrayAttr>:$arg_attrs, "
        "OptionalAttr<DictArrayAttr>:$res_attrs",
        outs="Variadic<AnyType>:$results",
        types=(
            'TypesMatchWith<"callee input types match argument types", callee, callee_operands, function_inputs>',
            'TypesMatchWith<"callee result types match result types", callee, results, function_results>',
        ),
        format="$callee `(` $callee_operands `)` attr-dict `:` type($callee)",
    ),
    declare(
        "func.constant",
        "A function symbol as a value.",
        traits="constant_like pure",
        ins="FlatSymbolRefAttr:$value",
        outs="AnyType:$result",
        format="attr-dict $value `:` type(results)",
    ),
)
