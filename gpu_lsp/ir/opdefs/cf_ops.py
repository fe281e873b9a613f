"""The cf dialect's op definitions (upstream ControlFlowOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import declare

OPS = (
    declare("cf.br", "Jumps to a block, passing values to its arguments.", traits="terminator", syntax="cf.br ^bb1(%a : T)"),
    declare(
        "cf.cond_br",
        "Jumps to one of two blocks depending on an i1 condition.",
        traits="terminator",
        syntax="cf.cond_br %cond, ^bb1(%a : T), ^bb2",
    ),
    declare(
        "cf.switch",
        "Jumps to the block whose case value matches an integer flag, else to the default block.",
        traits="terminator",
        syntax="cf.switch %flag : i32, [ default: ^bb1, 42: ^bb2(%a : T) ]",
    ),
    declare(
        "cf.assert",
        "Aborts with a message when the i1 condition is false.",
        ins="I1:$arg, StrAttr:$msg",
        format="$arg `,` $msg attr-dict",
    ),
)
