"""codeDescription.href: the rule's page, written where the link points, with the installed version's text (issue 26)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest

from gpu_lsp.lint.rule_pages import pages, write
from gpu_lsp.lsp import rule_links


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    rule_links.written_pages.cache_clear()
    rule_links.rule_link.cache_clear()
    yield tmp_path
    rule_links.written_pages.cache_clear()
    rule_links.rule_link.cache_clear()


def test_a_rule_links_to_its_page(fresh: Path) -> None:
    link = rule_links.rule_link("GPU201")
    assert link is not None and link.startswith("file://")
    path = Path(url2pathname(urlparse(link).path))
    assert path.is_relative_to(fresh / "cache" / "gpu-lsp") and path.read_text() == pages()["GPU201.md"]
    assert rule_links.rule_link("GPU000") is None


def test_no_link_when_the_pages_cannot_be_written(fresh: Path) -> None:
    (fresh / "cache").write_text("a file where the folder should be")
    assert rule_links.rule_link("GPU201") is None


def test_every_start_rewrites_only_the_pages_that_differ(tmp_path: Path) -> None:
    """A server writes the pages at each start: an unchanged page is left alone, a changed one is
    replaced whole (renamed into place), and nothing else is left in the folder."""
    folder = tmp_path / "rules"
    write(folder)
    page, other = folder / "GPU201.md", folder / "GPU202.md"
    page.write_text("an older version's page")
    kept = other.stat().st_mtime_ns, other.stat().st_ino
    write(folder)
    assert page.read_text() == pages()["GPU201.md"]
    assert (other.stat().st_mtime_ns, other.stat().st_ino) == kept
    assert sorted(p.name for p in folder.iterdir()) == sorted(pages())
