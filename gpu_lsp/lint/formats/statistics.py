"""`--statistics`: how many diagnostics each rule produced, most frequent first."""

from __future__ import annotations

import json
from collections import Counter
from typing import TextIO

from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.formats.common import Context, fix_applies
from gpu_lsp.lint.rules import rule_info


def rows(reports: list[FileReport], context: Context) -> list[dict]:
    """One row per code: code, rule name, count, how many of them `--fix` would fix."""
    counts: Counter[str] = Counter()
    fixable: Counter[str] = Counter()
    for report in reports:
        for diagnostic in report.diagnostics:
            counts[diagnostic.code] += 1
            fixable[diagnostic.code] += fix_applies(diagnostic, context.fix_level)
    ordered = sorted(counts, key=lambda code: (-counts[code], code))
    return [
        {"code": code, "name": rule_info(code).name, "count": counts[code], "fixable": fixable[code]}
        for code in ordered
    ]


def emit(out: TextIO, reports: list[FileReport], context: Context, as_json: bool = False) -> None:
    """Write the table (`count  code  [*] name`), or a JSON list with `as_json`."""
    table = rows(reports, context)
    if as_json:
        out.write(json.dumps(table, indent=2) + "\n")
        return
    if not table:
        return
    count_width = max(len(str(r["count"])) for r in table)
    code_width = max(len(r["code"]) for r in table)
    any_fixable = any(r["fixable"] for r in table)
    for r in table:
        mark = ("[*] " if r["fixable"] else "    ") if any_fixable else ""
        out.write(f"{r['count']:>{count_width}}\t{r['code']:<{code_width}}\t{mark}{r['name']}\n")
