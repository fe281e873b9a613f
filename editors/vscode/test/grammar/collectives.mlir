// SYNTAX TEST "source.mlir" "device-side ops: ids, reductions, shuffles, barriers, printf, warp execution"

gpu.module @device {
  gpu.func @collectives(%v: f32, %i: i32, %offset: i32, %width: i32, %vec: vector<4xf16>) kernel {
    %tx = gpu.thread_id x
//        ^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                      ^ constant.language.enum.dimension.gpu.mlir
    %by = gpu.block_id y
//        ^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                     ^ constant.language.enum.dimension.gpu.mlir
    %bd = gpu.block_dim z
//        ^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                      ^ constant.language.enum.dimension.gpu.mlir
    %gd = gpu.grid_dim x
//        ^^^^^^^^^^^^ keyword.control.op.gpu.mlir
    %gid = gpu.global_id x upper_bound 65536
//         ^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                       ^ constant.language.enum.dimension.gpu.mlir
//                         ^^^^^^^^^^^ keyword.other.gpu.mlir
//                                     ^^^^^ constant.numeric.integer.mlir
    %cid = gpu.cluster_id y
//         ^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                        ^ constant.language.enum.dimension.gpu.mlir
    %cd = gpu.cluster_dim z
//        ^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
    %cdb = gpu.cluster_dim_blocks x
//         ^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                ^ constant.language.enum.dimension.gpu.mlir
    %cbid = gpu.cluster_block_id x upper_bound 8
//          ^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
    %lane = gpu.lane_id upper_bound 64
//          ^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                      ^^^^^^^^^^^ keyword.other.gpu.mlir
    %sg = gpu.subgroup_id : index
//        ^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                          ^^^^^ storage.type.builtin.mlir
    %nsg = gpu.num_subgroups upper_bound 16 : index
//         ^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
    %sgs = gpu.subgroup_size : index
//         ^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
//         ^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                        ^^^ constant.language.enum.reduction.gpu.mlir
//                            ^^ variable.other.ssa.mlir
//                               ^^^^^^^ keyword.other.gpu.mlir
//                                                  ^^ keyword.operator.arrow.mlir
    %max = gpu.all_reduce maxnumf %v : (f32) -> (f32)
//                        ^^^^^^^ constant.language.enum.reduction.gpu.mlir
    %custom = gpu.all_reduce %v {
//            ^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
    ^bb0(%lhs: f32, %rhs: f32):
//  ^^^^ entity.name.label.mlir
//       ^^^^ variable.other.ssa.mlir
      %s = arith.addf %lhs, %rhs : f32
//         ^^^^^^^^^^ keyword.other.op.mlir
      gpu.yield %s : f32
//    ^^^^^^^^^ keyword.control.op.gpu.mlir
    } : (f32) -> (f32)
    %red = gpu.subgroup_reduce add %v cluster(size = 4, stride = 2) : (f32) -> f32
//         ^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                             ^^^ constant.language.enum.reduction.gpu.mlir
//                                    ^^^^^^^ keyword.other.gpu.mlir
//                                            ^^^^ keyword.other.gpu.mlir
//                                                   ^ constant.numeric.integer.mlir
//                                                      ^^^^^^ keyword.other.gpu.mlir
//                                                               ^ constant.numeric.integer.mlir
    %red2 = gpu.subgroup_reduce minsi %i uniform cluster(size = 8) : (i32) -> i32
//                              ^^^^^ constant.language.enum.reduction.gpu.mlir
//                                       ^^^^^^^ keyword.other.gpu.mlir
//                                                       ^^^^ keyword.other.gpu.mlir
    %sh, %valid = gpu.shuffle xor %v, %offset, %width : f32
//       ^^^^^^ variable.other.ssa.mlir
//                ^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                            ^^^ constant.language.enum.shuffle-mode.gpu.mlir
    %up, %ok = gpu.shuffle idx %vec, %offset, %width : vector<4xf16>
//                         ^^^ constant.language.enum.shuffle-mode.gpu.mlir
//                                                              ^^^ meta.type.builtin.mlir storage.type.builtin.mlir
    %rot, %rok = gpu.rotate %v, 1, 16 : f32
//               ^^^^^^^^^^ keyword.control.op.gpu.mlir
//                              ^ constant.numeric.integer.mlir
    %b0 = gpu.subgroup_broadcast %v, first_active_lane : f32
//        ^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                   ^^^^^^^^^^^^^^^^^ constant.language.enum.gpu.mlir
    %b1 = gpu.subgroup_broadcast %v, specific_lane %i : f32
//                                   ^^^^^^^^^^^^^ constant.language.enum.gpu.mlir
    gpu.barrier
//  ^^^^^^^^^^^ keyword.control.op.gpu.mlir
    gpu.barrier memfence [#gpu.address_space<workgroup>, #gpu.address_space<global>]
//  ^^^^^^^^^^^ keyword.control.op.gpu.mlir
//              ^^^^^^^^ keyword.other.gpu.mlir
//                       ^ punctuation.section.brackets.begin.mlir - meta.async-dependencies.mlir
//                        ^^^^^^^^^^^^^^^^^^ constant.other.attribute.dialect.mlir
//                                           ^^^^^^^^^ meta.attribute.dialect.mlir constant.language.enum.mlir
    gpu.barrier memfence []
//              ^^^^^^^^ keyword.other.gpu.mlir
    gpu.printf "lane %d of block %lld: %f\n", %lane, %by, %v : index, index, f32
//  ^^^^^^^^^^ keyword.control.op.gpu.mlir
//             ^^^^^^ string.quoted.double.mlir
//                   ^^ string.quoted.double.mlir constant.other.placeholder.mlir
//                               ^^^^ string.quoted.double.mlir constant.other.placeholder.mlir
//                                       ^^ string.quoted.double.mlir constant.character.escape.mlir
//                                            ^^^^^ variable.other.ssa.mlir - string.quoted.double.mlir
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
//          ^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                               ^^ meta.type.builtin.mlir storage.type.builtin.mlir
    %w = gpu.warp_execute_on_lane_0(%lane)[32] args(%vec : vector<4xf16>) -> (vector<1xf16>) {
//       ^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.control.op.gpu.mlir
//                                         ^^ constant.numeric.integer.mlir
//                                             ^^^^ keyword.other.gpu.mlir
    ^bb0(%arg: vector<4xf16>):
      %e = vector.extract_strided_slice %arg {offsets = [0], sizes = [1], strides = [1]} : vector<4xf16> to vector<1xf16>
//         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ keyword.other.op.mlir - storage.type.builtin.mlir
//                                            ^^^^^^^ entity.other.attribute-name.mlir
//                                                                                                       ^^ keyword.other.mlir
      gpu.yield %e : vector<1xf16>
//    ^^^^^^^^^ keyword.control.op.gpu.mlir
    }
    gpu.return
  }
}
