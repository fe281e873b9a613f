"""The lit runner's pieces on small inputs: RUN lines, FileCheck failures, generated checks, `gpu-opt --lit`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_lsp.cli import gpu_opt
from gpu_lsp.lit.checker import filecheck
from gpu_lsp.lit.runlines import run_lines
from gpu_lsp.lit.runner import refusal, run_file
from gpu_lsp.lit.update import UpdateError, generate, update_chunk
from gpu_lsp.text import apply_edits, replacement

TOOL = gpu_opt.InProcess()

TEST = """\
// RUN: mlir-opt %s -split-input-file \\
// RUN:   -allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @one
// CHECK: arith.addi
func.func @one(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}

// -----

// CHECK-LABEL: func.func @two
// CHECK: arith.muli
func.func @two(%a: i32) -> i32 {
  %0 = arith.subi %a, %a : i32
  return %0 : i32
}
"""


def test_run_lines_join_continuations_and_cut_the_pipeline() -> None:
    [run] = run_lines(TEST)
    assert (run.first, run.last) == (0, 1)
    assert run.stages == (("%s", "-split-input-file", "-allow-unregistered-dialect"),)
    assert run.filecheck == ("%s",) and run.prefixes == ("CHECK",) and run.split


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("// RUN: mlir-opt %s 2>&1 | FileCheck %s", "uses shell syntax '2>&1'"),
        ("// RUN: mlir-translate %s | FileCheck %s", "runs 'mlir-translate'"),
        ("// RUN: mlir-opt %s -o %t", "uses a lit substitution other than %s"),
        ("// RUN: mlir-opt %s -convert-gpu-to-nvvm | FileCheck %s", "gpu-opt: unknown option '-convert-gpu-to-nvvm'"),
    ],
)
def test_a_run_line_gpu_opt_cannot_run_says_why(line: str, why: str) -> None:
    [run] = run_lines(line)
    assert refusal(run, TOOL) == why


def test_prefixes_come_from_either_spelling() -> None:
    runs = run_lines("// RUN: mlir-opt %s | FileCheck --check-prefix DL %s\n// RUN: mlir-opt %s | FileCheck %s -check-prefixes=A,B\n")
    assert [r.prefixes for r in runs] == [("DL",), ("A", "B")]


def test_a_failing_check_names_its_line_its_pattern_and_the_closest_output_line() -> None:
    checks = "\n// CHECK: func.func @f\n// CHECK-NEXT: arith.muli %{{.*}} : i32\n"
    output = "module {\n  func.func @f(%a: i32) {\n    %0 = arith.addi %a, %a : i32\n  }\n}\n"
    outcome = filecheck(("%s",), checks, "t.mlir", output)
    assert not outcome.passed
    assert outcome.line == 3 and outcome.pattern == "arith.muli %{{.*}} : i32"
    assert outcome.closest == (3, "%0 = arith.addi %a, %a : i32")
    assert filecheck(("%s",), checks.replace("muli", "addi"), "t.mlir", output).passed


def test_run_file_fails_only_the_chunk_whose_checks_fail() -> None:
    result = run_file(TEST, "t.mlir", TOOL)
    assert [(r.chunk.index, r.passed) for r in result.results] == [(0, True), (1, False)]
    failed = result.results[1]
    assert failed.check is not None and failed.check.line == 14 and failed.check.pattern == "arith.muli"
    assert failed.check.closest is not None and "arith.subi" in failed.check.closest[1]


THREE = """\
// RUN: mlir-opt %s -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @one
// CHECK: arith.muli
func.func @one(%a: i64) -> i64 {
  %0 = arith.muli %a, %a : i64
  return %0 : i64
}

// -----

// CHECK-LABEL: func.func @two
func.func @two() {
  return
}

// -----

