"""The registry and the engine: import-time checks, select/ignore, and a raising rule becoming GPU999."""

from __future__ import annotations

import pytest
from support import REPO

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics import registry
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import RULES, Rule, Selection, Violation, load_rules, register, rule

DOC = """
## What it does
Nothing.

## Why is this bad?
It is not.

## Example
```mlir
```

## Fix safety
No fix.

## References
- none
"""

TEXT = """\
func.func @f() {
  gpu.wait
  %t = gpu.wait async
  return
}
"""


def test_a_duplicate_code_fails_at_registration() -> None:
    load_rules()
    with pytest.raises(ValueError, match="registered twice"):
        register(Rule("GPU201", "another-name", Severity.WARNING, DOC))


def test_a_duplicate_name_fails_at_registration() -> None:
    load_rules()
    with pytest.raises(ValueError, match="registered twice"):
        register(Rule("GPU398", "multiple-async-dependencies", Severity.WARNING, DOC))


@pytest.mark.parametrize("code,name", [("GPU1", "x"), ("GPU398", "Not_Kebab")])
def test_malformed_codes_and_names_are_rejected(code: str, name: str) -> None:
    with pytest.raises(ValueError):
        register(Rule(code, name, Severity.WARNING, DOC))


def _raising(code: str, name: str, check, **kwargs):
    """Register `check` (which raises) as rule `code` on `gpu.wait` for the test, then drop it."""
    load_rules()
    rule(code, name, Severity.WARNING, ops=("gpu.wait",), **kwargs)(check)
    yield RULES[code]
    del RULES[code]
    registry._NAMES.pop(name)


def _raising_generator(op, ctx):
    raise RuntimeError("boom")
    yield  # pragma: no cover


def _raising_function(op, ctx):
    raise RuntimeError("boom")  # a plain function, not a generator: it raises when called


# A lint-phase rule (a generator raising as it runs) and a verifier check (a plain function raising when called).
_BROKEN = {
    "lint rule": ("GPU399", "always-raises", _raising_generator, {}),
    "verifier check": ("GPU199", "always-raises-in-the-verifier", _raising_function, {"upstream": True}),
}


@pytest.fixture(params=sorted(_BROKEN))
def broken_rule(request):
    code, name, check, kwargs = _BROKEN[request.param]
    yield from _raising(code, name, check, **kwargs)


def test_a_raising_rule_becomes_one_internal_error_and_the_others_run(broken_rule) -> None:
    found = lint_text(TEXT)
    internal = [d for d in found if d.code == "GPU999"]
    assert len(internal) == 1
    assert f"{broken_rule.code} ({broken_rule.name}): RuntimeError: boom" in internal[0].message
    assert {"GPU302", "GPU206"} <= {d.code for d in found}


def test_selection_by_prefix_longest_wins() -> None:
    sel = Selection(select=("GPU3",), ignore=("GPU302",))
    assert sel.enabled("GPU301") and not sel.enabled("GPU302") and not sel.enabled("GPU201")
    assert Selection(select=("GPU302",), ignore=("GPU3",)).enabled("GPU302")
    assert not Selection(ignore=("ALL",)).enabled("GPU201")


def test_lint_text_honours_select_and_ignore() -> None:
    class Settings:
        select = ("GPU2",)
        ignore = ()

    codes = {d.code for d in lint_text(TEXT, settings=Settings())}
    assert codes == {"GPU206"}


def test_violation_severity_override() -> None:
    v = Violation("m", registry.TextRange(0, 1), severity=Severity.HINT)
    assert v.severity is Severity.HINT


@pytest.fixture
def visits():
    """Two rules that record the ops they are called on: one narrowed to terminators, one to
    isolated ops (a verifier check); removed afterwards."""
    load_rules()
    seen: dict[str, list[str]] = {"GPU397": [], "GPU398": []}

    @rule("GPU397", "sees-terminators", Severity.HINT, ops=("*",), traits=("terminator",))
    def sees_terminators(op, ctx):
        seen["GPU397"].append(op.name)
        return None

    @rule("GPU398", "sees-isolated", Severity.ERROR, ops=("*",), traits=("isolated",), upstream=True, stage=registry.Stage.REGIONS)
    def sees_isolated(op, ctx):
        seen["GPU398"].append(op.name)
        return None

    yield seen
    for code, name in (("GPU397", "sees-terminators"), ("GPU398", "sees-isolated")):
        del RULES[code]
        registry._NAMES.pop(name)


def test_traits_narrow_a_check_of_every_op_to_the_ops_with_them(visits) -> None:
    lint_text("gpu.module @m {\n  gpu.func @k() kernel {\n    gpu.return\n  }\n}\n" + TEXT)
    assert sorted(visits["GPU397"]) == ["func.return", "gpu.return"]
    assert sorted(visits["GPU398"]) == ["builtin.module", "func.func", "gpu.func", "gpu.module"]


def test_traits_need_a_check_of_every_op() -> None:
    with pytest.raises(ValueError, match="traits narrow a check of every op"):
        rule("GPU396", "bad-traits", Severity.HINT, ops=("gpu.wait",), traits=("terminator",))


def test_the_lint_phase_split_off_and_finished_together_is_the_whole_lint(monkeypatch) -> None:
    # What the language server's open does: its child runs the parse, the verifier and every
    # rule but the per-op ones of the lint phase, the server those, a slice of ops per step
    # (here one op); the union, finished once, is `lint_parsed`.
    from support.corpus import all_corpus_files

    from gpu_lsp import analysis
    from gpu_lsp.analysis import RuleSteps, finish_lint, lint_findings, lint_parsed, lint_phase_rule
    from gpu_lsp.parser.api import parse

    monkeypatch.setattr(analysis, "STEP_OPS", 1)

    files = [*all_corpus_files(), *sorted((REPO / "examples").glob("*.mlir"))]
    split_ones = 0
    for path in files:
        parsed = parse(path.read_text(), split=True)
        rest = lint_findings(parsed, None, lambda r: not lint_phase_rule(r))
        steps = RuleSteps(parsed, None, lint_phase_rule)
        while not steps.step(0.0):
            pass
        lint = steps.finish()
        assert finish_lint(parsed, rest + lint) == lint_parsed(parsed), path.name
        split_ones += bool(lint) and bool(rest)
    assert split_ones >= 5, "both halves find something in several files"
