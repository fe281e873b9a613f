"""Declared constraints (ir/opdefs/constraints.py) and the generic verifier rule GPU141 against upstream."""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.analysis import lint_text, verify_chunk
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import IntegerAttr
from gpu_lsp.ir.opdefs import OPS
from gpu_lsp.ir.opdefs.constraints import attr_constraint, type_constraint
from gpu_lsp.parser.api import parse


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("MemRefRankOf<[I8], [1]>", "1D memref of 8-bit signless integer values"),
        ("AnyTypeOf<[I32, I64]>", "32-bit signless integer or 64-bit signless integer"),
        ("VectorOfRankAndType<[1], [Index]>", "vector of index values of ranks 1"),
        ("VectorOfLengthAndType<[2], [F16, BF16]>", "vector of 16-bit float or bfloat16 type values of length 2"),
        ("TensorRankOf<[AnySignlessInteger, Index], [1]>", "1D tensor of signless integer or index values"),
        ("I<14>", "14-bit signless integer"),
    ],
)
def test_parametric_type_summaries_compose_like_ods(name: str, summary: str) -> None:
    found = type_constraint(name)
    assert found is not None and found.summary == summary


def test_type_predicates() -> None:
    memref = type_constraint("MemRefRankOf<[I8], [1]>")
    assert memref is not None
    assert memref.holds(T.MemRefType((None,), T.I8))
    assert not memref.holds(T.MemRefType((None, 4), T.I8))
    assert not memref.holds(T.MemRefType((None,), T.F32))
    signless = type_constraint("AnyIntegerOrFloat")
    assert signless is not None and signless.holds(T.I32) and not signless.holds(T.IntegerType(32, "s"))
    reduced = type_constraint("VectorOfAnyRankOf<[AnyNonZeroBitwidthType]>")
    assert reduced is not None and reduced.summary == "vector of non-zero-bitwidth type values"
    assert reduced.holds(T.VectorType((4,), T.F32)) and reduced.holds(T.VectorType((), T.I1))
    assert not reduced.holds(T.VectorType((4,), T.IntegerType(0))) and not reduced.holds(T.F32)


def test_confined_attribute_summary_and_predicate() -> None:
    found = attr_constraint("ConfinedAttr<I64Attr, [IntPositive, IntPowerOf2]>")
    assert found is not None
    assert found.summary == "64-bit signless integer attribute whose value is positive and whose value is a power of two > 0"
    assert found.holds(IntegerAttr(64, T.I64))
    assert not found.holds(IntegerAttr(48, T.I64))
    assert not found.holds(IntegerAttr(64, T.I32))


def test_unknown_names_are_not_checked() -> None:
    assert type_constraint("NoSuchConstraint") is None
    assert type_constraint("MemRefOf<[NoSuchConstraint]>") is None
    assert attr_constraint("ConfinedAttr<I32Attr, [NoSuchPredicate]>") is None


# Constraint names declarations use that constraints.py does not check, and why.
UNCHECKED = {
    "Bufferization_BufferLikeTypeInterface": "a type interface: which types implement it is C++ code",
    "Bufferization_TensorLikeTypeInterface": "a type interface: which types implement it is C++ code",
    "DistributeLayoutAttr": "an attribute interface (XeGPU's layouts): which attributes implement it is C++ code",
    'AnyType, "case_operand_segments"': "VariadicOfVariadic's text, which keeps its segment attribute's name; the values are AnyType",
    "XeGPU_CacheHintAttr": "the oracle's MLIR has no XeGPU: upstream's summary is unconfirmed",
    "XeGPU_MemorySpaceAttr": "the oracle's MLIR has no XeGPU: upstream's summary is unconfirmed",
    "XeGPU_FenceScopeAttr": "the oracle's MLIR has no XeGPU: upstream's summary is unconfirmed",
    "GPU_NamedBarrier": "newer than the oracle's MLIR: upstream's summary is unconfirmed",
    "GPU_ScopeAttr": "newer than the oracle's MLIR (its gpu.barrier has no scope): upstream's summary is unconfirmed",
    "DeviceMappingArrayAttr": "an array of attributes implementing DeviceMappingAttrInterface (C++ code)",
    "AMDGPU_ConcreteVector<I1, 16>": "upstream's summary is unconfirmed (the oracle reports the op's other operands first)",
    "FixedVectorOfShapeAndType<[4], F8E8M0FNU>": "upstream's summary is unconfirmed (the oracle reports the op's other operands first)",
}


