"""`gpuLsp.lint.reportUndecided`: the editor's switch for GPU416/GPU417's undecided-access infos, and the project's."""

from __future__ import annotations

from pathlib import Path

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.settings import EditorSettings, for_document, parse_settings

# No launch site: whether the threads race on %buf or index past 64 depends on the block size.
KERNEL = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%buf: memref<64xf32>) kernel {
      %f = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      memref.store %f, %buf[%tid] : memref<64xf32>
      gpu.return
    }
  }
}
"""


def _undecided(settings: EditorSettings) -> list[tuple[str, Severity, int]]:
    doc = Document("file:///k.mlir", KERNEL, 1)
    return [(d.code, d.severity, d.range.start) for d in doc.analysed(settings).diagnostics if "undecided" in d.message]


def test_the_setting_turns_the_infos_on_and_a_bad_value_is_a_problem() -> None:
    assert _undecided(EditorSettings()) == []
    on, problems = parse_settings({"gpuLsp": {"lint": {"reportUndecided": True}}})
    assert problems == [] and on.report_undecided
    store = KERNEL.index("memref.store")
    assert _undecided(on) == [("GPU416", Severity.INFO, store), ("GPU417", Severity.INFO, store)]
    kept, problems = parse_settings({"gpuLsp": {"lint": {"reportUndecided": "yes"}}}, on)
    assert kept.report_undecided and problems == ["gpuLsp.lint.reportUndecided must be true or false, not 'yes'"]


def test_the_projects_report_undecided_applies_in_the_editor(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.gpu-lint]\nreport-undecided = true\n")
    (tmp_path / "k.mlir").write_text(KERNEL)
    merged, problem = for_document(EditorSettings(), (tmp_path / "k.mlir").as_uri())
    assert problem is None and merged.report_undecided
    assert [code for code, _, _ in _undecided(merged)] == ["GPU416", "GPU417"]
