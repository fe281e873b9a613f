"""Child process of `gpu-lsp.runOnGpu`: read a job as JSON on stdin, run it, print the result as JSON."""

from __future__ import annotations

import importlib
import json
import sys

from gpu_lsp.lsp.commands import RUNNER_FUNCTION, RUNNER_MODULE


def main() -> int:
    job = json.loads(sys.stdin.read())
    runner = getattr(importlib.import_module(RUNNER_MODULE), RUNNER_FUNCTION)
    try:
        result = runner(job["text"], job["function"], backend=job.get("backend", "auto"), timeout=job.get("timeout"))
    except Exception as exc:  # the user's program failed: report it, do not crash
        print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"}))
        return 0
    if hasattr(result, "to_json"):
        result = result.to_json()
    if not isinstance(result, dict):
        result = {"ok": True, "result": result}
    result.setdefault("ok", True)
    print(json.dumps(result, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
