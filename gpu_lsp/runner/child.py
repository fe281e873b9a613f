"""How child interpreters start: never importing from the working directory (a workspace may
hold a `gpu_lsp/` or `json.py` of its own)."""

from __future__ import annotations

import os
import sys


def python_module(module: str) -> list[str]:
    """`python -m module` with the current folder kept off `sys.path`: `-I` when this
    interpreter is isolated, else `-P` (PYTHONPATH and user site-packages stay, an install may need them)."""
    return [sys.executable, "-I" if sys.flags.isolated else "-P", "-m", module]


def neutral_cwd() -> str:
    """A working directory outside any workspace: the file system's root."""
    return os.path.abspath(os.sep)