// CHECK-LABEL: func.func @three
// CHECK: arith.muli %{{.*}} : i64
func.func @three(%b: i64) -> i64 {
  %1 = arith.addi %b, %b : i64
  return %1 : i64
}
"""


def test_the_closest_output_line_of_a_later_chunk_comes_from_that_chunks_output() -> None:
    result = run_file(THREE, "t.mlir", TOOL)
    assert [(r.chunk.index, r.passed) for r in result.results] == [(0, True), (1, True), (2, False)]
    check = result.results[2].check
    assert check is not None and check.line == 20 and check.closest is not None
    output = result.outputs[0].stdout.split("\n")
    assert any("arith.muli" in line for line in output), "chunk 1's output holds the line a whole-output search would pick"
    number, line = check.closest
    assert line == "%0 = arith.addi %arg0, %arg0 : i64" and output[number - 1].strip() == line


def test_a_chunk_the_tool_rejects_fails_with_the_tools_message() -> None:
    text = TEST.replace("%0 = arith.subi %a, %a : i32", "%0 = arith.subi %a, %a : i64")
    result = run_file(text, "t.mlir", TOOL)
    assert [r.passed for r in result.results] == [True, False]
    assert result.results[1].check is None and "t.mlir:16:" in result.results[1].message


def test_generated_checks_capture_ssa_names_per_function_and_escape_brackets() -> None:
    output = (
        "module {\n"
        "  func.func @f(%arg0: i32) -> i32 {\n"
        '    %0 = "x.op"(%arg0) {a = dense<[[1]]> : tensor<1x1xi32>, s = "%d"} : (i32) -> i32\n'
        "    return %0 : i32\n"
        "  }\n"
        "  func.func @g(%arg0: i32) {\n"
        "    return\n"
        "  }\n"
        "}\n"
    )
    assert generate(output, "CHECK") == [
        "// CHECK-LABEL: func.func @f(",
        "// CHECK-SAME:  %[[ARG0:.*]]: i32) -> i32 {",
        '// CHECK:         %[[VAL_0:.*]] = "x.op"(%[[ARG0]]) {a = dense<{{\\[\\[}}1]]> : tensor<1x1xi32>, s = "%d"} : (i32) -> i32',
        "// CHECK:         return %[[VAL_0]] : i32",
        "// CHECK:       }",
        "// CHECK-LABEL: func.func @g(",
        "// CHECK-SAME:  %[[ARG0:.*]]: i32) {",
        "// CHECK:         return",
        "// CHECK:       }",
    ]


def test_update_rewrites_one_chunk_which_then_passes() -> None:
    once = update_chunk(TEST, "t.mlir", TOOL, 0, 1)
    assert once.split("// -----")[0] == TEST.split("// -----")[0]
    assert "// CHECK: arith.muli" not in once and "arith.subi %[[ARG0]], %[[ARG0]] : i32" in once
    assert [r.passed for r in run_file(once, "t.mlir", TOOL).results] == [True, True]
    assert update_chunk(once, "t.mlir", TOOL, 0, 1) == once


def test_update_refuses_what_it_cannot_do() -> None:
    with pytest.raises(UpdateError, match="no FileCheck stage"):
        update_chunk("// RUN: mlir-opt %s -split-input-file\nfunc.func @f() {\n  return\n}\n", "t.mlir", TOOL, 0, 0)
    with pytest.raises(UpdateError, match="several prefixes"):
        update_chunk("// RUN: mlir-opt %s | FileCheck %s --check-prefixes=A,B\n", "t.mlir", TOOL, 0, 0)
    with pytest.raises(UpdateError, match="there is no RUN line 2"):
        update_chunk(TEST, "t.mlir", TOOL, 1, 0)


def test_gpu_opt_lit_prints_per_chunk_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.mlir"
    path.write_text(TEST, encoding="utf-8")
    assert gpu_opt.main(["--lit", str(path)]) == 1
    out = capsys.readouterr().out
    assert "  PASS chunk 1 (line 1)\n  FAIL chunk 2 (line 11)\n" in out
    assert f"{path}:14: error:" in out and "expected: arith.muli" in out and "1 passed, 1 failed" in out
    path.write_text(update_chunk(TEST, str(path), TOOL, 0, 1), encoding="utf-8")
    assert gpu_opt.main(["--lit", str(path)]) == 0


def test_gpu_opt_lit_usage_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert gpu_opt.main(["--lit"]) == 2
    assert gpu_opt.main(["--lit", "--bogus", "x.mlir"]) == 2
    assert gpu_opt.main(["--lit", str(tmp_path / "missing.mlir")]) == 2
    err = capsys.readouterr().err
    assert "needs a test file" in err and "unknown option '--bogus'" in err and "cannot read " in err and "missing.mlir: No such file or directory" in err
    assert "Traceback" not in err
    refused = tmp_path / "no_filecheck.mlir"
    refused.write_text("// RUN: mlir-opt %s\nfunc.func @f() {\n  return\n}\n", encoding="utf-8")
    assert gpu_opt.main(["--lit", "--update", "1:1", str(refused)]) == 1
    err = capsys.readouterr().err
    assert err == f"gpu-opt: error: {refused}: cannot update the CHECK lines: the RUN line has no FileCheck stage\n"


def test_gpu_opt_lit_json_gives_one_object_per_chunk_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.mlir"
    path.write_text(TEST, encoding="utf-8")
    assert gpu_opt.main(["--lit", "--json", str(path)]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["chunk"], r["chunkLine"], r["passed"], r["line"]) for r in rows] == [(1, 1, True, 1), (2, 11, False, 14)]
    assert "expected: arith.muli" in rows[1]["message"] and rows[0]["message"] == ""


def test_the_update_edit_is_the_smallest_replacement() -> None:
    old, new = "a\nb\nc\n", "a\nB\nx\nc\n"
    edit = replacement(old, new)
    assert edit is not None and apply_edits(old, [edit]) == new
    assert (edit.range.start, edit.range.end, edit.new_text) == (2, 3, "B\nx")
    assert replacement(old, old) is None
