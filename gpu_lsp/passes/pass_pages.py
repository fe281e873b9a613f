"""docs/passes.md from the registries: the passes gpu-opt runs and the refactorings the server offers."""

from __future__ import annotations

import sys

from gpu_lsp.passes.catalog import PASSES, REFACTORINGS


def render() -> str:
    """The Markdown page (regenerate with `python -m gpu_lsp.passes.pass_pages > docs/passes.md`)."""
    out = [
        "# Passes and refactorings",
        "",
        "Generated from `gpu_lsp/passes/catalog.py` by `python -m gpu_lsp.passes.pass_pages`; do not edit.",
        "",
        "## Passes (`gpu-opt -NAME[=OPTIONS]`, `--pass-pipeline`)",
        "",
        "| Pass | Runs on | Options | What it does |",
        "| --- | --- | --- | --- |",
    ]
    for p in PASSES:
        options = ", ".join(f"`{o}`" for o in p.options) or "-"
        out.append(f"| `-{p.name}` | {f'`{p.anchor}`' if p.anchor else 'any op'} | {options} | {p.summary} |")
    out += [
        "",
        "## Refactorings (code actions; some are server commands too)",
        "",
        "| Id | Title | Code action kind | Command |",
        "| --- | --- | --- | --- |",
    ]
    for r in REFACTORINGS:
        out.append(f"| `{r.id}` | {r.title} | `{r.kind}` | {f'`{r.command}`' if r.command else '-'} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
