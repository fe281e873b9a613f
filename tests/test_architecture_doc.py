"""docs/architecture.md names only modules that exist, and says how to add an op, a rule, a pass, an LSP feature."""

from __future__ import annotations

import re

from support import REPO

DOC = REPO / "docs" / "architecture.md"
FILES = [p.relative_to(REPO).as_posix() for top in ("gpu_lsp", "tests", "benchmarks") for p in (REPO / top).rglob("*") if p.is_file()]


def named_files(text: str) -> set[str]:
    """Every `x.py` / `dir/x.py` / `x.lark` the text names in backticks (placeholders like `<dialect>` left out)."""
    return {m for m in re.findall(r"`([A-Za-z0-9_./]+\.(?:py|lark))`", text)}


def exists(name: str) -> bool:
    """A path from the repository root, or from `gpu_lsp/`, or the end of some file's path."""
    return (REPO / name).is_file() or (REPO / "gpu_lsp" / name).is_file() or any(f.endswith("/" + name) for f in FILES)


def test_every_module_the_architecture_names_exists() -> None:
    assert sorted(n for n in named_files(DOC.read_text(encoding="utf-8")) if not exists(n)) == []


def test_a_module_that_does_not_exist_is_caught() -> None:
    assert {n for n in named_files("see `passes/ir.py` and `engine.py`") if not exists(n)} == {"passes/ir.py"}


def test_the_how_to_section_covers_ops_rules_passes_and_features() -> None:
    text = DOC.read_text(encoding="utf-8")
    how_to = text[text.index("## How to add") :]
    for what in ("**An op**", "**A rule**", "**A pass**", "**An LSP feature**"):
        assert what in how_to
