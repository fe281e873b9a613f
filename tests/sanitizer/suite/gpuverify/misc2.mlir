// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/pass/misc2/kernel.cl
// launch: block=(32, 1, 1) grid=(1, 1, 1)
// note: __local int *shared became a workgroup attribution of block size

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%shared: memref<32xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %j0 = arith.constant 1 : index
      %end = scf.while (%j = %j0) : (index) -> index {
        %more = arith.cmpi ugt, %j, %c0 : index
        scf.condition(%more) %j : index
      } do {
      ^bb0(%j: index):
        %ixj = arith.xori %tx, %j : index
        %above = arith.cmpi ugt, %ixj, %tx : index
        scf.if %above {
          %bit = arith.andi %tx, %c2 : index
          %clear = arith.cmpi eq, %bit, %c0 : index
          scf.if %clear {
            %v = memref.load %shared[%tx] : memref<32xi32, #gpu.address_space<workgroup>>
            memref.store %v, %shared[%ixj] : memref<32xi32, #gpu.address_space<workgroup>>
          }
        }
        gpu.barrier memfence [#gpu.address_space<workgroup>]
        %next = arith.divui %j, %c2 : index
        scf.yield %next : index
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@foo blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
    return
  }
}
