"""GPU121-GPU123: exact messages and columns, checked against upstream (the oracle) where installed."""

from __future__ import annotations

import pytest
from support import oracle

from diagnostics.expect import verify_file
from gpu_lsp.analysis import lint_text, verify_chunk
from gpu_lsp.parser.api import parse
from gpu_lsp.parser.incremental import reparse
from gpu_lsp.text import LineIndex, TextRange

# (input, what upstream reports: (line, column, message) in its order of emission)
CASES = [
    ("func.func @f(%a: !gpu.foo) {\n  return\n}\n", [(1, 23, "unknown gpu type: foo")]),
    ("func.func @f(%a: !gpu.sparse.foo<1>) {\n  return\n}\n", [(1, 23, "unknown gpu type: sparse.foo")]),
    ("func.func @f(%a: !gpu<foo>) {\n  return\n}\n", [(1, 23, "unknown gpu type: foo")]),
    ('func.func @f(%a: !gpu<"foo">) {\n  return\n}\n', [(1, 23, "expected valid keyword")]),
    ("func.func @f(%a: memref<4x!gpu.foo>) {\n  return\n}\n", [(1, 32, "unknown gpu type: foo")]),
    ("!t = !gpu.foo\n", [(1, 11, "unknown gpu type: foo")]),
    ("func.func @f(%a: !gpu.mma_matrix) {\n  return\n}\n", [(1, 33, "expected '<'")]),
    ('func.func @f(%a: !gpu.mma_matrix<16x?xf16, "AOp">) {\n  return\n}\n', [(1, 37, "expected static shape")]),
    ('func.func @f(%a: !gpu.mma_matrix<16xf16, "AOp">) {\n  return\n}\n', [(1, 23, "MMAMatrixType must have exactly two dimensions")]),
    ('func.func @f(%a: !gpu.mma_matrix<16x16xf16, "DOp">) {\n  return\n}\n', [(1, 23, "operand expected to be one of AOp, BOp or COp")]),
    ("func.func @f() attributes {x = #gpu.foo} {\n  return\n}\n", [(1, 37, "unknown attribute `foo` in dialect `gpu`")]),
    ("func.func @f() attributes {x = #gpu<foo x>} {\n  return\n}\n", [(1, 37, "unknown attribute `foo` in dialect `gpu`")]),
    (
        "func.func @f() attributes {x = [#gpu.select_object<-1>, #gpu.foo]} {\n  return\n}\n",
        [(1, 51, "the object index must be positive")],
    ),
    ('gpu.binary @b [#gpu.object<"x", "">]\n', [(1, 27, "the target attribute must implement or promise the `gpu::TargetAttrInterface`")]),
    (
        'gpu.binary @b [#gpu.object<#gpu.address_space<global>, "">]\n',
        [(1, 27, "the target attribute must implement or promise the `gpu::TargetAttrInterface`")],
    ),
    ('gpu.binary @b [#gpu.object<#nvvm.target, foo = "">]\n', [(1, 42, "expected keyword for GPU object format")]),
    ('gpu.binary @b [#gpu.object<#nvvm.target, offload "">]\n', [(1, 49, "expected '='"), (1, 42, "expected an equal sign")]),
    ("gpu.binary @b [#gpu.object<#nvvm.target>]\n", [(1, 40, "expected ','")]),
    (
        "gpu.binary @b [#gpu.object<#nvvm.target, properties = 1, \"\">]\n",
        [
            (1, 55, "invalid kind of attribute specified"),
            (1, 56, "failed to parse GPU_ObjectAttr parameter 'properties' which is to be a `DictionaryAttr`"),
        ],
    ),
    (
        "gpu.binary @b [#gpu.object<#nvvm.target,\n    1.5>]\n",
        [
            (2, 5, "invalid kind of attribute specified"),
            (2, 8, "failed to parse GPU_ObjectAttr parameter 'object' which is to be a `StringAttr`"),
        ],
    ),
    ('gpu.binary @b [#gpu.object<#nvvm.target, fatbin = "", 1>]\n', [(1, 53, "expected '>'")]),
    (
        'gpu.binary @b [#gpu.object<#gpu.foo, "">]\n',
        [
            (1, 33, "unknown attribute `foo` in dialect `gpu`"),
            (1, 36, "failed to parse GPU_ObjectAttr parameter 'target' which is to be a `Attribute`"),
        ],
    ),
    (
        'gpu.binary @b [#gpu.object<#nvvm.target<O = 4>, "">]\n',
        [
            (1, 40, "The optimization level must be a number between 0 and 3."),
            (1, 47, "failed to parse GPU_ObjectAttr parameter 'target' which is to be a `Attribute`"),
        ],
    ),
    ("gpu.module @m <#gpu.select_object<true>> [#nvvm.target] {\n}\n", [(1, 34, "the object index must be positive")]),
    ("gpu.module @m <#gpu.select_object<1.0>> [#nvvm.target] {\n}\n", [(1, 34, "the target attribute must be a GPU Target attribute")]),
    (
        "gpu.module @m <#gpu.select_object<   >> [#nvvm.target] {\n}\n",
        [
            (1, 35, "expected attribute value"),
            (1, 38, "failed to parse GPU_SelectObjectAttr parameter 'target' which is to be a `Attribute`"),
        ],
    ),
    ('func.func @f() attributes {x = #gpu.kernel_metadata<"", () -> ()>} {\n  return\n}\n', [(1, 52, "the kernel name can't be empty")]),
    ('func.func @f() attributes {x = #gpu<kernel_metadata<"", () -> ()>>} {\n  return\n}\n', [(1, 52, "the kernel name can't be empty")]),
    (
        'func.func @f() attributes {x = #gpu.kernel_metadata<"k", () -> (), arg_attrs = [{}, 1]>} {\n  return\n}\n',
        [(1, 52, "all attributes in the array must be a dictionary attribute")],
    ),
    (
        'func.func @f() attributes {x = #gpu.kernel_metadata<"k", (!gpu.foo) -> ()>} {\n  return\n}\n',
        [
            (1, 64, "unknown gpu type: foo"),
            (1, 67, "failed to parse GPU_KernelMetadataAttr parameter 'function_type' which is to be a `Type`"),
        ],
    ),
    (
        "func.func @f() attributes {x = #gpu.kernel_table<[#gpu.kernel_metadata<\"a\", () -> ()>, 1]>} {\n  return\n}\n",
        [
            (1, 87, "expected '<'"),
            (1, 88, "failed to parse GPU_KernelTableAttr parameter 'kernel_table' which is to be a `::llvm::ArrayRef<KernelMetadataAttr>`"),
        ],
    ),
    (
        'gpu.binary @b [#gpu.object<#rocdl.target, kernels = #gpu.kernel_table<[#gpu.kernel_metadata<"k", () -> ()>, '
        '#gpu.kernel_metadata<"k", () -> ()>]>, bin = "">]\n',
        [
            (1, 70, "expected all kernels to be uniquely named"),
            (1, 146, "failed to parse GPU_ObjectAttr parameter 'kernels' which is to be a `KernelTableAttr`"),
        ],
    ),
    (
        "func.func @f() attributes {t = #gpu.kernel_table<[ ]>} {\n  return\n}\n",
        [
            (1, 51, "expected '<'"),
            (1, 52, "failed to parse GPU_KernelTableAttr parameter 'kernel_table' which is to be a `::llvm::ArrayRef<KernelMetadataAttr>`"),
        ],
    ),
    ("gpu.module @m [#nvvm.target<O = -1>] {\n}\n", [(1, 28, "The optimization level must be a number between 0 and 3.")]),
    ('gpu.module @m [#nvvm.target<chip = "", triple = "">] {\n}\n', [(1, 28, "The target triple cannot be empty.")]),
    ("gpu.module @m [#nvvm.target<O = 1, O = 2>] {\n}\n", [(1, 40, "duplicate or unknown struct parameter name: O")]),
    (
        "gpu.module @m [#nvvm.target<flags = 1>] {\n}\n",
        [
            (1, 37, "invalid kind of attribute specified"),
            (1, 38, "failed to parse NVVM_TargetAttr parameter 'flags' which is to be a `DictionaryAttr`"),
        ],
    ),
    (
        "func.func @f() {\n  return\n}\nfunc.func @f() {\n  return\n}\n",
        [(4, 1, "redefinition of symbol named 'f'"), (1, 1, "see existing symbol definition here")],
    ),
    (
        'gpu.module @m {\n}\ngpu.binary @m [#gpu.object<#nvvm.target, "">]\ngpu.binary @m [#gpu.object<#nvvm.target, "">]\n',
        [(3, 1, "redefinition of symbol named 'm'"), (1, 1, "see existing symbol definition here")],
    ),
]

