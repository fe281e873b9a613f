"""Issue #25's remaining defects of the op model, each compared with upstream (the oracle) where it can be."""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir import effects
from gpu_lsp.ir.opdefs import definition
from gpu_lsp.ir.opdefs.model import type_relation
from gpu_lsp.ir.opdefs.relations import relation_holds
from gpu_lsp.ir.opdefs.user_ops import read_user_ops
from gpu_lsp.ir.printers import print_op
from gpu_lsp.ir.views import attribution_counts
from gpu_lsp.parser.api import parse
from gpu_lsp.syntax.types import parse_type


def _errors(text: str) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in lint_text(text) if d.severity >= Severity.ERROR]


def _upstream_errors(text: str) -> list[str] | None:
    """The oracle's error messages, None when its MLIR is not installed."""
    return [d[3] for d in oracle.verify(text) if d[2] == "error"] if oracle.available() else None


def _generic_func(properties: str, arguments: str, attributes: str = 'sym_name = "k"') -> str:
    return (
        '"gpu.module"() <{sym_name = "m"}> ({\n'
        f'  "gpu.func"() <{{{properties}}}> ({{\n'
        f"  ^bb0({arguments}):\n"
        '    "gpu.return"() : () -> ()\n'
        f"  }}) {{{attributes}}} : () -> ()\n"
        "}) : () -> ()\n"
    )


def test_a_generic_gpu_func_counts_its_attributions_from_its_properties() -> None:
    """`workgroup_attributions` of the properties is the count; the rest of the arguments are private."""
    text = _generic_func(
        "function_type = (f32) -> (), kernel, workgroup_attributions = 1 : i64",
        "%x: f32, %w: memref<4xf32, 3>, %p: memref<2xf32, 5>",
    )
    func = next(op for op in parse(text).chunks[0].module.walk() if op.name == "gpu.func")
    assert attribution_counts(func) == (1, 1)
    assert "workgroup(%arg1 : memref<4xf32, 3>) private(%arg2 : memref<2xf32, 5>) kernel {" in print_op(func)
    assert _errors(text) == []


def test_a_generic_gpu_func_with_fewer_arguments_than_its_attributions_is_upstreams_error() -> None:
    text = _generic_func("function_type = (f32) -> (), workgroup_attributions = 1 : i64", "%x: f32")
    ours = _errors(text)
    assert ours == [("GPU107", "'gpu.func' op expected at least 2 arguments to body region")]
    upstream = _upstream_errors(text)
    assert upstream is None or upstream == [ours[0][1]]


@pytest.mark.parametrize("name", ["gpu.func", "gpu.launch"])
def test_the_workgroup_count_their_readers_record_is_a_declared_default(name: str) -> None:
    declared = definition(name).attribute("workgroup_attributions")
    assert declared is not None and declared.stored_default and declared.default == "0"


def test_a_generic_gpu_func_without_its_workgroup_count_reads_as_its_custom_form() -> None:
    generic = _generic_func("function_type = (f32) -> (), kernel", "%x: f32")
    custom = "gpu.module @m {\n  gpu.func @k(%x: f32) kernel {\n    gpu.return\n  }\n}\n"
    funcs = [next(op for op in parse(text).chunks[0].module.walk() if op.name == "gpu.func") for text in (generic, custom)]
    assert [str(func.get_attr("workgroup_attributions")) for func in funcs] == ["0 : i64", "0 : i64"]


@pytest.mark.parametrize("where", ["properties", "attributes"])
def test_a_generic_gpu_launch_counts_its_attributions_from_workgroup_attributions(where: str) -> None:
    segments = "operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>"
    count = "workgroup_attributions = 1 : i64"
    properties, attributes = (f"{segments}, {count}", "") if where == "properties" else (segments, f" {{{count}}}")
    index = ", ".join(f"%a{i}: index" for i in range(12))
    text = (
        "func.func @f(%n: index) {\n"
        f'  "gpu.launch"(%n, %n, %n, %n, %n, %n) <{{{properties}}}> ({{\n'
        f"  ^bb0({index}, %w: memref<4xf32, 3>, %p: memref<2xf32, 5>):\n"
        '    "gpu.terminator"() : () -> ()\n'
        f"  }}){attributes} : (index, index, index, index, index, index) -> ()\n"
        "  return\n}\n"
    )
    launch = next(op for op in parse(text).chunks[0].module.walk() if op.name == "gpu.launch")
    assert attribution_counts(launch) == (1, 1)
    assert "workgroup(%arg13 : memref<4xf32, 3>) private(%arg14 : memref<2xf32, 5>) {" in print_op(launch)
    assert _errors(text) == []
    assert _upstream_errors(text) in (None, [])


