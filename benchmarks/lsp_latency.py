"""Language-server latency beside upstream MLIR's parse+verify (not a test: prints figures).

A real client over stdio (JSON-RPC written by hand, no client library in the timings):

* server start -> `initialize` answered (median of several starts);
* on the 10k- and 100k-line generated files (../shared/tools/gen_gpu_mlir.py, into a
  temporary folder): time to the first diagnostics after didOpen, then the median time from
  a one-character didChange to the publishDiagnostics of that version;
* the oracle's full parse+verify of the same file in the same run (../shared/tools/oracle.py
  with numba-cuda-mlir, a dev extra);
* the server's peak memory (VmHWM) with the 100k-line file open.

    .venv/bin/python benchmarks/lsp_latency.py [--edits 30] [--starts 5] [--sizes 10000 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
GEN = SHARED / "tools" / "gen_gpu_mlir.py"
ORACLE = SHARED / "tools" / "oracle.py"
SERVER = [sys.executable, "-m", "gpu_lsp"]
PYTHON_HELP = "serve with the gpu_lsp installed for this Python (e.g. a venv with the compiled wheel) instead of this checkout's"


class Client:
    """Just enough LSP client: requests, notifications, and a log of publishDiagnostics."""

    def __init__(self, python: str | None = None, capabilities: dict | None = None) -> None:
        # This checkout's sources (run from the root), or the package installed for `python`
        # (run from elsewhere, so that the checkout does not shadow it).
        self.command = SERVER if python is None else [python, "-m", "gpu_lsp"]
        self.cwd = ROOT if python is None else Path(tempfile.gettempdir())
        self.proc: asyncio.subprocess.Process | None = None
        self.next_id = 0
        self.pending: dict[int, asyncio.Future] = {}
        self.published: list[tuple[float, dict]] = []
        self.waiters: list[tuple[str, int, asyncio.Future]] = []
        self.reader_task: asyncio.Task | None = None
        self.capabilities = capabilities or {
            "textDocument": {"publishDiagnostics": {"versionSupport": True, "relatedInformation": True}},
            "general": {"positionEncodings": ["utf-16"]},
        }
        self.server_requests: list[tuple[float, str]] = []  # (arrival, method) of each request from the server

    async def start(self) -> float:
        """Spawn the server and initialize; seconds from spawn to the initialize answer."""
        started = time.perf_counter()
        self.proc = await asyncio.create_subprocess_exec(
            *self.command, cwd=self.cwd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
        )
        self.reader_task = asyncio.create_task(self._read())
        await self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": None,
                "capabilities": self.capabilities,
            },
        )
        elapsed = time.perf_counter() - started
        self.notify("initialized", {})
        return elapsed

    async def stop(self) -> None:
        await asyncio.wait_for(self.request("shutdown", None), 60)
        self.notify("exit", None)
        await asyncio.wait_for(self.proc.wait(), 60)
        self.reader_task.cancel()

    def _write(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params) -> object:
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        self._write({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await future

    def notify(self, method: str, params) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri: str, version: int) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        for t, params in self.published:
            if params["uri"] == uri and params.get("version") == version:
                future.set_result((t, params))
                return future
        self.waiters.append((uri, version, future))
        return future

    async def _read(self) -> None:
        stdout = self.proc.stdout
        while True:
            length = 0
            while True:
                line = await stdout.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = await stdout.readexactly(length)
            now = time.perf_counter()  # arrival, before this client's own JSON parsing
            message = json.loads(body)
            if "method" not in message:
                future = self.pending.pop(message.get("id"), None)
                if future is not None and not future.done():
                    future.set_result(message.get("result"))
            elif "id" in message:  # a request from the server: answer plainly
                self.server_requests.append((now, message["method"]))
                result = [None] * len(message["params"]["items"]) if message["method"] == "workspace/configuration" else None
                self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})
            elif message["method"] == "textDocument/publishDiagnostics":
                params = message["params"]
                self.published.append((now, params))
                keep = []
                for uri, version, future in self.waiters:
                    if params["uri"] == uri and params.get("version") == version and not future.done():
                        future.set_result((now, params))
                    else:
                        keep.append((uri, version, future))
                self.waiters = keep

    def peak_memory_mb(self) -> float | None:
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return None
        m = re.search(r"VmHWM:\s+(\d+) kB", status)
        return int(m.group(1)) / 1024 if m else None


def position(text: str, offset: int) -> dict:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return {"line": line, "character": len(text[start:offset].encode("utf-16-le")) // 2}


async def measure_file(path: Path, edits: int, python: str | None = None) -> dict:
    text = path.read_text()
    uri = path.as_uri()
    client = Client(python)
    await client.start()
    opened = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
    await asyncio.wait_for(client.diagnostics(uri, 1), 600)
    open_s = time.perf_counter() - opened
    # A one-character edit in the middle of the file, typed and then deleted (both valid).
    anchor = text.index("arith.constant 32 : index", len(text) // 2) + len("arith.constant 32")
    samples = []
    counts = []
    version = 1
    for i in range(edits + 2):
        version += 1
        if i % 2 == 0:
            change = {"range": {"start": position(text, anchor), "end": position(text, anchor)}, "text": "0"}
            text = text[:anchor] + "0" + text[anchor:]
        else:
            change = {"range": {"start": position(text, anchor), "end": position(text, anchor + 1)}, "text": ""}
            text = text[:anchor] + text[anchor + 1 :]
        waiter = client.diagnostics(uri, version)
        sent = time.perf_counter()
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        received, params = await asyncio.wait_for(waiter, 600)
        if i >= 2:  # the first two warm the caches up
            samples.append(received - sent)
        counts.append(len(params["diagnostics"]))
    memory = client.peak_memory_mb()
    await client.stop()
    return {
        "open_s": open_s,
        "median_ms": statistics.median(samples) * 1000,
        "p90_ms": sorted(samples)[int(len(samples) * 0.9) - 1] * 1000 if samples else None,
        "peak_mb": memory,
        "diagnostics": counts[-1] if counts else None,
    }


async def measure_start(starts: int, python: str | None = None) -> tuple[float, float]:
    """Medians (ms) of spawn -> initialize answered, and spawn -> a first request answered after it."""
    answered, ready = [], []
    for _ in range(starts):
        client = Client(python)
        spawned = time.perf_counter()
        answered.append(await client.start())
        await client.request("workspace/symbol", {"query": ""})
        ready.append(time.perf_counter() - spawned)
        await client.stop()
    return statistics.median(answered) * 1000, statistics.median(ready) * 1000


def oracle_ms(path: Path, runs: int = 3) -> float | None:
    proc = subprocess.run(
        [sys.executable, str(ORACLE), "time", str(path), "--runs", str(runs)], capture_output=True, text=True
    )
    m = re.match(r"([\d.]+) ms", proc.stdout)
    return float(m.group(1)) if m else None


def generate(lines: int, folder: Path) -> Path:
    out = folder / f"inline_{lines}.mlir"
    subprocess.run([sys.executable, str(GEN), "--lines", str(lines), "-o", str(out)], check=True, capture_output=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=30, help="measured one-character edits per file")
    parser.add_argument("--starts", type=int, default=5, help="server starts to time")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000], help="generated file sizes in lines")
    parser.add_argument("--python", help=PYTHON_HELP)
    args = parser.parse_args(argv)

    start_ms, ready_ms = asyncio.run(measure_start(args.starts, args.python))
    print(f"server start -> initialize answered: {start_ms:.0f} ms (median of {args.starts})")
    print(f"server start -> first request answered after initialized: {ready_ms:.0f} ms")
    print()
    print(f"{'file':>14} {'open':>8} {'didChange->diagnostics':>24} {'p90':>8} {'oracle parse+verify':>21} {'peak RSS':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for lines in args.sizes:
            path = generate(lines, Path(tmp))
            result = asyncio.run(measure_file(path, args.edits, args.python))
            oracle = oracle_ms(path)
            oracle_text = f"{oracle:.0f} ms" if oracle is not None else "n/a"
            peak = f"{result['peak_mb']:.0f} MB" if result["peak_mb"] is not None else "n/a"
            print(
                f"{lines:>8} lines {result['open_s']:>7.2f}s {result['median_ms']:>21.1f} ms "
                f"{result['p90_ms']:>6.1f}ms {oracle_text:>21} {peak:>9}"
            )
            ratio = f"median / oracle = {result['median_ms'] / oracle:.2f}; " if oracle is not None else ""
            print(f"{'':>14} {ratio}{result['diagnostics']} diagnostics published per change")
    return 0


if __name__ == "__main__":
    sys.exit(main())
