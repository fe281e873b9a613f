"""Code actions from Diagnostic.fix, ignore comments, fix-all, the code lenses, and settings."""

from __future__ import annotations

from lsp_samples import INLINE, OUTLINED, RUNNABLE, snapshot

from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Severity
from gpu_lsp.lsp.actions import (
    code_lenses,
    diagnostic_actions,
    fix_all_action,
    fix_all_edits,
    ignore_edit,
)
from gpu_lsp.lsp.commands import advertised
from gpu_lsp.lsp.diagnostic_json import fix_title
from gpu_lsp.lsp.positions import LineTable
from gpu_lsp.lsp.settings import EditorSettings, parse_settings
from gpu_lsp.text import Edit, TextRange, apply_edits


def _diag(text: str, needle: str, code: str, fix: Fix | None = None, **kw) -> Diagnostic:
    start = text.index(needle)
    return Diagnostic(code, f"{code} message", TextRange(start, start + len(needle)), fix=fix, **kw)


def _insert_fix(text: str, before: str, new: str, applicability=Applicability.SAFE, title="Add it") -> Fix:
    pos = text.index(before)
    return Fix(title, (Edit(TextRange(pos, pos), new),), applicability)


def test_quick_fix_then_ignore_comment() -> None:
    fix = _insert_fix(OUTLINED, "%t4 = gpu.launch_func", "%j = gpu.wait async [%t2, %t3]\n    ")
    d = _diag(OUTLINED, "gpu.launch_func async [%t2, %t3]", "GPU201", fix)
    snap = snapshot(OUTLINED)
    acts = diagnostic_actions(snap, d)
    assert [a.title for a in acts] == ["Add it", "Ignore GPU201 on this line"]
    assert acts[0].preferred and not acts[1].preferred
    fixed = apply_edits(OUTLINED, acts[0].edits)
    assert "    %j = gpu.wait async [%t2, %t3]\n    %t4 = gpu.launch_func" in fixed
    ignored = apply_edits(OUTLINED, acts[1].edits)
    assert "    // gpu-lint: ignore[GPU201]\n    %t4 = gpu.launch_func" in ignored


def test_unsafe_fixes_say_so_and_display_only_fixes_are_not_offered() -> None:
    unsafe = _insert_fix(OUTLINED, "return", "x", Applicability.UNSAFE, "Remove the wait")
    assert fix_title(unsafe) == "Remove the wait (unsafe)"
    snap = snapshot(OUTLINED)
    acts = diagnostic_actions(snap, _diag(OUTLINED, "gpu.wait [%t6]", "GPU202", unsafe))
    assert acts[0].title == "Remove the wait (unsafe)" and not acts[0].preferred
    shown = _insert_fix(OUTLINED, "return", "x", Applicability.DISPLAY_ONLY)
    acts = diagnostic_actions(snap, _diag(OUTLINED, "gpu.wait [%t6]", "GPU202", shown))
    assert [a.title for a in acts] == ["Ignore GPU202 on this line"]


def test_ignore_extends_an_existing_comment_and_skips_syntax_errors() -> None:
    text = "func.func @f() {\n  // gpu-lint: ignore[GPU203]\n  gpu.wait\n  return\n}\n"
    lines = LineTable.of(text)
    edit = ignore_edit(text, lines, _diag(text, "gpu.wait", "GPU210"))
    assert apply_edits(text, [edit]) == text.replace("ignore[GPU203]", "ignore[GPU203, GPU210]")
    assert ignore_edit(text, lines, _diag(text, "gpu.wait", "GPU203")) is None
    assert ignore_edit(text, lines, _diag(text, "gpu.wait", "GPU001")) is None


def test_fix_all_takes_safe_non_overlapping_fixes() -> None:
    text = OUTLINED
    a = _diag(text, "%t3 = gpu.wait", "GPU210", _insert_fix(text, "%t3 = gpu.wait", "// a\n    "))
    b = _diag(text, "%t3 = gpu.wait", "GPU211", _insert_fix(text, "%t3 = gpu.wait", "// b\n    "))
    c = _diag(text, "return", "GPU212", _insert_fix(text, "return", "// c\n    ", Applicability.UNSAFE))
    d = _diag(text, "gpu.wait [%t6]", "GPU213", _insert_fix(text, "gpu.wait [%t6]", "// d\n    "))
    edits = fix_all_edits([a, b, c, d])
    out = apply_edits(text, edits)
    assert "// a\n" in out and "// b\n" not in out and "// c\n" not in out and "// d\n" in out
    action = fix_all_action([a, c])
    assert action is not None and action.kind == "source.fixAll.gpu-lint" and action.diagnostics == [a]
    assert fix_all_action([c]) is None


