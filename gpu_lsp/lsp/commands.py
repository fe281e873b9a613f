"""Server command ids (from lsp/manifest.py), and running a host function through the runner in a child process.

The refactorings' commands come from the refactoring registry (`passes/catalog.py`);
the commands here are no refactoring.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import TypeVar

from gpu_lsp.lsp import manifest as M
from gpu_lsp.runner.child import neutral_cwd, python_module, reaped

T = TypeVar("T")

# The ids are the manifest's (lsp/manifest.py).
FIX_ALL = M.FIX_ALL
RUN_ON_GPU = M.RUN_ON_GPU
# lit tests (lsp/lit.py, docs/lit.md): run a test's chunks; rewrite a chunk's CHECK lines.
RUN_LIT = M.RUN_LIT
UPDATE_CHECKS = M.UPDATE_CHECKS
# A client-side command (the VS Code extension and the Neovim plugin register it; the server does
# not advertise it): the "Show async graph" lens opens the graph of (uri, function).
SHOW_ASYNC_GRAPH = M.SHOW_ASYNC_GRAPH.id
# A custom request (not a command): the async dependency graph of a document (docs/async-graph.md).
ASYNC_GRAPH = "gpu-lsp/asyncGraph"
# Custom requests of "Show IR after each pass" (lsp/pipeline.py, docs/pipelines.md): the IR after each
# step of a pipeline on a document's chunk, and the passes a pipeline may name.
PIPELINE_STEPS = "gpu-lsp/pipelineSteps"
PASS_LIST = "gpu-lsp/passes"


class CommandError(Exception):
    """A command that cannot do what was asked; the message is shown to the user."""


def advertised() -> list[str]:
    """Every workspace/executeCommand id, in the order the server registers (and advertises) them."""
    from gpu_lsp.passes.catalog import REFACTORINGS

    return list(M.SERVER_COMMANDS) + [r.command for r in REFACTORINGS if r.command is not None]


def canonical(command: str) -> str:
    """The id a command is registered under: itself, or the one a first-release id (`gpu-lsp.*`) stands for."""
    return M.RELEASED_ALIASES.get(command, command)


class OneRunPerDocument:
    """At most one Run per document: a new Run cancels the document's running one (which kills
    its child) and starts once that one has ended."""

    def __init__(self) -> None:
        self._running: dict[str, asyncio.Task] = {}

    async def run(self, uri: str, job: Awaitable[T]) -> T:
        old = self._running.get(uri)
        if old is not None and not old.done():
            old.cancel()
            await asyncio.wait({old})
        task = asyncio.ensure_future(job)
        self._running[uri] = task
        try:
            return await task
        finally:
            if self._running.get(uri) is task:
                del self._running[uri]

    def running(self) -> int:
        """How many Runs are going on now."""
        return sum(not task.done() for task in self._running.values())


RUNS = OneRunPerDocument()


async def run_in_child(
    text: str,
    function: str,
    backend: str,
    timeout: float,
    filename: str = "<buffer>",
    max_memory: int | None = None,
    on_output: Callable[[str, str], None] | None = None,
) -> dict:
    """Run `@function` of `text` through the runner in a child process.

    Program output reaches `on_output(stream, text)` as it is printed; the child
    is killed after `timeout` seconds, and when the awaiting task is cancelled
    (the client cancelled the command); `max_memory` caps the program's allocations.
    """
    job = {"text": text, "function": function, "backend": backend, "timeout": timeout, "filename": filename, "max_memory": max_memory}
    proc = await asyncio.create_subprocess_exec(
        *python_module("gpu_lsp.lsp.run_job"),
        cwd=neutral_cwd(),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        limit=2**24,
    )
    assert proc.stdin is not None and proc.stderr is not None  # both are pipes
    proc.stdin.write(json.dumps(job).encode())
    proc.stdin.close()
    async with reaped(proc):
        try:
            result = await asyncio.wait_for(_read_events(proc, on_output), timeout + 5)
        except TimeoutError:
            raise CommandError(f"Run on GPU: @{function} did not finish within {timeout:g} s; the run was stopped.") from None
    if result is None:
        err = (await proc.stderr.read()).decode(errors="replace")
        tail = err.strip().splitlines()[-5:]
        raise CommandError(f"Run on GPU: the runner failed (exit {proc.returncode}): " + " | ".join(tail))
    if "exit_code" not in result and result.get("error"):
        raise CommandError(f"Run on GPU: {result['error']}")
    return result


async def _read_events(proc: asyncio.subprocess.Process, on_output: Callable[[str, str], None] | None) -> dict | None:
    """Forward output events until the child's result line; None if it ends without one."""
    assert proc.stdout is not None
    while True:
        line = await proc.stdout.readline()
        if not line:
            await proc.wait()
            return None
        try:
            event = json.loads(line.decode())
        except ValueError:
            continue
        if not isinstance(event, dict):
            continue
        kind = event.pop("event", None)
        if kind in ("stdout", "stderr"):
            if on_output is not None:
                on_output(kind, str(event.get("text", "")))
        elif kind == "result":
            await proc.wait()
            return event
