"""One code table: which codes can be suppressed, which are always reported and their tags are fields of the rules,
and every code a tool emits is registered."""

from __future__ import annotations

import pytest

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.diagnostics.registry import always_reported, code_tags, load_rules, suppressible
from gpu_lsp.lint.config import Settings
from gpu_lsp.lsp.actions import ignore_edit
from gpu_lsp.lsp.positions import LineTable
from gpu_lsp.passes.base import PASS_ERROR
from gpu_lsp.runner.errors import RUN_ERROR, RUN_WARNING, UNSUPPORTED
from gpu_lsp.text import TextRange

RULES = load_rules()

SYNTAX_ERROR = """\
module attributes {gpu.container_module} {
  func.func @main(%c1: index) {
    // gpu-lint: ignore[GPU002]
    gpu.launch_func "kernels" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
"""


def test_every_code_gpu_run_and_the_passes_emit_is_registered() -> None:
    for code in (RUN_ERROR, UNSUPPORTED, RUN_WARNING, PASS_ERROR):
        assert code in RULES, code
        assert not RULES[code].linted


def test_a_syntax_error_is_neither_suppressed_nor_deselected() -> None:
    found = [d.code for d in lint_text(SYNTAX_ERROR)]
    assert found == ["GPU901", "GPU002"]  # the comment suppresses nothing
    assert "GPU002" in [d.code for d in lint_text(SYNTAX_ERROR, settings=Settings(ignore=("GPU0",)))]


@pytest.mark.parametrize("code", sorted(RULES))
def test_the_editor_offers_an_ignore_comment_exactly_for_suppressible_codes(code: str) -> None:
    text = "func.func @f() {\n  return\n}\n"
    start = text.index("return")
    d = Diagnostic(code, "m", TextRange(start, start + 6), Severity.WARNING)
    assert (ignore_edit(text, LineTable.of(text), d) is not None) == RULES[code].suppressible


def test_the_table() -> None:
    assert [c for c in sorted(RULES) if not suppressible(c)] == ["GPU001", "GPU002", "GPU901", "GPU902", "GPU999"]
    assert [c for c in sorted(RULES) if always_reported(c)] == ["GPU001", "GPU002"]
    assert [c for c in sorted(RULES) if code_tags(c)] == ["GPU205", "GPU901"]
    assert suppressible("GPU777") and not always_reported("GPU777") and code_tags("GPU777") == ()


DEVICE_MEMORY_ON_HOST = """\
func.func @main(%v: f32) {
  %c0 = arith.constant 0 : index
  %d = gpu.alloc () : memref<4xf32>
  memref.store %v, %d[%c0] : memref<4xf32>%s
  gpu.dealloc %d : memref<4xf32>
  return
}
"""


def test_a_retired_code_selects_ignores_and_suppresses_the_code_that_took_over() -> None:
    """GPU210 (host-access-to-device-memory) is an alias of GPU415, which reports the same finding."""
    text = DEVICE_MEMORY_ON_HOST.replace("%s", "")
    assert [d.code for d in lint_text(text)] == ["GPU415"]
    assert [d.code for d in lint_text(text, settings=Settings(select=("GPU210",)))] == ["GPU415"]
    assert [d.code for d in lint_text(text, settings=Settings(ignore=("GPU210",)))] == []
    assert [d.code for d in lint_text(DEVICE_MEMORY_ON_HOST.replace("%s", "  // gpu-lint: ignore[GPU210]"))] == []
    assert "GPU210" not in RULES
