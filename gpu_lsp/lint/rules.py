"""What reports need to know about a rule code: its name, summary, documentation, severity and URL."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_lsp.diagnostics.model import Severity


@dataclass(frozen=True)
class RuleInfo:
    """A rule as reports describe it."""

    code: str
    name: str
    summary: str
    doc: str
    severity: Severity
    url: str | None
    fixable: bool


def _registry() -> dict | None:
    try:
        from gpu_lsp.diagnostics.registry import load_rules

        return load_rules()
    except ImportError:  # the rule registry is not part of this checkout
        return None


def known_codes() -> frozenset[str] | None:
    """Every registered code (None when there is no registry, or an empty one, to check selectors against)."""
    rules = _registry()
    return frozenset(rules) if rules else None


def rule_info(code: str) -> RuleInfo:
    """The registered rule for `code`, or a bare description of an unregistered code."""
    rules = _registry() or {}
    rule = rules.get(code)
    if rule is None:
        return RuleInfo(code, code.lower(), "", "", Severity.ERROR, None, False)
    fixable = getattr(rule.fix, "value", "none") != "none"
    return RuleInfo(rule.code, rule.name, rule.summary, rule.doc, rule.severity, rule.url, fixable)


def all_rules() -> list[RuleInfo]:
    """Every registered rule, by code."""
    return [rule_info(code) for code in sorted(_registry() or {})]
