"""Ops the formatter used to leave as written now print as upstream MLIR (the oracle) prints them."""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.formatter.core import format_text
from gpu_lsp.ir.printers import print_module
from gpu_lsp.parser.api import parse

# An llvm.func whose signature the source lays out on three lines (as upstream's lowering tests do).
SPLIT_SIGNATURE = """\
module attributes {gpu.container_module} {
  gpu.module @kernel_module [#nvvm.target<chip = "sm_70">] {
    llvm.func @kernel(%arg0: i32, %arg1: !llvm.ptr,
        %arg2: !llvm.ptr, %arg3: i64, %arg4: i64,
        %arg5: i64) attributes {gpu.kernel} {
      llvm.return
    }
  }
}
"""

# Globals without an `addr_space`: mlir-opt fills in its default and prints it.
GLOBALS = """\
module {
  llvm.mlir.global internal @global(42 : i64) : i64
  llvm.mlir.global internal @shmem() {alignment = 16 : i64} : !llvm.array<0 x i8>
}
"""

# Attributions with attributes: gpu.func keeps them (`workgroup_attrib_attrs`, `private_attrib_attrs`).
ATTRIBUTION_ATTRIBUTES = """\
gpu.module @kernel {
  gpu.func @explicitAlign(%arg0 : index)
    workgroup(%arg1: memref<48xf32, #gpu.address_space<workgroup>> {llvm.align = 8 : i64})
    private(%arg2: memref<48xf32, #gpu.address_space<private>> {llvm.align = 4 : i64}, %arg3: memref<2xf32, #gpu.address_space<private>>) {
    %0 = memref.load %arg1[%arg0] : memref<48xf32, #gpu.address_space<workgroup>>
    memref.store %0, %arg2[%arg0] : memref<48xf32, #gpu.address_space<private>>
    gpu.return
  }
}
"""

# An op printed from its source text (gpu-lsp does not model it) over two lines, and a SPIR-V target
# environment (TargetEnvAttr's printer writes `api=` without blanks).
SOURCE_TEXT_OP = """\
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["gpu.launch"]} in %arg0
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"""
TARGET_ENV = """\
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Addresses, Int64, Kernel], []>, api=OpenCL, #spirv.resource_limits<>>} {
  }
}
"""

# Every keyword of llvm.mlir.global, for its generic form.
GLOBAL_KEYWORDS = """\
llvm.mlir.global private unnamed_addr constant @a("abc") {addr_space = 0 : i32} : !llvm.array<3 x i8>
llvm.mlir.global internal hidden thread_local local_unnamed_addr @b(1 : i32) {alignment = 4 : i64, dso_local} : i32
llvm.mlir.global external @c() : i32
llvm.mlir.global weak protected @d() {addr_space = 3 : i32} : !llvm.array<0 x i8>
"""


def _require_oracle() -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")


def _oracle_generic(text: str) -> str:
    result, diags = oracle._run(text, None, False)
    assert diags == []
    return str(result.module.operation.get_asm(print_generic_op_form=True))


@pytest.mark.parametrize(
    "source",
    [SPLIT_SIGNATURE, GLOBALS, ATTRIBUTION_ATTRIBUTES, SOURCE_TEXT_OP, TARGET_ENV],
    ids=["split-signature", "globals", "attribution-attributes", "source-text-op", "target-env"],
)
def test_formatted_as_mlir_opt_prints_it_and_the_same_ir(source: str) -> None:
    _require_oracle()
    result = format_text(source)
    assert result.problems == []
    printed, diags = oracle.run_pass(source, "builtin.module()")
    assert diags == [] and printed is not None
    if not source.startswith("module"):  # mlir-opt wraps the ops in the implicit module
        printed = "\n".join(line[2:] for line in printed.split("\n")[1:-2]) + "\n"
    assert result.text == printed
    assert _oracle_generic(result.text) == _oracle_generic(source)


def test_attribution_attributes_are_in_the_generic_form_as_upstreams() -> None:
    _require_oracle()
    ours = print_module(parse(ATTRIBUTION_ATTRIBUTES).chunks[0].module, generic=True, source=ATTRIBUTION_ATTRIBUTES)
    assert "workgroup_attrib_attrs = [{llvm.align = 8 : i64}]" in ours
    assert ours == _oracle_generic(ATTRIBUTION_ATTRIBUTES)


def test_global_generic_form_is_upstreams() -> None:
    _require_oracle()
    ours = print_module(parse(GLOBAL_KEYWORDS).chunks[0].module, generic=True, source=GLOBAL_KEYWORDS)
    assert ours == _oracle_generic(GLOBAL_KEYWORDS)


def test_generic_form_of_a_source_printed_op_ignores_its_line_breaks() -> None:
    one_line = " ".join(line.strip() for line in SPLIT_SIGNATURE.split("\n")[2:5]).replace("( ", "(")
    joined = SPLIT_SIGNATURE.replace("\n".join(SPLIT_SIGNATURE.split("\n")[2:5]), "    " + one_line)
    assert joined != SPLIT_SIGNATURE

    def generic(text: str) -> str:
        return print_module(parse(text).chunks[0].module, generic=True, source=text)

    assert generic(joined) == generic(SPLIT_SIGNATURE)
    assert "\n        %arg2" not in generic(SPLIT_SIGNATURE)


# A generic gpu.func with the discardable `gpu.kernel`: mlir-opt prints it with the `kernel` keyword,
# which reads back as the `kernel` property, so only that op is left as written.
GENERIC_KERNEL = """\
module attributes {gpu.container_module} {
  func.func @f(%a : index) {
    %b = arith.addi %a,%a : index
    return
  }
  gpu.module @kernels {
    "gpu.func"() ({
      "gpu.return"() : () -> ()
    } ) {function_type = () -> (), gpu.kernel, sym_name = "k"} : () -> ()
    gpu.func @g(%x : f32) kernel {
      gpu.return
    }
  }
}
"""


def test_a_nested_op_mlir_opt_would_change_is_the_only_one_left_as_written() -> None:
    result = format_text(GENERIC_KERNEL)
    assert result.problems == ["line 7: 'gpu.func' would not print the same; it is left as written"]
    assert "    %b = arith.addi %a, %a : index\n" in result.text
    assert "    gpu.func @g(%x: f32) kernel {\n" in result.text
    assert "    \"gpu.func\"() ({\n      \"gpu.return\"() : () -> ()\n    } ) {function_type" in result.text
    assert format_text(result.text).text == result.text
    _require_oracle()
    assert _oracle_generic(result.text) == _oracle_generic(GENERIC_KERNEL)