def _runs(lenses: list) -> list:
    return [lens for lens in lenses if lens.command == "gpuLsp.server.runOnGpu"]


def test_run_code_lens_above_functions_that_launch_kernels() -> None:
    snap = snapshot(RUNNABLE)
    [lens, graph] = code_lenses(snap)
    assert lens.command == "gpuLsp.server.runOnGpu" and lens.arguments == (snap.uri, "main")
    assert "Run on GPU" in lens.title and RUNNABLE[lens.range.start : lens.range.end] == "@main"
    assert graph.title == "Show async graph" and graph.range == lens.range
    no_args = INLINE.split("// -----")[0].replace("@inline(%a: memref<?xf32>, %n: index)", "@inline()")
    no_args = no_args.replace("  %c1 = arith.constant", "  %a = memref.alloc() : memref<4xf32>\n  %n = arith.constant 4 : index\n  %c1 = arith.constant")
    no_args = no_args.replace("memref<?xf32>", "memref<4xf32>")
    [inline] = _runs(code_lenses(snapshot(no_args)))
    assert inline.arguments[1] == "inline"


def test_run_code_lens_only_on_functions_gpu_run_can_enter() -> None:
    """gpu-run calls its entry with no arguments: a function with parameters gets no Run lens."""
    assert _runs(code_lenses(snapshot(INLINE))) == [] and _runs(code_lenses(snapshot(OUTLINED))) == []
    generic = (
        '"func.func"() <{function_type = (index) -> (), sym_name = "g"}> ({\n^bb0(%n: index):\n  %t = gpu.wait async\n'
        "  gpu.launch_func async [%t] @k::@f blocks in (%n, %n, %n) threads in (%n, %n, %n)\n"
        '  "func.return"() : () -> ()\n}) : () -> ()\n'
    )
    assert _runs(code_lenses(snapshot(generic))) == []


def test_async_graph_lens_on_functions_with_async_gpu_work() -> None:
    """The graph lens runs the clients' own command (the server does not advertise it) with (uri, function),
    on every function whose host code yields async tokens, arguments or not; synchronous GPU code gets none."""
    assert "gpuLsp.showAsyncGraph" not in advertised()
    snap = snapshot(OUTLINED)
    [lens] = code_lenses(snap)
    assert (lens.title, lens.command, lens.arguments) == ("Show async graph", "gpuLsp.showAsyncGraph", (snap.uri, "main"))
    assert OUTLINED[lens.range.start : lens.range.end] == "@main"
    [inline] = code_lenses(snapshot(INLINE))
    assert inline.arguments[1] == "inline"
    synchronous = RUNNABLE.replace("%t0 = gpu.wait async\n", "").replace("%d, %t1 = gpu.alloc async [%t0]", "%d = gpu.alloc")
    synchronous = synchronous.replace("%t2 = gpu.launch_func async [%t1]", "gpu.launch_func").replace("%t3 = gpu.memcpy async [%t2]", "gpu.memcpy")
    synchronous = synchronous.replace("%t4 = gpu.dealloc async [%t3]", "gpu.dealloc").replace("    gpu.wait [%t4]\n", "")
    assert [lens.title for lens in code_lenses(snapshot(synchronous))] == ["▶ Run on GPU"]


def test_settings_select_ignore_and_severity_overrides() -> None:
    settings, problems = parse_settings(
        {"gpuLsp": {"lint": {"select": ["GPU2"], "ignore": ["gpu203"], "severity": {"GPU2": "hint", "GPU201": "error"}}, "runner": {"backend": "numpy"}}}
    )
    assert problems == []
    assert settings.select == ("GPU2",) and settings.ignore == ("GPU203",) and settings.runner_backend == "numpy"
    r = TextRange(0, 1)
    ds = [Diagnostic(c, "m", r, Severity.WARNING) for c in ("GPU001", "GPU101", "GPU201", "GPU202", "GPU203")]
    shown = settings.apply(ds)
    assert [(d.code, d.severity) for d in shown] == [
        ("GPU001", Severity.WARNING),
        ("GPU101", Severity.WARNING),
        ("GPU201", Severity.ERROR),
        ("GPU202", Severity.HINT),
        ("GPU203", Severity.HINT),
    ]


