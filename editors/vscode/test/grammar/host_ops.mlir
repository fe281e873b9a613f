// SYNTAX TEST "source.mlir" "host-side runtime ops: wait, alloc, memcpy, memset, dealloc, host_register"

func.func @host_ops(%h: memref<64xf32>, %n: index, %f: f32, %dev: i32, %u: memref<*xf32>) {
//                                                                                ^ meta.type.builtin.mlir constant.language.dynamic-dimension.mlir
  %t0 = gpu.wait async
//      ^^^^^^^^ keyword.control.op.gpu.mlir
//               ^^^^^ storage.modifier.async.mlir
  %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
//^^ variable.other.ssa.mlir
//    ^^^ variable.other.ssa.mlir
//          ^^^^^^^^^ keyword.control.op.gpu.mlir
//                    ^^^^^ storage.modifier.async.mlir
//                           ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                                 ^^ variable.other.ssa.mlir - meta.async-dependencies.mlir
  %s = gpu.alloc host_shared (%n) : memref<?xf32>
//     ^^^^^^^^^ keyword.control.op.gpu.mlir
//               ^^^^^^^^^^^ keyword.other.gpu.mlir
  %w, %t5 = gpu.alloc async [%t1] (%n) [%n] : memref<64x?xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
//                           ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                                      ^^ variable.other.ssa.mlir - meta.async-dependencies.mlir
//                                                             ^^^^^^^^^^ meta.type.builtin.mlir support.constant.attribute.builtin.mlir
//                                                                         ^^ variable.parameter.affine.mlir
//                                                                                 ^^ variable.parameter.affine.mlir
//                                                                                     ^^ keyword.operator.arrow.mlir
//                                                                                            ^ keyword.operator.arithmetic.mlir
  %t2 = gpu.memcpy async [%t1] %d, %h : memref<?xf32>, memref<64xf32>
//      ^^^^^^^^^^ keyword.control.op.gpu.mlir
//                        ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                             ^^ variable.other.ssa.mlir - meta.async-dependencies.mlir
//                                                            ^^ meta.type.builtin.mlir constant.numeric.dimension.mlir
  %t3 = gpu.memset async [%t2] %d, %f : memref<?xf32>, f32
//      ^^^^^^^^^^ keyword.control.op.gpu.mlir
//                        ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                                                     ^^^ storage.type.builtin.mlir - meta.type.builtin.mlir
  %t4 = gpu.dealloc async [%t3] %d : memref<?xf32>
//      ^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                         ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
  gpu.wait [%t4]
//^^^^^^^^ keyword.control.op.gpu.mlir
//         ^ meta.async-dependencies.mlir punctuation.section.async-dependencies.begin.mlir
//          ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//             ^ meta.async-dependencies.mlir punctuation.section.async-dependencies.end.mlir
  gpu.host_register %u : memref<*xf32>
//^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
  gpu.host_unregister %u : memref<*xf32>
//^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
  gpu.set_default_device %dev
//^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
  gpu.dealloc %s : memref<?xf32>
//^^^^^^^^^^^ keyword.control.op.gpu.mlir
  return
}
