"""lit tests in the editor: "Run" lenses, the run in a child, its failures as diagnostics, Update CHECK lines.

The run and the update go through `gpu-opt --lit` in a child process (a pass that
hangs or a configured `mlir-opt` cannot stall the server). A run's diagnostics belong
to the text it ran on: they are published with the document's own while its text is
unchanged, and dropped at the next edit.
"""

from __future__ import annotations

import asyncio
import json

from gpu_lsp.lit.runlines import run_lines
from gpu_lsp.lit.runner import chunks_of
from gpu_lsp.lsp.actions import Lens
from gpu_lsp.lsp.commands import RUN_LIT
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.runner.child import neutral_cwd, python_module, reaped
from gpu_lsp.text import TextRange

SOURCE = "gpu-lit"


class LitError(Exception):
    """The child could not run the test; the message is shown to the user."""


def _line_range(snap: Snapshot, line: int) -> TextRange:
    """The text of a 0-based line, without its indentation."""
    start = snap.lines.line_start(line)
    end = snap.lines.line_start(line + 1) - 1 if line + 1 < snap.lines.line_count else len(snap.text)
    text = snap.text[start:end]
    return TextRange(start + len(text) - len(text.lstrip()), start + len(text.rstrip()))


def _first_code_line(snap: Snapshot, first: int, last: int) -> int | None:
    """The first line in [first, last] that is neither blank nor a comment."""
    for line in range(first, min(last, snap.lines.line_count - 1) + 1):
        text = snap.text[_line_range(snap, line).start : _line_range(snap, line).end]
        if text and not text.startswith("//"):
            return line
    return None


def code_lenses(snap: Snapshot) -> list[Lens]:
    """"▶ Run lit test" on each RUN line; "▶ Run chunk N" on each chunk's first op when a RUN line splits the file."""
    runs = run_lines(snap.text)
    out = [Lens(_line_range(snap, r.first), "▶ Run lit test", RUN_LIT, (snap.uri, i + 1, 0)) for i, r in enumerate(runs)]
    chunks = chunks_of(snap.text, True) if any(r.split for r in runs) else []
    for chunk in chunks if len(chunks) > 1 else []:
        line = _first_code_line(snap, chunk.first_line + (chunk.index > 0), chunk.last_line)
        if line is not None:
            out.append(Lens(_line_range(snap, line), f"▶ Run chunk {chunk.index + 1}", RUN_LIT, (snap.uri, 0, chunk.index + 1)))
    return out


def update_targets(snap: Snapshot, offset: int) -> list[tuple[str, int, int]]:
    """(title, RUN, chunk) (1-based) of the "Update CHECK lines" actions at an offset: one per RUN line with FileCheck."""
    runs = run_lines(snap.text)
    out = []
    for i, run in enumerate(runs):
        if run.filecheck is None or run.unsupported is not None:
            continue
        chunk = next((c for c in chunks_of(snap.text, run.split) if c.start <= offset <= c.end), None)
        if chunk is None:
            continue
        what = f" ({', '.join(run.prefixes)})" if len(runs) > 1 else ""
        out.append((f"Update CHECK lines of chunk {chunk.index + 1}{what}", i + 1, chunk.index + 1))
    return out


async def run_child(args: list[str], text: str, timeout: float) -> tuple[int, str, str]:
    """`gpu-opt --lit ARGS -` in a child process, `text` on its stdin: (status, stdout, stderr)."""
    proc = await asyncio.create_subprocess_exec(
        *python_module("gpu_lsp.cli.gpu_opt"), "--lit", *args, "-",
        cwd=neutral_cwd(), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    async with reaped(proc):
        try:
            out, err = await asyncio.wait_for(proc.communicate(text.encode("utf-8")), timeout)
        except TimeoutError:
            raise LitError(f"the lit run did not finish within {timeout:g} s; it was stopped") from None
    return int(proc.returncode or 0), out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def child_args(name: str, mlir_opt: str | None) -> list[str]:
    """The options every child gets: the document's name in messages, the configured `mlir-opt`."""
    return ["--name", name] + (["--mlir-opt", mlir_opt] if mlir_opt else [])


def parse_rows(status: int, out: str, err: str) -> list[dict]:
    """The per-chunk rows a `--json` run printed; raises LitError when it could not run."""
    if status not in (0, 1):
        raise LitError(err.strip().split("\n")[0] or f"gpu-opt --lit failed (exit {status})")
    rows = []
    for line in out.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "passed" in row:
            rows.append(row)
    return rows


def diagnostics_json(snap: Snapshot, rows: list[dict]) -> list[str]:
    """The failing chunks as LSP diagnostics (JSON text), at the failed CHECK line (else the chunk's first line)."""
    out = []
    for row in rows:
        if row.get("passed"):
            continue
        line = max(0, min(int(row.get("line", 1)) - 1, snap.lines.line_count - 1))
        rng = _line_range(snap, line)
        (sl, sc), (el, ec) = snap.position(rng.start), snap.position(rng.end)
        lsp_range = {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}
        message = str(row.get("message", "")).strip() or "the chunk fails"
        first = message.split("\n", 1)[0]
        summary = first.split(": error: ", 1)[-1]
        related = []
        if row.get("expected") is not None:
            related.append({"location": {"uri": snap.uri, "range": lsp_range}, "message": f"expected: {row['expected']}"})
        closest = row.get("closest")
        if isinstance(closest, list) and len(closest) == 2:
            related.append({"location": {"uri": snap.uri, "range": lsp_range}, "message": f"closest output line {closest[0]}: {closest[1]}"})
        text = f"RUN {row.get('run')}, chunk {row.get('chunk')}: {summary if related else message}"
        item = {"range": lsp_range, "severity": 1, "code": "lit", "source": SOURCE, "message": text}
        if related:
            item["relatedInformation"] = related
        out.append(json.dumps(item))
    return out


def current_items(found: dict[str, tuple[str, list[str]]], uri: str, text: str) -> list[str]:
    """The last run's diagnostics of a document (`found[uri]` = (text run on, items)) while its text is unchanged."""
    got = found.get(uri)
    if got is None:
        return []
    if got[0] != text:
        del found[uri]
        return []
    return got[1]
