"""One Markdown page per rule, docs/rules/GPUxxx.md, generated from the registry.

    python -m gpu_lsp.lint.rule_pages docs/rules
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

from gpu_lsp.diagnostics.docs import anchor, render_rule
from gpu_lsp.diagnostics.registry import load_rules

HEADER = "<!-- Generated from the rule registry by `python -m gpu_lsp.lint.rule_pages docs/rules`; do not edit. -->\n\n"


def pages() -> dict[str, str]:
    """File name -> Markdown of every rule's page, by code."""
    out: dict[str, str] = {}
    for code, rule in sorted(load_rules().items()):
        footer = (
            f"\n---\n\nSelect or ignore it with `{code}` or a prefix such as `{code[:4]}` "
            f"(see [configuration](../configuration.md)); silence one place with "
            f"`// gpu-lint: ignore[{code}]`. All rules: [rules.md](../rules.md#{anchor(rule)}).\n"
        )
        out[f"{code}.md"] = HEADER + render_rule(rule) + footer
    return out


def write(folder: Path) -> list[str]:
    """Write every page into `folder` and delete pages of rules that no longer exist; returns the names written."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = pages()
    for stale in folder.glob("GPU*.md"):
        if stale.name not in wanted:
            stale.unlink()
    for name, text in wanted.items():
        _replace(folder / name, text.encode("utf-8"))
    return sorted(wanted)


def _replace(path: Path, data: bytes) -> None:
    """`path` holding `data`: left alone when it does already, else written to a temporary file renamed
    into place (a server writes the pages at every start: a reader never sees half a page, and two
    servers starting at once never mix theirs)."""
    with contextlib.suppress(OSError):
        if path.read_bytes() == data:
            return
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


if __name__ == "__main__":
    written = write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules"))
    print(f"{len(written)} rule pages written")
