"""Code actions from diagnostics (quick fixes, ignore comments, fix all) and the code lenses (Run on GPU, Show async graph)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from gpu_lsp.diagnostics.mlir_versions import NEWEST
from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Severity
from gpu_lsp.diagnostics.registry import Phase, suppressible
from gpu_lsp.diagnostics.registry import get as get_rule
from gpu_lsp.diagnostics.sanitizer.graph import issues_async_work
from gpu_lsp.diagnostics.sanitizer.host import GPU_HOST_OPS
from gpu_lsp.ir.attributes import SymbolRefAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.lsp.commands import RUN_ON_GPU, SHOW_ASYNC_GRAPH
from gpu_lsp.lsp.diagnostic_json import fix_title, offers_fix
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.index import document_index, op_at, unit_memo
from gpu_lsp.lsp.ir_queries import takes_arguments
from gpu_lsp.lsp.positions import LineTable
from gpu_lsp.passes.registration import RefactoringDef, Site
from gpu_lsp.text import Edit, TextRange

QUICKFIX = "quickfix"
FIX_ALL = "source.fixAll.gpu-lint"


_IGNORE_COMMENT = re.compile(r"^(?P<indent>[ \t]*)//[ \t]*gpu-lint:[ \t]*ignore\[(?P<codes>[^\]]*)\][ \t]*$")


@dataclass
class Action:
    """A code action in editor terms: title, kind, edits and the diagnostics it resolves."""

    title: str
    kind: str
    edits: list[Edit]
    preferred: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)


def quick_fix(diagnostic: Diagnostic) -> Action | None:
    fix = diagnostic.fix
    if not offers_fix(fix):
        return None
    return Action(
        fix_title(fix),
        QUICKFIX,
        list(fix.edits),
        preferred=fix.applicability == Applicability.SAFE,
        diagnostics=[diagnostic],
    )


def ignore_edit(text: str, lines: LineTable, diagnostic: Diagnostic, anchor: int | None = None) -> Edit | None:
    """The edit that adds `// gpu-lint: ignore[CODE]` above the line of `anchor` (the start of
    the op the diagnostic is on; its own start by default), or extends the comment already there.

    A suppression comment on its own line covers the header of the op that follows it.
    """
    code = diagnostic.code
    if not code or not suppressible(code):
        return None
    line = lines.line_of(diagnostic.range.start if anchor is None else anchor)
    start = lines.line_start(line)
    line_text = text[start : lines.line_end(line)]
    indent = line_text[: len(line_text) - len(line_text.lstrip(" \t"))]
    if line > 0:
        prev_start = lines.line_start(line - 1)
        prev_end = lines.line_end(line - 1)
        m = _IGNORE_COMMENT.match(text[prev_start:prev_end])
        if m is not None:
            codes = [c.strip() for c in m.group("codes").split(",") if c.strip()]
            if code in codes:
                return None
            close = prev_start + m.end("codes")
            return Edit(TextRange(close, close), (", " if codes else "") + code)
    return Edit(TextRange(start, start), f"{indent}// gpu-lint: ignore[{code}]\n")


def ignore_title(code: str) -> str:
    return f"Ignore {code} on this line"


def ignore_action(snapshot: Snapshot, diagnostic: Diagnostic) -> Action | None:
    op = op_at(snapshot.parsed, diagnostic.range.start)
    anchor = op.range.start if op is not None and op.range is not None else None
    edit = ignore_edit(snapshot.text, snapshot.lines, diagnostic, anchor)
    if edit is None:
        return None
    return Action(ignore_title(diagnostic.code), QUICKFIX, [edit], diagnostics=[diagnostic])


def fix_all_edits(diagnostics: list[Diagnostic]) -> list[Edit]:
    """The edits of every safe fix, skipping fixes that overlap one already taken."""
    taken: list[Edit] = []
    spans: list[TextRange] = []
    seen: set[tuple] = set()
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        fix = d.fix
        if fix is None or fix.applicability != Applicability.SAFE or not fix.edits:
            continue
        key = tuple((e.range.start, e.range.end, e.new_text) for e in fix.edits)
        if key in seen:
            continue
        if any(_overlaps(e.range, s) for e in fix.edits for s in spans):
            continue
        seen.add(key)
        taken.extend(fix.edits)
        spans.extend(e.range for e in fix.edits)
    taken.sort(key=lambda e: (e.range.start, e.range.end))
    return taken


def _overlaps(a: TextRange, b: TextRange) -> bool:
    """Whether two edits conflict; two insertions at one point do (their order is ambiguous)."""
    if a.start == a.end and b.start == b.end:
        return a.start == b.start
    if a.start == a.end or b.start == b.end:
        return b.start < a.start < b.end or a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def fix_all_action(diagnostics: list[Diagnostic]) -> Action | None:
    edits = fix_all_edits(diagnostics)
    if not edits:
        return None
    fixed = [d for d in diagnostics if d.fix is not None and d.fix.applicability == Applicability.SAFE]
    return Action("Fix all auto-fixable gpu-lint problems", FIX_ALL, edits, diagnostics=fixed)


def diagnostic_actions(snapshot: Snapshot, diagnostic: Diagnostic) -> list[Action]:
    """The quick fixes for one diagnostic: its fix first, then the ignore comment."""
    out = []
    fix = quick_fix(diagnostic)
    if fix is not None:
        out.append(fix)
    ignore = ignore_action(snapshot, diagnostic)
    if ignore is not None:
        out.append(ignore)
    return out


# --- refactorings (the registry in gpu_lsp/passes/catalog.py) -------------------------------------


def refactoring_site(snapshot: Snapshot, offset: int) -> Site:
    """Where `offset` is, read from the analysed IR (no parse: code actions are asked for at
    every cursor move)."""
    op = op_at(snapshot.parsed, offset)
    launch = next((o for o in _self_and_ancestors(op) if o.name == "gpu.launch"), None)

    def file_has_launch() -> bool:
        return snapshot.cached("has_launch", lambda: any(o.name == "gpu.launch" for c in snapshot.parsed.chunks for o in c.module.walk()))

    return Site(snapshot.parsed, offset, launch, file_has_launch)


def refactorings_available(snapshot: Snapshot, offset: int) -> list[RefactoringDef]:
    """The registered refactorings that apply at `offset`; their edits are computed when chosen."""
    from gpu_lsp.passes.catalog import available

    return available(refactoring_site(snapshot, offset))


def _self_and_ancestors(op: Operation | None) -> Iterator[Operation]:
    while op is not None:
        yield op
        op = op.parent_op


def compute_refactoring(snapshot: Snapshot, refactoring_id: str, offset: int) -> tuple[str, list[Edit]]:
    """(title, edits) of a refactoring on the snapshot's text; `RefactorError` says why not."""
    from gpu_lsp.passes.catalog import compute

    version = snapshot.lint_key.mlir_version if snapshot.lint_key.mlir_version is not None else NEWEST
    result = compute(refactoring_id, snapshot.text, offset, snapshot.parsed.split, version)
    return result.title, list(result.edits)


