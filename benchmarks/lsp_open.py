"""What VS Code asks for while a large file opens, beside upstream MLIR's parse+verify (prints figures).

A real client over stdio (the hand-written JSON-RPC client of `lsp_latency.py`, announcing VS Code's
capabilities: hierarchical symbols, the refresh requests) opens the 10k- and 100k-line inline files
of ../shared/tools/gen_gpu_mlir.py (`--mode outlined`: its outlined files, one written
`module attributes {gpu.container_module}` around a `gpu.module` of kernels and the host functions
launching them) in a fresh server and sends, without waiting for the answers, the requests VS Code
sends right after `didOpen`, each at its moment:

* hover on the first launch (0.3 s), documentSymbol (0.6 s), semanticTokens/full (0.9 s),
  semanticTokens/range of the first 100 lines (1.0 s), foldingRange (1.2 s), codeLens (1.5 s),
  inlayHint on the first 100 lines (1.5 s);

and times each from sent to answered, the open (didOpen -> the first complete diagnostics), the
refresh requests the server sends once the analysis settles, and the oracle's full parse+verify of
the same file in the same run. `--runs` opens per file, each in a fresh server: every figure's
median and spread; the server's peak RSS (VmHWM) after the open. The oracle is timed right before
each open (the median of 3 of its runs) and the open's ratio is taken against that time: on a
shared machine both drift by a third within minutes; the ratio printed is the median of the opens'.

    .venv/bin/python benchmarks/lsp_open.py [--runs 2] [--sizes 10000 100000] [--mode inline] [--python PY] [--trace-open]

`--trace-open` prints, after each open, the server's and its workers' timeline of it (`lsp/trace.py`):
each mark's time after didOpen and the CPU time its process spent since its previous mark.

`--python .venv-compiled/bin/python` serves with the compiled install `make test-compiled`
makes (what `pip install .` gives users); without it, with this checkout's sources as they are.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsp_latency import PYTHON_HELP, Client, oracle_ms, position
from lsp_typing import first_launch, generate

# How long after the first diagnostics the refresh requests are waited for at most.
REFRESH_WAIT_S = 60.0
TRACE_ENV = "GPU_LSP_TRACE_OPEN"  # lsp/trace.py's (this script does not import the package it measures)

# VS Code's answers to what the server may ask (only the parts the server reads).
CAPABILITIES = {
    "textDocument": {
        "publishDiagnostics": {"versionSupport": True, "relatedInformation": True},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "semanticTokens": {
            "requests": {"full": {"delta": True}, "range": True},
            "tokenTypes": ["namespace", "type", "function", "variable", "keyword", "number", "string", "comment"],
            "tokenModifiers": ["declaration", "readonly"],
            "formats": ["relative"],
        },
    },
    "workspace": {
        "semanticTokens": {"refreshSupport": True},
        "codeLens": {"refreshSupport": True},
        "inlayHint": {"refreshSupport": True},
        "foldingRange": {"refreshSupport": True},
    },
    "general": {"positionEncodings": ["utf-16"]},
}
FIRST_LINES = 100  # what an editor window shows: the range of the range requests


def requests(text: str, uri: str) -> list[tuple[float, str, str, dict]]:
    """(seconds after didOpen, label, method, params) of each request."""
    doc = {"textDocument": {"uri": uri}}
    shown = {"start": {"line": 0, "character": 0}, "end": {"line": FIRST_LINES, "character": 0}}
    hover = {**doc, "position": position(text, first_launch(text) + 2)}
    return [
        (0.3, "hover", "textDocument/hover", hover),
        (0.6, "documentSymbol", "textDocument/documentSymbol", doc),
        (0.9, "semanticTokens/full", "textDocument/semanticTokens/full", doc),
        (1.0, "semanticTokens/range", "textDocument/semanticTokens/range", {**doc, "range": shown}),
        (1.2, "foldingRange", "textDocument/foldingRange", doc),
        (1.5, "codeLens", "textDocument/codeLens", doc),
        (1.5, "inlayHint", "textDocument/inlayHint", {**doc, "range": shown}),
    ]


def _refreshes(client: Client, since: float) -> list[tuple[float, str]]:
    return [(t, method) for t, method in client.server_requests if method.endswith("/refresh") and t >= since]


async def measure_open(path: Path, python: str | None = None) -> dict:
    """One open in a fresh server: each request's seconds, the open's, the refreshes', the peak RSS."""
    text = path.read_text()
    uri = path.as_uri()
    client = Client(python, CAPABILITIES)
    await client.start()
    await client.request("workspace/symbol", {"query": ""})  # the server is up: time the open only
    opened = time.perf_counter()
    opened_clock = time.monotonic()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
    published = client.diagnostics(uri, 1)

    async def timed(at: float, method: str, params: dict) -> tuple[float, bool]:
        await asyncio.sleep(max(0.0, opened + at - time.perf_counter()))
        sent = time.perf_counter()
        answer = await client.request(method, params)
        return time.perf_counter() - sent, bool(answer)

    planned = requests(text, uri)
    answers = await asyncio.gather(*(timed(at, method, params) for at, _, method, params in planned))
    received, _ = await asyncio.wait_for(published, 600)
    # The refreshes follow the settled analysis, which may come after the first diagnostics (a K-way
    # open publishes its workers' before the server's own parse): wait for the first, then a second.
    deadline = time.perf_counter() + REFRESH_WAIT_S
    while time.perf_counter() < deadline and not _refreshes(client, opened):
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    refreshes = sorted({method for _, method in _refreshes(client, opened)})
    memory = client.peak_memory_mb()
    await client.stop()
    return {
        "requests": {label: answer for (_, label, _, _), answer in zip(planned, answers)},
        "open_s": received - opened,
        "refreshes": refreshes,
        "peak_mb": memory,
        "opened_clock": opened_clock,
    }


