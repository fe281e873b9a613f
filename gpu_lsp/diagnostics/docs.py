"""Rule documentation rendered from the registry: one rule (`gpu-lint rule`) or all of them (docs/rules.md)."""

from __future__ import annotations

import sys

from gpu_lsp.diagnostics.registry import FixAvailability, Phase, Rule, load_rules

_FIX_SENTENCE = {
    FixAvailability.ALWAYS: "Fix is always available.",
    FixAvailability.SOMETIMES: "Fix is sometimes available.",
    FixAvailability.NONE: "",
}

_GROUPS = (
    ("GPU0", "Syntax (GPU0xx)", "Reported by the parser, like `mlir-opt` reports them."),
    ("GPU1", "Upstream verifier (GPU1xx)", "What `mlir-opt` reports when it verifies the IR, word for word, plus checks upstream skips."),
    ("GPU2", "Async tokens and lowering readiness (GPU2xx)", "What upstream only finds when lowering with `gpu-to-llvm`, or at run time."),
    ("GPU3", "Performance and style (GPU3xx)", "Code that works but wastes time."),
    ("GPU9", "gpu-lint itself (GPU9xx)", "Suppression comments and internal errors."),
)


def anchor(rule: Rule) -> str:
    return f"{rule.code.lower()}-{rule.name}"


def render_rule(rule: Rule, heading: str = "#") -> str:
    """One rule as Markdown: a title, its metadata, its documentation."""
    lines = [f"{heading} {rule.name} ({rule.code})", ""]
    facts = [f"Default severity: {rule.severity.label}."]
    if rule.upstream:
        facts.append("Reported by upstream MLIR as well (`mlir-opt` parity).")
    fix = _FIX_SENTENCE[rule.fix]
    if fix:
        facts.append(fix)
    if rule.check is None and rule.checked_by:
        facts.append(f"Emitted by {rule.checked_by}.")
    elif rule.phase == Phase.LINT and rule.code.startswith("GPU1"):
        facts.append("Beyond upstream: `mlir-opt` does not report it.")
    lines.append(" ".join(facts))
    lines.append("")
    doc = rule.doc.replace("\n## ", f"\n{heading}# ")
    if doc.startswith("## "):
        doc = heading + doc[1:]
    lines.append(doc)
    return "\n".join(lines).rstrip() + "\n"


def render_all() -> str:
    """docs/rules.md: an index table, then every rule by code."""
    rules = sorted(load_rules().values(), key=lambda r: r.code)
    out = [
        "# gpu-lint rules",
        "",
        "<!-- Generated from the rule registry by `python -m gpu_lsp.diagnostics.docs > docs/rules.md`;"
        " tests/diagnostics/test_docs.py keeps it current. -->",
        "",
        "Every diagnostic gpu-lsp reports has a code. Select or ignore codes and prefixes with",
        "`--select`/`--ignore` (or `select`/`ignore` in `[tool.gpu-lint]`); silence one place with",
        "`// gpu-lint: ignore[GPU201]` at the end of the line, or alone on the line before an operation,",
        "and a whole file with `// gpu-lint: ignore-file[GPU3]`. `gpu-lint rule GPU201` prints one rule.",
        "",
    ]
    for prefix, title, blurb in _GROUPS:
        group = [r for r in rules if r.code.startswith(prefix)]
        if not group:
            continue
        out += [f"## {title}", "", blurb, "", "| Code | Name | Severity | Fix | Summary |", "|---|---|---|---|---|"]
        for r in group:
            fix = {FixAvailability.ALWAYS: "always", FixAvailability.SOMETIMES: "sometimes"}.get(r.fix, "")
            summary = r.summary.replace("|", "\\|")
            out.append(f"| [{r.code}](#{anchor(r)}) | {r.name} | {r.severity.label} | {fix} | {summary} |")
        out.append("")
    for r in rules:
        out.append(render_rule(r, "###").replace(f"### {r.name} ({r.code})", f'### {r.name} ({r.code}) <a id="{anchor(r)}"></a>', 1))
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(render_all())