# Inputs upstream accepts: nothing may be reported.
VALID = [
    'func.func @f(%a: !gpu.async.token, %b: !gpu.mma_matrix<16x16xf64, "COp">, %c: !gpu.mma_matrix<8x8xui32, "AOp">,'
    ' %d: !gpu.sparse.dntensor_handle, %e: !gpu.sparse.spmat_handle, %g: !gpu.sparse.spgemmop_handle) {\n  return\n}\n',
    "func.func @f() attributes {a = #gpu<dim x>, b = #gpu.address_space<private>, c = #gpu<all_reduce_op add>,"
    " d = #gpu.kernel_table<>, e = #gpu.select_object} {\n  return\n}\n",
    '#t = #nvvm.target<chip = "sm_90">\ngpu.binary @b <#gpu.select_object<#t>> [#gpu.object<#t, "">]\n',
    'gpu.binary @b <#gpu.select_object<1 : i32>> [#gpu.object<#xevm.target, bin = "">, #gpu.object<#rocdl.target<O = 4>, "">]\n',
    'gpu.binary @b [#gpu.object<#nvvm.target<verifyTarget = false, O = 0, link = ["a.bc"], flags = {fast}>, properties = {O = 3 : i32}, offload = "">]\n',
    'func.func @f() attributes {x = #gpu.kernel_metadata<"k", () -> (), metadata = {a = 1}, arg_attrs = [{}, {}]>} {\n  return\n}\n',
    "gpu.module @m {\n  func.func private @f()\n}\nfunc.func private @f()\nmodule @inner {\n  func.func private @f()\n}\n",
]


