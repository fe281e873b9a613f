"""SARIF 2.1.0: one run with the rule table, results with locations, notes and fixes (code scanning reads it)."""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import TextIO
from urllib.parse import quote

from gpu_lsp import __version__
from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Severity
from gpu_lsp.diagnostics.registry import rule_url
from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.formats.common import Context, Position, Positions, all_problems
from gpu_lsp.lint.rules import RuleInfo, all_rules, rule_info

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}
APPLICABILITY = {Applicability.SAFE: "safe", Applicability.UNSAFE: "unsafe", Applicability.DISPLAY_ONLY: "display-only"}


def _artifact(display: str) -> dict:
    """A relative path is relative to %SRCROOT% (the folder gpu-lint ran in); an absolute one is a file URI."""
    path = PurePosixPath(display)
    if path.is_absolute():
        return {"uri": path.as_uri()}
    return {"uri": quote(display), "uriBaseId": SRCROOT}


def _region(start: Position, end: Position) -> dict:
    return {"startLine": start.row, "startColumn": start.column, "endLine": end.row, "endColumn": end.column}


def _descriptor(rule: RuleInfo, docs_url: str) -> dict:
    descriptor: dict = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary or rule.name},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"fixable": rule.fixable},
    }
    if rule.doc:
        descriptor["help"] = {"text": rule.doc, "markdown": rule.doc}
    url = rule_url(rule.code, docs_url)
    if url:
        descriptor["helpUri"] = url
    return descriptor


def _result(report: FileReport, diagnostic: Diagnostic, positions: Positions, index: dict[str, int]) -> dict:
    artifact = _artifact(report.display)
    result: dict = {
        "ruleId": diagnostic.code,
        "level": LEVELS[diagnostic.severity],
        "message": {"text": diagnostic.message},
        "locations": [
            {"physicalLocation": {"artifactLocation": artifact, "region": _region(*positions.span(diagnostic.range))}}
        ],
    }
    if diagnostic.code in index:
        result["ruleIndex"] = index[diagnostic.code]
    if diagnostic.related:
        result["relatedLocations"] = [
            {
                "id": i,
                "message": {"text": note.message},
                "physicalLocation": {"artifactLocation": artifact, "region": _region(*positions.span(note.range))},
            }
            for i, note in enumerate(diagnostic.related)
        ]
    fix = diagnostic.fix
    if fix is not None and fix.edits:
        replacements = []
        for edit in sorted(fix.edits, key=lambda e: (e.range.start, e.range.end)):
            replacement: dict = {"deletedRegion": _region(*positions.span(edit.range))}
            if edit.new_text:
                replacement["insertedContent"] = {"text": edit.new_text}
            replacements.append(replacement)
        result["fixes"] = [
            {
                "description": {"text": fix.title},
                "artifactChanges": [{"artifactLocation": artifact, "replacements": replacements}],
                "properties": {"applicability": APPLICABILITY[fix.applicability]},
            }
        ]
    return result


def document(reports: list[FileReport], context: Context) -> dict:
    """The SARIF log as a JSON-ready dict."""
    rules = all_rules()
    known = {r.code for r in rules}
    extra = sorted({d.code for r in reports for d in r.diagnostics} - known)
    rules.extend(rule_info(code) for code in extra)
    index = {rule.code: i for i, rule in enumerate(rules)}
    results: list[dict] = []
    for report in reports:
        if not report.diagnostics:
            continue
        positions = Positions(report.text or "")
        results.extend(_result(report, d, positions, index) for d in report.diagnostics)
    problems = all_problems(reports, context)
    notifications = [
        {
            "level": "error" if p.level == "error" else "warning",
            "message": {"text": p.message},
            "locations": [{"physicalLocation": {"artifactLocation": _artifact(p.display)}}],
        }
        for p in problems
    ]
    invocation: dict = {"executionSuccessful": not any(p.level == "error" for p in problems)}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    run = {
        "tool": {
            "driver": {
                "name": "gpu-lint",
                "version": __version__,
                "rules": [_descriptor(rule, context.docs_url) for rule in rules],
            }
        },
        "originalUriBaseIds": {SRCROOT: {"uri": context.cwd.resolve().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "invocations": [invocation],
        "results": results,
    }
    return {"$schema": SCHEMA, "version": VERSION, "runs": [run]}


def emit(out: TextIO, reports: list[FileReport], context: Context) -> None:
    """Write the SARIF log, indented, with a final newline."""
    out.write(json.dumps(document(reports, context), indent=2, ensure_ascii=False) + "\n")
