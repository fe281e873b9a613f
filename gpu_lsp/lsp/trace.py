"""An opt-in timeline of a document's open across the server and its workers (`benchmarks/lsp_open.py
--trace-open`): with `GPU_LSP_TRACE_OPEN` naming a file, each `mark` appends one line to it, off otherwise.

A line is `<monotonic s> <pid> <process CPU ms> <thread CPU ms> <thread> <event>`: the monotonic
clock is the machine's, so the lines of the server and of its workers (which inherit the variable)
order into one timeline, and the CPU times tell a busy process from one waiting for a core on a
loaded machine. Standard library only: the workers' forkserver imports it before the analysis."""

from __future__ import annotations

import contextlib
import os
import threading
import time

TRACE_ENV = "GPU_LSP_TRACE_OPEN"
_PATH = os.environ.get(TRACE_ENV) or None


def enabled() -> bool:
    """Whether marks are written."""
    return _PATH is not None


def mark(event: str) -> None:
    """Append `event` to the timeline, when tracing (one short write: lines of several processes do not interleave)."""
    if _PATH is None:
        return
    line = f"{time.monotonic():.6f} {os.getpid()} {time.process_time() * 1e3:.1f} {time.thread_time() * 1e3:.1f} {threading.current_thread().name} {event}\n"
    with contextlib.suppress(OSError), open(_PATH, "a", encoding="utf-8") as out:
        out.write(line)
