// A kernel using the scratch dialect that scratch.ops.toml declares: `gpu-lint examples/downstream`.
gpu.module @kernels {
  gpu.func @saxpy(%x: f32, %y: f32, %a: f32) kernel {
    %c32 = arith.constant 32 : index
    %buf = scratch.alloc(%c32) align 16 : memref<32xf32, 3>
    %r = scratch.fma %a, %x, %y : f32
    scratch.for_each_lane %c32 {
      scratch.yield
    }
    scratch.flush %buf nontemporal : memref<32xf32, 3>
    gpu.return
  }
}
