"""Child process of `gpuLsp.server.runOnGpu`: read a job as JSON on stdin, run it under OS limits
(runner/oslimits.py), print the result as JSON."""

from __future__ import annotations

import json
import sys
import time

from gpu_lsp.runner import run_text
from gpu_lsp.runner.oslimits import enforce


def result_json(result, function: str, seconds: float) -> dict:
    """The runner's RunResult as JSON, with a one-line `message` for the editor."""
    error = getattr(result, "error", None)
    exit_code = int(getattr(result, "exit_code", 1))
    backend = getattr(result, "backend", "?")
    if error is not None:
        message = f"@{function} failed on {backend}: {getattr(error, 'message', error)}"
    elif exit_code:
        message = f"@{function} did not run (exit code {exit_code}); see stderr"
    else:
        message = f"@{function} finished on {backend} in {seconds:.2f} s"
    out = {
        "ok": exit_code == 0,
        "message": message,
        "function": function,
        "backend": backend,
        "exit_code": exit_code,
        "stdout": getattr(result, "stdout", ""),
        "stderr": getattr(result, "stderr", ""),
        "seconds": round(seconds, 3),
    }
    note = getattr(result, "note", None)
    if note:
        out["note"] = note
    if error is not None:
        out["error"] = getattr(error, "message", str(error))
    timings = getattr(result, "timings", None)
    if timings:
        out["timings"] = [[name, t] for name, t in timings]
    return out


def emit(event: str, payload: dict) -> None:
    """One JSON line on stdout: program output as it happens, then the result."""
    sys.stdout.write(json.dumps({"event": event, **payload}, default=str) + "\n")
    sys.stdout.flush()


def main() -> int:
    job = json.loads(sys.stdin.read())
    function = job["function"]
    started = time.perf_counter()
    enforce(job.get("backend", "auto"), job.get("max_memory"), job.get("timeout"))
    try:
        result = run_text(
            job["text"],
            filename=job.get("filename", "<buffer>"),
            entry=function,
            backend=job.get("backend", "auto"),
            timeout=job.get("timeout"),
            max_memory=job.get("max_memory"),
            stdout=lambda text: emit("stdout", {"text": text}),
            stderr=lambda text: emit("stderr", {"text": text}),
        )
    except Exception as exc:  # the runner itself failed: report it, do not crash
        emit("result", {"ok": False, "error": f"{type(exc).__name__}: {exc}"})
        return 0
    emit("result", result_json(result, function, time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
