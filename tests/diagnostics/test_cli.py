"""The gpu-lint console script: formats, exit statuses, select/ignore, folders, `gpu-lint rule`, docs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_lsp.cli import gpu_lint
from gpu_lsp.diagnostics.docs import render_all

REPO = Path(__file__).resolve().parents[2]

CLEAN = "func.func @ok() {\n  %t = gpu.wait async\n  gpu.wait [%t]\n  return\n}\n"
WARN = "func.func @leak() {\n  %t = gpu.wait async\n  return\n}\n"
INFO_ONLY = "func.func @empty() {\n  gpu.wait\n  return\n}\n"
ERROR = "func.func @bad() {\n  gpu.wait async\n  return\n}\n"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = gpu_lint.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def tree(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "clean.mlir").write_text(CLEAN)
    (tmp_path / "sub" / "warn.mlir").write_text(WARN)
    (tmp_path / "sub" / "deeper" / "error.mlir").write_text(ERROR)
    (tmp_path / "sub" / "notes.txt").write_text("not mlir")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_exit_status_0_when_clean(tree: Path, capsys) -> None:
    code, out, _ = run(capsys, "clean.mlir")
    assert code == 0 and "All checks passed!" in out


def test_info_and_hints_do_not_fail(tree: Path, capsys) -> None:
    (tree / "info.mlir").write_text(INFO_ONLY)
    code, out, _ = run(capsys, "--output-format", "concise", "info.mlir")
    assert code == 0 and "GPU302" in out


def test_folders_are_searched_recursively(tree: Path, capsys) -> None:
    code, out, _ = run(capsys, "--output-format", "concise", ".")
    assert code == 1
    lines = [line for line in out.splitlines() if ": GPU" in line]
    assert lines == [
        "sub/deeper/error.mlir:2:12: GPU100 [*] custom op 'gpu.wait' needs to be named when marked 'async'",
        "sub/warn.mlir:2:8: GPU206 `%t = gpu.wait async` creates a token nothing uses: remove it or depend on it",
    ]


def test_select_and_ignore(tree: Path, capsys) -> None:
    assert run(capsys, "--select", "GPU2", "sub")[0] == 1
    code, out, _ = run(capsys, "--ignore", "GPU2,GPU100", "--output-format", "concise", "sub")
    assert code == 0 and "GPU" not in out.replace("All checks passed!", "")


def test_usage_errors_exit_2(tree: Path, capsys) -> None:
    assert run(capsys, "--output-format", "xml", ".")[0] == 2
    assert run(capsys, "--select", "NOPE", ".")[0] == 2
    assert run(capsys, "rule", "GPU000")[0] == 2


def test_json_format(tree: Path, capsys) -> None:
    code, out, _ = run(capsys, "--output-format", "json", "sub/deeper/error.mlir")
    assert code == 1
    (item,) = json.loads(out)
    assert item["code"] == "GPU100"
    assert item["severity"] == "error"
    assert item["filename"] == "sub/deeper/error.mlir"
    assert item["location"] == {"row": 2, "column": 12}
    assert item["end_location"] == {"row": 2, "column": 17}
    assert item["fix"]["message"].startswith("Name the token `%t")
    assert item["fix"]["applicability"] == "safe"
    (edit,) = item["fix"]["edits"]
    assert edit["location"] == edit["end_location"] == {"row": 2, "column": 3}
    assert edit["content"].endswith(" = ")
    assert item["url"] is None  # no `docs-url` configured: no link to a page that may not exist


def test_text_format_has_a_caret_snippet(tree: Path, capsys) -> None:
    code, out, _ = run(capsys, "sub/deeper/error.mlir")
    assert code == 1
    assert "error[GPU100]: custom op 'gpu.wait' needs to be named when marked 'async'" in out
    assert "--> sub/deeper/error.mlir:2:12" in out
    assert "2 |   gpu.wait async\n  |            ^^^^^ GPU100" in out
    assert "= help: Name the token" in out


def test_rule_command(capsys) -> None:
    code, out, _ = run(capsys, "rule", "GPU201")
    assert code == 0
    assert out.startswith("# multiple-async-dependencies (GPU201)")
    assert "## Why is this bad?" in out
    assert run(capsys, "rule", "implicit-token-fork")[1].startswith("# implicit-token-fork (GPU207)")


def test_docs_rules_md_is_current() -> None:
    path = REPO / "docs" / "rules.md"
    assert path.read_text() == render_all(), "regenerate: python -m gpu_lsp.diagnostics.docs > docs/rules.md"


def test_console_script_runs(tree: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gpu_lsp.cli.gpu_lint", "--output-format", "concise", "clean.mlir"],
        capture_output=True,
        text=True,
        cwd=tree,
    )
    assert proc.returncode == 0, proc.stderr
