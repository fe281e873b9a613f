"""The fix loop: rounds until nothing changes, conflicts wait, a fix never breaks the parse."""

from __future__ import annotations

from lintkit import BROKEN, VALID, fake_analyze

from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Severity
from gpu_lsp.lint.check import analyze
from gpu_lsp.lint.fixer import MAX_ROUNDS, fix_text, select_fixes
from gpu_lsp.text import Edit, TextRange


def fake(text: str) -> list[Diagnostic]:
    return fake_analyze(text, analyze)


def everything(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=Diagnostic.sort_key)


def replace_fix(code: str, start: int, end: int, new: str, level: Applicability = Applicability.SAFE) -> Diagnostic:
    rng = TextRange(start, end)
    return Diagnostic(code, "m", rng, Severity.WARNING, Fix(f"fix {code}", (Edit(rng, new),), level))


def test_safe_fixes_apply_and_a_second_run_changes_nothing() -> None:
    text = VALID.replace("gpu.wait async", "gpu.wait async   ").replace("return", "return\t")
    outcome = fix_text(text, fake, everything)
    assert outcome.text == VALID
    assert outcome.applied == {"GPU390": 2}
    assert outcome.converged and outcome.rounds == 1
    again = fix_text(outcome.text, fake, everything)
    assert again.text == outcome.text and not again.applied and again.rounds == 0


def test_unsafe_fixes_need_the_unsafe_level() -> None:
    text = "// TODO remove\n" + VALID
    assert fix_text(text, fake, everything).text == text
    outcome = fix_text(text, fake, everything, Applicability.UNSAFE)
    assert outcome.text == VALID and outcome.applied == {"GPU391": 1}


def test_display_only_fixes_never_apply() -> None:
    text = VALID.replace("@ok", "@a_function_with_a_rather_long_name_indeed")
    outcome = fix_text(text, fake, everything, Applicability.UNSAFE)
    assert outcome.text == text
    assert [d.code for d in outcome.diagnostics] == ["GPU393"]


def test_a_fix_that_breaks_the_parse_is_rejected_and_the_others_still_apply() -> None:
    text = "// BREAK\n" + VALID.replace("return", "return  ")
    outcome = fix_text(text, fake, everything)
    assert outcome.text == "// BREAK\n" + VALID
    assert outcome.applied == {"GPU390": 1}
    assert [d.code for d in analyze(outcome.text)] == []
    assert "GPU392" in [d.code for d in outcome.diagnostics]


def test_no_fix_adds_errors_to_a_file_that_already_has_some() -> None:
    text = "// BREAK\n" + BROKEN
    before = [d for d in analyze(text) if d.severity is Severity.ERROR]
    outcome = fix_text(text, fake, everything)
    after = [d for d in analyze(outcome.text) if d.severity is Severity.ERROR]
    assert outcome.text == text and len(after) == len(before) == 1


def test_conflicting_fixes_wait_for_the_next_round() -> None:
    text = "abcdef"
    state = {"calls": 0}

    def analyze_(t: str) -> list[Diagnostic]:
        state["calls"] += 1
        out = []
        if "abc" in t:
            out.append(replace_fix("GPU301", t.index("abc"), t.index("abc") + 3, "X"))
        if "cde" in t:
            out.append(replace_fix("GPU302", t.index("cde"), t.index("cde") + 3, "Y"))
        if "f" in t:
            out.append(replace_fix("GPU303", t.index("f"), t.index("f") + 1, "Z"))
        return out

    chosen = select_fixes(everything(analyze_(text)), Applicability.SAFE, set())
    assert [d.code for d in chosen] == ["GPU301", "GPU303"]
    outcome = fix_text(text, analyze_, everything)
    # Round 1: abc -> X and f -> Z; "cde" no longer exists, so GPU302 has nothing left to fix.
    assert outcome.text == "XdeZ"
    assert outcome.rounds == 1


def test_a_conflicting_fix_applies_in_the_next_round_when_still_needed() -> None:
    def analyze_(t: str) -> list[Diagnostic]:
        out = []
        if "aa" in t:
            i = t.index("aa")
            out.append(replace_fix("GPU301", i, i + 2, "a"))
        if "bb" in t:
            i = t.index("bb")
            out.append(replace_fix("GPU302", i, i + 2, "b"))
        return out

    outcome = fix_text("aabb", analyze_, everything)
    # The fixes touch (aa|bb): the second waits for round 2.
    assert outcome.text == "ab" and outcome.rounds == 2
    assert outcome.applied == {"GPU301": 1, "GPU302": 1}


def test_rounds_are_bounded() -> None:
    def grow(t: str) -> list[Diagnostic]:
        return [replace_fix("GPU301", len(t), len(t), "x")]

    outcome = fix_text("", grow, everything)
    assert outcome.rounds == MAX_ROUNDS and not outcome.converged
    assert outcome.text == "x" * MAX_ROUNDS


def test_a_cycle_stops() -> None:
    def flip(t: str) -> list[Diagnostic]:
        return [replace_fix("GPU301", 0, 1, "b" if t == "a" else "a")]

    outcome = fix_text("a", flip, everything)
    assert not outcome.converged and outcome.text == "b"


def test_overlapping_edits_inside_one_fix_are_rejected() -> None:
    def bad(t: str) -> list[Diagnostic]:
        if t != "abc":
            return []
        edits = (Edit(TextRange(0, 2), "x"), Edit(TextRange(1, 3), "y"))
        return [Diagnostic("GPU301", "m", TextRange(0, 3), Severity.WARNING, Fix("t", edits))]

    outcome = fix_text("abc", bad, everything)
    assert outcome.text == "abc" and not outcome.applied


def test_only_chosen_diagnostics_are_fixed() -> None:
    text = VALID.replace("return", "return  ")
    outcome = fix_text(text, fake, lambda ds: [d for d in ds if d.code != "GPU390"])
    assert outcome.text == text and not outcome.applied
