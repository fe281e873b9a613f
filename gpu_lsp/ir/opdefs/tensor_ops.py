"""The tensor dialect's op definitions (upstream TensorOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import declare

OPS = (
    declare("tensor.empty", "A tensor of a given shape with unspecified contents.", traits="pure", syntax="%t = tensor.empty(%d) : tensor<?x4xf32>"),
    declare("tensor.extract", "Reads one element of a tensor.", traits="pure", syntax="%v = tensor.extract %t[%i, %j] : tensor<4x4xf32>"),
    declare("tensor.insert", "A tensor with one element replaced.", traits="pure", syntax="%r = tensor.insert %v into %t[%i] : tensor<4xf32>"),
    declare("tensor.dim", "The size of one dimension of a tensor.", traits="pure", syntax="%d = tensor.dim %t, %i : tensor<?xf32>"),
    declare("tensor.rank", "The rank of a tensor.", traits="pure", syntax="%r = tensor.rank %t : tensor<*xf32>"),
    declare("tensor.cast", "Casts between compatible tensor types.", traits="pure", syntax="%r = tensor.cast %v : T to U"),
    declare("tensor.bitcast", "Reinterprets the element type of a tensor.", traits="pure", syntax="%r = tensor.bitcast %v : T to U"),
    declare("tensor.expand_shape", "Splits dimensions of a tensor.", traits="pure", syntax="%r = tensor.expand_shape %t [[0, 1]] : T into U"),
    declare("tensor.collapse_shape", "Merges dimensions of a tensor.", traits="pure", syntax="%r = tensor.collapse_shape %t [[0, 1]] : T into U"),
    declare("tensor.from_elements", "Builds a tensor from scalars.", traits="pure", syntax="%t = tensor.from_elements %a, %b : tensor<2xf32>"),
    declare("tensor.splat", "A tensor with every element equal to a scalar.", traits="pure", syntax="%t = tensor.splat %v [[%d]] : tensor<?xf32>"),
    declare(
        "tensor.generate",
        "A tensor whose elements are computed by a region.",
        traits="pure",
        syntax="%t = tensor.generate %d { ^bb0(%i: index): tensor.yield %v : f32 } : tensor<?xf32>",
    ),
    declare(
        "tensor.yield",
        "Yields an element from tensor.generate or tensor.pad.",
        traits="pure region_return return_like terminator",
        syntax="tensor.yield %v : T",
    ),
    declare(
        "tensor.pad",
        "Pads a tensor with values computed by a region.",
        traits="pure",
        syntax="%p = tensor.pad %t low[0, %a] high[1, 2] { ^bb0(...): tensor.yield %c : f32 } : T to U",
    ),
    declare("tensor.extract_slice", "A slice of a tensor.", traits="pure", syntax="%s = tensor.extract_slice %t[%o, 0] [%n, 4] [1, 1] : T to U"),
    declare(
        "tensor.insert_slice",
        "A tensor with a slice replaced.",
        traits="pure",
        syntax="tensor.insert_slice %s into %t[...] [...] [...] : T into U",
    ),
    declare(
        "tensor.parallel_insert_slice",
        "Inserts a slice into a shared output of scf.forall.",
        syntax="tensor.parallel_insert_slice %s into %t[...] [...] [...] : T into U",
    ),
    declare(
        "tensor.reshape",
        "Reshapes a tensor to a shape given as a tensor.",
        traits="pure",
        syntax="%r = tensor.reshape %t(%shape) : (T, tensor<2xi32>) -> U",
    ),
    declare("tensor.concat", "Concatenates tensors along a dimension.", traits="pure", syntax="%r = tensor.concat dim(0) %a, %b : (T, T) -> U"),
    declare("tensor.gather", "A tensor gather or scatter (read loosely).", traits="pure"),
    declare("tensor.scatter", "A tensor gather or scatter (read loosely).", traits="pure"),
)
