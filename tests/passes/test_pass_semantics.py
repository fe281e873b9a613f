"""The passes' upstream behaviour, checked on the IR (no oracle needed)."""

from __future__ import annotations

import pytest
from passes_support import DL, OUTLINE, SINK, SINK_OUTLINE, SINK_OUTLINE_DL, module_of, run
from support.corpus import corpus_files, split_chunks

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.views import attribution_counts
from gpu_lsp.passes.base import PassFailure
from gpu_lsp.passes.outlining import outline_kernels, parse_data_layout
from gpu_lsp.passes.pipeline import Nest, PipelineError, parse_flag, parse_pipeline

GPU = "mlir/test/Dialect/GPU/"


def chunk_with(file: str, marker: str) -> str:
    """The `// -----` chunk of a corpus file that contains `marker`."""
    (path,) = [p for p in corpus_files(f"**/{GPU}{file}")]
    for chunk in split_chunks(path.read_text()):
        if marker in chunk.text:
            return chunk.text
    raise AssertionError(f"{marker} not in {file}")


def top(module: Operation) -> list[Operation]:
    return module.regions[0].blocks[0].operations


def sym(op: Operation) -> str | None:
    attr = op.properties.get("sym_name")
    return attr.value if attr is not None else None


def ops_named(root: Operation, name: str) -> list[Operation]:
    return [op for op in root.walk() if op.name == name]


def body(op: Operation) -> list[Operation]:
    return op.regions[0].blocks[0].operations


# --- gpu-launch-sink-index-computations -----------------------------------------------------


def test_sink_clones_constants_and_dims_defs_first():
    module, failure = run(chunk_with("sink-ops.mlir", "@extra_constants("), SINK)
    assert failure is None
    (launch,) = ops_named(module, "gpu.launch")
    ops = body(launch)
    assert [o.name for o in ops[:4]] == ["arith.constant", "arith.constant", "memref.dim", "use"]
    assert [str(o.properties["value"]) for o in ops[:2]] == ["2 : index", "0 : index"]
    use = ops[3]
    assert use.operands[0] is ops[0].results[0] and use.operands[2] is ops[2].results[0]
    assert ops[2].operands[1] is ops[1].results[0]  # the dim uses the sunk %c0
    func = top(module)[0]
    assert [o.name for o in body(func)[:4]] == ["arith.constant"] * 3 + ["memref.dim"]  # originals stay


def test_sink_never_adds_a_kernel_argument():
    module, _ = run(chunk_with("outlining.mlir", "@extra_constants_noarg("), SINK)
    (launch,) = ops_named(module, "gpu.launch")
    assert [o.name for o in body(launch)] == ["arith.constant", "use", "gpu.terminator"]  # %cst2 only


def test_sink_skips_unregistered_constants():
    module, _ = run(chunk_with("sink-ops.mlir", "@extra_constants_not_inlined"), SINK)
    (launch,) = ops_named(module, "gpu.launch")
    assert "secret_constant" not in [o.name for o in body(launch)]


def test_sink_does_not_sink_integer_arithmetic():
    """Upstream sinks constants, memref.dim, arith.select and arith.cmpi only (llvm-project #221396)."""
    module, _ = run(chunk_with("sink-ops.mlir", "@index_arithmetic"), SINK)
    (launch,) = ops_named(module, "gpu.launch")
    assert [o.name for o in body(launch)] == ["use", "gpu.terminator"]


def test_sink_select_and_cmpi_chain():
    text = """func.func @f(%a: index, %b: index) {
  %c1 = arith.constant 1 : index
  %cmp = arith.cmpi slt, %a, %b : index
  %sel = arith.select %cmp, %a, %b : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    "use"(%sel, %a, %b) : (index, index, index) -> ()
    gpu.terminator
  }
  return
}"""
    module, _ = run(text, SINK)
    (launch,) = ops_named(module, "gpu.launch")
    assert [o.name for o in body(launch)] == ["arith.cmpi", "arith.select", "use", "gpu.terminator"]


# --- gpu-kernel-outlining -------------------------------------------------------------------


