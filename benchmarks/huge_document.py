"""Pathological documents in the language server (not a test: prints figures).

Opens one document in a fresh server (warmed up by a small one) and measures, from didOpen: the time until a hover
sent right after it is answered, the time until the first publishDiagnostics (and how many
it holds, and whether the parser's notice that it stopped is among them), the CPU time the
server process spent from the didOpen to each (its own threads, not its lint child: a figure a
loaded machine changes far less than the times), and the server's peak memory (VmHWM). Documents: 20 MB of ops on one line, and 4 MB of random printable text
(issue 29's acceptance: hover within 1 s, capped diagnostics within 30 s, under 1 GB).

    .venv/bin/python benchmarks/huge_document.py [--megabytes 20] [--random-megabytes 4]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import string
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpu_lsp.lsp.framing import FrameReader, frame  # noqa: E402

TIMEOUT_S = 600.0


def one_line(megabytes: float) -> str:
    """Ops on a single line: `%vN = arith.addi %a, %b : i32` with undefined operands."""
    piece = "%v{} = arith.addi %a, %b : i32 "
    out, size, i = [], 0, 0
    while size < megabytes * 1e6:
        text = piece.format(i)
        out.append(text)
        size += len(text)
        i += 1
    return "".join(out)


def random_text(megabytes: float) -> str:
    rng = random.Random(29)
    alphabet = string.printable
    return "".join(rng.choice(alphabet) for _ in range(int(megabytes * 1e6)))


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    """The CPU time (user and system) of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(text: str) -> dict:
    proc = subprocess.Popen([sys.executable, "-m", "gpu_lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    messages: queue.Queue[tuple[float, dict]] = queue.Queue()

    def read() -> None:
        reader = FrameReader(proc.stdout, lambda *a: None)  # type: ignore[arg-type]
        while (body := reader.next_body()) is not None:
            messages.put((time.perf_counter(), json.loads(body)))

    threading.Thread(target=read, daemon=True).start()

    def send(message: dict) -> None:
        proc.stdin.write(frame(json.dumps({"jsonrpc": "2.0", **message}).encode()))  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]

    send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}})
    while messages.get(timeout=TIMEOUT_S)[1].get("id") != 1:
        pass
    send({"method": "initialized", "params": {}})
    # A small document first: the clock starts once the server is up and warm.
    small = {"uri": "file:///tmp/small.mlir", "languageId": "mlir", "version": 1, "text": "func.func @f() {\n  return\n}\n"}
    send({"method": "textDocument/didOpen", "params": {"textDocument": small}})
    while messages.get(timeout=TIMEOUT_S)[1].get("method") != "textDocument/publishDiagnostics":
        pass
    uri = "file:///tmp/huge.mlir"
    item = {"uri": uri, "languageId": "mlir", "version": 1, "text": text}
    opened = frame(json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": item}}).encode())
    started = time.perf_counter()  # the client's own JSON encoding is not counted
    cpu_started = cpu_s(proc.pid)
    proc.stdin.write(opened)
    proc.stdin.flush()
    send({"id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}}})
    figures: dict = {}
    notices = []
    while "diagnostics_s" not in figures or "hover_s" not in figures:
        at, message = messages.get(timeout=TIMEOUT_S)
        if message.get("id") == 2:
            figures["hover_s"] = round(at - started, 2)
            figures["hover_cpu_s"] = round(cpu_s(proc.pid) - cpu_started, 2)
        elif message.get("method") == "textDocument/publishDiagnostics" and "diagnostics_s" not in figures:
            figures["diagnostics_s"] = round(at - started, 2)
            figures["diagnostics_cpu_s"] = round(cpu_s(proc.pid) - cpu_started, 2)
            figures["diagnostics"] = len(message["params"]["diagnostics"])
            figures["stopped"] = any(d["message"].startswith("too many problems") for d in message["params"]["diagnostics"])
        elif message.get("method") == "window/showMessage":
            notices.append(message["params"]["message"])
    time.sleep(1.0)
    figures["peak_rss_mb"] = round(peak_rss_mb(proc.pid))
    figures["notices"] = notices
    proc.kill()
    proc.wait()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=20.0)
    parser.add_argument("--random-megabytes", type=float, default=4.0)
    args = parser.parse_args()
    print(f"{args.megabytes:g} MB on one line:", measure(one_line(args.megabytes)))
    print(f"{args.random_megabytes:g} MB of random text:", measure(random_text(args.random_megabytes)))


if __name__ == "__main__":
    main()
