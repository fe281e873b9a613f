"""The scf dialect's op definitions (upstream SCFOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import returning
from gpu_lsp.ir.opdefs.model import OpDef, declare

OPS: tuple[OpDef, ...] = (
    declare(
        "scf.for",
        "A counted loop; `iter_args` carry values from one iteration to the next and out of the loop.",
        traits="recursive_effects single_block",
        implicit_terminator="scf.yield",
        syntax="%r = scf.for [unsigned] %iv = %lb to %ub step %step [iter_args(%a = %init) -> (T)] [: i32] { ... scf.yield %a2 : T }",
    ),
    declare(
        "scf.if",
        "Runs the `then` region, or the optional `else` region, depending on an i1 condition.",
        traits="recursive_effects single_block",
        implicit_terminator="scf.yield",
        syntax="%r = scf.if %cond [-> (T)] { ... } [else { ... }]",
    ),
    declare(
        "scf.while",
        "A while loop: the `before` region computes the condition, the `after` region the body.",
        traits="recursive_effects",
        syntax="%r = scf.while (%a = %init) : (T) -> (R) { ... scf.condition(%c) %v : R } do { ^bb0(%x: R): ... scf.yield %y : T }",
    ),
    declare(
        "scf.condition",
        "Ends the `before` region of scf.while: continue or leave, with values.",
        traits="pure region_return terminator",
        parents="scf.while",
        ins="I1:$condition, Variadic<AnyType>:$args",
        format="`(` $condition `)` attr-dict ($args^ `:` type($args))?",
    ),
    returning(
        "scf.yield",
        "Yields values from an scf region to its parent op.",
        "results",
        parents="scf.execute_region scf.for scf.if scf.index_switch scf.while",
    ),
    declare(
        "scf.parallel",
        "A parallel loop nest; results are combined by scf.reduce.",
        ins="Variadic<Index>:$lowerBound, Variadic<Index>:$upperBound, Variadic<Index>:$step, Variadic<AnyType>:$initVals",
        outs="Variadic<AnyType>:$results",
        regions="SizedRegion<1>:$region",
        traits="recursive_effects single_block",
        implicit_terminator="scf.reduce",
        syntax="%r = scf.parallel (%i, %j) = (%lb0, %lb1) to (%ub0, %ub1) step (%s0, %s1) [init (%x) -> T] { ... scf.reduce }",
    ),
    declare(
        "scf.reduce",
        "Terminates scf.parallel; each operand is combined by its reduction region.",
        traits="recursive_effects region_return terminator",
        parents="scf.parallel",
        ins="Variadic<AnyType>:$operands",
        regions="VariadicRegion<SizedRegion<1>>:$reductions",
        format="(`(` $operands^ `:` type($operands) `)`)? $reductions attr-dict",
        syntax='scf.reduce(%a, %b : T, U) { ^bb0(%l: T, %r: T): ... scf.reduce.return %x : T }, { ... }',
    ),
    declare(
        "scf.reduce.return",
        "Ends a reduction region of scf.reduce with the combined value.",
        traits="pure region_return terminator",
        parents="scf.reduce",
        ins="AnyType:$result",
        format="$result attr-dict `:` type($result)",
    ),
    declare(
        "scf.forall",
        "A parallel loop over a multi-dimensional range, with `shared_outs` updated in scf.forall.in_parallel.",
        ins=(
            "Variadic<Index>:$dynamicLowerBound, Variadic<Index>:$dynamicUpperBound, Variadic<Index>:$dynamicStep, "
            "Variadic<AnyRankedTensor>:$outputs, DenseI64ArrayAttr:$staticLowerBound, "
            "DenseI64ArrayAttr:$staticUpperBound, DenseI64ArrayAttr:$staticStep, "
            "OptionalAttr<DeviceMappingArrayAttr>:$mapping"
        ),
        outs="Variadic<AnyType>:$results",
        regions="SizedRegion<1>:$region",
        traits="recursive_effects single_block",
        implicit_terminator="scf.forall.in_parallel",
        syntax="%r = scf.forall (%i, %j) in (%n, 8) [shared_outs(%o = %t) -> (T)] { ... } [{mapping = [...]}]",
    ),
    declare(
        "scf.forall.in_parallel",
        "Terminates scf.forall; its region holds the parallel inserts into the shared outputs.",
        traits="region_return terminator",
        syntax="scf.forall.in_parallel { tensor.parallel_insert_slice ... }",
    ),
    declare(
        "scf.execute_region",
        "Runs a region of several blocks once, as a single operation.",
        traits="recursive_effects",
        syntax="%r = scf.execute_region [-> T] [no_inline] { ... scf.yield %v : T }",
    ),
    declare(
        "scf.index_switch",
        "Runs the region whose case matches an index value, else the default region.",
        traits="recursive_effects single_block",
        implicit_terminator="scf.yield",
        ins="Index:$arg, DenseI64ArrayAttr:$cases",
        outs="Variadic<AnyType>:$results",
        regions="SizedRegion<1>:$defaultRegion, VariadicRegion<SizedRegion<1>>:$caseRegions",
        format=(
            "$arg attr-dict (`->` type($results)^)? custom<SwitchCases>($cases, $caseRegions) `\\n` "
            "`` `default` $defaultRegion"
        ),
        syntax='%r = scf.index_switch %i [-> T] case 2 { ... } default { ... }',
    ),
)