def test_outlined_kernel_shape():
    module, failure = run(chunk_with("outlining.mlir", "func.func @launch()"), SINK_OUTLINE)
    assert failure is None
    assert "gpu.container_module" in module.attributes
    func, kmod = top(module)
    assert kmod.name == "gpu.module" and sym(kmod) == "launch_kernel"
    (kernel,) = body(kmod)
    assert sym(kernel) == "launch_kernel" and "gpu.kernel" in kernel.attributes
    assert str(kernel.attributes["known_block_size"]) == "array<i32: 20, 24, 28>"
    assert str(kernel.attributes["known_grid_size"]) == "array<i32: 8, 12, 16>"
    assert [str(t) for t in kernel.properties["function_type"].type.inputs] == ["f32", "memref<?xf32, 1>"]
    ops = body(kernel)
    names = [o.name for o in ops[:12]]
    assert names == ["gpu.block_id"] * 3 + ["gpu.thread_id"] * 3 + ["gpu.grid_dim"] * 3 + ["gpu.block_dim"] * 3
    assert [o.name for o in ops[12:]] == ["use", "some_op", "memref.load", "gpu.return"]
    some_op = ops[13]
    assert some_op.operands[0] is ops[0].results[0] and some_op.operands[1] is ops[9].results[0]
    (launch_func,) = ops_named(func, "gpu.launch_func")
    assert str(launch_func.properties["kernel"]) == "@launch_kernel::@launch_kernel"
    assert not ops_named(module, "gpu.launch")
    assert str(launch_func.properties["operandSegmentSizes"]) == "array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>"


def test_names_on_collision_async_token_and_placement():
    module, _ = run(chunk_with("outlining.mlir", "@multiple_launches()"), SINK_OUTLINE)
    names = [sym(op) for op in top(module)]
    assert names == [
        "multiple_launches", "multiple_launches_kernel", "multiple_launches_kernel_0",
        "multiple_launches_kernel_1", "multiple_launches_kernel_2",
    ]
    assert {sym(body(m)[0]) for m in top(module)[1:]} == {"multiple_launches_kernel"}
    launches = ops_named(module, "gpu.launch_func")
    wait = ops_named(top(module)[0], "gpu.wait")[0]
    third, fourth = launches[2], launches[3]
    assert third.operands[0] is wait.results[0] and [r.type for r in third.results] == [T.TOKEN]
    assert str(fourth.properties["operandSegmentSizes"]).startswith("array<i32: 0,") and len(fourth.results) == 1


def test_token_uses_move_to_launch_func():
    text = """func.func @f(%n: index) {
  %t = gpu.wait async
  %u = gpu.launch async [%t] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  gpu.wait [%u]
  return
}"""
    module, _ = run(text, OUTLINE)
    func = top(module)[0]
    launch_func = ops_named(func, "gpu.launch_func")[0]
    final_wait = ops_named(func, "gpu.wait")[1]
    assert final_wait.operands[0] is launch_func.results[0]
    kernel = body(top(module)[1])[0]
    assert "known_block_size" not in kernel.attributes and "known_grid_size" not in kernel.attributes


def test_cluster_launch():
    module, _ = run(chunk_with("outlining.mlir", "@launch_cluster()"), SINK_OUTLINE)
    kernel = body(top(module)[1])[0]
    assert str(kernel.attributes["known_cluster_size"]) == "array<i32: 1, 2, 1>"
    names = [o.name for o in body(kernel)[12:18]]
    assert names == ["gpu.cluster_id"] * 3 + ["gpu.cluster_dim"] * 3
    (launch_func,) = ops_named(module, "gpu.launch_func")
    assert str(launch_func.properties["operandSegmentSizes"]) == "array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2, 0>"


def test_attributions_become_gpu_func_attributions():
    module, _ = run(chunk_with("outlining.mlir", "@launch_memory_attributions_0()"), SINK_OUTLINE)
    kernel = body(top(module)[1])[0]
    assert attribution_counts(kernel) == (1, 2)
    assert str(kernel.attributes["workgroup_attributions"]) == "1 : i64"
    args = kernel.regions[0].blocks[0].arguments
    assert [str(a.type) for a in args] == ["memref<?xf32, 1>", "memref<42xf32, 3>", "memref<2xf32, 5>", "memref<1xf32, 5>"]
    loads = ops_named(kernel, "memref.load")
    assert loads[1].operands[0] is args[1] and loads[2].operands[0] is args[3]


