"""Printing IR: `print_op` and `print_module`, with every dialect's hand-written custom-form printers attached."""

from __future__ import annotations

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import has_trait
from gpu_lsp.ir.printer import Aliases, Formatter, Names, OpPrinter, default_dialect, root_of
from gpu_lsp.ir.printers import affine, arith, async_, bufferization, builtin, func, gpu, index, llvm, memref, scf, tensor, transform, vector

PRINTER_MODULES = (affine, arith, async_, bufferization, builtin, func, gpu, index, llvm, memref, scf, tensor, transform, vector)


def print_op(op: Operation, generic: bool = False, source: str | None = None, local_scope: bool = False) -> str:
    """One operation as text, without a trailing newline.

    Names are assigned from the outermost enclosing op (like MLIR's
    `Operation::print`), or with `local_scope` from the closest op isolated from
    above, `op` itself included (MLIR's `useLocalScope`, which its diagnostics
    print ops with); `source` is the buffer the op was parsed from, needed to
    print opaque ops.
    """
    root = _isolated_scope(op) if local_scope else root_of(op)
    names = Names(root, generic)
    aliases = Aliases()
    aliases.collect(op)
    p = OpPrinter(names, Formatter(aliases), generic, source)
    p.source_aliases = root_of(op).facts.aliases or {}
    p.dialects = ["builtin"] + [default_dialect(a) for a in reversed(list(op.ancestors()))]
    p.op(op)
    return "".join(p.out)


def _isolated_scope(op: Operation) -> Operation:
    """The closest op isolated from above that holds `op` (`op` itself included), or the outermost."""
    while op.parent_op is not None and not has_trait(op.name, "isolated"):
        op = op.parent_op
    return op


def print_module(op: Operation, generic: bool = False, source: str | None = None) -> str:
    """A whole module as mlir-opt writes it: aliases, the module, a final newline."""
    names = Names(op, generic)
    aliases = Aliases()
    aliases.collect(op)
    p = OpPrinter(names, Formatter(aliases), generic, source)
    p.source_aliases = op.facts.aliases or {}
    p.op(op)
    return aliases.header() + "".join(p.out) + "\n"