def test_settings_accept_bare_and_dotted_forms_and_report_problems() -> None:
    bare, _ = parse_settings({"lint": {"ignore": ["GPU3"]}})
    dotted, _ = parse_settings({"gpuLsp.lint.ignore": ["GPU3"]})
    assert bare.ignore == dotted.ignore == ("GPU3",)
    settings, problems = parse_settings({"lint": {"select": 3, "severity": {"GPU1": "loud"}}, "runner": {"backend": "tpu"}})
    assert settings == EditorSettings()
    assert len(problems) == 3


def test_refactorings_available_follow_the_cursor() -> None:
    from gpu_lsp.lsp.actions import compute_refactoring, refactorings_available

    snap = snapshot(INLINE)
    in_launch = [r.id for r in refactorings_available(snap, INLINE.index("memref.load"))]
    assert in_launch == ["gpu.outline-launch", "gpu.outline-function", "gpu.outline-file", "gpu.legalize-for-lowering"]
    outside = [r.id for r in refactorings_available(snap, INLINE.index("cf.cond_br"))]
    assert outside == ["gpu.outline-file", "gpu.legalize-for-lowering"]
    host = [r.id for r in refactorings_available(snapshot(OUTLINED), OUTLINED.index("%t3 = gpu.wait"))]
    assert host == ["gpu.async-function", "gpu.legalize-for-lowering"]
    title, edits = compute_refactoring(snap, "gpu.outline-launch", INLINE.index("memref.load"))
    assert title.startswith("Outline") and "gpu.launch_func" in apply_edits(INLINE, edits)


def test_refactorings_with_errors_in_the_chunk() -> None:
    from gpu_lsp.lsp.actions import refactorings_available

    broken = INLINE.replace("%v = memref.load %a[%tx]", "%v = memref.load %a[%nope]")
    assert refactorings_available(snapshot(broken), broken.index("memref.load")) == []


def test_published_diagnostics_mark_redundant_waits_unnecessary() -> None:
    from gpu_lsp.lsp.publish import diagnostic_dict

    text = (
        "func.func @f(%d: memref<4xf32>, %s: memref<4xf32>) {\n  %t0 = gpu.wait async\n"
        "  %t1 = gpu.memcpy async [%t0] %d, %s : memref<4xf32>, memref<4xf32>\n"
        "  %t2 = gpu.wait async [%t1]\n  gpu.wait [%t2]\n  return\n}\n"
    )
    snap = snapshot(text)
    [d] = snap.diagnostics
    published = diagnostic_dict(snap, d)
    assert published["code"] == "GPU205" and published["tags"] == [1]
    assert published["codeDescription"]["href"].endswith("/GPU205.md")
    assert published["data"]["fix"]["safe"] is True and published["source"] == "gpu-lint"


def test_every_example_main_gets_a_run_lens() -> None:
    """`@main` calls the function that does the GPU work: gpu-run can enter it, so it gets the lens (issue 26);
    the functions with arguments it calls do not."""
    from support import REPO

    def runs(example: str) -> list[str]:
        return [lens.arguments[1] for lens in _runs(code_lenses(snapshot((REPO / "examples" / example).read_text())))]

    assert runs("async_pipeline.mlir") == ["main"]
    assert runs("outlined_module.mlir") == ["main"]
    assert runs("mistakes.mlir") == ["main"]


def test_no_run_lens_in_a_chunk_that_does_not_verify() -> None:
    """@unnamed_async_token's chunk has a verifier error (GPU100): gpu-run would refuse it, so no Run lens there;
    naming the token brings it back, and the other chunks' lenses do not depend on it."""
    from support import REPO

    text = (REPO / "examples" / "mistakes.mlir").read_text()
    fixed = text.replace("  gpu.wait async\n  return", "  %t = gpu.wait async\n  gpu.wait [%t]\n  return")
    assert fixed != text

    def runs(source: str) -> list[str]:
        return [lens.arguments[1] for lens in _runs(code_lenses(snapshot(source)))]

    assert "unnamed_async_token" not in runs(text)
    assert runs(fixed) == ["main", "unnamed_async_token"]
