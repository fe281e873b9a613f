"""Semantic tokens: ops, values, tokens, types, symbols, attributes, keywords and comments; the
whole document's as JSON from each unit's JSON kept (`encoded`: ~250,000 numbers at 10k lines)."""

from __future__ import annotations

import json
import re
import time
from bisect import bisect_right
from dataclasses import dataclass, field

from gpu_lsp.ir.core import BlockArgument, Operation, Value
from gpu_lsp.ir.opdefs import lookup, op_names
from gpu_lsp.lsp.documents import FIRST_LINES, PARTIAL_TOKENS, Snapshot
from gpu_lsp.lsp.index import SYMBOL, DocumentIndex, TokenEnds, Unit, document_index
from gpu_lsp.lsp.wire import JsonText, numbers, semantic_tokens_of
from gpu_lsp.syntax.lexer import tokenize

TOKEN_TYPES = (
    "namespace",
    "type",
    "class",
    "enumMember",
    "function",
    "macro",
    "variable",
    "parameter",
    "property",
    "label",
    "keyword",
    "comment",
    "string",
    "number",
    "decorator",
)
TOKEN_MODIFIERS = ("declaration", "definition", "readonly", "async", "defaultLibrary", "documentation")

# While a large document is opened, the most time its whole-document tokens (those of its first
# lines) may take.
OPENING_BUDGET_S = 0.05
# Once analysed, the time a request for every token may spend on units whose tokens are not kept
# yet (lexing a whole 10k-line document: ~0.3-0.8 s); the rest are kept by `keep_step`, and the
# server asks the client to refresh the tokens it answered without them (`documents.PARTIAL_TOKENS`).
FULL_BUDGET_S = 0.05
# A unit (or text between units) longer than this is lexed only over the lines a range asks for (a
# range request, the first screens of an open), not whole: the `gpu.module` of an outlined file is
# half of it (2 MB at 100k lines), lexed for the tokens of one screen.
CLIP_BYTES = 1 << 16
_T = {name: i for i, name in enumerate(TOKEN_TYPES)}
_M = {name: 1 << i for i, name in enumerate(TOKEN_MODIFIERS)}
_RESULT_NAME = re.compile(r"%[\w$.\-]+")
_BUILTIN_TYPE = re.compile(r"(?:[su]?i\d+|bf16|tf32|f\d+\w*|index|none|memref|tensor|vector|complex|tuple)\b")
_ALIAS_NAME = re.compile(r"[#!][\w$.\-]*")
_SUPPRESSION = re.compile(r"//\s*gpu-lint:")
WHOLE = "semantic_tokens"  # the snapshot's cache key of the whole document's tokens (`encoded`)
_JOINING = "semantic_tokens_joining"  # the snapshot's cache key of `_Joining`, until complete

_SIMPLE = {
    "BARE": ("keyword", 0),
    "INT": ("number", 0),
    "FLOAT": ("number", 0),
    "STRING": ("string", 0),
    "LOC": ("decorator", 0),
    "FILEMETA": ("comment", 0),
    "BLOCK_LABEL": ("label", _M["declaration"]),
    "BLOCK_REF": ("label", 0),
}


def semantic_tokens(snapshot: Snapshot, start: int | None = None, end: int | None = None) -> list[int]:
    """LSP's relative token encoding for the whole document (`encoded`, read back) or the lines of `[start, end]`."""
    text = snapshot.text
    if start is None and end is None:
        return json.loads(encoded(snapshot).text)["data"]
    lo = 0 if start is None else snapshot.lines.line_start(snapshot.lines.line_of(start))
    hi = len(text) if end is None else snapshot.lines.line_end(snapshot.lines.line_of(end))
    data, _ = _encode(snapshot, _collect(snapshot, lo, hi))
    return data


def encoded(snapshot: Snapshot) -> JsonText:
    """`SemanticTokens` of the whole document: while it is opened, its first units' (`_opening`);
    once analysed, those `FULL_BUDGET_S` allows past the units kept (`_join`), kept once complete."""
    if snapshot.parsed_to is not None:
        return snapshot.cached(WHOLE, lambda: semantic_tokens_of([numbers(_opening(snapshot))]))
    cached = snapshot.cache.get(WHOLE)
    if cached is not None:
        return cached
    joining = _joining(snapshot)
    if _join(snapshot, joining, time.perf_counter() + FULL_BUDGET_S, False):
        return _joined(snapshot, joining)
    snapshot.cache[PARTIAL_TOKENS] = True
    return semantic_tokens_of(joining.parts)