@dataclass(frozen=True)
class Lens:
    range: TextRange
    title: str
    command: str
    arguments: tuple


def code_lenses(snapshot: Snapshot) -> list[Lens]:
    """Above each func.func: `Run on GPU` when gpu-run can enter it (no arguments) and it does GPU work (a launch,
    a copy, an allocation, ...) itself or through the functions it calls, `Show async graph` when its host code
    issues async GPU work. No `Run on GPU` in a chunk that does not parse or verify (gpu-run would refuse it)."""
    index = document_index(snapshot)
    broken = _rejected_chunks(snapshot)
    facts: list[tuple[int, _LensFacts]] = []
    for unit in index.units:
        if unit.holds_units:
            continue
        found, _, _ = unit_memo(unit, "lens_facts", snapshot.lines, lambda op=unit.op: _lens_facts(op))
        facts.extend((unit.chunk, f) for f in found)
    working = _doing_gpu_work({(chunk, f.name): f for chunk, f in facts})
    out = []
    for chunk, f in facts:
        runnable = f.enterable and (chunk, f.name) in working and chunk not in broken
        if not (runnable or f.async_work):
            continue
        d = index.symbol_def(f.op)
        rng = d.range if d is not None else f.op.name_range
        if rng is None:
            continue
        if runnable:
            out.append(Lens(rng, "▶ Run on GPU", RUN_ON_GPU, (snapshot.uri, f.name)))
        if f.async_work:
            out.append(Lens(rng, "Show async graph", SHOW_ASYNC_GRAPH, (snapshot.uri, f.name)))
    return out


def _rejected_chunks(snapshot: Snapshot) -> set[int]:
    """The indexes of the chunks with a parse or verifier error (what mlir-opt rejects)."""
    starts = [c.start for c in snapshot.parsed.chunks]
    out = set()
    for d in snapshot.diagnostics:
        rule = get_rule(d.code)
        if d.severity is Severity.ERROR and rule is not None and rule.phase < Phase.LINT:
            out.add(max(bisect.bisect_right(starts, d.range.start) - 1, 0))
    return out


@dataclass(frozen=True)
class _LensFacts:
    """What the lenses of one named func.func depend on, read from its own body."""

    op: Operation
    name: str
    enterable: bool  # gpu-run can enter it: no arguments
    gpu_work: bool
    callees: tuple[str, ...]
    async_work: bool


def _lens_facts(root: Operation) -> list[_LensFacts]:
    out = []
    for f in _funcs(root):
        name = f.properties.get("sym_name")
        if name is None:
            continue
        callees = []
        for op in f.nested():
            callee = op.get_attr("callee") if op.name == "func.call" else None
            if isinstance(callee, SymbolRefAttr) and not callee.nested:
                callees.append(callee.root)
        gpu_work = any(op.name in GPU_HOST_OPS for op in f.nested())
        out.append(_LensFacts(f, name.value, not takes_arguments(f), gpu_work, tuple(callees), issues_async_work(f)))
    return out


def _doing_gpu_work(funcs: dict[tuple[int, str], _LensFacts]) -> set[tuple[int, str]]:
    """The (chunk, name) of every function that does GPU work itself or calls, directly or not, one that does."""
    found = {key for key, f in funcs.items() if f.gpu_work}
    grew = True
    while grew:
        grew = False
        for (chunk, name), f in funcs.items():
            if (chunk, name) not in found and any((chunk, c) in found for c in f.callees):
                found.add((chunk, name))
                grew = True
    return found


def _funcs(op):
    if op.name == "func.func":
        yield op
        return
    if op.name == "builtin.module":
        return
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                if child.anchor is op.anchor:
                    yield from _funcs(child)