def test_every_constraint_a_declaration_names_is_checked_or_listed() -> None:
    """A name constraints.py does not resolve is silently unchecked: each is resolved, or listed above with why."""
    unresolved = set()
    for definition in OPS.values():
        for arg in (definition.operands or ()) + (definition.results or ()):
            if type_constraint(arg.constraint) is None:
                unresolved.add(arg.constraint)
        unresolved.update(a.checked for a in definition.attributes if attr_constraint(a.checked) is None)
    assert unresolved == set(UNCHECKED)


def test_declarations_keep_confined_attributes() -> None:
    alignment = OPS["memref.alloc"].attribute("alignment")
    assert alignment is not None and alignment.constraint == "I64Attr"
    assert alignment.checked == "ConfinedAttr<I64Attr, [IntPositive, IntPowerOf2]>"


# Generic forms with one broken constraint each: our first error is upstream's, word for word.
BROKEN = {
    "signless-integer-like": '%0 = "arith.addi"(%f, %f) : (f32, f32) -> f32',
    "float-like result": '%0 = "arith.addf"(%f, %f) : (f32, f32) -> i32',
    "bool-like": '%0 = "arith.select"(%f, %f, %f) : (f32, f32, f32) -> f32',
    "fixed-width integer": '%0 = "arith.trunci"(%f) : (f32) -> i8',
    "memref": '%0 = "memref.load"(%f) : (f32) -> f32',
    "ranked or unranked memref": '%0 = "memref.cast"(%f) : (f32) -> f32',
    "non-0-ranked or unranked memref": '%0 = "memref.dim"(%f, %i) : (f32, index) -> index',
    "ranked tensor": '%0 = "tensor.extract"(%f) : (f32) -> f32',
    "vector of non-zero-bitwidth": '%0 = "vector.reduction"(%f) {kind = #vector.kind<add>} : (f32) -> f32',
    "vector": '%0 = "vector.extract"(%f) <{static_position = array<i64>}> : (f32) -> f32',
    "index result": '%0 = "gpu.thread_id"() {dimension = #gpu<dim x>} : () -> f32',
    # XeGPUTypes.td's names (data/xegpu.ops.toml): a tensor descriptor, block base, loaded value and dpas operand
    "xegpu tensor_desc": '%0 = "xegpu.load_nd"(%f) <{const_offsets = array<i64: 0>}> : (f32) -> vector<8xf32>',
    "xegpu base address": '%0 = "xegpu.create_nd_tdesc"(%i) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (index) -> f32',
    "xegpu value": '"xegpu.store_nd"(%f, %f) <{const_offsets = array<i64: 0>}> : (f32, f32) -> ()',
    "xegpu dpas operand": '%0 = "xegpu.dpas"(%f, %f) : (f32, f32) -> f32',
    "xegpu gather base": '"xegpu.prefetch"(%f, %i) : (f32, index) -> ()',
    "xegpu offsets": '"xegpu.prefetch"(%m, %f) : (memref<8xf16>, f32) -> ()',
    "xegpu mask": '%0 = "xegpu.load"(%m, %i, %f) : (memref<8xf16>, index, f32) -> f16',
    "xegpu atomic mask": '%0 = "xegpu.atomic_rmw"(%t, %f, %v) <{kind = 0 : i64}> : (!xegpu.tensor_desc<8xf16>, f32, vector<8xf16>) -> vector<8xf16>',
    "xegpu dpas result": '%0 = "xegpu.dpas"(%v, %v) : (vector<8xf16>, vector<8xf16>) -> vector<2x2x2xf32>',
    # Enum, flag and dialect-type constraints by their upstream summaries; a variadic group's `variadic of`
    "dialect enum": '%0:2 = "gpu.shuffle"(%f, %n, %n) {mode = 1 : i32} : (f32, i32, i32) -> (f32, i1)',
    "integer enum": '%0 = "arith.cmpi"(%n, %n) {predicate = 1 : i32} : (i32, i32) -> i1',
    "flags": '%0 = "arith.addf"(%f, %f) {fastmath = 1 : i32} : (f32, f32) -> f32',
    "bool attribute": '%0 = "memref.load"(%m, %i) {nontemporal = 1 : i32} : (memref<8xf16>, index) -> f16',
    "any attribute of": '%0 = "amdgpu.dpp"(%f, %f) {kind = #amdgpu<dpp_perm row_shl>, permArgument = 1.0 : f32} : (f32, f32) -> f32',
    "index list array": '%0 = "memref.collapse_shape"(%m) {reassociation = 1 : i32} : (memref<8xf16>) -> memref<8xf16>',
    "variadic": '%0 = "memref.load"(%m, %f) : (memref<8xf16>, f32) -> f16',
    "sparse handle": '%0 = "gpu.destroy_sp_mat"(%f) : (f32) -> f32',
    "mma matrix of": '%0 = "gpu.subgroup_mma_compute"(%f, %f, %f) : (f32, f32, f32) -> f32',
    "async union": '%0 = "async.runtime.is_error"(%f) : (f32) -> i1',
    "no summary": '"nvgpu.warpgroup.mma.store"(%f, %f) : (f32, f32) -> ()',
    "index cast": '%0 = "arith.index_cast"(%f) : (f32) -> index',
    # Type relations, checked after the operand and result constraints (upstream's PredOpTraits, then native traits)
    "AllTypesMatch": '%0:2 = "gpu.shuffle"(%f, %n, %n) {mode = #gpu<shuffle_mode xor>} : (f32, i32, i32) -> (i32, i1)',
    "constraint before relation": '%0:2 = "gpu.shuffle"(%f, %i, %n) {mode = #gpu<shuffle_mode xor>} : (f32, index, i32) -> (i32, i1)',
    "TypesMatchWith element": '%0 = "memref.load"(%m, %i) : (memref<8xf16>, index) -> f32',
    "TypesMatchWith element count": '%0 = "vector.from_elements"(%f) : (f32) -> vector<2xf32>',
    "TypesMatchWith element types": '%0 = "tensor.from_elements"(%f, %n) : (f32, i32) -> tensor<2xf32>',
    "OptionalTypesMatchWith": '%0 = "vector.reduction"(%v, %n) {kind = #vector.kind<add>} : (vector<8xf16>, i32) -> f16',
    "AllElementTypesMatch": '"gpu.memset"(%m, %f) {operandSegmentSizes = array<i32: 0, 1, 1>} : (memref<8xf16>, f32) -> ()',
    "SameTypeOperands": '%0 = "arith.cmpi"(%n, %i) {predicate = 0 : i64} : (i32, index) -> i1',
    "SameOperandsAndResultType": '%0:2 = "math.sincos"(%f) : (f32) -> (f32, f16)',
    "SameOperandsAndResultType shapes": '%0 = "arith.addf"(%v, %v) : (vector<8xf16>, vector<8xf16>) -> vector<4xf16>',
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_first_error_is_upstreams(case: str) -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir (the oracle's MLIR) is not installed")
    text = (
        "func.func @f(%f: f32, %i: index, %v: vector<8xf16>, %m: memref<8xf16>, %t: !xegpu.tensor_desc<8xf16>, %n: i32) {\n"
        f"  {BROKEN[case]}\n  return\n}}\n"
    )
    theirs = [d[3] for d in oracle.verify(text) if d[2] == "error"]
    chunk = parse(text).chunks[0]
    ours = [d.message for d in verify_chunk(chunk, text=text) if d.severity >= Severity.ERROR]
    assert theirs and ours[:1] == theirs[:1]



# Zero-width integers: types the parser reads, which the non-zero-bitwidth constraints reject.
ZERO_WIDTH = {
    "vector.reduction": '%0 = "vector.reduction"(%v) {kind = #vector.kind<add>} : (vector<4xi0>) -> i0',
    "arith.addi": "%0 = arith.addi %a, %a : i0",
}


@pytest.mark.parametrize("case", list(ZERO_WIDTH))
def test_a_zero_width_integer_is_upstreams_one_error(case: str) -> None:
    text = f"func.func @f(%a: i0, %v: vector<4xi0>) {{\n  {ZERO_WIDTH[case]}\n  return\n}}\n"
    ours = [(d.code, d.message) for d in lint_text(text) if d.severity >= Severity.ERROR]
    assert [code for code, _ in ours] == ["GPU141"] and "non-zero-bitwidth" in ours[0][1]
    if oracle.available():
        assert [d[3] for d in oracle.verify(text) if d[2] == "error"] == [ours[0][1]]


# A use written with another type than its value's definition is one error, GPU005's (upstream's
# parser stops there): GPU141 does not check that operand again, by the definition's type.
MISTYPED = {
    "use": "func.func @f(%m: memref<8xf16>, %n: i32) {\n  %0 = memref.load %m[%n] : memref<8xf16>\n  return\n}\n",
    "shuffled value": "func.func @f(%f: f32, %n: i32) {\n  %0, %1 = gpu.shuffle xor %n, %n, %f : i32\n  return\n}\n",
    "forward use": (
        "func.func @f(%m: memref<8xf16>) {\n  cf.br ^bb1\n^bb2:\n  %0 = memref.load %m[%x] : memref<8xf16>\n  return\n"
        "^bb1:\n  %x = arith.constant 0 : i32\n  cf.br ^bb2\n}\n"
    ),
}


@pytest.mark.parametrize("case", list(MISTYPED))
def test_a_mistyped_use_is_one_error(case: str) -> None:
    text = MISTYPED[case]
    ours = [(d.code, d.message) for d in lint_text(text) if d.severity >= Severity.ERROR]
    assert [code for code, _ in ours] == ["GPU005"]
    if oracle.available():
        assert [d[3] for d in oracle.verify(text) if d[2] == "error"] == [ours[0][1]]


def test_a_mistyped_use_still_gets_the_other_checks() -> None:
    """Only the mistyped operand is left out: the op's other operands are checked as before."""
    text = (
        "func.func @f(%m: memref<8xf16>, %i: index, %f: f32) {\n"
        '  %0, %1 = "gpu.shuffle"(%f, %i, %m) {mode = #gpu<shuffle_mode xor>} : (f32, index, i32) -> (f32, i1)\n  return\n}\n'
    )
    found = [(d.code, d.message) for d in lint_text(text) if d.severity >= Severity.ERROR]
    assert found == [
        ("GPU141", "'gpu.shuffle' op operand #1 must be 32-bit signless integer, but got 'index'"),
        ("GPU005", "use of value '%m' expects different type than prior uses: 'i32' vs 'memref<8xf16>'"),
    ]


def test_an_attribute_a_hand_written_parser_reads_is_reported_at_the_op() -> None:
    """Only a declared format's parser checks its dictionary's attributes (`custom op ...`); gpu.func's verifier does."""
    text = "gpu.module @m {\n  gpu.func @k() kernel attributes {known_block_size = array<i32: 32, 1>} {\n    gpu.return\n  }\n}\n"
    chunk = parse(text).chunks[0]
    ours = [d for d in verify_chunk(chunk, text=text) if d.severity >= Severity.ERROR]
    assert [d.message for d in ours] == [
        "'gpu.func' op attribute 'known_block_size' failed to satisfy constraint: "
        "i32 dense array attribute with 3 elements (if present) and all elements >= 1"
    ]
    assert ours[0].range.start == text.index("gpu.func")
    if oracle.available():
        assert [(d[0], d[1], d[3]) for d in oracle.verify(text) if d[2] == "error"] == [(2, 3, ours[0].message)]


# An attribute whose value the parser rejects is that one error, GPU123's (upstream's parser stops
# there): GPU141 does not check the attribute's constraint against the rejected value.
REJECTED = {
    "generic form": (
        "func.func @f(%x: f32) -> f32 {\n"
        '  %r = "gpu.all_reduce"(%x) ({}) {op = #gpu.objct<1>} : (f32) -> f32\n  return %r : f32\n}\n'
    ),
    "enum attribute": (
        "func.func @f(%x: f32, %n: i32) {\n"
        '  %0:2 = "gpu.shuffle"(%x, %n, %n) {mode = #gpu.shufle_mode<xor>} : (f32, i32, i32) -> (f32, i1)\n  return\n}\n'
    ),
    "inside an array": (
        "func.func @f(%x: f32, %n: i32) {\n"
        '  %0:2 = "gpu.shuffle"(%x, %n, %n) {mode = [#gpu.shufle_mode<xor>]} : (f32, i32, i32) -> (f32, i1)\n  return\n}\n'
    ),
    "declared format's dictionary": "func.func @f() {\n  %0 = gpu.thread_id x {dimension = #gpu.dimm<x>}\n  return\n}\n",
}


@pytest.mark.parametrize("case", list(REJECTED))
def test_a_rejected_attribute_is_one_error(case: str) -> None:
    text = REJECTED[case]
    ours = [(d.code, d.message) for d in lint_text(text) if d.severity >= Severity.ERROR]
    assert [code for code, _ in ours] == ["GPU123"]
    if oracle.available():
        assert [d[3] for d in oracle.verify(text) if d[2] == "error"] == [ours[0][1]]


def test_a_rejected_attribute_leaves_the_other_checks() -> None:
    """Only the rejected attribute is left out: the op's operands are checked as before."""
    text = (
        "func.func @f(%x: f32, %i: index) {\n"
        '  %0:2 = "gpu.shuffle"(%x, %i, %i) {mode = #gpu.shufle_mode<xor>} : (f32, index, index) -> (f32, i1)\n  return\n}\n'
    )
    found = [(d.code, d.message) for d in lint_text(text) if d.severity >= Severity.ERROR]
    assert found == [
        ("GPU141", "'gpu.shuffle' op operand #1 must be 32-bit signless integer, but got 'index'"),
        ("GPU123", "unknown attribute `shufle_mode` in dialect `gpu`"),
    ]


def test_an_op_like_one_that_passed_is_still_checked_where_it_differs() -> None:
    """GPU141 skips the value checks of an op whose name, types and segment sizes passed them
    earlier in the chunk: an op of the same name with another type is still checked, and each
    op that breaks a constraint is reported."""
    text = (
        "func.func @f(%m: memref<8xf16>, %i: index, %n: i32, %f: f32) {\n"
        '  %0 = "memref.load"(%m, %i) : (memref<8xf16>, index) -> f16\n'
        '  %1 = "memref.load"(%m, %i) : (memref<8xf16>, index) -> f32\n'
        '  %2 = "memref.load"(%m, %i) : (memref<8xf16>, index) -> f32\n'
        "  return\n}\n"
    )
    found = [(d.code, d.range.start) for d in lint_text(text) if d.code == "GPU141"]
    lines = [text.count("\n", 0, start) for _, start in found]
    assert lines == [2, 3]
