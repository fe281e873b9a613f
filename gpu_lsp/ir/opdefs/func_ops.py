"""The func dialect's op definitions (upstream FuncOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import declare

OPS = (
    declare(
        "func.func",
        "A function with a body of blocks.",
        traits="function isolated symbol",
        default_dialect="func",
        syntax="func.func [private] @name(%arg: T, ...) -> (R, ...) [attributes {...}] { ... }",
    ),
    declare("func.return", "Returns from a func.func.", traits="pure region_return return_like terminator", syntax="return [%v, ... : T, ...]"),
    declare("func.call", "Calls a function by symbol.", syntax="call @f(%a, ...) : (T, ...) -> (R, ...)"),
    declare("func.call_indirect", "Calls a function value.", syntax="call_indirect %f(%a, ...) : (T, ...) -> (R, ...)"),
    declare("func.constant", "A function symbol as a value.", traits="constant_like pure", syntax="constant @f : (T) -> R"),
)
