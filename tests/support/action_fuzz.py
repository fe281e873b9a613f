"""The code-action fuzzer (issue 26): every action the server offers on a chunk, applied and checked.

For a chunk, at sampled ops and at every diagnostic, the actions are computed in process by the
functions behind the server's codeAction handler (`lsp.actions`): the refactorings available at
the op (`refactorings_available` + `compute_refactoring`) and each diagnostic's quick fix and
ignore comment (`diagnostic_actions`). Each edit is applied and the result checked:

(a) it parses and verifies with no error the input did not have (and, for the oracle, see
    `oracle_checks`: upstream accepts it wherever it accepted the input);
(b) text outside the ops the action touches stays as it was: no line is only re-indented
    (wrapping a file in a module inserts lines, it does not re-indent them);
(c) a touched op keeps its layout where only a token changes: no line of it is joined into
    another or re-flowed;
(d) new SSA values follow one naming scheme (`NAMING`);
(e) the same refactoring, asked again at the same op of the result, offers nothing new.

Ops are sampled deterministically: every op of a chunk with at most `MAX_OPS` of them, else
`MAX_OPS` evenly spaced ones (the first and last included).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from lsp_samples import snapshot

from gpu_lsp.analysis import verify_chunk
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.lsp.actions import compute_refactoring, diagnostic_actions, refactoring_site, refactorings_available
from gpu_lsp.lsp.index import op_at
from gpu_lsp.parser.api import parse
from gpu_lsp.passes.refactor import ASYNC_FUNCTION, OUTLINE_FUNCTION, OUTLINE_LAUNCH, RefactorError
from gpu_lsp.text import Edit, apply_edits

MAX_OPS = 4
# New values are named like this: a token `%tN`, anything else after its printer hint or `%vN`.
NAMING = re.compile(r"^(t[0-9]+|[0-9]+|[A-Za-z_][\w$.]*)$")
TOKEN_NAME = re.compile(r"^t[0-9]+$")
SSA_DEF = re.compile(r"(%[\w$.]+)(?::[0-9]+)?(?=(?:\s*,\s*%[\w$.]+(?::[0-9]+)?)*\s*=[^=])")
SSA = re.compile(r"%[\w$.]+")
BLANKS = re.compile(r"\s+")
TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|[%@^!#][\w$.#]*|[\w.$]+|->|::|\S')


@dataclass
class Finding:
    """One check an action failed: which, where, and the edit's text for the report."""

    check: str
    chunk: str
    action: str
    detail: str


@dataclass
class Tally:
    """What the fuzzer did and found."""

    chunks: int = 0
    tried: int = 0
    findings: list[Finding] = field(default_factory=list)
    oracle_todo: list[tuple[str, str, str, str]] = field(default_factory=list)  # (chunk name, action, result, input)

    def counts(self) -> Counter[str]:
        return Counter(f.check for f in self.findings)


def _errors(text: str) -> Counter[tuple[str, str]]:
    """The errors of the parser and verifier (GPU0xx/GPU1xx) of one chunk, by code and message."""
    found = [d for chunk in parse(text).chunks for d in verify_chunk(chunk)]
    return Counter((d.code, d.message) for d in found if d.severity >= Severity.ERROR and d.code[:4] in ("GPU0", "GPU1"))


def _sample(ops: list) -> list:
    if len(ops) <= MAX_OPS:
        return ops
    step = (len(ops) - 1) / (MAX_OPS - 1)
    return [ops[round(i * step)] for i in range(MAX_OPS)]


def _op_offsets(snap) -> list[int]:
    ops = []
    for chunk in snap.parsed.chunks:
        for op in chunk.module.walk():
            rng = op.name_range or op.range
            if rng is not None and op is not chunk.module:
                ops.append(rng.start)
    return [o for o in _sample(sorted(set(ops)))]


def _new_names(before: str, after: str) -> set[str]:
    return {m.group(1)[1:] for m in SSA_DEF.finditer(after)} - {m.group(1)[1:] for m in SSA_DEF.finditer(before)}


def _strip_ssa(text: str) -> str:
    return BLANKS.sub("", SSA.sub("%", text))


def _subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(token in it for token in short)


def _tokens(text: str) -> list[str]:
    return ["%" if t.startswith("%") else t for t in TOKENS.findall(text)]