@dataclass
class _Joining:
    """The whole document's tokens, as parts of their JSON (`wire.semantic_tokens_of`), joined a
    segment (`_segments`) at a time, in order: by `keep_step` and the requests in between."""

    segments: list[tuple[int, int, Unit | None]]
    parts: list[str] = field(default_factory=list)
    at: int = 0  # the segments joined
    prev_line: int = 0  # where the last token joined starts
    prev_char: int = 0
    # A unit longer than CLIP_BYTES being lexed a piece per step (`_lex_pieces`): its pieces left
    # (last first) and the tokens of those lexed.
    pieces: list[tuple[int, int]] | None = None
    lexed: list[tuple[int, int, int, int]] = field(default_factory=list)


def _joining(snapshot: Snapshot) -> _Joining:
    return snapshot.cached(_JOINING, lambda: _Joining(_segments(document_index(snapshot), 0, len(snapshot.text))))


def _joined(snapshot: Snapshot, joining: _Joining) -> JsonText:
    """Keep the whole document's tokens once every segment is joined."""
    whole = snapshot.cache[WHOLE] = semantic_tokens_of(joining.parts)
    del snapshot.cache[_JOINING]
    return whole


def _segments(index: DocumentIndex, lo: int, hi: int) -> list[tuple[int, int, Unit | None]]:
    """Spans to lex separately: leaf units overlapping `[lo, hi]` (with the unit) and the text
    between them (with None)."""
    leaves = []
    for unit, start, end, holding in index.spans():  # in order
        if end < lo or start > hi or holding or unit.op.facts.implicit:
            continue
        leaves.append((start, end, unit))
    out: list[tuple[int, int, Unit | None]] = []
    pos = lo
    for s, e, unit in leaves:
        if s > pos:
            out.append((pos, s, None))
        out.append((s, e, unit))
        pos = max(pos, e)
    if pos < hi:
        out.append((pos, hi, None))
    return out


def _lex(snapshot: Snapshot, index: DocumentIndex, s: int, e: int) -> list[tuple[int, int, int, int]]:
    """(start, end, type, modifiers) of the tokens of `[s, e)`, in order."""
    text = snapshot.text
    out: list[tuple[int, int, int, int]] = []
    lexed = tokenize(text, op_names(), s, e)
    for comment in lexed.comments:
        mods = _M["documentation"] if _SUPPRESSION.match(comment.text) else 0
        out.append((comment.range.start, comment.range.end, _T["comment"], mods))
    for tok in _flat(lexed.tokens):
        _classify(tok, text, index, out)
    out.sort()
    return out


def _lines_of(snapshot: Snapshot, index: DocumentIndex, lo: int, hi: int) -> list[tuple[int, int]]:
    """The spans of `_segments(index, lo, hi)` to lex, one longer than CLIP_BYTES cut to the lines
    `[lo, hi]` touch: a unit lexed from a line start, where an op starts (a line inside an op
    written over several may be coloured otherwise until the whole document's tokens come)."""
    text = snapshot.text
    out: list[tuple[int, int]] = []
    for s, e, _ in _segments(index, lo, hi):
        if e - s > CLIP_BYTES:
            line_end = text.find("\n", hi)
            s, e = max(s, text.rfind("\n", 0, lo) + 1), min(e, len(text) if line_end < 0 else line_end + 1)
        out.append((s, e))
    return out


def _collect(snapshot: Snapshot, lo: int, hi: int) -> list[tuple[int, int, int, int]]:
    """(start, end, type, modifiers) in `[lo, hi]`, in document order."""
    index = document_index(snapshot)
    out: list[tuple[int, int, int, int]] = []
    for s, e in _lines_of(snapshot, index, lo, hi):
        out.extend(_lex(snapshot, index, s, e))
    return [t for t in out if t[1] > lo and t[0] < hi]


def _opening(snapshot: Snapshot) -> list[int]:
    """While a large document is opened (`Snapshot.parsed_to`): the tokens of the units and the
    text between them on its first screens (`FIRST_LINES`), as many as `OPENING_BUDGET_S` allows
    (the server asks the client to refresh them once the document is analysed). More would cost
    the open: in the compiled build, the 50 ms of the budget took the tokens of 2,500 lines, on the
    core of a range worker."""
    index = document_index(snapshot)
    deadline = time.perf_counter() + OPENING_BUDGET_S
    starts = snapshot.lines.starts
    first_screens = starts[min(FIRST_LINES, len(starts) - 1)]
    out: list[tuple[int, int, int, int]] = []
    for s, e in _lines_of(snapshot, index, 0, min(snapshot.parsed_to or 0, first_screens)):
        out.extend(_lex(snapshot, index, s, e))
        if time.perf_counter() >= deadline:
            break
    return _encode(snapshot, out)[0]


