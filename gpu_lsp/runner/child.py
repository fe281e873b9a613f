"""How child interpreters start: never importing from the working directory (a workspace may
hold a `gpu_lsp/` or `json.py` of its own)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator


def python_module(module: str) -> list[str]:
    """`python -m module` with the current folder kept off `sys.path`: `-I` when this
    interpreter is isolated, else `-P` (PYTHONPATH and user site-packages stay, an install may need them)."""
    return [sys.executable, "-I" if sys.flags.isolated else "-P", "-m", module]


def neutral_cwd() -> str:
    """A working directory outside any workspace: the file system's root."""
    return os.path.abspath(os.sep)


@contextlib.asynccontextmanager
async def reaped(proc: asyncio.subprocess.Process) -> AsyncIterator[asyncio.subprocess.Process]:
    """Kill and reap `proc` when the block is left before it ended (a timeout, a cancelled request)."""
    try:
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
