"""What reports need to know about a rule code: its name, summary, documentation and severity."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import FixAvailability, load_rules


@dataclass(frozen=True)
class RuleInfo:
    """A rule as reports describe it."""

    code: str
    name: str
    summary: str
    doc: str
    severity: Severity
    fixable: bool


def _registry() -> dict:
    return load_rules()


def known_codes() -> frozenset[str]:
    """Every registered code (selectors are checked against them)."""
    return frozenset(_registry())


def rule_info(code: str) -> RuleInfo:
    """The registered rule for `code`, or a bare description of an unregistered code."""
    rule = _registry().get(code)
    if rule is None:
        return RuleInfo(code, code.lower(), "", "", Severity.ERROR, False)
    fixable = rule.fix is not FixAvailability.NONE
    return RuleInfo(rule.code, rule.name, rule.summary, rule.doc, rule.severity, fixable)


def all_rules() -> list[RuleInfo]:
    """Every registered rule, by code."""
    return [rule_info(code) for code in sorted(_registry())]
