"""Folding ranges (regions, multi-line ops, split chunks, comment blocks) and selection ranges."""

from __future__ import annotations

from json.encoder import encode_basestring_ascii as _string
from typing import NamedTuple

from gpu_lsp.ir.core import Operation
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.index import document_index, op_at, unit_memo
from gpu_lsp.lsp.skeleton import TextView, brace_list
from gpu_lsp.text import TextRange

COMMENT = "comment"
REGION = "region"


class Fold(NamedTuple):
    """Fold lines `start_line..end_line` (0-based, inclusive); `kind` is None for code (a tuple:
    a large document has thousands, made while it is opened)."""

    start_line: int
    end_line: int
    kind: str | None = None


def folding_ranges(snapshot: Snapshot) -> list[Fold]:
    return snapshot.cached("folding_ranges", lambda: _folds(snapshot))


def folds_json(folds: list[Fold]) -> str:
    """`FoldingRange[]` as JSON text (`kind`: LSP's FoldingRangeKind values)."""
    items = []
    for f in folds:
        kind = f',"kind":{_string(f.kind)}' if f.kind else ""
        items.append(f'{{"startLine":{f.start_line},"endLine":{f.end_line}{kind}}}')
    return "[" + ",".join(items) + "]"


def _folds(snapshot: Snapshot) -> list[Fold]:
    lines = snapshot.lines
    line_of = lines.line_of
    out: list[Fold] = []
    parsed = snapshot.parsed
    if len(parsed.chunks) > 1:
        for chunk in parsed.chunks:
            s, e = line_of(chunk.start), line_of(max(chunk.start, chunk.end - 1))
            if e > s:
                out.append(Fold(s, e, REGION))
    for unit in document_index(snapshot).units:
        if unit.op.facts.implicit:
            continue
        if unit.holds_units:  # a module: its own regions only, the units inside come next
            out.extend(_op_folds(unit.op, line_of))
            continue
        folds, _, moved = unit_memo(unit, "folds", lines, lambda op=unit.op: [f for o in op.walk() for f in _op_folds(o, line_of)])
        out.extend(Fold(f.start_line + moved, f.end_line + moved, f.kind) for f in folds) if moved else out.extend(folds)
    for chunk in parsed.chunks:
        out.extend(_comment_folds(chunk.comments, snapshot))
    parsed_to = snapshot.parsed_to
    if parsed_to is not None:  # a document being opened: the regions of the rest from its text
        view = snapshot.cached("text_braces", lambda: TextView(parsed_to, brace_list))
        for open_, close in view.complete(snapshot.text):
            s, e = line_of(open_), line_of(close)
            if open_ >= parsed_to and e - 1 > s:
                out.append(Fold(s, e - 1))
    out.sort(key=lambda f: (f.start_line, -f.end_line))
    unique: list[Fold] = []
    seen: set[tuple[int, int]] = set()
    for fold in out:
        key = (fold.start_line, fold.end_line)
        if key not in seen:
            seen.add(key)
            unique.append(fold)
    return unique


def _op_folds(op: Operation, line_of) -> list[Fold]:
    """The regions of `op` (up to the line before each closing brace), or its header when it
    spans several lines and has no region."""
    rng = op.range
    if rng is None or op.facts.implicit:
        return []
    out = []
    header_end = rng.end
    for region in op.regions:
        if region.span is None:
            continue
        r = region.span.range
        header_end = min(header_end, r.start)
        s, e = line_of(r.start), line_of(r.end)
        if e - 1 > s:
            out.append(Fold(s, e - 1))
    first, last = line_of(rng.start), line_of(header_end)
    if last > first and not op.regions:
        out.append(Fold(first, last))
    return out


def _comment_folds(comments, snapshot: Snapshot) -> list[Fold]:
    out = []
    text = snapshot.text
    lines = snapshot.lines
    run: tuple[int, int] | None = None  # the first and last line of a run of own-line comments
    for comment in comments:
        line = lines.line_of(comment.range.start)
        own_line = not text[lines.line_start(line) : comment.range.start].strip()
        if not own_line or comment.text.startswith("// -----"):
            if run is not None and run[1] > run[0]:
                out.append(Fold(run[0], run[1], COMMENT))
            run = None
            continue
        if run is not None and line == run[1] + 1:
            run = (run[0], line)
        else:
            if run is not None and run[1] > run[0]:
                out.append(Fold(run[0], run[1], COMMENT))
            run = (line, line)
    if run is not None and run[1] > run[0]:
        out.append(Fold(run[0], run[1], COMMENT))
    return out


def selection_ranges(snapshot: Snapshot, offset: int) -> list[TextRange]:
    """Ranges around `offset`, innermost first, each containing the previous one."""
    chain: list[TextRange] = []

    def push(rng: TextRange | None) -> None:
        if rng is None or not (rng.start <= offset <= rng.end):
            return
        if chain and (rng.start > chain[-1].start or rng.end < chain[-1].end):
            return
        if chain and rng == chain[-1]:
            return
        chain.append(rng)

    occ = document_index(snapshot).at(offset)
    if occ is not None:
        push(occ.range)
    op: Operation | None = op_at(snapshot.parsed, offset)
    while op is not None:
        if op.facts.implicit:
            break
        for region in op.regions:
            if region.span is not None and region.span.range.start < offset < region.span.range.end:
                r = region.span.range
                push(TextRange(r.start + 1, r.end - 1))
                push(r)
        rng = op.range
        if rng is not None:
            line = snapshot.lines.line_of(rng.start)
            push(TextRange(snapshot.lines.line_start(line), rng.end) if not op.regions else None)
            push(rng)
        op = op.parent_op
    chunk = snapshot.parsed.chunk_at(offset)
    push(TextRange(chunk.start, chunk.end))
    push(TextRange(0, len(snapshot.text)))
    return chain
