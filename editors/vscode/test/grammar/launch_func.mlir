// SYNTAX TEST "source.mlir" "gpu.launch_func: async object, async dependencies, clusters, args"

module attributes {gpu.container_module} {
// <------ keyword.other.op.builtin.mlir
//     ^^^^^^^^^^ keyword.other.mlir
//                 ^^^^^^^^^^^^^^^^^^^^ entity.other.attribute-name.gpu.mlir - keyword.control.op.gpu.mlir
  func.func @host(%x: f32, %buf: memref<?xf32, 1>, %stream: !llvm.ptr, %c: i64, %smem: i32, %t0: !gpu.async.token, %t1: !gpu.async.token) {
//                                                          ^^^^^^^^^ support.type.dialect.mlir
//                                                                                               ^^^^^^^^^^^^^^^^ support.type.dialect.mlir - keyword.control.op.gpu.mlir
//                                             ^ meta.type.builtin.mlir constant.numeric.integer.mlir
    gpu.launch_func @kernels::@scale blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%x : f32, %buf : memref<?xf32, 1>)
//  ^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                  ^^^^^^^^ entity.name.function.symbol.mlir
//                          ^^ punctuation.separator.namespace.mlir
//                            ^^^^^^ entity.name.function.symbol.mlir
//                                   ^^^^^^ keyword.other.gpu.mlir
//                                          ^^ keyword.other.gpu.mlir
//                                                          ^^^^^^^ keyword.other.gpu.mlir
//                                                                                    ^^^ storage.type.builtin.mlir
//                                                                                        ^^^^ keyword.other.gpu.mlir
//                                                                                             ^^ variable.other.ssa.mlir
//                                                                                                  ^^^ storage.type.builtin.mlir
    %t2 = gpu.launch_func async [%t0, %t1] @kernels::@scale clusters in (%c, %c, %c) blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 dynamic_shared_memory_size %smem args(%x : f32, %buf : memref<?xf32, 1>)
//        ^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                        ^^^^^ storage.modifier.async.mlir
//                              ^ meta.async-dependencies.mlir punctuation.section.async-dependencies.begin.mlir
//                               ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                                    ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                                       ^ meta.async-dependencies.mlir punctuation.section.async-dependencies.end.mlir
//                                         ^^^^^^^^ entity.name.function.symbol.mlir - meta.async-dependencies.mlir
//                                                          ^^^^^^^^ keyword.other.gpu.mlir
//                                                                                                                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.other.gpu.mlir
//                                                                                                                                                                   ^^^^^ variable.other.ssa.mlir
//                                                                                                                                                                         ^^^^ keyword.other.gpu.mlir
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@scale blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 args(%x : f32, %buf : memref<?xf32, 1>)
//  ^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                  ^ meta.async-object.mlir punctuation.section.async-object.begin.mlir
//                   ^^^^^^^ meta.async-object.mlir variable.other.ssa.mlir
//                             ^^^^^^^^^ meta.async-object.mlir support.type.dialect.mlir
//                                      ^ meta.async-object.mlir punctuation.section.async-object.end.mlir
//                                                  ^^^^^^ entity.name.function.symbol.mlir - meta.async-object.mlir
    %t3 = gpu.launch_func async [%t2] <%stream : !llvm.ptr> @kernels::@scale blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64
//                               ^^^ meta.async-dependencies.mlir variable.other.ssa.mlir
//                                     ^^^^^^^ meta.async-object.mlir variable.other.ssa.mlir
    return
  }
}
