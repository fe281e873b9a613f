"""Every report format, as a snapshot over one fixed set of reports; SARIF against the 2.1.0 schema."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from lintkit import assert_snapshot, normalise

from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Related, Severity
from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.discovery import Problem
from gpu_lsp.lint.formats import FORMATS, github, sarif, statistics
from gpu_lsp.lint.formats.common import Context, summary
from gpu_lsp.text import Edit, TextRange

SCHEMA = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"

PIPELINE = """\
func.func @pipeline(%a: memref<?xf32>) {
  %t0 = gpu.wait async
  %t1 = gpu.wait async
  %t2 = gpu.wait async [%t0, %t1]
  gpu.wait async [%t2]
  return
}
"""
UNICODE = "// é: naïve — ∑\nfunc.func @f() {\n  gpu.wait [%undefined]\n  return\n}\n"


def at(text: str, needle: str, length: int | None = None) -> TextRange:
    start = text.index(needle)
    return TextRange(start, start + (len(needle) if length is None else length))


def sample_reports() -> tuple[list[FileReport], Context]:
    unnamed = at(PIPELINE, "gpu.wait async [%t2]")
    join = at(PIPELINE, "[%t0, %t1]")
    pipeline = FileReport(
        "src/pipeline.mlir",
        "src/pipeline.mlir",
        PIPELINE,
        [
            Diagnostic(
                "GPU201",
                "`%t2` joins `%t0` and `%t1`, both produced here; wait on them in one op",
                join,
                Severity.WARNING,
                Fix("Replace with `[%t1]`", (Edit(join, "[%t1]"),), Applicability.UNSAFE),
                (Related("`%t0` is defined here", at(PIPELINE, "%t0 = gpu.wait", 3)),),
            ),
            Diagnostic(
                "GPU203",
                "custom op 'gpu.wait' needs to be named when marked 'async'",
                unnamed,
                Severity.ERROR,
                Fix(
                    "Name the token `%t3`",
                    (Edit(TextRange(unnamed.start, unnamed.start), "%t3 = "),),
                    Applicability.SAFE,
                ),
            ),
            Diagnostic(
                "GPU302",
                'Function body spans\nseveral lines, with a "quote" and 100% of a comma, a colon: here',
                TextRange(0, len(PIPELINE) - 1),
                Severity.HINT,
                Fix(
                    "Rewrite it", (Edit(TextRange(0, 4), ""), Edit(TextRange(10, 10), "x")), Applicability.DISPLAY_ONLY
                ),
            ),
        ],
    )
    unicode = FileReport(
        "dir with space/ünïcode.mlir",
        "dir with space/ünïcode.mlir",
        UNICODE,
        [Diagnostic("GPU003", "use of undeclared SSA value name", at(UNICODE, "%undefined"), Severity.ERROR)],
    )
    clean = FileReport("src/clean.mlir", "src/clean.mlir", "func.func @g() {\n  return\n}\n", [])
    info = FileReport(
        "/abs/elsewhere.mlir",
        "/abs/elsewhere.mlir",
        "gpu.wait\n",
        [Diagnostic("GPU301", "blocking `gpu.wait` with nothing to wait on", TextRange(0, 8), Severity.INFO)],
    )
    broken = FileReport(
        "bin/blob.mlir", "bin/blob.mlir", problem=Problem("bin/blob.mlir", "binary file (contains NUL bytes), skipped")
    )
    reports = [unicode, pipeline, clean, info, broken]
    reports.sort(key=lambda r: r.display)
    for report in reports:
        report.diagnostics.sort(key=Diagnostic.sort_key)
    context = Context([Problem("empty", "no .mlir files found", "warning")], Applicability.SAFE, Path("/work/project"))
    return reports, context


def render(fmt: str) -> str:
    reports, context = sample_reports()
    out = io.StringIO()
    FORMATS[fmt](out, reports, context)
    return normalise(out.getvalue(), Path("/work/project"))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_format_snapshot(fmt: str) -> None:
    assert_snapshot(f"format-{fmt}.txt", render(fmt))


def test_formats_are_deterministic() -> None:
    for fmt in FORMATS:
        assert render(fmt) == render(fmt)


def test_sarif_validates_against_the_2_1_0_schema() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    document = json.loads(render("sarif"))
    jsonschema.Draft4Validator(schema).validate(document)
    run = document["runs"][0]
    assert document["version"] == "2.1.0" and run["columnKind"] == "unicodeCodePoints"
    results = {r["ruleId"]: r for r in run["results"]}
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    fix = results["GPU203"]["fixes"][0]
    assert fix["description"]["text"] == "Name the token `%t3`" and fix["properties"]["applicability"] == "safe"
    replacement = fix["artifactChanges"][0]["replacements"][0]
    assert replacement["deletedRegion"] == {"startLine": 5, "startColumn": 3, "endLine": 5, "endColumn": 3}
    assert replacement["insertedContent"] == {"text": "%t3 = "}
    assert results["GPU201"]["relatedLocations"][0]["message"]["text"] == "`%t0` is defined here"
    assert results["GPU003"]["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "dir%20with%20space/%C3%BCn%C3%AFcode.mlir",
        "uriBaseId": "%SRCROOT%",
    }
    # Columns count code points: `%undefined` is at column 13 of line 3 whatever the line above holds.
    assert results["GPU003"]["locations"][0]["physicalLocation"]["region"]["startColumn"] == 13
    assert results["GPU301"]["level"] == "note"
    invocation = run["invocations"][0]
    assert not invocation["executionSuccessful"] and len(invocation["toolExecutionNotifications"]) == 2


def test_sarif_of_a_clean_run_validates() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    document = sarif.document([], Context())
    jsonschema.Draft4Validator(schema).validate(document)
    assert document["runs"][0]["results"] == [] and document["runs"][0]["invocations"][0]["executionSuccessful"]


def test_github_escapes_messages_and_properties() -> None:
    assert github.escape_data("a%b\nc\rd") == "a%25b%0Ac%0Dd"
    assert github.escape_property("a,b:c") == "a%2Cb%3Ac"
    lines = render("github").splitlines()
    assert (
        "::error file=src/pipeline.mlir,line=5,col=3,endLine=5,endColumn=23,title=GPU203::"
        "custom op 'gpu.wait' needs to be named when marked 'async'"
    ) in lines
    assert any(line.startswith("::notice file=/abs/elsewhere.mlir,line=1,col=1,") for line in lines)


def test_junit_is_well_formed_and_counts() -> None:
    root = ET.fromstring(render("junit").split("\n", 1)[1])
    assert root.get("tests") == "8" and root.get("failures") == "5" and root.get("errors") == "1"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert suites["src/clean.mlir"].get("failures") == "0"
    assert suites["bin/blob.mlir"].get("errors") == "1"


def test_statistics() -> None:
    reports, context = sample_reports()
    out = io.StringIO()
    statistics.emit(out, reports, context)
    assert_snapshot("statistics.txt", out.getvalue())
    rows = statistics.rows(reports, context)
    assert [r["code"] for r in rows] == ["GPU003", "GPU201", "GPU203", "GPU301", "GPU302"]
    assert Counter({r["code"]: r["fixable"] for r in rows}) == Counter({"GPU203": 1})
    out = io.StringIO()
    statistics.emit(out, reports, context, as_json=True)
    assert json.loads(out.getvalue())[0] == {"code": "GPU003", "name": rows[0]["name"], "count": 1, "fixable": 0}


def test_summary_lines() -> None:
    reports, context = sample_reports()
    assert summary(reports, context) == (
        "Found 5 diagnostics: 2 errors, 1 warning, 1 info, 1 hint.\n[*] 1 fixable with the `--fix` option.\n"
        "1 hidden fix can be enabled with the `--unsafe-fixes` option.\n"
    )
    assert summary([], context) == "All checks passed!\n"
    fixed = FileReport("a", "a", "", [], applied=Counter({"GPU203": 2}))
    assert summary([fixed], Context(fixing=True)) == "Found 2 diagnostics (2 fixed, 0 remaining).\n"
