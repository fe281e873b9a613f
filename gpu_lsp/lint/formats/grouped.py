"""Diagnostics grouped under their file name, one indented `line:col CODE message` line each."""

from __future__ import annotations

from typing import TextIO

from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.formats.common import Context, Positions, fix_applies, summary


def emit(out: TextIO, reports: list[FileReport], context: Context) -> None:
    """Write each file with findings as a block, then the summary."""
    for report in reports:
        if not report.diagnostics:
            continue
        positions = Positions(report.text or "")
        starts = [positions.at(d.range.start) for d in report.diagnostics]
        row_width = max(len(str(p.row)) for p in starts)
        col_width = max(len(str(p.column)) for p in starts)
        out.write(f"{report.display}:\n")
        for diagnostic, start in zip(report.diagnostics, starts, strict=True):
            mark = "[*] " if fix_applies(diagnostic, context.fix_level) else ""
            where = f"{start.row:>{row_width}}:{start.column:<{col_width}}"
            out.write(f"  {where} {diagnostic.code} {mark}{diagnostic.message}\n")
        out.write("\n")
    out.write(summary(reports, context))
