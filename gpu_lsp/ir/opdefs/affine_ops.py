"""The affine dialect's op definitions (upstream AffineOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import family, op_class
from gpu_lsp.ir.opdefs.model import OpDef, declare

_map_application = op_class("affine", syntax="%r = {name} #map(%d)[%s]", traits="pure")
_read_loosely = op_class("affine", "An affine DMA or prefetch operation (read loosely).")

OPS: tuple[OpDef, ...] = (
    _map_application("apply", "Applies an affine map to index operands."),
    _map_application("min", "The minimum of the results of an affine map."),
    _map_application("max", "The maximum of the results of an affine map."),
    declare(
        "affine.for",
        "A loop with affine bounds and a constant step; `iter_args` carry values across iterations.",
        traits="recursive_effects single_block",
        implicit_terminator="affine.yield",
        syntax="%r = affine.for %i = 0 to %n [step 2] [iter_args(%a = %x) -> (T)] { ... }",
    ),
    declare(
        "affine.parallel",
        "A parallel loop nest with affine bounds and optional reductions.",
        traits="recursive_effects single_block",
        implicit_terminator="affine.yield",
        syntax='%r = affine.parallel (%i, %j) = (0, 0) to (%n, 10) [step (1, 2)] [reduce ("addf") -> (f32)] { ... }',
    ),
    declare(
        "affine.if",
        "Runs the `then` or `else` region depending on an integer set.",
        traits="recursive_effects single_block",
        implicit_terminator="affine.yield",
        syntax="%r = affine.if #set(%i)[%n] [-> (T)] { ... } [else { ... }]",
    ),
    declare("affine.load", "Loads an element at affine indices.", syntax="%v = affine.load %m[%i + 1, %j] : memref<...>"),
    declare("affine.store", "Stores an element at affine indices.", syntax="affine.store %v, %m[%i + 1, %j] : memref<...>"),
    declare("affine.vector_load", "Loads a vector at affine indices.", syntax="%v = affine.vector_load %m[%i] : memref<...>, vector<8xf32>"),
    declare("affine.vector_store", "Stores a vector at affine indices.", syntax="affine.vector_store %v, %m[%i] : memref<...>, vector<8xf32>"),
    declare("affine.yield", "Yields values from an affine region.", traits="pure region_return return_like terminator", syntax="affine.yield [%v : T]"),
    declare(
        "affine.delinearize_index",
        "Splits a linear index into a multi-index.",
        traits="pure",
        syntax="%r:2 = affine.delinearize_index %i into (%a, 16) : index, index",
    ),
    declare(
        "affine.linearize_index",
        "Combines a multi-index into a linear index.",
        traits="pure",
        syntax="%l = affine.linearize_index [%i, %j] by (%a, 16) : index",
    ),
    *family(_read_loosely, "prefetch dma_start dma_wait"),
)
