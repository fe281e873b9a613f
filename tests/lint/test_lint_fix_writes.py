"""`gpu-lint --fix` writes as a transaction: nothing lost under a size limit, a concurrent save,
a link out of the tree, a CRLF file or a read-only file (adversarial suite, issue 29)."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_lsp.lint import check
from gpu_lsp.lint.writeback import keep_line_endings

pytestmark = pytest.mark.real_registry

# Safe fixes (GPU205, GPU207): one removes `%u`, one inserts a fork `%tN = gpu.wait async [%t]`.
FORKED = """\
func.func @f{n}() {{
  %t = gpu.wait async
  %u = gpu.wait async [%t]
  gpu.wait [%u]
  gpu.wait [%u]
  return
}}
"""


def forked(copies: int = 1) -> str:
    return "".join(FORKED.format(n=i) for i in range(copies))


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".gpu-lint")]


def test_a_file_size_limit_leaves_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.mlir"
    path.write_text(forked(40))
    before = path.read_bytes()
    limit = len(before) + 10  # the fixed text is longer by ~20 bytes a function

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    result = subprocess.run(
        [sys.executable, "-c", "from gpu_lsp.cli.gpu_lint import main; raise SystemExit(main())", "--fix", "big.mlir"],
        cwd=tmp_path, capture_output=True, text=True, preexec_fn=cap, timeout=120,
    )
    assert path.read_bytes() == before
    assert "cannot write fixes: File too large" in result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert leftovers(tmp_path) == []


def test_a_file_saved_while_fixing_is_not_overwritten(gpu_lint, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.mlir"
    path.write_text(forked())
    saved = "// the user's newer text\n" + forked()
    real = check.fix_text

    def save_meanwhile(*args, **kwargs):
        path.write_text(saved)
        return real(*args, **kwargs)

    monkeypatch.setattr(check, "fix_text", save_meanwhile)
    result = gpu_lint("--fix", "a.mlir")
    assert path.read_text() == saved
    assert "fixes not written: the file changed since it was read" in result.out + result.err
    assert " fixed" not in result.out


def test_fix_never_rewrites_a_file_outside_the_tree_through_a_link(gpu_lint, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    tree = tmp_path / "tree"
    outside.mkdir()
    tree.mkdir()
    (outside / "theirs.mlir").write_text(forked())
    (tree / "link.mlir").symlink_to(outside / "theirs.mlir")
    (tree / "sub").mkdir()
    (tree / "sub" / "ours.mlir").write_text(forked())
    (tree / "inner.mlir").symlink_to(tree / "sub" / "ours.mlir")
    result = gpu_lint("--fix", ".", cwd=tree)
    assert (outside / "theirs.mlir").read_text() == forked()
    assert "fixes not written: the file is a link to" in result.out + result.err
    assert "%t0 = gpu.wait async [%t]" in (tree / "sub" / "ours.mlir").read_text()
    assert (tree / "inner.mlir").is_symlink()


def test_an_inserted_line_in_a_crlf_file_ends_in_crlf(gpu_lint, tmp_path: Path) -> None:
    path = tmp_path / "w.mlir"
    path.write_bytes(forked(2).replace("\n", "\r\n").encode())
    os.chmod(path, 0o640)
    gpu_lint("--fix", "w.mlir")
    data = path.read_bytes()
    assert len(re.findall(rb"%t[0-9]+ = gpu.wait async \[%t\]\r\n", data)) == 2  # the inserted forks
    assert data.count(b"\n") == data.count(b"\r\n")
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert keep_line_endings("a\nb\r\n", "a\nx\nb\r\n") == "a\nx\nb\r\n"  # mixed endings stay as they are


def test_a_read_only_file_is_not_counted_as_fixed(gpu_lint, tmp_path: Path) -> None:
    path = tmp_path / "ro.mlir"
    path.write_text(forked())
    os.chmod(path, 0o444)
    result = gpu_lint("--fix", "ro.mlir")
    assert path.read_text() == forked()
    assert "cannot write fixes: the file is read-only" in result.out + result.err
    assert " fixed" not in result.out and result.code == 2  # an output that cannot be written: exit 2 (README)
    assert leftovers(tmp_path) == []
