"""The branch weights cf.cond_br and llvm.cond_br share (`weights([90, 10])`)."""

from __future__ import annotations

from gpu_lsp.syntax.cursor import Cursor, OpState


def read_weights(c: Cursor, st: OpState) -> None:
    """`weights([90, 10])` branch weights (cf.cond_br, llvm.cond_br)."""
    if c.optional_keyword("weights"):
        sub = c.group("(")
        st.properties["branch_weights"] = sub.attr()
        sub.done()


