// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/test_2d_local_index_inference/kernel.cl
// launch: block=(128, 1, 1) grid=(4, 1, 1)
// note: num_groups scaled down from 64 to 4

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @bar() -> index {
      %tid = gpu.thread_id x
      return %tid : index
    }
    func.func @baz(%x: index) -> index {
      return %x : index
    }
    gpu.func @foo() workgroup(%A: memref<1024xi32, #gpu.address_space<workgroup>>, %B: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c100 = arith.constant 100 : index
      %d1 = arith.constant 1 : i32
      %d2 = arith.constant 2 : i32
      %tidX = func.call @bar() : () -> index
      %localSize = func.call @baz(%bdx) : (index) -> index
      %ty0 = arith.muli %ty, %bdx : index
      %t = arith.addi %ty0, %tx : index
      scf.for %i = %c0 to %c100 step %c1 {
        %ra = arith.muli %ty, %localSize : index
        %a = arith.addi %ra, %tidX : index
        %rb = arith.muli %ty, %bdx : index
        %b = arith.addi %rb, %tidX : index
        %bv = memref.load %B[%b] : memref<1024xi32, #gpu.address_space<workgroup>>
        %s = arith.addi %bv, %d2 : i32
        memref.store %s, %A[%a] : memref<1024xi32, #gpu.address_space<workgroup>>
        %bt = memref.load %B[%t] : memref<1024xi32, #gpu.address_space<workgroup>>
        %bt1 = arith.addi %bt, %d1 : i32
        memref.store %bt1, %B[%t] : memref<1024xi32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@foo blocks in (%c4, %c1, %c1) threads in (%c128, %c1, %c1)
    return
  }
}
