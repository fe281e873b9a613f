"""Where a diagnostic's code links to (codeDescription.href): the rule's page as the installed version documents
it, written from the registry into the user's cache folder once per server, so that the link resolves offline."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from gpu_lsp import __version__


def rules_folder() -> Path:
    """`$XDG_CACHE_HOME/gpu-lsp/rules-VERSION` (`~/.cache` when the variable is unset)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "gpu-lsp" / f"rules-{__version__}"


@functools.cache
def written_pages() -> Path | None:
    """The folder holding every rule's page, written now; None when it cannot be written (no links then)."""
    from gpu_lsp.lint.rule_pages import write

    folder = rules_folder()
    try:
        write(folder)
    except OSError:
        return None
    return folder


@functools.cache
def rule_link(code: str) -> str | None:
    """The `file://` URI of the page of rule `code`; None for a code without a page or when pages cannot be written."""
    folder = written_pages()
    page = folder / f"{code}.md" if folder is not None else None
    return page.as_uri() if page is not None and page.is_file() else None