def layout_findings(before: str, edits: list[Edit], moved: list[tuple[int, int]] | tuple = ()) -> list[tuple[str, str]]:
    """(check, detail) for each line an edit only re-indents (b) or joins into another line while only adding tokens
    (c); lines inside `moved` (the launches an outlining moves into a kernel) may be both."""
    out: list[tuple[str, str]] = []
    for edit in edits:
        if any(a <= edit.range.start < b for a, b in moved):
            continue
        old = before[edit.range.start : edit.range.end]
        line_start = before.rfind("\n", 0, edit.range.start) + 1
        at_indent = not before[line_start : edit.range.start].strip()
        rest = before[edit.range.end : before.find("\n", edit.range.end) if "\n" in before[edit.range.end :] else len(before)]
        if not edit.new_text.strip() and not old.strip() and at_indent and rest.strip() and "\n" not in edit.new_text + old:
            out.append(("outside", f"re-indented: {rest.strip()[:80]!r}"))
            continue
        if "\n" not in old:
            continue
        new_lines = {line.strip(): line for line in edit.new_text.split("\n") if line.strip()}
        for line in old.split("\n")[1:-1]:  # the lines the edit holds whole
            twin = new_lines.get(line.strip())
            if twin is not None and twin != line:
                out.append(("outside", f"re-indented: {line.strip()[:80]!r}"))
        if old.count("\n") > edit.new_text.count("\n") and _subsequence(_tokens(old), _tokens(edit.new_text)):
            out.append(("layout", f"re-flowed: {BLANKS.sub(' ', old.strip())[:80]!r}"))
    return out


def check_chunk(name: str, text: str, tally: Tally) -> None:
    """Try every action at the sampled ops and diagnostics of one chunk; record what fails. A chunk with
    `expected-error` annotations is invalid upstream by design (garbage in): it is not tried."""
    if "expected-error" in text:
        return
    tally.chunks += 1
    snap = snapshot(text)
    before_errors = _errors(text)
    launches = [(op.range.start, op.range.end) for c in snap.parsed.chunks for op in c.module.walk() if op.name == "gpu.launch" and op.range]
    seen: set[tuple[str, tuple]] = set()
    candidates: list[tuple[str, list[Edit], int, str | None]] = []  # (title, edits, offset, refactoring id)
    asked: set[tuple[str, int]] = set()
    for offset in _op_offsets(snap):
        site = refactoring_site(snap, offset)
        for item in refactorings_available(snap, offset):
            # What a refactoring rewrites: the launch at the site, its top-level op, or the whole chunk.
            scope = site.launch if item.id == OUTLINE_LAUNCH else site.top if item.id in (OUTLINE_FUNCTION, ASYNC_FUNCTION) else None
            if (item.id, id(scope)) in asked:
                continue
            asked.add((item.id, id(scope)))
            try:
                title, edits = compute_refactoring(snap, item.id, offset)
            except RefactorError:
                continue
            candidates.append((title, edits, offset, item.id))
    for diagnostic in snap.diagnostics:
        for action in diagnostic_actions(snap, diagnostic):
            candidates.append((action.title, list(action.edits), diagnostic.range.start, None))
    for title, edits, offset, refactoring in candidates:
        key = (title, tuple((e.range.start, e.range.end, e.new_text) for e in edits))
        if key in seen or not edits:
            continue
        seen.add(key)
        tally.tried += 1
        after = apply_edits(text, edits)
        new_errors = _errors(after) - before_errors
        if new_errors:
            tally.findings.append(Finding("invalid", name, title, str(sorted(new_errors)[:2])))
        elif not before_errors:
            tally.oracle_todo.append((name, title, after, text))
        moved = launches if title.startswith("Outline") else []
        for check, detail in layout_findings(text, edits, moved):
            tally.findings.append(Finding(check, name, title, detail))
        fresh = _new_names(text, after)
        tokens = _token_names(after) if fresh and not new_errors else set()
        for value in sorted(fresh):
            if not NAMING.match(value) or (value in tokens and not TOKEN_NAME.match(value)):
                tally.findings.append(Finding("naming", name, title, f"%{value}"))
        if refactoring is not None and not new_errors:
            _check_again(name, title, text, after, edits, offset, refactoring, tally)


def _token_names(text: str) -> set[str]:
    """The names of the async tokens (`!gpu.async.token` values) `text` defines."""
    return {
        r.name.split("#", 1)[0]
        for chunk in parse(text).chunks
        for op in chunk.module.walk()
        for r in op.results
        if r.name and r.type.is_token
    }


def _shifted(offset: int, edits: list[Edit]) -> int | None:
    """Where `offset` is after the edits; None when an edit replaced the text around it (the op moved away)."""
    if any(e.range.start < offset < e.range.end for e in edits):
        return None
    delta = sum(len(e.new_text) - (e.range.end - e.range.start) for e in edits if e.range.end <= offset)
    return offset + delta


def _check_again(name: str, title: str, before: str, after: str, edits: list[Edit], offset: int, refactoring: str, tally: Tally) -> None:
    """(e): the same refactoring at the same op of the result changes nothing (or does not apply)."""
    at = _shifted(offset, edits)
    if at is None:
        return
    snap = snapshot(after)
    was, now = op_at(snapshot(before).parsed, offset), op_at(snap.parsed, at)
    if was is None or now is None or was.name != now.name:
        return  # the op became another (a launch outlined into a launch_func): not the same op
    if refactoring not in {item.id for item in refactorings_available(snap, at)}:
        return
    try:
        _title, again = compute_refactoring(snap, refactoring, at)
    except RefactorError:
        return
    if again and apply_edits(after, again) != after:
        tally.findings.append(Finding("again", name, title, f"{len(again)} more edits"))
