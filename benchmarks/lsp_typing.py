"""Typing speed while the buffer is invalid, beside upstream MLIR's parse+verify (prints figures).

A real client over stdio (the hand-written JSON-RPC client of `lsp_latency.py`) opens the
10k- and 100k-line inline files of ../shared/tools/gen_gpu_mlir.py (`--mode outlined`: its
outlined files, their host functions indented in a written container module; the edits go
into a host function) and times, from didChange to the publishDiagnostics of that version,
each edit below and its reverse, repeated:

* a stray `@` before an op name in the middle of the file (breaks the op) / deleted again;
* a region's closing `}` deleted (unbalances the file) / put back;
* a digit of a constant changed while the `@` and the `}` edits are in place / changed back;
* a new function pasted between two functions / deleted again;
* a whole line deleted / restored;
* (`--mode outlined`) a stray `@` before an op of a kernel in its `gpu.module` / deleted again;

plus the open (didOpen, once the server is up, -> complete diagnostics; the median of `--opens` opens, each by
a fresh server, like the oracle's median of its runs), a hover on the first function every 0.1 s during an
open (another fresh server) and once it is done, and the oracle's full parse+verify of the same file in the
same run. Median and worst per edit; the server's peak RSS (VmHWM) at the end.

    .venv/bin/python benchmarks/lsp_typing.py [--repeat 5] [--opens 3] [--sizes 10000 100000] [--mode inline] [--python PY]

`--python .venv-compiled/bin/python` serves with the compiled install `make test-compiled`
makes (what `pip install .` gives users); without it, with this checkout's sources as they are.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsp_latency import GEN, PYTHON_HELP, Client, oracle_ms, position

NEW_FUNCTION = """func.func @typed_in(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf32>
  return
}

