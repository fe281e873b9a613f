"""A tool in a child process, as every child the server starts: an argument vector (never a shell),
the file system's root as working directory, OS limits on memory and CPU time, a wall-clock
timeout and a cap on what it may print."""

from __future__ import annotations

import asyncio

from gpu_lsp.runner.child import neutral_cwd
from gpu_lsp.runner.oslimits import tool_limits

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
            *argv,
            cwd=neutral_cwd(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            preexec_fn=tool_limits(max_memory, timeout),
        )
    except OSError as exc:
        raise ChildError(f"could not start: {exc.strerror or exc}") from None
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None  # all pipes
    out, err, total = bytearray(), bytearray(), [0]
    try:
        await asyncio.wait_for(
            asyncio.gather(_feed(proc.stdin, stdin.encode("utf-8")), _drain(proc.stdout, out, total), _drain(proc.stderr, err, total), proc.wait()),
            timeout,
        )
    except TimeoutError:
        raise ChildError(f"did not finish within {timeout:g} s and was stopped") from None
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return int(proc.returncode or 0), out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
