// SYNTAX TEST "source.mlir" "warp-matrix (MMA) ops"

func.func @mma(%a: memref<32x32xf16, #gpu.address_space<workgroup>>, %c: memref<16x16xf32>, %i: index, %f: f16) {
  %A = gpu.subgroup_mma_load_matrix %a[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
//     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                  ^^ variable.other.ssa.mlir
//                                              ^^^^^^^^^^^^^ entity.other.attribute-name.mlir
//                                                              ^^ constant.numeric.integer.mlir
//                                                                                                                             ^^ keyword.operator.arrow.mlir
//                                                                                                                                ^^^^^^^^^^^^^^^ meta.type.dialect.mlir support.type.dialect.mlir
//                                                                                                                                                ^^ meta.type.dialect.mlir constant.numeric.dimension.mlir
//                                                                                                                                                      ^^^ meta.type.dialect.mlir storage.type.builtin.mlir
//                                                                                                                                                           ^^^^^ meta.type.dialect.mlir string.quoted.double.mlir
  %B = gpu.subgroup_mma_load_matrix %a[%i, %i] {leadDimension = 32 : index, transpose} : memref<32x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
  %C = gpu.subgroup_mma_constant_matrix %f : !gpu.mma_matrix<16x16xf16, "COp">
//     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
  %D = gpu.subgroup_mma_compute %A, %B, %C {b_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
//     ^^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                      ^^ variable.other.ssa.mlir
  %E = gpu.subgroup_mma_elementwise addf %D, %C : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
//     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                  ^^^^ constant.language.enum.mma-elementwise.gpu.mlir
  %x = gpu.subgroup_mma_extract_thread_local %E[%i] : !gpu.mma_matrix<16x16xf16, "COp"> -> f16
//     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                                                                         ^^^ storage.type.builtin.mlir - meta.type.dialect.mlir
  %F = gpu.subgroup_mma_insert_thread_local %x, %E[%i] : f16, !gpu.mma_matrix<16x16xf16, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
//     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
  gpu.subgroup_mma_store_matrix %F, %c[%i, %i] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf32>
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                                                                                               ^^^^^^ meta.type.builtin.mlir storage.type.builtin.mlir
  return
}
