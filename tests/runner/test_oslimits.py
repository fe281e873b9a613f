"""OS limits under gpu-run and the editor's Run: the address space and CPU time of a program are
capped by the kernel, not only by the interpreter's accounting; one Run per document
(adversarial suite, issue 29)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import pytest

from gpu_lsp.lsp.commands import OneRunPerDocument, run_in_child


def hog(chained: int) -> str:
    """A kernel of 1024x1024 threads with `chained` chained `arith.muli`: each op's result is a
    temporary of 8 MiB that `--max-memory` does not count (the interpreter keeps them all)."""
    body = ["    %v0 = arith.muli %bx, %tx : index"]
    body += [f"    %v{i} = arith.muli %v{i - 1}, %tx : index" for i in range(1, chained + 1)]
    return "\n".join(
        [
            "func.func @main() {",
            "  %c1 = arith.constant 1 : index",
            "  %c1024 = arith.constant 1024 : index",
            "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1024, %gy = %c1, %gz = %c1)",
            "             threads(%tx, %ty, %tz) in (%sx = %c1024, %sy = %c1, %sz = %c1) {",
            *body,
            "    gpu.terminator",
            "  }",
            "  return",
            "}",
            "",
        ]
    )


def test_gpu_run_stops_the_kernel_at_the_address_space_cap(tmp_path) -> None:
    path = tmp_path / "hog.mlir"
    path.write_text(hog(300))
    result = subprocess.run(
        [sys.executable, "-m", "gpu_lsp.cli.gpu_run", "--backend", "numpy", "--max-memory", "64M", str(path)],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 1
    assert "the program needed more memory than --max-memory 67108864 allows (the OS limit stopped it)" in result.stderr
    assert "Traceback" not in result.stderr


def test_gpu_run_called_as_a_library_leaves_the_callers_limits_alone(tmp_path) -> None:
    """`main([...])` in a test or a tool must not cap the calling process: a CPU limit of the caller's
    time so far plus two minutes once killed the whole pytest run near its end (CI, exit 137)."""
    import resource

    from gpu_lsp.cli.gpu_run import main

    path = tmp_path / "empty.mlir"
    path.write_text("func.func @main() {\n  return\n}\n")
    before = {kind: resource.getrlimit(kind) for kind in (resource.RLIMIT_CPU, resource.RLIMIT_AS)}
    assert main(["--backend", "numpy", "--timeout", "5", "--max-memory", "64M", str(path)]) == 0
    assert {kind: resource.getrlimit(kind) for kind in before} == before


def test_gpu_run_as_a_program_caps_its_own_process(tmp_path) -> None:
    path = tmp_path / "report.mlir"
    path.write_text("func.func @main() {\n  return\n}\n")
    script = (
        "import resource, sys\n"
        "from gpu_lsp.cli import gpu_run\n"
        f"sys.argv = ['gpu-run', '--backend', 'numpy', '--timeout', '5', '--max-memory', '64M', {str(path)!r}]\n"
        "status = gpu_run.main()\n"
        "print(status, resource.getrlimit(resource.RLIMIT_CPU)[0] > 0, resource.getrlimit(resource.RLIMIT_AS)[0])\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.stdout.split() == ["0", "True", str((64 << 20) + (1 << 30))], result.stderr


def test_the_cpu_limit_stops_a_busy_program() -> None:
    script = (
        "from gpu_lsp.runner.errors import RunTimeout\n"
        "from gpu_lsp.runner.oslimits import enforce\n"
        "enforce('numpy', None, 0.2)\n"
        "n = 0\n"
        "try:\n"
        "    while True:\n"
        "        n += 1\n"
        "except RunTimeout as exc:\n"
        "    print(exc.message)\n"
    )
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "s of CPU time (the OS limit for --timeout); stopped" in result.stdout, result.stderr
    assert time.monotonic() - started < 30


async def test_the_editor_run_child_has_the_address_space_cap() -> None:
    result = await run_in_child(hog(200), "main", "numpy", 120, max_memory=64 << 20)
    assert not result["ok"]
    assert "the OS limit stopped it" in result["error"]


async def test_a_new_run_of_a_document_cancels_the_running_one() -> None:
    runs = OneRunPerDocument()
    started: list[str] = []

    async def job(name: str) -> str:
        started.append(name)
        await asyncio.sleep(30 if name == "first" else 0)
        return name

    first = asyncio.ensure_future(runs.run("file:///a.mlir", job("first")))
    await asyncio.sleep(0.05)
    other = asyncio.ensure_future(runs.run("file:///b.mlir", job("other")))
    second = await asyncio.wait_for(runs.run("file:///a.mlir", job("second")), 5)
    assert second == "second" and await other == "other"
    with pytest.raises(asyncio.CancelledError):
        await first
    assert started == ["first", "other", "second"] and runs.running() == 0