def print_timeline(trace: Path, opened_clock: float) -> None:
    """The marks of one open (`lsp/trace.py`): ms after didOpen, the process, the CPU ms it spent since its
    previous mark (all its threads) and those of the marking thread since that thread's previous mark, the event."""
    last_cpu: dict[str, float] = {}
    last_thread_cpu: dict[tuple[str, str], float] = {}
    names: dict[str, str] = {}
    print(f"    {'after didOpen':>13}  {'process':<9} {'its cpu':>8} {'thread':>8}  {'thread':<20} event")
    for line in trace.read_text().splitlines():
        clock, pid, cpu, thread_cpu, thread, event = line.split(" ", 5)
        if float(clock) < opened_clock:
            continue
        names.setdefault(pid, "server" if event.startswith("server") else f"worker {len(names)}")
        spent = float(cpu) - last_cpu.get(pid, float(cpu))
        last_cpu[pid] = float(cpu)
        spent_here = float(thread_cpu) - last_thread_cpu.get((pid, thread), float(thread_cpu))
        last_thread_cpu[pid, thread] = float(thread_cpu)
        print(f"    {(float(clock) - opened_clock) * 1e3:10.0f} ms  {names[pid]:<9} {spent:+8.0f} {spent_here:+8.0f}  {thread[:20]:<20} {event}")


def spread(values: list[float]) -> str:
    """Median, and the range when there is more than one value (milliseconds)."""
    ms = [v * 1000 for v in values]
    if len(ms) == 1:
        return f"{ms[0]:>7.0f} ms"
    return f"{statistics.median(ms):>7.0f} ms  ({min(ms):.0f}-{max(ms):.0f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="opens per file, each by a fresh server")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000], help="generated file sizes in lines")
    parser.add_argument("--mode", choices=("inline", "outlined"), default="inline", help="the generated files' form")
    parser.add_argument("--python", help=PYTHON_HELP)
    parser.add_argument("--trace-open", action="store_true", help="print each open's timeline (the server's and its workers' marks)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for lines in args.sizes:
            path = generate(lines, Path(tmp), args.mode)
            runs = []
            oracles: list[float] = []
            for _ in range(args.runs):
                before = oracle_ms(path)
                if before is not None:
                    oracles.append(before)
                trace = Path(tmp) / "trace.txt"
                trace.unlink(missing_ok=True)
                if args.trace_open:
                    os.environ[TRACE_ENV] = str(trace)
                runs.append(asyncio.run(measure_open(path, args.python)))
                if args.trace_open:
                    del os.environ[TRACE_ENV]
                    print(f"\n{lines} lines: the open's timeline")
                    print_timeline(trace, runs[-1]["opened_clock"])
            oracle_text = spread([ms / 1000 for ms in oracles]).strip() if oracles else "n/a"
            peak = max(r["peak_mb"] or 0 for r in runs)
            print(f"\n{lines} lines, {args.mode} ({len(runs)} opens): oracle full parse+verify {oracle_text}; peak RSS {peak:.0f} MB")
            for (at, label, _, _) in requests(path.read_text(), path.as_uri()):
                empty = sum(1 for r in runs if not r["requests"][label][1])
                note = f"  {empty} empty" if empty else ""
                print(f"  {label + f' ({at} s)':<28} {spread([r['requests'][label][0] for r in runs])}{note}")
            open_s = [r["open_s"] for r in runs]
            ratios = [r["open_s"] * 1000 / ms for r, ms in zip(runs, oracles, strict=True)] if len(oracles) == len(runs) else []
            ratio = ""
            if ratios:
                ratio = f"  {statistics.median(ratios):.1f}x oracle ({min(ratios):.1f}-{max(ratios):.1f}; each open against the oracle's time just before it)"
            print(f"  {'open -> diagnostics':<28} {spread(open_s)}{ratio}")
            print(f"  refreshes after the open: {', '.join(runs[-1]['refreshes']) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
