"""A tool in a child process, as every child the server starts: an argument vector (never a shell),
the file system's root as working directory, OS limits on memory and CPU time (set by a small
interpreter that then execs the tool: no Python runs between fork and exec in the threaded server),
a wall-clock timeout and a cap on what it may print."""

from __future__ import annotations

import asyncio

from gpu_lsp.runner.child import neutral_cwd, reaped
from gpu_lsp.runner.oslimits import START_FAILURE, under_limits

# What a child may write to stdout and stderr together before it is stopped.
MAX_OUTPUT = 256 * 2**20


class ChildError(Exception):
    """The child could not run to its end; the message says why (without a subject: "did not finish ...")."""


async def _drain(stream: asyncio.StreamReader, sink: bytearray, total: list[int]) -> None:
    while chunk := await stream.read(1 << 16):
        sink += chunk
        total[0] += len(chunk)
        if total[0] > MAX_OUTPUT:
            raise ChildError(f"printed more than {MAX_OUTPUT >> 20} MB and was stopped")


async def _feed(stdin: asyncio.StreamWriter, data: bytes) -> None:
    try:
        stdin.write(data)
        await stdin.drain()
        stdin.close()
    except (BrokenPipeError, ConnectionResetError):  # it stopped reading: its status tells why
        pass


async def run_child(argv: list[str], stdin: str, timeout: float, max_memory: int) -> tuple[int, str, str]:
    """Run `argv` with `stdin` as its input: (exit status, stdout, stderr); raises ChildError when it
    cannot start, runs past `timeout` seconds or prints too much (it is killed then)."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *under_limits(argv, max_memory, timeout),
            cwd=neutral_cwd(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as exc:
        raise ChildError(f"{START_FAILURE}{exc.strerror or exc}") from None
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None  # all pipes
    out, err, total = bytearray(), bytearray(), [0]
    async with reaped(proc):
        try:
            await asyncio.wait_for(
                asyncio.gather(_feed(proc.stdin, stdin.encode("utf-8")), _drain(proc.stdout, out, total), _drain(proc.stderr, err, total), proc.wait()),
                timeout,
            )
        except TimeoutError:
            raise ChildError(f"did not finish within {timeout:g} s and was stopped") from None
    errors = err.decode("utf-8", "replace")
    if proc.returncode == 127 and errors.startswith(START_FAILURE):
        raise ChildError(errors.strip())
    return int(proc.returncode or 0), out.decode("utf-8", "replace"), errors
