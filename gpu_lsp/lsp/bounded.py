"""Documents too large to analyse in full: the server analyses their beginning and says so.

A document longer than `MAX_ANALYSED` characters (gpu-lint's file-size limit), or with a line
longer than `LONG_LINE` characters (one top-level op per line is the unit the parser slices
an open by; a megabyte of ops on one line would hold the analysis thread for minutes), is
analysed up to the cut: the store's document holds that prefix (positions in it are those
of the whole text), and the whole text is kept here so that edits apply to it. The user is
told once per document, and again when it becomes small enough. A request at a position past
the cut gets no answer (`beyond_cut`), not one about the end of the analysed part. Until such a document is
analysed, a hover in its long line is answered from a parse of the text around the position
(`local_view`), not after the parse of the whole line. A document whose first part parsed has
syntax errors at a rate that reaches the parser's cap before its end (`reaches_the_cap`: a file
that is not MLIR) is opened by its parse alone, which stops at the cap.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gpu_lsp.diagnostics.model import MAX_DIAGNOSTICS
from gpu_lsp.lint.discovery import MAX_FILE_SIZE
from gpu_lsp.lsp import engine
from gpu_lsp.lsp.documents import Change, Document, Snapshot
from gpu_lsp.lsp.lint_cache import LintResult
from gpu_lsp.lsp.positions import LineTable

MAX_ANALYSED = MAX_FILE_SIZE
LONG_LINE = 50_000
# The text parsed around a position for `local_view`, each side at most.
LOCAL_CHARS = 2_000
# Where an op with results starts: `%a = `, `%a, %b = `, `%a:2 = `.
_OP_START = re.compile(r"%[\w$.-]+(?::\d+)?(?:\s*,\s*%[\w$.-]+(?::\d+)?)*\s*=\s")

Notify = Callable[[str], None]


def cut_at(text: str) -> int | None:
    """Where the analysis of `text` stops; None when all of it is analysed."""
    end = min(len(text), MAX_ANALYSED)
    # A line longer than LONG_LINE holds a whole window of half that length without a line
    # break: only the lines around such windows are measured (a 4 MB text is 160 windows, not
    # 100,000 lines looked at one by one on the event loop).
    window = LONG_LINE // 2
    checked = 0
    for at in range(0, end, window):
        if at < checked or "\n" in text[at : min(at + window, end)]:
            continue
        start = text.rfind("\n", 0, at) + 1
        stop = text.find("\n", at, end)
        stop = end if stop < 0 else stop
        if stop - start > LONG_LINE:
            return start + LONG_LINE
        checked = stop
    return None if end == len(text) else end


def notice(uri: str, text: str, cut: int) -> str:
    """The message that says what part of a document is analysed."""
    name = uri.rsplit("/", 1)[-1]
    why = f"a line longer than {LONG_LINE:,} characters" if cut < min(len(text), MAX_ANALYSED) else "over the size the server analyses"
    return (
        f"gpu-lsp: {name} is {len(text) / 1e6:.1f} MB with {why}; only its first {cut:,} characters are analysed "
        "(diagnostics, hover and navigation cover that part; gpu-lint checks files up to "
        f"{MAX_FILE_SIZE / 1e6:.0f} MB)."
    )


def reaches_the_cap(snap: Snapshot) -> bool:
    """Whether the part of a document parsed so far (a partial snapshot of its open) has parser
    diagnostics at a rate that reaches the parser's cap (`MAX_DIAGNOSTICS`) before the end of the
    text: its parse stops early, so its open builds nothing of the text the parse leaves unread."""
    parsed_to = snap.parsed_to
    if not parsed_to:
        return False
    errors = sum(len(chunk.diagnostics) for chunk in snap.parsed.chunks)
    return errors * len(snap.text) >= MAX_DIAGNOSTICS * parsed_to


def local_view(doc: Document, line: int, character: int) -> Snapshot | None:
    """For a position in a line longer than `LONG_LINE` of a document not analysed yet: a
    snapshot of the ops around it alone (the text before them blank, so positions are those of
    the document); None elsewhere."""
    lines = doc.lines
    if doc.snapshot is not None or not 0 <= line < len(lines.starts):
        return None
    text = doc.text
    begin = lines.line_start(line)
    stop = text.find("\n", begin)
    stop = len(text) if stop < 0 else stop
    if stop - begin < LONG_LINE:
        return None
    offset = min(lines.offset(text, line, character, doc.encoding), stop)
    starts = [m.start() for m in _OP_START.finditer(text, max(begin, offset - LOCAL_CHARS), min(stop, offset + LOCAL_CHARS))]
    first = max((at for at in starts if at <= offset), default=max(begin, offset - LOCAL_CHARS))
    after = [at for at in starts if at > offset]
    last = after[-1] if after else min(stop, offset + LOCAL_CHARS)  # whole ops only
    column = lines.position(text, first, doc.encoding)[1]
    local = "\n" * line + " " * column + text[first:last]
    parsed = engine.parse_document(local)
    return Snapshot(doc.uri, doc.version, local, LineTable.of(local), parsed, LintResult.of([]), doc.encoding)


class Oversized:
    """The whole text of each document analysed only in part, by URI."""

    def __init__(self) -> None:
        self._whole: dict[str, Document] = {}

    def open(self, uri: str, text: str, version: int, encoding: str, notify: Notify) -> str:
        """The text the store analyses for a document opened with `text`."""
        self._whole.pop(uri, None)
        cut = cut_at(text) if len(text) > LONG_LINE else None
        if cut is None:
            return text
        self._whole[uri] = Document(uri, text, version, encoding=encoding)
        notify(notice(uri, text, cut))
        return text[:cut]

    def change(self, doc: Document, changes: list[Change], version: int, notify: Notify) -> list[Change]:
        """The changes the store applies to `doc` for the client's `changes`."""
        whole = self._whole.get(doc.uri)
        if whole is None:
            if not any(rng is None or len(text) > LONG_LINE for rng, text in changes):
                return changes  # an edit of a document analysed in full keeps it under the limits
            whole = Document(doc.uri, doc.text, doc.version, encoding=doc.encoding)
            whole.apply(changes, version)
            cut = cut_at(whole.text)
            if cut is None:
                return changes
            self._whole[doc.uri] = whole
            notify(notice(doc.uri, whole.text, cut))
            return [(None, whole.text[:cut])]
        whole.apply(changes, version)
        cut = cut_at(whole.text)
        if cut is not None and whole.text[:cut] == doc.text:
            return []  # an edit past the cut: the analysed part is unchanged
        if cut is None:
            del self._whole[doc.uri]
            notify(f"gpu-lsp: {doc.uri.rsplit('/', 1)[-1]} is analysed in full again.")
            return [(None, whole.text)]
        return [(None, whole.text[:cut])]

    def close(self, uri: str) -> None:
        self._whole.pop(uri, None)

    def beyond_cut(self, doc: Document, line: int, character: int) -> bool:
        """Whether an LSP position of `doc` lies in the text past its cut (a document analysed in
        part): a request there is not answered from the analysed part, which ends before it."""
        if doc.uri not in self._whole:
            return False
        last = len(doc.lines.starts) - 1
        if line != last:
            return line > last
        return character >= doc.lines.position(doc.text, len(doc.text), doc.encoding)[1]

    def whole_text(self, uri: str) -> str | None:
        """The whole text of a document analysed in part (None for the others)."""
        whole = self._whole.get(uri)
        return whole.text if whole is not None else None


OVERSIZED = Oversized()
