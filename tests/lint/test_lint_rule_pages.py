"""docs/rules/GPUxxx.md: one generated page per registered rule, kept current."""

from __future__ import annotations

import pytest
from support import REPO

from gpu_lsp.lint.rule_pages import pages

pytestmark = pytest.mark.real_registry

FOLDER = REPO / "docs" / "rules"
REGENERATE = "regenerate: python -m gpu_lsp.lint.rule_pages docs/rules"


def test_every_rule_has_a_current_page_and_no_page_is_stale() -> None:
    wanted = pages()
    present = {p.name for p in FOLDER.glob("GPU*.md")}
    assert present == set(wanted), REGENERATE
    for name, text in wanted.items():
        assert (FOLDER / name).read_text(encoding="utf-8") == text, f"{name} is stale; {REGENERATE}"
        assert "## What it does" in text
