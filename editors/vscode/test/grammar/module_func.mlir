// SYNTAX TEST "source.mlir" "gpu.module with targets, gpu.func kernels with attributions, gpu.binary"

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80", O = 3>, #rocdl.target] {
//^^^^^^^^^^ keyword.control.op.gpu.mlir
//           ^^^^^^^^ entity.name.function.symbol.mlir
//                     ^^^^^^^^^^^^ meta.attribute.dialect.mlir constant.other.attribute.dialect.mlir
//                                  ^^^^ meta.attribute.dialect.mlir entity.other.attribute-name.mlir
//                                         ^^^^^^^ meta.attribute.dialect.mlir string.quoted.double.mlir
//                                                  ^ entity.other.attribute-name.mlir
//                                                      ^ meta.attribute.dialect.mlir constant.numeric.integer.mlir
//                                                          ^^^^^^^^^^^^^ constant.other.attribute.dialect.mlir - meta.attribute.dialect.mlir
    gpu.func @scale(%a: f32, %buf: memref<?xf32, 1>) workgroup(%tile : memref<256xf32, #gpu.address_space<workgroup>>) private(%tmp : memref<1xf32, #gpu.address_space<private>>) kernel attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
//  ^^^^^^^^ keyword.control.op.gpu.mlir
//           ^^^^^^ entity.name.function.symbol.mlir
//                                                   ^^^^^^^^^ keyword.other.gpu.mlir
//                                                             ^^^^^ variable.other.ssa.mlir
//                                                                            ^^^ constant.numeric.dimension.mlir
//                                                                                                                     ^^^^^^^ keyword.other.gpu.mlir
//                                                                                                                                                                                ^^^^^^ keyword.other.gpu.mlir
//                                                                                                                                                                                       ^^^^^^^^^^ keyword.other.mlir
//                                                                                                                                                                                                   ^^^^^^^^^^^^^^^^^^^^ entity.other.attribute-name.gpu.mlir - keyword.control.op.gpu.mlir
//                                                                                                                                                                                                                          ^^^^^ meta.attribute.builtin.mlir support.constant.attribute.builtin.mlir
//                                                                                                                                                                                                                                ^^^ meta.attribute.builtin.mlir storage.type.builtin.mlir
//                                                                                                                                                                                                                                     ^^^ meta.attribute.builtin.mlir constant.numeric.integer.mlir
      %tid = gpu.thread_id x
//           ^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                         ^ constant.language.enum.dimension.gpu.mlir
      %v = memref.load %tile[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.return
//    ^^^^^^^^^^ keyword.control.op.gpu.mlir
    }
    gpu.func @helper(%x: f32) -> f32 {
//  ^^^^^^^^ keyword.control.op.gpu.mlir
//                            ^^ keyword.operator.arrow.mlir
      gpu.return %x : f32
//    ^^^^^^^^^^ keyword.control.op.gpu.mlir
//               ^^ variable.other.ssa.mlir
    }
  }
  gpu.module @offload <#gpu.select_object<1>> [#nvvm.target] {
//                     ^^^^^^^^^^^^^^^^^^ constant.other.attribute.dialect.mlir
  }
  gpu.binary @blob [#gpu.object<#nvvm.target, "BLOB">]
//^^^^^^^^^^ keyword.control.op.gpu.mlir
//           ^^^^^ entity.name.function.symbol.mlir
//                  ^^^^^^^^^^^ constant.other.attribute.dialect.mlir
//                              ^^^^^^^^^^^^ meta.attribute.dialect.mlir constant.other.attribute.dialect.mlir
//                                            ^^^^^^ string.quoted.double.mlir
  func.func @old_style_kernel(%x: f32) attributes {gpu.kernel} {
//                                                 ^^^^^^^^^^ entity.other.attribute-name.gpu.mlir - keyword.control.op.gpu.mlir
    return
  }
}