# An enum case upstream's attribute parser does not know: its two errors (the case, then the
# parameter), where the oracle reports them (1-based columns of line 1).
UNKNOWN_CASES = {
    "#gpu<all_reduce_op foo>": [
        (51, "expected ::mlir::gpu::AllReduceOperation to be one of: add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, "
         "and, or, xor, minimumf, maximumf"),
        (54, "failed to parse GPU_AllReduceOperationAttr parameter 'value' which is to be a `::mlir::gpu::AllReduceOperation`"),
    ],
    "#gpu<dim 1>": [
        (41, "expected valid keyword or string"),
        (41, "failed to parse GPU_DimensionAttr parameter 'value' which is to be a `::mlir::gpu::Dimension`"),
    ],
    "#gpu.address_space<foo>": [
        (51, "expected ::mlir::gpu::AddressSpace to be one of: global, workgroup, private, constant"),
        (54, "failed to parse GPU_AddressSpaceAttr parameter 'value' which is to be a `::mlir::gpu::AddressSpace`"),
    ],
    "#gpu<address_space foo>": [(50, "expected '<'")],
}


@pytest.mark.parametrize("attr", list(UNKNOWN_CASES))
def test_an_unknown_enum_case_is_upstreams_parse_error(attr: str) -> None:
    text = f"func.func @f() attributes {{a = {attr}}} {{\n  return\n}}\n"
    ours = [(d.code, d.range.start + 1, d.message) for d in lint_text(text) if d.severity >= Severity.ERROR]
    assert ours == [("GPU123", column, message) for column, message in UNKNOWN_CASES[attr]]
    if oracle.available():
        assert [(d[1], d[3]) for d in oracle.verify(text) if d[2] == "error"] == UNKNOWN_CASES[attr]


def test_an_unknown_enum_case_of_an_op_is_not_also_a_constraint_error() -> None:
    text = (
        "func.func @f(%x: f32) -> f32 {\n"
        '  %r = "gpu.all_reduce"(%x) ({}) {op = #gpu<all_reduce_op foo>} : (f32) -> f32\n  return %r : f32\n}\n'
    )
    assert [code for code, _ in _errors(text)] == ["GPU123", "GPU123"]


# A function whose signature the parser rejected: that error alone, not the checks of what was read.
REJECTED_SIGNATURES = {
    "declaration with a bad type": ("func.func @f(%a: !gpu.foo)\n", "GPU122"),
    "bad result type": ("func.func @f() -> !gpu.async.tokn {\n  return\n}\n", "GPU122"),
    "unclosed result list": ("func.func @f(%a: f32) -> (f32 {\n  return\n}\n", "GPU001"),
}


@pytest.mark.parametrize("case", list(REJECTED_SIGNATURES))
def test_a_rejected_signature_is_one_error(case: str) -> None:
    text, code = REJECTED_SIGNATURES[case]
    codes = [c for c, _ in _errors(text)]
    assert codes[0] == code and "GPU124" not in codes and "GPU129" not in codes


def test_a_public_declaration_with_valid_types_is_still_reported() -> None:
    assert [code for code, _ in _errors("func.func @f(%a: f32)\n")] == ["GPU124"]


# The native traits relating every operand's and result's shape or element type (OpDefinition's
# verifySame...), where a declaration states them as ODS does: upstream's message, first error.
SAME_TRAITS = {
    "arith cast (SameOperandsAndResultShape)": '%0 = "arith.extsi"(%v) : (vector<4xi32>) -> vector<8xi64>',
    "same shapes agree": '%0 = "arith.extsi"(%v) : (vector<4xi32>) -> vector<4xi64>',
    "scalar and vector": '%0 = "arith.extsi"(%n) : (i32) -> vector<4xi64>',
    "math.fpowi (SameOperandsAndResultShape)": '%0 = "math.fpowi"(%f, %n) : (vector<4xf32>, i32) -> vector<4xf32>',
}


@pytest.mark.parametrize("case", list(SAME_TRAITS))
def test_a_declared_native_trait_is_checked_with_upstreams_message(case: str) -> None:
    text = f"func.func @f(%v: vector<4xi32>, %n: i32, %f: vector<4xf32>) {{\n  {SAME_TRAITS[case]}\n  return\n}}\n"
    ours = _errors(text)
    upstream = _upstream_errors(text)
    if upstream is not None:
        assert [m for _, m in ours] == upstream
    expected = [] if case.startswith("same shapes") else ["requires the same shape for all operands and results"]
    assert [m.split(" op ", 1)[1] for _, m in ours] == expected
    assert all(code == "GPU141" for code, _ in ours)