def test_symbol_closure_order_and_originals_kept():
    module, _ = run(chunk_with("outlining.mlir", "@function_call("), SINK_OUTLINE)
    assert [sym(op) for op in top(module)] == [
        "global", "function_call", "function_call_kernel", "device_function", "recursive_device_function",
    ]
    kmod = top(module)[2]
    assert [sym(op) for op in body(kmod)] == ["function_call_kernel", "device_function", "global", "recursive_device_function"]


def test_existing_module_is_reused_and_function_renamed():
    module, _ = run(chunk_with("outlining.mlir", "@testExistingModule()"), SINK_OUTLINE)
    assert [sym(op) for op in top(module)] == ["existing_module", "testExistingModule"]
    assert [sym(op) for op in body(top(module)[0])] == ["test_kernel_func", "test_kernel_func_0"]
    (launch_func,) = ops_named(module, "gpu.launch_func")
    assert str(launch_func.properties["kernel"]) == "@existing_module::@test_kernel_func_0"


@pytest.mark.parametrize(
    "marker, kernel",
    [
        ("@testKernelAttributes()", "@test_module::@test_kernel_func"),
        ("@testKernelModuleOnly()", "@test_module::@testKernelModuleOnly_kernel"),
        ("@testKernelFuncOnly()", "@test_kernel_func::@test_kernel_func"),
        ("@testNoAttributes()", "@testNoAttributes_kernel::@testNoAttributes_kernel"),
        ("@launch_from_llvm_func()", "@launch_from_llvm_func_kernel::@launch_from_llvm_func_kernel"),
    ],
)
def test_module_and_function_attributes(marker, kernel):
    module, _ = run(chunk_with("outlining.mlir", marker), SINK_OUTLINE)
    (launch_func,) = ops_named(module, "gpu.launch_func")
    assert str(launch_func.properties["kernel"]) == kernel


def test_nested_launches_inner_first():
    module, failure = run(chunk_with("outlining.mlir", "@nested_launch("), SINK_OUTLINE)
    assert failure is None
    assert [sym(op) for op in top(module)] == ["nested_launch", "nested_launch_kernel", "nested_launch_kernel_0"]
    outer_kernel = body(top(module)[2])[0]
    (inner_call,) = ops_named(outer_kernel, "gpu.launch_func")
    assert str(inner_call.properties["kernel"]) == "@nested_launch_kernel::@nested_launch_kernel"
    (host_call,) = ops_named(top(module)[0], "gpu.launch_func")
    assert str(host_call.properties["kernel"]) == "@nested_launch_kernel_0::@nested_launch_kernel"


def test_data_layout_attached_to_kernel_modules():
    module, _ = run(chunk_with("outlining.mlir", "@multiple_launches()"), SINK_OUTLINE_DL)
    for kmod in top(module)[1:]:
        assert str(kmod.attributes["dlti.dl_spec"]) == "#dlti.dl_spec<index = 32 : i32>"
    assert str(parse_data_layout(DL)) == "#dlti.dl_spec<index = 32 : i32>"
    with pytest.raises(ValueError):
        parse_data_layout("#foo<1>")


@pytest.mark.parametrize(
    "marker, message",
    [
        ("@kernel_crash", "'test.op' op failed to outline gpu kernel: symbol 'unknown_func' not found"),
        ("@kernel_invalid_ref", "'test.op' op failed to outline gpu kernel: found invalid symbol reference: @nested::@ref"),
    ],
)
def test_outlining_symbol_errors(marker, message):
    text = chunk_with("outlining-invalid-symbol.mlir", marker)
    module, failure = run(text, OUTLINE)
    assert isinstance(failure, PassFailure)
    (diag,) = failure.diagnostics
    assert diag.message == message
    assert diag.range.start == text.index('"test.op"')  # at the op in the launch body


