"""`gpu-lint --fix` on the examples and every corpus file (copies): idempotent, parses, no new errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support import REPO
from support.corpus import require_corpus

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.parser.api import parse

pytestmark = pytest.mark.real_registry


def errors(text: str) -> tuple[int, int]:
    """(parse errors, all errors) of a text, every rule on, suppressions applied."""
    syntax = sum(1 for d in parse(text, split=True).diagnostics if d.severity >= Severity.ERROR)
    return syntax, sum(1 for d in lint_text(text) if d.severity >= Severity.ERROR)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The examples and the corpus, copied (the corpus is read-only)."""
    root = tmp_path_factory.mktemp("fix-corpus")
    shutil.copytree(REPO / "examples", root / "examples")
    shutil.copytree(require_corpus(), root / "corpus", ignore=shutil.ignore_patterns("*.md"))
    for path in root.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return root


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_fix_every_example_and_corpus_file(gpu_lint, tree: Path, tmp_path: Path, unsafe: bool) -> None:
    work = tmp_path / "tree"
    shutil.copytree(tree, work)
    files = sorted(work.rglob("*.mlir"))
    assert len(files) >= 90
    before = {f: f.read_text(encoding="utf-8") for f in files}
    flags = ["--fix", "--isolated", "--jobs", "2", "--output-format", "grouped"] + (
        ["--unsafe-fixes"] if unsafe else []
    )
    first = gpu_lint(".", *flags, cwd=work)
    assert first.code in (0, 1) and "Traceback" not in first.out + first.err
    after = {f: f.read_text(encoding="utf-8") for f in files}
    changed = [f for f in files if after[f] != before[f]]
    assert changed, "the examples hold fixable mistakes"
    for f in files:
        syntax_before, errors_before = errors(before[f])
        syntax_after, errors_after = errors(after[f])
        assert syntax_after <= syntax_before, f"{f.relative_to(work)} parses worse after --fix"
        assert errors_after <= errors_before, f"{f.relative_to(work)} has more errors after --fix"
    second = gpu_lint(".", *flags, cwd=work)
    assert {f: f.read_text(encoding="utf-8") for f in files} == after, "a second --fix changed something"
    assert "fixed" not in second.out
    diff = gpu_lint(".", "--diff", "--isolated", *(["--unsafe-fixes"] if unsafe else []), cwd=work)
    assert (diff.code, diff.out) == (0, "")
