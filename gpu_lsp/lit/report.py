"""A lit run as text for a terminal: one line per RUN line, one per chunk, the failures' details."""

from __future__ import annotations

import json

from gpu_lsp.lit.runner import ChunkResult, FileResult, Tool, refusal


def describe(r: ChunkResult) -> str:
    """A failure in a few lines: the check line, the expected pattern, the closest output line."""
    check = r.check
    if check is None or check.line is None:
        return r.message.rstrip()
    lines = [check.message.split("\n", 1)[0]]
    if check.pattern is not None:
        lines.append(f"  expected: {check.pattern}")
    if check.closest is not None:
        lines.append(f"  closest output line {check.closest[0]}: {check.closest[1]}")
    return "\n".join(lines)


def render(result: FileResult, tool: Tool, verbose: bool = False) -> str:
    """The per-chunk results of a file, and a summary line."""
    out: list[str] = []
    skipped = 0
    for index, run in enumerate(result.runs):
        why = refusal(run, tool)
        head = f"{result.path}:{run.first + 1}: RUN: {run.command}"
        if why is not None:
            skipped += 1
            out.append(f"{head}\n  SKIP (not run: {why})")
            continue
        out.append(head)
        mine = [r for r in result.results if r.run == index]
        if not mine:
            out.append("  (no chunk holds checks for this RUN line)")
        for r in mine:
            out.append(f"  {'PASS' if r.passed else 'FAIL'} chunk {r.chunk.index + 1} (line {r.chunk.first_line + 1})")
            if not r.passed or verbose:
                detail = describe(r)
                if detail:
                    out.extend("    " + line for line in detail.split("\n"))
    passed = sum(r.passed for r in result.results)
    failed = len(result.results) - passed
    out.append(f"{passed} passed, {failed} failed" + (f", {skipped} RUN line{'s' if skipped != 1 else ''} not run" if skipped else ""))
    return "\n".join(out) + "\n"


def as_json(result: FileResult) -> str:
    """One JSON object per chunk result, a line each (1-based lines) for editors' quickfix lists."""
    out = []
    for r in result.results:
        check = r.check
        out.append(
            json.dumps(
                {
                    "file": result.path,
                    "run": r.run + 1,
                    "runLine": result.runs[r.run].first + 1,
                    "chunk": r.chunk.index + 1,
                    "chunkLine": r.chunk.first_line + 1,
                    "passed": r.passed,
                    "line": check.line if check is not None and check.line is not None else r.chunk.first_line + 1,
                    "message": "" if r.passed else describe(r),
                    "expected": check.pattern if check is not None else None,
                    "closest": list(check.closest) if check is not None and check.closest is not None else None,
                }
            )
        )
    return "".join(line + "\n" for line in out)
