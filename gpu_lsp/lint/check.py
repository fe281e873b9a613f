"""Check one file: read it, lint it, apply fixes if asked, and say what happened in a FileReport."""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.mlir_versions import NEWEST, AtVersion
from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Severity
from gpu_lsp.diagnostics.registry import always_reported
from gpu_lsp.gcpause import paused_gc
from gpu_lsp.lint.config import Settings
from gpu_lsp.lint.discovery import Problem, Source, Target, decode, force_excluded, read_source
from gpu_lsp.lint.fixer import fix_text
from gpu_lsp.lint.op_definitions import use_op_definitions
from gpu_lsp.lint.writeback import keep_line_endings, write_fixed


class FixMode(enum.Enum):
    """What to do with fixes: nothing, write them, or only compute them (--diff, standard input)."""

    NONE = "none"
    WRITE = "write"
    COMPUTE = "compute"


@dataclass
class FileReport:
    """The result for one file, in the order reports print them."""

    display: str
    path: str | None
    text: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    problem: Problem | None = None
    original: str | None = None
    applied: Counter[str] = field(default_factory=Counter)
    applied_severities: Counter[Severity] = field(default_factory=Counter)
    titles: list[tuple[str, str]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether fixes changed the text."""
        return self.original is not None and self.original != self.text


def analyze(text: str, mlir_version: int = NEWEST, report_undecided: bool = False) -> list[Diagnostic]:
    """Every diagnostic of every rule for `mlir_version`, suppression comments applied, before select/ignore (chunk by chunk at `// -----`)."""
    return lint_text(text, settings=AtVersion(mlir_version, report_undecided))


def choose(diagnostics: list[Diagnostic], settings: Settings, path: str | None) -> list[Diagnostic]:
    """The diagnostics the settings report for `path`, at their configured severity, sorted (syntax errors always)."""
    out = []
    for diagnostic in diagnostics:
        if not always_reported(diagnostic.code) and not settings.is_enabled(diagnostic.code, path):
            continue
        severity = settings.severity_of(diagnostic.code, diagnostic.severity)
        out.append(diagnostic if severity == diagnostic.severity else replace(diagnostic, severity=severity))
    out.sort(key=Diagnostic.sort_key)
    return out


def fix_level(settings: Settings) -> Applicability:
    """The least safe fix applied: unsafe with `unsafe-fixes`, else safe."""
    return Applicability.UNSAFE if settings.unsafe_fixes else Applicability.SAFE


def check_source(
    source: Source, target: Target, settings: Settings, mode: FixMode, config_path: str | None
) -> FileReport:
    """Lint (and fix) a text already read; `config_path` is the path per-file-ignores match."""
    report = FileReport(target.display, target.path)
    pick = partial(choose, settings=settings, path=config_path)
    if mode is FixMode.NONE:
        report.diagnostics = pick(analyze(source.text, mlir_version=settings.mlir_version, report_undecided=settings.report_undecided))
        # Reports only need the text to place diagnostics; a clean file's text is not sent back to the parent.
        report.text = source.text if report.diagnostics else None
        return report
    outcome = fix_text(source.text, partial(analyze, mlir_version=settings.mlir_version, report_undecided=settings.report_undecided), pick, fix_level(settings))
    report.text, report.diagnostics = keep_line_endings(source.text, outcome.text), outcome.diagnostics
    report.original, report.applied, report.titles = source.text, outcome.applied, outcome.titles
    report.applied_severities = outcome.severities
    if not outcome.converged:
        report.problem = Problem(target.display, f"fixes did not converge after {outcome.rounds} rounds", "warning")
    if report.changed:
        refusal = _fix_refusal(target.path, outcome.diagnostics, settings)
        if refusal is not None:  # report the file as it stays (also for --diff and standard input)
            unfixed = check_source(source, target, settings, FixMode.NONE, config_path)
            unfixed.text = unfixed.original = source.text
            unfixed.problem = Problem(target.display, refusal, "warning")
            return unfixed
    if mode is FixMode.WRITE and report.changed and target.path is not None:
        failure = write_fixed(target.path, source, replace(source, text=report.text or ""), target.root)
        if failure is not None:  # nothing was fixed: report the file as it stays
            unwritten = check_source(source, target, settings, FixMode.NONE, config_path)
            unwritten.problem = Problem(target.display, failure)
            return unwritten
    return report


def _fix_refusal(path: str | None, diagnostics: list[Diagnostic], settings: Settings) -> str | None:
    """Why fixes must not be applied to the file at `path`: the configuration excludes it, or the fixed text does not parse."""
    if path is not None and force_excluded(settings, Path(path)):
        return "fixes not applied: the configuration excludes this file"
    if any(d.code.startswith("GPU0") and d.severity >= Severity.ERROR for d in diagnostics):  # the parser's errors
        return "fixes not applied: the fixed text does not parse"
    return None


def check_target(target: Target, settings: Settings, mode: FixMode, stdin_data: bytes | None = None) -> FileReport:
    """Read and check one target; any failure becomes the report's one-line problem, never an exception."""
    use_op_definitions(settings.op_definitions)  # this file's configuration's ops (app.py reports their errors)
    if target.path is None:
        source = decode(stdin_data or b"")
        config_path = None if target.display == "-" else target.display
    else:
        source = read_source(target.path)
        config_path = target.path
    if isinstance(source, str):
        return FileReport(target.display, target.path, problem=Problem(target.display, source))
    try:
        with paused_gc():
            return check_source(source, target, settings, mode, config_path)
    except Exception as exc:  # an internal error must not stop the other files
        message = f"internal error while checking: {type(exc).__name__}: {exc}"
        return FileReport(target.display, target.path, text=source.text, problem=Problem(target.display, message))


