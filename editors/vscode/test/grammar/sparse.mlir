// SYNTAX TEST "source.mlir" "sparse (cuSPARSE) host ops"

func.func @spmv(%rows: index, %cols: index, %nnz: index, %pos: memref<?xindex>, %crd: memref<?xindex>, %val: memref<?xf64>, %x: memref<?xf64>, %y: memref<?xf64>, %m: memref<?xf16>) {
//                     ^^^^^ storage.type.builtin.mlir
//                                                                      ^^^^^ meta.type.builtin.mlir storage.type.builtin.mlir
  %t0 = gpu.wait async
  %dx, %t1 = gpu.create_dn_tensor async [%t0] %x, %cols : index into memref<?xf64>
//^^^ variable.other.ssa.mlir
//           ^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                       ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                                                              ^^^^ keyword.other.mlir
  %dy, %t2 = gpu.create_dn_tensor async [%t1] %y, %rows : index into memref<?xf64>
  %sp, %t3 = gpu.create_csr async [%t2] %rows, %cols, %nnz, %pos, %crd, %val : memref<?xindex>, memref<?xindex>, memref<?xf64>
//           ^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                 ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                                      ^^^^^ variable.other.ssa.mlir - meta.async-dependencies.mlir
  %sz, %t4 = gpu.spmv_buffer_size async [%t3] %sp, %dx, %dy into f64
//           ^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                                               ^^^ storage.type.builtin.mlir
  %buf, %t5 = gpu.alloc async [%t4] (%sz) : memref<?xi8>
  %t6 = gpu.spmv async [%t5] %sp{TRANSPOSE}, %dx, %dy, %buf : memref<?xi8> into f64
//      ^^^^^^^^ keyword.control.op.gpu.mlir
//                           ^^^ variable.other.ssa.mlir
//                               ^^^^^^^^^ constant.language.enum.gpu.mlir
  %t7 = gpu.spmm async [%t6] %sp{NON_TRANSPOSE}, %dx{CONJUGATE_TRANSPOSE}, %dy, %buf : memref<?xi8> into f64
//      ^^^^^^^^ keyword.control.op.gpu.mlir
//                               ^^^^^^^^^^^^^ constant.language.enum.gpu.mlir
//                                                   ^^^^^^^^^^^^^^^^^^^ constant.language.enum.gpu.mlir
  %s24, %t8 = gpu.create_2to4_spmat async [%t7] {PRUNE_AND_CHECK} %rows, %cols, %m : memref<?xf16>
//            ^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                               ^^^^^^^^^^^^^^^ constant.language.enum.gpu.mlir
  %desc, %t9 = gpu.spgemm_create_descr async [%t8]
//             ^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                            ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
  %r, %c, %n, %t10 = gpu.spmat_get_size async [%t9] %sp
//                   ^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
  %t11 = gpu.destroy_sp_mat async [%t10] %sp
//       ^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
  %t12 = gpu.destroy_dn_tensor async [%t11] %dx
//       ^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                    ^^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
  gpu.wait [%t12]
  return
}
