"""JUnit XML: one test suite per file, one failing test case per diagnostic (CI dashboards read it)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TextIO

from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.formats.common import Context, Positions

CLEAN_CASE = "org.gpu-lint"


def emit(out: TextIO, reports: list[FileReport], context: Context) -> None:
    """Write the document: clean files pass, diagnostics fail, unreadable files are errors."""
    root = ET.Element("testsuites", name="gpu-lint")
    total = failures = errors = 0
    suites: dict[str, ET.Element] = {}

    def suite(name: str) -> ET.Element:
        if name not in suites:
            suites[name] = ET.SubElement(root, "testsuite", name=name, tests="0", failures="0", errors="0")
        return suites[name]

    for problem in context.problems:
        node = suite(problem.display)
        case = ET.SubElement(node, "testcase", name=CLEAN_CASE, classname=problem.display)
        ET.SubElement(
            case, "error" if problem.level == "error" else "skipped", message=problem.message
        ).text = problem.message
    for report in reports:
        node = suite(report.display)
        if report.problem is not None:
            case = ET.SubElement(node, "testcase", name=CLEAN_CASE, classname=report.display)
            kind = "error" if report.problem.level == "error" else "skipped"
            ET.SubElement(case, kind, message=report.problem.message).text = report.problem.message
        if not report.diagnostics and report.problem is None:
            ET.SubElement(node, "testcase", name=CLEAN_CASE, classname=report.display)
        positions = Positions(report.text or "")
        for diagnostic in report.diagnostics:
            start = positions.at(diagnostic.range.start)
            case = ET.SubElement(
                node,
                "testcase",
                name=f"{CLEAN_CASE}.{diagnostic.code}",
                classname=report.display,
                line=str(start.row),
                column=str(start.column),
            )
            failure = ET.SubElement(case, "failure", message=diagnostic.message, type=diagnostic.severity.label)
            failure.text = f"line {start.row}, col {start.column}, {diagnostic.message}"
    for node in suites.values():
        cases = node.findall("testcase")
        node_failures = sum(1 for c in cases if c.find("failure") is not None)
        node_errors = sum(1 for c in cases if c.find("error") is not None)
        node.set("tests", str(len(cases)))
        node.set("failures", str(node_failures))
        node.set("errors", str(node_errors))
        total += len(cases)
        failures += node_failures
        errors += node_errors
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", str(errors))
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode"))
    out.write("\n")
