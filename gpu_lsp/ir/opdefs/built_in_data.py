"""The built-in dialects declared as data (`data/<dialect>.ops.toml`), read by the reader of a project's own files."""

from __future__ import annotations

from pathlib import Path

from gpu_lsp.ir.opdefs.opdef import OpDef
from gpu_lsp.ir.opdefs.user_ops import read_definitions

DATA = Path(__file__).with_name("data")
# The dialects whose declarations are data; the others' are Python (`<dialect>_ops.py`).
DIALECTS = ("llvm", "spirv", "vector", "bufferization", "xegpu", "scf", "gpu", "memref", "affine", "math")


def built_in_ops(dialect: str) -> tuple[OpDef, ...]:
    """The ops `data/<dialect>.ops.toml` declares; a mistake in it is gpu-lsp's bug, raised as ValueError."""
    path = DATA / f"{dialect}.ops.toml"
    found = read_definitions(path.read_text(encoding="utf-8"), built_in=True)
    if found.errors:
        raise ValueError("\n".join(error.describe(str(path)) for error in found.errors))
    return found.ops