# Type traits ODS states on these ops, now stated by their declarations too.
STATED = {
    "arith.select (AllTypesMatch)": (
        '%0 = "arith.select"(%b, %f, %g) : (i1, vector<4xf32>, vector<8xf32>) -> vector<4xf32>',
        "failed to verify that all of {true_value, false_value, result} have same type",
    ),
    "gpu.subgroup_reduce (SameOperandsAndResultType)": (
        '%0 = "gpu.subgroup_reduce"(%f) {op = #gpu<all_reduce_op add>} : (vector<4xf32>) -> vector<8xf32>',
        "requires the same type for all operands and results",
    ),
    "arith.select (BooleanConditionOrMatchingShape)": (
        '%0 = "arith.select"(%c, %g, %g) : (vector<4xi1>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>',
        "failed to verify that condition is signless i1 or has matching shape",
    ),
    "arith cast (SameInputOutputTensorDims)": (
        '%0 = "arith.extf"(%t) : (tensor<4xf16>) -> tensor<8xf32>',
        "failed to verify that input and output have the same tensor dimensions",
    ),
    "arith (Elementwise)": (
        '%0 = "arith.scaling_extf"(%h, %k) : (vector<4xf16>, vector<8xf16>) -> vector<4xf32>',
        "all non-scalar operands/results must have the same shape and base type",
    ),
    "arith (Elementwise, scalar result)": (
        '%0:2 = "arith.addui_extended"(%n, %n) : (vector<8xi32>, vector<8xi32>) -> (vector<8xi32>, i1)',
        "if an operand is non-scalar, then all results must be non-scalar",
    ),
    "arith (Elementwise, vector to tensor)": (
        '%0 = "arith.bitcast"(%f) : (vector<4xf32>) -> tensor<4xi32>',
        "failed to verify that input and output have the same tensor dimensions",
    ),
    "math (Elementwise)": (
        '%0 = "math.fpowi"(%f, %n) : (vector<4xf32>, vector<8xi32>) -> vector<4xf32>',
        "requires the same shape for all operands and results",
    ),
    "gpu.all_reduce (SameOperandsAndResultType)": (
        '%0 = "gpu.all_reduce"(%x) ({}) {op = #gpu<all_reduce_op add>} : (f32) -> f16',
        "requires the same type for all operands and results",
    ),
}


@pytest.mark.parametrize("case", list(STATED))
def test_a_stated_type_trait_is_upstreams_first_error(case: str) -> None:
    line, message = STATED[case]
    text = (
        "func.func @f(%b: i1, %x: f32, %f: vector<4xf32>, %g: vector<8xf32>, %c: vector<4xi1>, %t: tensor<4xf16>, %h: vector<4xf16>, "
        f"%k: vector<8xf16>, %n: vector<8xi32>) {{\n  {line}\n  return\n}}\n"
    )
    ours = _errors(text)
    assert [(code, m.split(" op ", 1)[1]) for code, m in ours] == [("GPU141", message)]
    upstream = _upstream_errors(text)
    assert upstream is None or upstream == [ours[0][1]]


@pytest.mark.parametrize(
    ("trait", "operands", "results", "holds"),
    [
        ("SameOperandsShape", ["vector<4xf32>", "vector<4xi8>"], [], True),
        ("SameOperandsShape", ["vector<4xf32>", "vector<2xf32>"], [], False),
        ("SameOperandsShape", ["tensor<?xf32>", "tensor<4xf32>"], [], True),
        ("SameOperandsElementType", ["vector<4xf32>", "tensor<2xf32>", "f32"], [], True),
        ("SameOperandsElementType", ["vector<4xf32>", "f16"], [], False),
        ("SameOperandsAndResultShape", ["vector<4xf32>"], ["vector<4xi1>"], True),
        ("SameOperandsAndResultShape", ["f32"], ["vector<1xf32>"], False),
        ("SameOperandsAndResultElementType", ["vector<4xf32>"], ["tensor<2xf32>"], True),
        ("SameOperandsAndResultElementType", ["f32"], ["f32", "f16"], False),
    ],
)
def test_native_traits_hold_as_upstream_verifies_them(trait: str, operands: list[str], results: list[str], holds: bool) -> None:
    relation = type_relation(trait)
    assert relation.native and relation.description.startswith("requires the same")
    assert relation_holds(relation, {}, [parse_type(t) for t in operands], [parse_type(t) for t in results]) is holds


