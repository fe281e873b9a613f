"""Typed views of gpu ops and symbol resolution, on parsed IR."""

from __future__ import annotations

from gpu_lsp.ir.symbols import SymbolTables, symbol_name
from gpu_lsp.ir.views import AllocView, FuncView, LaunchFuncView, LaunchView, async_dependencies, async_token, copy_operands
from gpu_lsp.parser.api import parse

TEXT = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: f32) workgroup(%w: memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index, %x: f32, %n: index, %h: memref<?xf32>, %s: i32) {
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %m, %h : memref<?xf32>, memref<?xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %s args(%x : f32)
    %t4 = gpu.launch async [%t3] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
               workgroup(%wg : memref<8xf32, #gpu.address_space<workgroup>>)
               private(%p : memref<2xf32, #gpu.address_space<private>>) {
      gpu.terminator
    }
    gpu.wait [%t4]
    return
  }
}
"""


def ops_by_name():
    module = parse(TEXT).chunks[0].module
    out: dict[str, list] = {}
    for op in module.walk():
        out.setdefault(op.name, []).append(op)
    return module, out


def test_async_dependencies_and_tokens() -> None:
    _, ops = ops_by_name()
    alloc = ops["gpu.alloc"][0]
    assert [v.name for v in async_dependencies(alloc)] == ["t0"]
    assert async_token(alloc).name == "t1"
    sync_wait = ops["gpu.wait"][1]
    assert async_token(sync_wait) is None and [v.name for v in async_dependencies(sync_wait)] == ["t4"]
    dst, src = copy_operands(ops["gpu.memcpy"][0])
    assert (dst.name, src.name) == ("m", "h")
    view = AllocView(alloc)
    assert [v.name for v in view.dynamic_sizes] == ["n"] and view.memref.name == "m" and not view.host_shared


def test_launch_views() -> None:
    _, ops = ops_by_name()
    lf = LaunchFuncView(ops["gpu.launch_func"][0])
    assert str(lf.kernel) == "@kernels::@k"
    assert [v.name for v in lf.kernel_operands] == ["x"]
    assert [v.name for v in lf.grid_sizes] == ["c1", "c1", "c1"]
    assert lf.async_object is None and lf.cluster_sizes == []
    launch = LaunchView(ops["gpu.launch"][0])
    assert [v.name for v in launch.dependencies] == ["t3"]
    assert not launch.has_clusters and launch.dynamic_shared_memory_size is None
    assert [a.name for a in launch.workgroup_attributions] == ["wg"]
    assert [a.name for a in launch.private_attributions] == ["p"]


def test_func_view_and_symbols() -> None:
    module, ops = ops_by_name()
    func = ops["gpu.func"][0]
    view = FuncView(func)
    assert view.is_kernel and [str(t) for t in view.function_type.inputs] == ["f32"]
    workgroup, private = view.attributions()
    assert [a.name for a in workgroup] == ["w"] and private == []
    tables = SymbolTables()
    launch = ops["gpu.launch_func"][0]
    assert tables.lookup_in(module, LaunchFuncView(launch).kernel) is func
    assert symbol_name(tables.lookup_nearest(launch, "kernels")) == "kernels"
    assert tables.lookup_in(module, "missing") is None