def _join(snapshot: Snapshot, joining: _Joining, deadline: float, keep: bool) -> bool:
    """Join more segments, each unit's from its tokens kept (they only move by whole lines) or
    lexed and kept; past `deadline`, stop before the next unit to lex (`keep`: after lexing one at
    least) and say False; True once every segment is joined."""
    index = document_index(snapshot)
    starts = snapshot.lines.starts
    segments = joining.segments
    lexed = False
    while joining.at < len(segments):
        s, e, unit = segments[joining.at]
        if unit is None:
            block, ends = _encode(snapshot, _lex(snapshot, index, s, e))
            base_line, rest = 0, numbers(block[2:])
        else:
            tokens = None
            if not _kept(unit, starts):
                if (lexed or not keep) and time.perf_counter() >= deadline:
                    return False
                lexed = True
                if e - s > CLIP_BYTES:
                    if not _lex_pieces(snapshot, index, unit, joining, deadline):
                        return False
                    tokens, joining.lexed, joining.pieces = joining.lexed, [], None
            base_line, ends, rest = _unit_tokens(snapshot, index, unit, starts, tokens)
        joining.at += 1
        if ends is None:
            continue
        first, last = ends
        delta_line = base_line + first[0] - joining.prev_line
        joining.parts.append(f"{delta_line},{first[1] - joining.prev_char if delta_line == 0 else first[1]}")
        joining.parts.append(rest)
        joining.prev_line, joining.prev_char = base_line + last[0], last[1]
    return True


def _kept(unit: Unit, starts: list[int]) -> bool:
    """Whether the unit's encoded tokens are kept for where it is now."""
    base = unit.op.anchor.base
    cached = unit.index.tokens
    return cached is not None and cached[0] == base - starts[bisect_right(starts, base) - 1]


def _lex_pieces(snapshot: Snapshot, index: DocumentIndex, unit: Unit, joining: _Joining, deadline: float) -> bool:
    """Lex a long unit a piece at a time (`_pieces`) into `joining.lexed`, stopping past `deadline`
    after one piece at least (the rest is kept in `joining` for the next step); whether all are."""
    if joining.pieces is None:
        joining.pieces = _pieces(snapshot.text, unit.op, unit.range.start, unit.range.end)[::-1]
    pieces = joining.pieces
    while pieces:
        s, e = pieces.pop()
        joining.lexed.extend(_lex(snapshot, index, s, e))
        if pieces and time.perf_counter() >= deadline:
            return False
    return True


# An op's first line that lexes alone as it does after the op before it: its results, or a dotted
# name (an undotted one is an op name only where an op is expected, which the op before decides).
_PIECE_START = re.compile(r"%|[A-Za-z_][\w$]*\.")


def _pieces(text: str, op: Operation, start: int, end: int) -> list[tuple[int, int]]:
    """`[start, end)`, the text of `op`, cut where the ops of its regions start (those `_PIECE_START`
    matches, in order): each piece lexes to the tokens the whole text has there (the brackets of
    `op` that a piece leaves open or closes are not tokens of ours)."""
    cuts = [start]
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                at = child.range.start if child.range is not None else -1
                if cuts[-1] < at < end and _PIECE_START.match(text, at):
                    cuts.append(at)
    cuts.append(end)
    return list(zip(cuts, cuts[1:]))


def _unit_tokens(
    snapshot: Snapshot, index: DocumentIndex, unit: Unit, starts: list[int], tokens: list[tuple[int, int, int, int]] | None = None
) -> tuple[int, TokenEnds | None, str]:
    """(the line of the unit's anchor, the ends of its tokens relative to that line, the JSON of
    its encoded tokens past the first's line and character), lexed once per column of its anchor
    (or given, `tokens`, lexed a piece at a time) and kept."""
    base = unit.op.anchor.base
    base_line = bisect_right(starts, base) - 1
    base_col = base - starts[base_line]
    cached = unit.index.tokens
    if cached is None or cached[0] != base_col:
        if tokens is None:
            tokens = _lex(snapshot, index, unit.range.start, unit.range.end)
        block, ends = _encode(snapshot, tokens)
        if ends is not None:
            (first_l, first_c), (last_l, last_c) = ends
            ends = (first_l - base_line, first_c), (last_l - base_line, last_c)
        cached = unit.index.tokens = (base_col, ends, numbers(block[2:]))
    return base_line, cached[1], cached[2]


def keep_step(snapshot: Snapshot, budget_s: float) -> bool:
    """Lex and keep the tokens of more units of an analysed snapshot, joining the whole document's
    from where the last step (or request) stopped: one unit at least, then as many as `budget_s`
    allows; whether every unit's tokens are kept, and the whole document's (`encoded`)."""
    if snapshot.parsed_to is not None or WHOLE in snapshot.cache:
        return True
    joining = _joining(snapshot)
    if not _join(snapshot, joining, time.perf_counter() + budget_s, True):
        return False
    _joined(snapshot, joining)
    return True


def _flat(tokens):
    """The lexer's tokens with runs of atoms (ITEMS tokens) opened up."""
    for tok in tokens:
        atoms = getattr(tok, "atoms", None)
        if atoms is not None:
            yield from atoms
        else:
            yield tok


