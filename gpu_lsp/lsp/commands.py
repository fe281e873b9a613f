"""Server command ids, and running a host function through the runner in a child process."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys

RUN_ON_GPU = "gpu-lsp.runOnGpu"
FIX_ALL = "gpu-lsp.fixAll"
OUTLINE_KERNEL = "gpu-lsp.outlineKernel"
MAKE_ASYNC = "gpu-lsp.makeAsync"
ALL = (RUN_ON_GPU, OUTLINE_KERNEL, MAKE_ASYNC, FIX_ALL)

# The runner's public entry point, called in a child process by `gpu_lsp.lsp.run_job`.
RUNNER_MODULE = "gpu_lsp.runner"
RUNNER_FUNCTION = "run_text"


class CommandError(Exception):
    """A command that cannot do what was asked; the message is shown to the user."""


def runner_available() -> str | None:
    """None when the runner can run host functions, else why not."""
    try:
        module = importlib.import_module(RUNNER_MODULE)
    except ImportError as exc:
        return f"the runner cannot be imported ({exc})"
    if not callable(getattr(module, RUNNER_FUNCTION, None)):
        return f"the runner is not available yet ({RUNNER_MODULE} has no {RUNNER_FUNCTION})"
    return None


async def run_in_child(text: str, function: str, backend: str, timeout: float, filename: str = "<buffer>") -> dict:
    """Run `@function` of `text` through the runner in a child process, killed after `timeout` s."""
    reason = runner_available()
    if reason is not None:
        raise CommandError(f"Run on GPU: {reason}; nothing was run.")
    job = {"text": text, "function": function, "backend": backend, "timeout": timeout, "filename": filename}
    payload = json.dumps(job).encode()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gpu_lsp.lsp.run_job",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(payload), timeout + 5)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        raise CommandError(f"Run on GPU: @{function} did not finish within {timeout:g} s; the run was stopped.") from None
    if proc.returncode != 0:
        tail = err.decode(errors="replace").strip().splitlines()[-5:]
        raise CommandError(f"Run on GPU: the runner failed (exit {proc.returncode}): " + " | ".join(tail))
    try:
        result = json.loads(out.decode())
    except ValueError:
        raise CommandError("Run on GPU: the runner's answer could not be read") from None
    if not isinstance(result, dict):
        raise CommandError("Run on GPU: the runner's answer could not be read")
    if "exit_code" not in result and result.get("error"):
        raise CommandError(f"Run on GPU: {result['error']}")
    return result
