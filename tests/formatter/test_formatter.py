"""The formatter on small inputs: comments, names, blank lines, separators, what it leaves as written; `gpu-lint format`."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.console import call_main

from gpu_lsp.cli.gpu_lint import main as gpu_lint
from gpu_lsp.formatter.core import format_text
from gpu_lsp.lsp.formatting import formatting_edits
from gpu_lsp.text import apply_edits

FORMATTED = """\
// RUN: mlir-opt %s | FileCheck %s

#map = affine_map<(d0) -> (d0 * 2)>
// CHECK-LABEL: func @f
func.func @f(%a: index, %b: index) -> index {
  // leading comment
  %x = arith.addi %a, %b : index  // trailing
  %y = affine.apply #map(%x)
  cf.br ^bb1(%y : index)
^bb1(%z: index):  // block comment
  // before return
  return %z : index
  // at the end
}

func.func @g() {
  return
}
// -----
gpu.module @kernels {
  gpu.func @k(%m: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    gpu.return
  }
}
"""

# What the formatter undoes: (as formatted, as written) for each mess MESSY holds.
MESSES = (
    ("@f(%a: index, %b: index)", "@f(%a: index,   %b : index)"),
    ("  // leading comment", "    // leading comment"),
    ("%a, %b : index  // trailing", "%a,%b : index   // trailing"),
    ("}\n\nfunc.func @g() {\n  return\n}", "}\n\n\nfunc.func @g() {\nreturn\n}"),
    ("    %c0 = arith.constant", "        %c0 = arith.constant"),
)


def _messed(text: str) -> str:
    for tidy, messy in MESSES:
        assert text.count(tidy) == 1, tidy
        text = text.replace(tidy, messy)
    return text


MESSY = _messed(FORMATTED)


def test_ops_print_like_mlir_opt_with_the_sources_comments_names_and_blank_lines() -> None:
    result = format_text(MESSY)
    assert result.text == FORMATTED and result.problems == []
    assert format_text(FORMATTED).text == FORMATTED


def test_a_chunk_with_errors_is_left_as_written_and_said_so() -> None:
    broken = FORMATTED.replace("%c0 = arith.constant 0 : index", "%c0 = arith.constant 0 : index %%")
    messy_broken = broken.replace("%a: index, %b: index", "%a: index,   %b : index")
    result = format_text(messy_broken)
    assert result.text == broken  # the first chunk is formatted, the broken one kept
    assert result.problems == ["line 19: the chunk has errors; it is left as written"]


def test_an_op_with_a_comment_inside_its_attributes_is_left_as_written() -> None:
    text = 'func.func @f() attributes {a = 1 : i32, // why\n  b = 2 : i32} {\n    return\n}\n\nfunc.func @g() {\nreturn\n}\n'
    result = format_text(text)
    assert result.text == text.replace("{\nreturn\n}", "{\n  return\n}")
    assert result.problems == ["line 1: an op with a comment inside it is left as written"]


def test_range_formatting_changes_only_the_lines_in_the_range() -> None:
    edits, problems = formatting_edits(MESSY, 16, 18)
    assert problems == []
    assert apply_edits(MESSY, edits) == MESSY.replace("{\nreturn\n}", "{\n  return\n}")
    whole, _ = formatting_edits(MESSY)
    assert apply_edits(MESSY, whole) == FORMATTED
    all_lines, _ = formatting_edits(MESSY, 0, 100)
    assert apply_edits(MESSY, all_lines) == FORMATTED


def _run(argv: list[str], stdin: str | bytes = "") -> tuple[int, str, str]:
    return call_main(gpu_lint, argv, stdin)


def test_gpu_lint_format_check_diff_and_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.mlir").write_text(MESSY, encoding="utf-8")
    (tmp_path / "b.mlir").write_text(FORMATTED, encoding="utf-8")
    status, out, err = _run(["format", "--check", "."])
    assert (status, out) == (1, "Would reformat: a.mlir\n") and "1 file would be reformatted, 1 file already formatted" in err
    status, out, _ = _run(["format", "--diff", "a.mlir"])
    assert status == 1 and out.startswith("--- a.mlir\n+++ a.mlir\n") and "+  %x = arith.addi %a, %b : index  // trailing\n" in out
    assert (tmp_path / "a.mlir").read_text(encoding="utf-8") == MESSY
    status, out, err = _run(["format", "."])
    assert (status, out) == (0, "") and "1 file reformatted, 1 file left unchanged" in err
    assert (tmp_path / "a.mlir").read_text(encoding="utf-8") == FORMATTED
    assert _run(["format", "--check", "."])[0] == 0
    assert _run(["format", "-"], MESSY)[:2] == (0, FORMATTED)
    status, _, err = _run(["format", "missing.mlir"])
    assert status == 2 and "missing.mlir" in err and "Traceback" not in err


def test_gpu_lint_format_keeps_a_byte_order_mark(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file starting with a BOM is formatted like any other (not "the chunk has errors") and keeps its BOM;
    CRLF line ends alone are no reason to rewrite a file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.mlir").write_bytes(b"\xef\xbb\xbf" + MESSY.encode())
    (tmp_path / "b.mlir").write_bytes(FORMATTED.replace("\n", "\r\n").encode())
    status, out, err = _run(["format", "."])
    assert (status, out, err) == (0, "", "1 file reformatted, 1 file left unchanged\n")
    assert (tmp_path / "a.mlir").read_bytes() == b"\xef\xbb\xbf" + FORMATTED.encode()


def test_gpu_lint_format_writes_like_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CRLF files stay CRLF, a read-only file is left whole with one error line, binary standard input is refused."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "crlf.mlir").write_bytes(MESSY.replace("\n", "\r\n").encode())
    locked = tmp_path / "locked.mlir"
    locked.write_text(MESSY, encoding="utf-8")
    locked.chmod(0o444)
    status, out, err = _run(["format", "crlf.mlir", "locked.mlir"])
    assert (tmp_path / "crlf.mlir").read_bytes() == FORMATTED.replace("\n", "\r\n").encode()
    assert status == 2 and "locked.mlir: cannot write the formatted text: the file is read-only" in err, err
    assert locked.read_text(encoding="utf-8") == MESSY
    status, out, err = _run(["format", "-"], b"\x7fELF\x00\x01")
    assert (status, out) == (2, "") and "binary" in err and len(err.splitlines()) == 1, err