def _classify(tok, text: str, index: DocumentIndex, out: list) -> None:
    kind = tok.type
    s, e = tok.start_pos, tok.end_pos
    if e <= s:
        return
    if kind in _SIMPLE:
        name, mods = _SIMPLE[kind]
        out.append((s, e, _T[name], mods))
    elif kind == "OPNAME":
        spec = lookup(tok.value.strip('"'))
        out.append((s, e, _T["macro"], _M["defaultLibrary"] if spec is not None else 0))
    elif kind == "RESULTS":
        for m in _RESULT_NAME.finditer(tok.value):
            _value(s + m.start(), s + m.end(), index, out, True)
    elif kind == "VALUE":
        _value(s, e, index, out, False)
    elif kind == "TYPE":
        mods = _M["defaultLibrary"] if _BUILTIN_TYPE.match(tok.value) else 0
        out.append((s, e, _T["type"], mods))
    elif kind == "ATTR":
        out.append((s, e, _T["enumMember"], 0))
    elif kind == "ALIAS_DEF":
        alias = _ALIAS_NAME.match(tok.value)
        name_end = s + len(alias[0]) if alias is not None else e
        out.append((s, name_end, _T["type" if tok.value.startswith("!") else "enumMember"], _M["declaration"]))
    elif kind == "SYMBOL":
        _symbol(s, e, index, out)
    elif kind in ("DICT", "PROPS"):
        inner = 1 if kind == "DICT" else 2
        sub = tokenize(text, frozenset(), s + inner, e - inner, attr_mode=True)
        previous = None
        for t in _flat(sub.tokens):
            if t.type == "BARE" and (previous is None or previous.value in (",", "{")) or t.type == "STRING" and (previous is None or previous.value == ","):
                out.append((t.start_pos, t.end_pos, _T["property"], 0))
            else:
                _classify(t, text, index, out)
            previous = t


def _value(s: int, e: int, index: DocumentIndex, out: list, is_def: bool) -> None:
    occ = index.at(s)
    mods = _M["declaration"] if is_def else 0
    kind = "variable"
    value = occ.target if occ is not None and occ.start == s else None
    if occ is not None and isinstance(value, Value):
        if occ.is_def:
            mods |= _M["declaration"]
        if isinstance(value, BlockArgument):
            kind = "parameter"
        if value.type.is_token:
            mods |= _M["async"]
    out.append((s, e, _T[kind], mods))


def _symbol(s: int, e: int, index: DocumentIndex, out: list) -> None:
    pos = s
    while pos < e:
        occ = index.at(pos + 1)
        if occ is None or occ.kind != SYMBOL or occ.start < s:
            out.append((pos, e, _T["function"], 0))
            return
        target = index.target_of(occ)
        kind = "function"
        if isinstance(target, Operation):
            spec = lookup(target.name)
            if spec is not None and spec.has("symbol_table"):
                kind = "namespace"
            elif spec is None or not spec.has("function"):
                kind = "class"
        out.append((occ.start, occ.end, _T[kind], _M["declaration"] if occ.is_def else 0))
        pos = occ.end + 2  # past `::`


def _encode(snapshot: Snapshot, tokens: list[tuple[int, int, int, int]]) -> tuple[list[int], TokenEnds | None]:
    """Split multi-line tokens, then delta-encode (line, start, length) in the snapshot's
    encoding from (0, 0); also the (line, character) of the first and the last token (None
    when there is no token)."""
    text = snapshot.text
    lines = snapshot.lines
    starts = lines.starts
    data: list[int] = []
    prev_line = 0
    prev_char = 0
    first = None
    last_end = -1
    for s, e, ty, mods in tokens:
        if s < last_end:
            continue
        last_end = e
        line = bisect_right(starts, s) - 1
        while s < e:
            line_end = lines.line_end(line)
            seg_end = min(e, line_end)
            if seg_end > s:
                ls = starts[line]
                char = _width(text, ls, s, snapshot.encoding)
                length = _width(text, s, seg_end, snapshot.encoding)
                delta_line = line - prev_line
                delta_char = char - prev_char if delta_line == 0 else char
                data.extend((delta_line, delta_char, length, ty, mods))
                prev_line, prev_char = line, char
                if first is None:
                    first = (line, char)
            line += 1
            if line >= len(starts):
                break
            s = starts[line]
    return data, (first, (prev_line, prev_char)) if first is not None else None


def _width(text: str, s: int, e: int, encoding: str) -> int:
    if encoding == "utf-32":
        return e - s
    segment = text[s:e]
    if segment.isascii():
        return e - s
    if encoding == "utf-16":
        return len(segment.encode("utf-16-le", "surrogatepass")) // 2
    return len(segment.encode("utf-8", "surrogatepass"))

