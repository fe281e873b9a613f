"""GitHub Actions workflow commands: one `::error file=...,line=...::message` annotation per diagnostic."""

from __future__ import annotations

from typing import TextIO

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.formats.common import Context, all_problems, located

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice", Severity.HINT: "notice"}


def escape_data(text: str) -> str:
    """Escape a command's message as the Actions runner expects."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (also `:` and `,`, which delimit properties)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def emit(out: TextIO, reports: list[FileReport], context: Context) -> None:
    """Write one annotation per diagnostic, then one per file gpu-lint could not check."""
    for report, diagnostic, positions in located(reports):
        start, end = positions.span(diagnostic.range)
        props = (
            f"file={escape_property(report.display)},line={start.row},col={start.column},"
            f"endLine={end.row},endColumn={end.column},title={escape_property(diagnostic.code)}"
        )
        out.write(f"::{COMMANDS[diagnostic.severity]} {props}::{escape_data(diagnostic.message)}\n")
    for problem in all_problems(reports, context):
        command = "error" if problem.level == "error" else "warning"
        out.write(
            f"::{command} file={escape_property(problem.display)},title=gpu-lint::{escape_data(problem.message)}\n"
        )