def test_a_definition_file_states_native_traits() -> None:
    """A downstream op declared with `SameOperandsShape` among its traits gets the check (not silently accepted)."""
    text = (
        'dialect = "mine"\n[ops.pair]\narguments = "(ins AnyType:$a, AnyType:$b)"\n'
        'traits = ["Pure", "SameOperandsShape"]\nassemblyFormat = "$a `,` $b attr-dict `:` type($a) `,` type($b)"\n'
    )
    read = read_user_ops(text)
    assert read.errors == ()
    (pair,) = read.ops
    assert [r.kind for r in pair.type_relations] == ["operands_shape"]
    mapped = read_user_ops(text.replace('"SameOperandsShape"', '"ElementwiseMappable"'))
    assert mapped.errors == () and mapped.ops[0].has("elementwise")


# Loads, stores and atomics through a pointer or memref: the declarations state their effects, by
# operand name where the operands are declared, by position where a hand-written reader reads them.
ACCESSES = {
    "llvm.load": ("%v = llvm.load %p : !llvm.ptr -> f32", [0], []),
    "llvm.store": ("llvm.store %f, %p : f32, !llvm.ptr", [], [1]),
    "llvm.atomicrmw": ("%o = llvm.atomicrmw fadd %p, %f monotonic : !llvm.ptr, f32", [0], [0]),
    "llvm.cmpxchg": ("%r = llvm.cmpxchg %p, %n, %n acq_rel monotonic : !llvm.ptr, i32", [0], [0]),
    "memref.atomic_rmw": ("%o = memref.atomic_rmw addf %f, %m[%i] : (f32, memref<8xf32, 3>) -> f32", [1], [1]),
    "nvgpu.ldmatrix": ("%l = nvgpu.ldmatrix %m[%i] {numTiles = 1 : i32, transpose = false} : memref<8xf32, 3> -> vector<1x2xf32>", [0], []),
    "nvgpu.device_async_copy": ("%t = nvgpu.device_async_copy %g[%i], %m[%i], 4 : memref<8xf32> to memref<8xf32, 3>", [2], [0]),
    "nvvm.cp.async.shared.global": (
        '"nvvm.cp.async.shared.global"(%s, %q) <{modifier = #nvvm.load_cache_modifier<ca>, size = 16 : i32}> : (!llvm.ptr<3>, !llvm.ptr<1>) -> ()',
        [1],
        [0],
    ),
}


@pytest.mark.parametrize("name", list(ACCESSES))
def test_loads_stores_and_atomics_declare_their_effects(name: str) -> None:
    line, reads, writes = ACCESSES[name]
    text = (
        "func.func @f(%p: !llvm.ptr, %s: !llvm.ptr<3>, %q: !llvm.ptr<1>, %f: f32, %n: i32, %m: memref<8xf32, 3>, %g: memref<8xf32>, %i: index) {\n"
        f"  {line}\n  return\n}}\n"
    )
    chunk = parse(text).chunks[0]
    assert chunk.diagnostics == []
    op = next(op for op in chunk.module.walk() if op.name == name)
    assert (effects.reads(op), effects.writes(op)) == (reads, writes)


# gpu.func written generically, its attribution count and kernel flag as properties or as attributes:
# printed as upstream prints it, in either form.
GENERIC_FUNCS = {
    "properties": _generic_func(
        "function_type = (f32) -> (), kernel, workgroup_attributions = 1 : i64", "%x: f32, %w: memref<4xf32, 3>, %p: memref<2xf32, 5>"
    ),
    "attributes": _generic_func(
        "function_type = (f32) -> ()",
        "%x: f32, %w: memref<4xf32, 3>, %p: memref<2xf32, 5>",
        'gpu.kernel, sym_name = "k", workgroup_attributions = 1 : i64',
    ),
}


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
@pytest.mark.parametrize("case", list(GENERIC_FUNCS))
def test_a_generic_gpu_func_prints_as_upstream(case: str, generic: bool) -> None:
    text = GENERIC_FUNCS[case]
    ours = print_op(parse(text).chunks[0].module, generic=generic)
    assert ("kernel" in ours) and ("private(%arg2 : memref<2xf32, 5>)" in ours or generic)
    if oracle.available():
        runner = oracle.module().Oracle(oracle.backend(), False, keep_op_notes=False)
        result = runner.run_chunk(oracle.module().Chunk(text, 0, 1, 0), "builtin.module()")
        assert ours.strip() == str(result.module.operation.get_asm(print_generic_op_form=generic)).strip()