"""


class Session:
    """One open document: the client's copy of the text and the edits' timings."""

    def __init__(self, client: Client, uri: str, text: str) -> None:
        self.client = client
        self.uri = uri
        self.text = text
        self.version = 1
        self.samples: dict[str, list[float]] = {}
        self.counts: dict[str, int] = {}

    async def edit(self, label: str, start: int, end: int, new_text: str) -> None:
        """Replace [start, end) by `new_text` and time it to the diagnostics of that version."""
        self.version += 1
        change = {"range": {"start": position(self.text, start), "end": position(self.text, end)}, "text": new_text}
        self.text = self.text[:start] + new_text + self.text[end:]
        waiter = self.client.diagnostics(self.uri, self.version)
        sent = time.perf_counter()
        self.client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": [change]},
        )
        received, params = await asyncio.wait_for(waiter, 600)
        self.samples.setdefault(label, []).append(received - sent)
        self.counts[label] = len(params["diagnostics"])


# Per form (outlined or not): how the function in the middle starts, the op the stray `@` goes
# before, the constant whose digit changes (and the digit's offset in it), the op whose next line
# is deleted. The region's `}` deleted is the next one at two spaces (an inline launch's, an
# outlined host function's).
_NEEDLES = {
    False: ("\nfunc.func @", "gpu.thread_id x", "arith.constant 32 : index", len("arith.constant 3"), "arith.addf"),
    True: ("\n  func.func @", "gpu.memcpy async", "%c = arith.constant ", len("%c = arith.constant "), "gpu.launch_func"),
}


def places(text: str) -> dict[str, int]:
    """Where the edits go: all in the host function in the middle of the file (an inline file's:
    its launch's body; an outlined file's, indented in its module: its ops, its closing brace)."""
    function, op, constant, digit, before_line = _NEEDLES["gpu.container_module" in text]
    middle = text.index(function, len(text) // 2) + 1
    body = text.index(op, middle)
    brace = text.index("\n  }\n", body) + 3
    line = text.index("\n", text.index(before_line, middle)) + 1
    # An outlined file's kernel in the middle of its gpu.module (the first half of the file): an op of its body.
    kernel = text.find("gpu.thread_id x", text.find("gpu.func @", len(text) // 4)) if "gpu.container_module" in text else -1
    return {"function": middle, "op": body, "brace": brace, "digit": text.index(constant, middle) + digit, "line": line, "kernel": kernel}


def new_function(text: str) -> str:
    """NEW_FUNCTION, indented as the functions of `text` are."""
    if "gpu.container_module" not in text:
        return NEW_FUNCTION
    return "".join("  " + line if line.strip() else line for line in NEW_FUNCTION.splitlines(keepends=True))


async def run_edits(session: Session, repeat: int) -> None:
    for _ in range(repeat):
        at = places(session.text)
        await session.edit("stray @ before an op name", at["op"], at["op"], "@")
        at = places(session.text.replace("@gpu.", "gpu.", 1))
        brace = at["brace"] + 1  # the stray `@` is still there
        await session.edit("delete a region's closing }", brace, brace + 1, "")
        digit = at["digit"]  # before the op, so not moved by the `@`
        old_digit = session.text[digit]
        await session.edit("change a digit (file broken)", digit, digit + 1, "7" if old_digit != "7" else "8")
        await session.edit("change the digit back", digit, digit + 1, old_digit)
        await session.edit("put the } back", brace, brace, "}")
        await session.edit("delete the stray @ (repair)", at["op"], at["op"] + 1, "")
        at = places(session.text)
        pasted = new_function(session.text)
        await session.edit("insert a new function", at["function"], at["function"], pasted)
        await session.edit("delete the new function", at["function"], at["function"] + len(pasted), "")
        at = places(session.text)
        line_end = session.text.index("\n", at["line"]) + 1
        removed = session.text[at["line"] : line_end]
        await session.edit("delete a whole line", at["line"], line_end, "")
        await session.edit("restore the line", at["line"], at["line"], removed)
        kernel = places(session.text)["kernel"]
        if kernel >= 0:
            await session.edit("stray @ in an outlined kernel", kernel, kernel, "@")
            await session.edit("delete it (kernel repaired)", kernel, kernel + 1, "")


async def measure_file(path: Path, repeat: int, python: str | None = None) -> dict:
    text = path.read_text()
    uri = path.as_uri()
    client = Client(python)
    await client.start()
    await client.request("workspace/symbol", {"query": ""})  # the server is up: time the open only
    hover_params = {"textDocument": {"uri": uri}, "position": position(text, first_launch(text) + 2)}
    opened = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
    first, _ = await asyncio.wait_for(client.diagnostics(uri, 1), 600)
    # The same request once the diagnostics are out.
    hover_started = time.perf_counter()
    await client.request("textDocument/hover", hover_params)
    hover_s = time.perf_counter() - hover_started
    session = Session(client, uri, text)
    await run_edits(session, repeat)
    memory = client.peak_memory_mb()
    await client.stop()
    return {
        "open_s": first - opened,
        "hover_s": hover_s,
        "samples": session.samples,
        "counts": session.counts,
        "peak_mb": memory,
    }


async def measure_open(path: Path, python: str | None = None) -> float:
    """Seconds from didOpen to the first diagnostics, in a fresh server."""
    text = path.read_text()
    uri = path.as_uri()
    client = Client(python)
    await client.start()
    await client.request("workspace/symbol", {"query": ""})
    opened = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
    first, _ = await asyncio.wait_for(client.diagnostics(uri, 1), 600)
    await client.stop()
    return first - opened


async def measure_requests_during_open(path: Path, python: str | None = None, every_s: float = 0.1) -> list[float]:
    """Seconds each hover took, sent every `every_s` from didOpen until the diagnostics come
    (a fresh server; the first hover goes out `every_s` after didOpen)."""
    text = path.read_text()
    uri = path.as_uri()
    client = Client(python)
    await client.start()
    await client.request("workspace/symbol", {"query": ""})
    hover_params = {"textDocument": {"uri": uri}, "position": position(text, first_launch(text) + 2)}
    opened = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
    published = client.diagnostics(uri, 1)
    taken: list[float] = []
    while True:
        await asyncio.sleep(max(0.0, opened + every_s * (len(taken) + 1) - time.perf_counter()))
        if published.done():
            break
        sent = time.perf_counter()
        await client.request("textDocument/hover", hover_params)
        taken.append(time.perf_counter() - sent)
    await asyncio.wait_for(published, 600)
    await client.stop()
    return taken


def first_launch(text: str) -> int:
    """Where the first async launch is written (`gpu.launch`, or an outlined file's `gpu.launch_func`)."""
    launch = text.find("gpu.launch async")
    return launch if launch >= 0 else text.index("gpu.launch_func async")


def generate(lines: int, folder: Path, mode: str = "inline") -> Path:
    out = folder / f"{mode}_{lines}.mlir"
    subprocess.run(
        [sys.executable, str(GEN), "--mode", mode, "--lines", str(lines), "-o", str(out)], check=True, capture_output=True
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="times each edit (and its reverse) is made")
    parser.add_argument("--opens", type=int, default=3, help="opens timed per file, each by a fresh server (median reported)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000], help="generated file sizes in lines")
    parser.add_argument("--mode", choices=("inline", "outlined"), default="inline", help="the generated files' form")
    parser.add_argument("--python", help=PYTHON_HELP)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for lines in args.sizes:
            path = generate(lines, Path(tmp), args.mode)
            oracle = oracle_ms(path)
            result = asyncio.run(measure_file(path, args.repeat, args.python))
            opens = [result["open_s"]] + [asyncio.run(measure_open(path, args.python)) for _ in range(args.opens - 1)]
            during = asyncio.run(measure_requests_during_open(path, args.python))
            oracle_text = f"{oracle:.0f} ms" if oracle is not None else "n/a"
            print(f"\n{lines} lines, {args.mode}: oracle full parse+verify {oracle_text}; peak RSS {result['peak_mb']:.0f} MB")
            open_ms = statistics.median(opens) * 1000
            ratio = f"{open_ms / oracle:.1f}x oracle" if oracle else ""
            each = ", ".join(f"{s * 1000:.0f}" for s in opens)
            print(f"  {'open -> diagnostics':<34} {open_ms:>9.0f} ms  {ratio} (median of {len(opens)}: {each} ms)")
            if during:
                median, worst = statistics.median(during) * 1000, max(during) * 1000
                print(f"  {'hover every 0.1 s during the open':<34} {median:>6.1f} ms {worst:>6.1f} ms  (median, worst of {len(during)})")
            print(f"  {'hover right after the open':<34} {result['hover_s'] * 1000:>9.1f} ms")
            print(f"  {'edit':<34} {'median':>9} {'worst':>9} {'/ oracle':>9} {'diags':>6}")
            for label, samples in result["samples"].items():
                median = statistics.median(samples) * 1000
                worst = max(samples) * 1000
                share = f"{median / oracle:.2f}" if oracle else "n/a"
                print(f"  {label:<34} {median:>6.1f} ms {worst:>6.1f} ms {share:>9} {result['counts'][label]:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