def _ours(text: str) -> list[tuple[int, int, str]]:
    (chunk,) = parse(text).chunks
    index = LineIndex(text)
    out = []
    for d in verify_chunk(chunk, text=text):
        for message, rng in ((d.message, d.range), *((r.message, r.range) for r in d.related)):
            line, col = index.position(rng.start)
            out.append((line + 1, col + 1, message))
    return out


@pytest.mark.parametrize("text,expected", CASES)
def test_messages_and_columns(text: str, expected: list) -> None:
    assert sorted(_ours(text)) == sorted(expected)


@pytest.mark.parametrize("text,expected", CASES)
def test_cases_are_what_upstream_reports(text: str, expected: list) -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    assert [(line, col, message) for line, col, _, message in oracle.verify(text)] == expected


@pytest.mark.parametrize("text", VALID)
def test_valid_inputs_report_nothing(text: str) -> None:
    assert [d for d in lint_text(text) if d.code in ("GPU121", "GPU122", "GPU123")] == []
    if oracle.available():
        assert oracle.verify(text) == []


def test_follow_up_errors_travel_with_the_first_parse_error() -> None:
    """gpu-opt -verify-diagnostics: upstream's follow-up errors are expected too, and a later
    problem in another attribute is not reported (upstream stops at the first)."""
    text = """\
// expected-error @+2 {{expected '='}}
// expected-error @+1 {{expected an equal sign}}
gpu.binary @b [#gpu.object<#nvvm.target, bin "">]
gpu.binary @c <#gpu.select_object<-1>> [#gpu.object<#nvvm.target, "">]
"""
    outcome = verify_file(text)
    assert outcome.matched == 2 and outcome.unexpected == []


def test_redefinition_waits_for_the_nested_ops() -> None:
    """Like the SymbolTable trait, the check runs after the ops inside verified."""
    text = """\
func.func @f() {
  return
}
func.func @f() attributes {gpu.known_block_size = array<i32: 1>} {
  return
}
"""
    assert [m for _, _, m in _ours(text)] == ["'func.func' op gpu.known_block_size must contain exactly 3 elements"]


def test_incremental_reparse_updates_attribute_errors() -> None:
    text = 'gpu.binary @b <#gpu.select_object<1>> [#gpu.object<#nvvm.target, "">]\n'
    parsed = parse(text)
    assert parsed.chunks[0].diagnostics == []
    at = text.index("1>>")
    new_text = text[:at] + "-1" + text[at + 1 :]
    again = reparse(parsed, new_text, TextRange(at, at + 1))
    assert [d.message for d in again.chunks[0].diagnostics] == ["the object index must be positive"]
    back = reparse(again, text, TextRange(at, at + 2))
    assert back.chunks[0].diagnostics == []
