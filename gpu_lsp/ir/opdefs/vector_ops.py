"""The vector dialect's op definitions (upstream VectorOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import declare

OPS = (
    declare(
        "vector.broadcast",
        "Broadcasts a scalar or vector to a vector of higher rank.",
        traits="pure",
        syntax="%v = vector.broadcast %s : f32 to vector<4xf32>",
    ),
    declare(
        "vector.extract",
        "Extracts an element or a sub-vector at static or dynamic positions.",
        traits="pure",
        syntax="%e = vector.extract %v[0, %i] : f32 from vector<4x8xf32>",
    ),
    declare(
        "vector.insert",
        "Inserts an element or a sub-vector at static or dynamic positions.",
        traits="pure",
        syntax="%r = vector.insert %s, %v[0, %i] : f32 into vector<4x8xf32>",
    ),
    declare(
        "vector.scalable.extract",
        "Extracts a fixed-length vector from a scalable one.",
        traits="pure",
        syntax="%r = vector.scalable.extract %v[0] : vector<4xf32> from vector<[8]xf32>",
    ),
    declare(
        "vector.scalable.insert",
        "Inserts a fixed-length vector into a scalable one.",
        traits="pure",
        syntax="%r = vector.scalable.insert %v, %acc[0] : vector<4xf32> into vector<[8]xf32>",
    ),
    declare(
        "vector.load",
        "Loads a vector from a memref at the given indices.",
        syntax="%v = vector.load %m[%i, %j] : memref<?x?xf32>, vector<8xf32>",
    ),
    declare("vector.store", "Stores a vector into a memref at the given indices.", syntax="vector.store %v, %m[%i] : memref<?xf32>, vector<8xf32>"),
    declare(
        "vector.maskedload",
        "Loads the enabled lanes of a vector; the others come from a pass-through vector.",
        syntax="%v = vector.maskedload %m[%i], %mask, %pass : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>",
    ),
    declare(
        "vector.expandload",
        "Loads consecutive elements into the enabled lanes of a vector.",
        syntax="%v = vector.expandload %m[%i], %mask, %pass : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>",
    ),
    declare(
        "vector.maskedstore",
        "Stores the enabled lanes of a vector.",
        syntax="vector.maskedstore %m[%i], %mask, %v : memref<?xf32>, vector<16xi1>, vector<16xf32>",
    ),
    declare(
        "vector.compressstore",
        "Stores the enabled lanes of a vector consecutively.",
        syntax="vector.compressstore %m[%i], %mask, %v : memref<?xf32>, vector<16xi1>, vector<16xf32>",
    ),
    declare(
        "vector.transfer_read",
        "Reads a vector from a memref or tensor slice, with padding and an optional mask.",
        syntax="%v = vector.transfer_read %m[%i, %j], %pad [, %mask] {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>",
    ),
    declare(
        "vector.transfer_write",
        "Writes a vector to a memref or tensor slice, with an optional mask; returns the new tensor for tensors.",
        syntax="[%t =] vector.transfer_write %v, %m[%i] [, %mask] {in_bounds = [true]} : vector<4xf32>, memref<?xf32>",
    ),
    declare(
        "vector.reduction",
        "Reduces a 1-D vector to a scalar, optionally with an accumulator.",
        traits="pure",
        syntax="%r = vector.reduction <add>, %v [, %acc] : vector<16xf32> into f32",
    ),
    declare(
        "vector.multi_reduction",
        "Reduces a vector along some dimensions into an accumulator.",
        traits="pure",
        syntax="%r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>",
    ),
    declare(
        "vector.scan",
        "Inclusive or exclusive scan of a vector along one dimension.",
        traits="pure",
        syntax="%r, %acc = vector.scan <add>, %v, %init {reduction_dim = 1 : i64, inclusive = true} : vector<4x8xf32>, vector<4xf32>",
    ),
    declare(
        "vector.contract",
        "Generalised contraction (matmul, dot product) of two vectors into an accumulator.",
        traits="pure",
        syntax=(
            "%r = vector.contract {indexing_maps = [...], iterator_types = [...]} %a, %b, %acc : vector<4x8xf32>, "
            "vector<8x16xf32> into vector<4x16xf32>"
        ),
    ),
    declare("vector.shape_cast", "Reshapes a vector keeping its elements in order.", traits="pure", syntax="%r = vector.shape_cast %v : T to U"),
    declare(
        "vector.bitcast",
        "Reinterprets the bits of a vector with another element type.",
        traits="pure",
        syntax="%r = vector.bitcast %v : T to U",
    ),
    declare("vector.type_cast", "Views a memref of scalars as a memref of one vector.", traits="pure", syntax="%r = vector.type_cast %v : T to U"),
    declare(
        "vector.extract_strided_slice",
        "Extracts a strided slice of a vector ({offsets, sizes, strides}).",
        traits="pure",
        syntax="%r = vector.extract_strided_slice %v : T to U",
    ),
    declare(
        "vector.transpose",
        "Permutes the dimensions of a vector.",
        traits="pure",
        syntax="%r = vector.transpose %v, [1, 0] : vector<2x3xf32> to vector<3x2xf32>",
    ),
    declare(
        "vector.insert_strided_slice",
        "Inserts a vector into a strided slice of another.",
        traits="pure",
        syntax="%r = vector.insert_strided_slice %a, %b {offsets = [..], strides = [..]} : vector<2x4xf32> into vector<16x4x8xf32>",
    ),
    declare("vector.fma", "Fused multiply-add on vectors.", traits="pure", syntax="%r = vector.fma %a, %b, %c : vector<4xf32>"),
    declare("vector.from_elements", "Builds a vector from scalars.", traits="pure", syntax="%v = vector.from_elements %a, %b : vector<2xf32>"),
    declare(
        "vector.to_elements",
        "Splits a vector into its scalar elements.",
        traits="pure",
        syntax="%a, %b = vector.to_elements %v : vector<2xf32>",
    ),
    declare("vector.step", "The vector [0, 1, ..., N-1].", traits="pure", syntax="%v = vector.step : vector<4xindex>"),
    declare("vector.vscale", "The runtime multiple of scalable vector lengths.", traits="pure", syntax="%vs = vector.vscale"),
    declare(
        "vector.constant_mask",
        "A mask with a static leading region set.",
        traits="pure",
        syntax="%m = vector.constant_mask [3, 2] : vector<4x3xi1>",
    ),
    declare(
        "vector.create_mask",
        "A mask with a dynamic leading region set.",
        traits="pure",
        syntax="%m = vector.create_mask %a, %b : vector<4x3xi1>",
    ),
    declare(
        "vector.print",
        "Prints a value, a string or punctuation (for tests and debugging).",
        syntax='vector.print %v : vector<4xf32> | vector.print str "text"',
    ),
    declare(
        "vector.mask",
        "Applies a mask to the single maskable operation in its region.",
        traits="recursive_effects",
        syntax="%r = vector.mask %m [, %pass] { vector.transfer_read ... } : vector<16xi1> [-> vector<16xf32>]",
    ),
    declare("vector.yield", "Ends the region of vector.mask.", traits="pure region_return return_like terminator", syntax="vector.yield [%v : T]"),
    declare(
        "vector.gather",
        "Gathers elements from memory at base + index vector, for the enabled lanes.",
        syntax="%g = vector.gather %m[%i][%idxs], %mask, %pass : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>",
    ),
    declare(
        "vector.scatter",
        "Scatters the enabled lanes of a vector to memory at base + index vector.",
        syntax="vector.scatter %m[%i][%idxs], %mask, %v : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32>",
    ),
    declare(
        "vector.outerproduct",
        "Outer product of two vectors (or AXPY with a scalar), plus an optional accumulator.",
        traits="pure",
        syntax="%r = vector.outerproduct %a, %b [, %acc] : vector<4xf32>, vector<8xf32>",
    ),
    declare(
        "vector.shuffle",
        "Picks elements of two vectors by a static mask.",
        traits="pure",
        syntax="%r = vector.shuffle %a, %b [0, 3] : vector<2xf32>, vector<2xf32>",
    ),
    declare(
        "vector.interleave",
        "Interleaves two vectors lane by lane.",
        traits="pure",
        syntax="%r = vector.interleave %a, %b : vector<4xi32> -> vector<8xi32>",
    ),
    declare(
        "vector.deinterleave",
        "Splits a vector into its even and odd lanes.",
        traits="pure",
        syntax="%e, %o = vector.deinterleave %v : vector<8xi32> -> vector<4xi32>",
    ),
)
