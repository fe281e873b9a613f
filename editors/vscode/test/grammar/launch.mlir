// SYNTAX TEST "source.mlir" "gpu.launch: async dependencies, clusters, dynamic shared memory, attributions"

func.func @inline_kernels(%n: index, %buf: memref<?xf32>, %shmem: i32) {
// <--------- keyword.other.op.mlir
//        ^^^^^^^^^^^^^^^ entity.name.function.symbol.mlir
//                                                        ^^^^^^ variable.other.ssa.mlir
  %c1 = arith.constant 1 : index
//      ^^^^^^^^^^^^^^ keyword.other.op.mlir - keyword.control.op.gpu.mlir
  %t0 = gpu.wait async
//      ^^^^^^^^ keyword.control.op.gpu.mlir
//               ^^^^^ storage.modifier.async.mlir
  %t1 = gpu.wait async
  %done = gpu.launch async [%t0, %t1] clusters(%cx, %cy, %cz) in (%ncx = %c1, %ncy = %c1, %ncz = %c1)
//^^^^^ variable.other.ssa.mlir
//        ^^^^^^^^^^ keyword.control.op.gpu.mlir
//                   ^^^^^ storage.modifier.async.mlir
//                         ^ meta.async-dependencies.mlir punctuation.section.async-dependencies.begin.mlir
//                          ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                             ^ meta.async-dependencies.mlir
//                               ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                                  ^ meta.async-dependencies.mlir punctuation.section.async-dependencies.end.mlir
//                                    ^^^^^^^^ keyword.other.gpu.mlir
//                                                       ^^^ variable.other.ssa.mlir - meta.async-dependencies.mlir
//                                                            ^^ keyword.other.gpu.mlir
//                                                                ^^^^ variable.other.ssa.mlir
      blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
//    ^^^^^^ keyword.other.gpu.mlir
//           ^^^ variable.other.ssa.mlir
//                          ^^ keyword.other.gpu.mlir
//                              ^^^ variable.other.ssa.mlir
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
//    ^^^^^^^ keyword.other.gpu.mlir
//                      ^^^ variable.other.ssa.mlir
      dynamic_shared_memory_size %shmem
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.other.gpu.mlir
//                               ^^^^^^ variable.other.ssa.mlir
      module(@outlined) function(@body)
//    ^^^^^^ keyword.other.gpu.mlir - keyword.other.op.builtin.mlir
//           ^^^^^^^^^ entity.name.function.symbol.mlir
//                      ^^^^^^^^ keyword.other.gpu.mlir
//                               ^^^^^ entity.name.function.symbol.mlir
      workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>)
//    ^^^^^^^^^ keyword.other.gpu.mlir
//              ^^^^^ variable.other.ssa.mlir
//                      ^^^^^^ meta.type.builtin.mlir storage.type.builtin.mlir
//                             ^^ meta.type.builtin.mlir constant.numeric.dimension.mlir
//                                ^^^ meta.type.builtin.mlir storage.type.builtin.mlir
//                                     ^^^^^^^^^^^^^^^^^^ meta.type.builtin.mlir meta.attribute.dialect.mlir constant.other.attribute.dialect.mlir
//                                                        ^^^^^^^^^ meta.attribute.dialect.mlir constant.language.enum.mlir - keyword.other.gpu.mlir
      private(%scratch : memref<4xf32, #gpu.address_space<private>>) {
//    ^^^^^^^ keyword.other.gpu.mlir
//                                     ^^^^^^^^^^^^^^^^^^ constant.other.attribute.dialect.mlir
//                                                        ^^^^^^^ meta.attribute.dialect.mlir constant.language.enum.mlir - keyword.other.gpu.mlir
    %v = memref.load %buf[%tx] : memref<?xf32>
//       ^^^^^^^^^^^ keyword.other.op.mlir
//                        ^^^ variable.other.ssa.mlir
//                                      ^ meta.type.builtin.mlir constant.language.dynamic-dimension.mlir
    gpu.terminator
//  ^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
  } {known_attr = 1 : i64}
//   ^^^^^^^^^^ entity.other.attribute-name.mlir
//                ^ constant.numeric.integer.mlir
//                    ^^^ storage.type.builtin.mlir
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
//^^^^^^^^^^ keyword.control.op.gpu.mlir
//           ^^^^^^ keyword.other.gpu.mlir
//                                                                      ^^^^^^^ keyword.other.gpu.mlir
    gpu.terminator
  }
  %t2 = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
//      ^^^^^^^^^^ keyword.control.op.gpu.mlir
//                 ^^^^^ storage.modifier.async.mlir - meta.async-dependencies.mlir
    gpu.terminator
  }
  return
//^^^^^^ keyword.other.op.mlir
}
