// SYNTAX TEST "source.mlir" "general MLIR syntax: comments, split markers, literals, types, attributes"

// RUN: gpu-opt %s -split-input-file | FileCheck %s
// <-- comment.line.double-slash.mlir punctuation.definition.comment.mlir
// ^^^ comment.line.double-slash.mlir keyword.other.directive.filecheck.mlir
//                                     ^^^^^^^^^ comment.line.double-slash.mlir - keyword.other.directive.filecheck.mlir

#map = affine_map<(d0)[s0] -> (d0 + s0)>
// <---- constant.other.attribute.alias.mlir
//     ^^^^^^^^^^ support.constant.attribute.builtin.mlir
//                                ^ keyword.operator.arithmetic.mlir
!tok = !gpu.async.token
// <---- support.type.alias.mlir
//     ^^^^^^^^^^^^^^^^ support.type.dialect.mlir

// CHECK-LABEL: func.func @literals
// ^^^^^^^^^^^ comment.line.double-slash.mlir keyword.other.directive.filecheck.mlir
//              ^^^^^^^^^ comment.line.double-slash.mlir - keyword.other.op.mlir
func.func @literals() -> (i1, si8, ui16, bf16, f8E4M3FN, tf32, complex<f32>, tuple<i32, f64>) {
// <--------- keyword.other.op.mlir
//                    ^^ keyword.operator.arrow.mlir
//                        ^^ storage.type.builtin.mlir
//                            ^^^ storage.type.builtin.mlir
//                                 ^^^^ storage.type.builtin.mlir
//                                       ^^^^ storage.type.builtin.mlir
//                                             ^^^^^^^^ storage.type.builtin.mlir
//                                                       ^^^^ storage.type.builtin.mlir
//                                                             ^^^^^^^ meta.type.builtin.mlir storage.type.builtin.mlir
//                                                                           ^^^^^ meta.type.builtin.mlir storage.type.builtin.mlir
//                                                                                      ^^^ meta.type.builtin.mlir storage.type.builtin.mlir
  %true = arith.constant true
//^^^^^ variable.other.ssa.mlir - constant.language.boolean.mlir
//                       ^^^^ constant.language.boolean.mlir
  %neg = arith.constant -42 : i8
//                      ^^^ constant.numeric.integer.mlir
  %hex = arith.constant 0x7FC00000 : f32
//                      ^^^^^^^^^^ constant.numeric.integer.hexadecimal.mlir
  %f = arith.constant 1.5e-3 : f32
//                    ^^^^^^ constant.numeric.float.mlir
  %dense = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
//                        ^^^^^ meta.attribute.builtin.mlir support.constant.attribute.builtin.mlir
//                                        ^ meta.attribute.builtin.mlir constant.numeric.integer.mlir
//                                                  ^^^^^^ meta.type.builtin.mlir storage.type.builtin.mlir
//                                                         ^ meta.type.builtin.mlir constant.numeric.dimension.mlir
//                                                             ^^^ meta.type.builtin.mlir storage.type.builtin.mlir
  %splat = arith.constant dense<0.000000e+00> : vector<8xf16>
//                              ^^^^^^^^^^^^ meta.attribute.builtin.mlir constant.numeric.float.mlir
//                                              ^^^^^^ meta.type.builtin.mlir storage.type.builtin.mlir
  %multi:2 = "test.two_results"() {name = "a \"quoted\" \0A string", flag, map = #map} : () -> (i32, i32)
//^^^^^^ variable.other.ssa.mlir
//            ^^^^^^^^^^^^^^^^ string.quoted.double.op-name.mlir keyword.other.op.mlir
//                                 ^^^^ entity.other.attribute-name.mlir
//                                           ^^ string.quoted.double.mlir constant.character.escape.mlir
//                                                      ^^^ string.quoted.double.mlir constant.character.escape.mlir
//                                                                         ^^^ entity.other.attribute-name.mlir
//                                                                               ^^^^ constant.other.attribute.alias.mlir
  %one = arith.addi %multi#1, %multi#0 : i32
//                  ^^^^^^ variable.other.ssa.mlir
//                        ^^ variable.other.ssa.mlir constant.numeric.result-number.mlir
  %launch = "gpu.launch_func"(%one) <{kernel = @kernels::@k}> : (i32) -> !gpu.async.token
//           ^^^^^^^^^^^^^^^ string.quoted.double.op-name.mlir keyword.control.op.gpu.mlir
//                                    ^^^^^^ entity.other.attribute-name.mlir - keyword.other.gpu.mlir
//                                             ^^^^^^^^ entity.name.function.symbol.mlir
//                                                     ^^ punctuation.separator.namespace.mlir
  cf.br ^bb1(%one : i32)
//^^^^^ keyword.other.op.mlir
//      ^^^^ entity.name.label.mlir
^bb1(%arg: i32):  // gpu-lint: ignore[GPU001]
// <---- entity.name.label.mlir
//                   ^^^^^^^^ comment.line.double-slash.mlir keyword.other.directive.suppression.mlir
//                                    ^^^^^^ comment.line.double-slash.mlir constant.other.rule-code.mlir
  %c = call @callee(%arg) : (i32) -> i32
//     ^^^^ keyword.other.op.mlir
//          ^^^^^^^ entity.name.function.symbol.mlir
  return %true, %neg, %neg, %f, %f, %f, %f, %f : i1, si8, ui16, bf16, f8E4M3FN, tf32, complex<f32>, tuple<i32, f64>
}

// -----
// <-------- comment.line.split-marker.mlir meta.separator.split-input.mlir - comment.line.double-slash.mlir
// ^^^^^ comment.line.split-marker.mlir meta.separator.split-input.mlir keyword.other.split-input.mlir

// expected-error@+1 {{custom op 'gpu.wait' needs to be named when marked 'async'}}
// ^^^^^^^^^^^^^^ comment.line.double-slash.mlir keyword.other.directive.diagnostic.mlir
//                                ^^^^^^^^ comment.line.double-slash.mlir - keyword.control.op.gpu.mlir
gpu.wait async
// <-------- keyword.control.op.gpu.mlir
//       ^^^^^ storage.modifier.async.mlir
