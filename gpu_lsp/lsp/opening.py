"""The open of a large document, one analysis-thread job at a time: the parse of its first
screens, the answers about the whole document taken from them (`ahead.FROM_PARSE`), then what
the text alone tells about the whole document (its outline and its regions, `skeleton`), a slice
per call, the outline's JSON (`wire.encode_ahead`), the answers that take them (`ahead.FROM_TEXT`;
one answer per call: the event loop answers them from the document, `Document.answer_ahead`),
then the rest of its parse (`Document.analyse_step`). A file that is not MLIR, whose parse stops
at the cap of syntax errors (`bounded.reaches_the_cap`), is opened by its parse alone."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from gpu_lsp.lsp import ahead, wire
from gpu_lsp.lsp.bounded import reaches_the_cap
from gpu_lsp.lsp.document_symbols import text_outline
from gpu_lsp.lsp.documents import FIRST_LINES, TEXT_VIEWS, Document, Phase, Snapshot
from gpu_lsp.lsp.skeleton import TextView, brace_list
from gpu_lsp.lsp.trace import mark

# The text looked at per call (about 2,000 lines: ~20 ms), up to the end of a top-level op.
SLICE_CHARS = 80_000
# The outline's symbols encoded per call once the text views are complete (~10 ms).
SLICE_SYMBOLS = 500
log = logging.getLogger(__name__)

_BUILDERS: dict[str, Callable[[str, int, int], list[Any]]] = dict(zip(TEXT_VIEWS, (text_outline, brace_list), strict=True))


def open_step(doc: Document) -> bool:
    """Some more of the open of `doc`: a step of its parse, an answer about the whole document,
    a slice of its text views or of the outline's JSON; whether the parse is complete
    (`Document.analyse_step`)."""
    snap = doc.partial
    if snap is None or snap.parsed_to is None or snap.parsed_to >= len(snap.text) or snap.text is not doc.text:
        return doc.analyse_step()
    parsed_to = snap.parsed_to
    starts = snap.lines.starts
    if parsed_to < starts[min(FIRST_LINES, len(starts) - 1)] or reaches_the_cap(snap):
        return doc.analyse_step()
    if _keep_next(doc, snap, ahead.FROM_PARSE):
        return False
    views: list[TextView] = []
    for key, build in _BUILDERS.items():
        view = snap.cache.get(key)
        if view is None:
            view = snap.cache[key] = TextView(parsed_to, build)
        views.append(view)
    behind = [view for view in views if view.end < len(snap.text)]
    if not behind:
        found = snap.cache["text_outline"].found
        if not wire.encode_ahead(snap, found, 0):
            wire.encode_ahead(snap, found, SLICE_SYMBOLS)
            return False
        return False if _keep_next(doc, snap, ahead.FROM_TEXT) else doc.analyse_step()
    to = doc.boundary_after(min(view.end for view in behind) + SLICE_CHARS)
    for view in behind:
        view.extend(snap.text, to)
    return False


def only_parse_left(doc: Document) -> bool:
    """Whether all that is left of the open of `doc` is the rest of its parse: every answer about
    the whole document is kept (a K-way open's workers may then have the cores first)."""
    kept = set(doc.kept_answers())
    return all(method in kept for method in (*ahead.FROM_PARSE, *ahead.FROM_TEXT))


def _keep_next(doc: Document, snap: Snapshot, answers: dict[str, Callable[[Snapshot], Any]]) -> bool:
    """Compute and keep the first of `answers` not kept yet for the text of `snap`; whether there
    was one. One that raises is kept as None (logged): its request is answered when asked, and
    the open goes on (it would otherwise raise again at every step, and never end)."""
    kept = doc.kept_answers()
    for method, answer in answers.items():
        if method not in kept:
            try:
                found = answer(snap)
            except Exception:
                log.exception("the answer to %s computed ahead during the open failed", method)
                found = None
            doc.keep_answer(snap.text, method, found)
            mark(f"server: kept the answer to {method}")
            return True
    return False


def answer_during_open(doc: Document, method: str, stop: Callable[[], bool]) -> tuple[Any | None, bool]:
    """While `doc` is opened: the answer its open computes ahead for `method` (`ahead.AHEAD`),
    taking the open's next steps up to it (a request that comes before it is ready waits for what
    the open does next anyway, not for an answer of its own about the part parsed by then), until
    `stop()` says to stop; (the answer or None, whether more steps may give it: `stop()` came
    first). None when the document is not being opened, or its parse completes first."""
    while doc.phase is Phase.OPENING:
        answer = doc.answer_ahead(method)
        if answer is not None:
            return answer, False
        if open_step(doc):
            return doc.answer_ahead(method), False
        if stop():
            return None, True
    return None, False
