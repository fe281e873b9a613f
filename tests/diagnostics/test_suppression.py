"""`// gpu-lint: ignore[...]` / `ignore-file[...]`: where they apply, prefixes, unused and invalid ones."""

from __future__ import annotations

from gpu_lsp.analysis import lint_text
from gpu_lsp.text import apply_edits


def codes(text: str) -> list[str]:
    return sorted(d.code for d in lint_text(text))


def test_trailing_comment_covers_its_line() -> None:
    text = "func.func @f() {\n  gpu.wait  // gpu-lint: ignore[GPU302]\n  gpu.wait\n  return\n}\n"
    assert codes(text) == ["GPU302"]


def test_comment_alone_on_a_line_covers_the_next_operation() -> None:
    text = (
        "func.func @f(%c1: index) {\n"
        "  %t0 = gpu.wait async\n"
        "  // gpu-lint: ignore[GPU206]\n"
        "  %t1 = gpu.wait async\n"
        "  gpu.wait [%t0]\n"
        "  return\n"
        "}\n"
    )
    assert codes(text) == []


def test_the_next_operation_only_up_to_its_region() -> None:
    text = (
        "// gpu-lint: ignore[GPU302]\n"
        "func.func @f() {\n"
        "  gpu.wait\n"
        "  return\n"
        "}\n"
    )
    found = lint_text(text)
    assert [d.code for d in found] == ["GPU901", "GPU302"]


def test_file_level_prefix() -> None:
    text = "// gpu-lint: ignore-file[GPU3]\nfunc.func @f() {\n  gpu.wait\n  gpu.wait\n  return\n}\n"
    assert codes(text) == []


def test_unused_code_is_reported_with_a_fix_that_removes_it() -> None:
    text = "func.func @f() {\n  gpu.wait  // gpu-lint: ignore[GPU302, GPU201]\n  return\n}\n"
    found = lint_text(text)
    assert [d.code for d in found] == ["GPU901"]
    assert "`GPU201`" in found[0].message
    fixed = apply_edits(text, list(found[0].fix.edits))
    assert "ignore[GPU302]" in fixed
    assert codes(fixed) == []


def test_a_whole_unused_comment_is_removed() -> None:
    text = "func.func @f() {\n  %t = gpu.wait async\n  gpu.wait [%t]  // gpu-lint: ignore[GPU302]\n  return\n}\n"
    (d,) = lint_text(text)
    fixed = apply_edits(text, list(d.fix.edits))
    assert fixed == "func.func @f() {\n  %t = gpu.wait async\n  gpu.wait [%t]\n  return\n}\n"


def test_unused_suppression_of_a_disabled_rule_is_not_reported() -> None:
    class Settings:
        select = ()
        ignore = ("GPU302",)

    text = "func.func @f() {\n  %t = gpu.wait async\n  gpu.wait [%t]  // gpu-lint: ignore[GPU302]\n  return\n}\n"
    assert lint_text(text, settings=Settings()) == []


def test_ignoring_the_meta_rules_silences_unused_codes_too() -> None:
    class Settings:
        select = ()
        ignore = ("GPU9",)

    text = "func.func @f() {\n  gpu.wait  // gpu-lint: ignore[GPU302, GPU201]\n  return\n}\n"
    assert codes(text) == ["GPU901"]
    assert lint_text(text, settings=Settings()) == []


def test_invalid_entries_and_directives() -> None:
    text = "func.func @f() {\n  gpu.wait  // gpu-lint: ignore[empty-wait]\n  gpu.wait  // gpu-lint: noqa\n  return\n}\n"
    found = lint_text(text)
    assert [d.code for d in found] == ["GPU302", "GPU902", "GPU302", "GPU902"]


def test_syntax_errors_cannot_be_suppressed() -> None:
    text = "func.func @f() {\n  return)  // gpu-lint: ignore[GPU001]\n}\n"
    assert "GPU001" in codes(text)