def test_constant_sizes_beyond_uint32_are_not_known():
    text = """func.func @f() {
  %big = arith.constant 4294967296 : index
  %half = arith.constant 2147483648 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %big, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %half, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}"""
    module, _ = run(text, OUTLINE)
    kernel = body(top(module)[1])[0]
    assert "known_grid_size" not in kernel.attributes
    assert str(kernel.attributes["known_block_size"]) == "array<i32: -2147483648, 1, 1>"


def test_select_outlines_only_chosen_launches():
    module, _ = module_of(chunk_with("outlining.mlir", "@multiple_launches()"))
    launches = ops_named(module, "gpu.launch")
    outline_kernels(module, select=lambda op: op is launches[1])
    assert len(ops_named(module, "gpu.launch")) == 3
    assert [sym(op) for op in top(module)] == ["multiple_launches", "multiple_launches_kernel"]


# --- gpu-async-region -----------------------------------------------------------------------


def test_async_region_rejects_inline_launches():
    text = chunk_with("outlining.mlir", "func.func @launch()")
    module, failure = run(text, "builtin.module(func.func(gpu-async-region))")
    assert isinstance(failure, PassFailure)
    assert failure.diagnostics[0].message == "'gpu.launch' op replace with gpu.launch_func first"
    assert text[failure.diagnostics[0].range.start :].startswith("gpu.launch blocks")


def test_async_region_existing_tokens():
    text = chunk_with("async-region.mlir", "@existing_tokens")
    module, failure = run(text, "builtin.module(func.func(gpu-async-region))")
    assert failure is None
    func = [op for op in module.walk() if op.name == "func.func" and sym(op) == "existing_tokens"][0]
    ops = body(func)
    assert [o.name for o in ops] == ["gpu.wait", "gpu.wait", "gpu.alloc", "gpu.dealloc", "gpu.wait", "gpu.wait", "func.return"]
    t0, t1, alloc, dealloc, w1, w2 = ops[:6]
    assert alloc.operands[:2] == [t1.results[0], t0.results[0]] and alloc.results[1].type == T.TOKEN
    assert dealloc.operands[0] is alloc.results[1]
    assert w1.operands == [dealloc.results[0]] and not w1.results
    assert w2.operands == [] and not w2.results


def test_async_region_threads_tokens_through_a_function():
    text = chunk_with("async-region.mlir", "func.func @async(")
    module, _ = run(text, "builtin.module(func.func(gpu-async-region))")
    func = [op for op in module.walk() if op.name == "func.func" and sym(op) == "async"][0]
    names = [o.name for o in body(func)]
    assert names == ["gpu.wait", "gpu.launch_func", "gpu.launch_func", "gpu.alloc", "gpu.dealloc", "gpu.wait", "func.call", "func.return"]
    ops = body(func)
    for prev, op in zip(ops[:4], ops[1:5]):
        assert op.operands[0] is prev.results[-1]


# --- pipelines ------------------------------------------------------------------------------


def test_flags_nest_function_passes_implicitly():
    nest = Nest("builtin.module")
    for flag in ("-gpu-launch-sink-index-computations", "-gpu-kernel-outlining=data-layout-str='" + DL + "'", "-gpu-async-region"):
        assert parse_flag(flag, nest)
    assert str(nest) == (
        "builtin.module(gpu-launch-sink-index-computations,gpu-kernel-outlining{data-layout-str=" + DL + "},"
        "func.func(gpu-async-region))"
    )
    assert not parse_flag("-split-input-file", nest)


def test_textual_pipelines():
    nest = parse_pipeline("builtin.module(gpu-kernel-outlining,func.func(gpu-async-region))")
    assert str(nest) == "builtin.module(gpu-kernel-outlining,func.func(gpu-async-region))"
    assert str(parse_pipeline("'builtin.module(gpu-kernel-outlining{data-layout-str=\"" + DL + "\"})'")) == (
        "builtin.module(gpu-kernel-outlining{data-layout-str=" + DL + "})"
    )
    for bad in ("builtin.module(gpu-async-region)", "builtin.module(no-such-pass)", "builtin.module(gpu-kernel-outlining{x=1})"):
        with pytest.raises(PipelineError):
            parse_pipeline(bad)
