"""Documents too large to analyse in full: the server analyses their beginning and says so.

A document longer than `MAX_ANALYSED` characters (gpu-lint's file-size limit), or with a line
longer than `LONG_LINE` characters (one top-level op per line is the unit the parser slices
an open by; a megabyte of ops on one line would hold the analysis thread for minutes), is
analysed up to the cut: the store's document holds that prefix (positions in it are those
of the whole text), and the whole text is kept here so that edits apply to it. The user is
told once per document, and again when it becomes small enough.
"""

from __future__ import annotations

from collections.abc import Callable

from gpu_lsp.lint.discovery import MAX_FILE_SIZE
from gpu_lsp.lsp.documents import Change, Document

MAX_ANALYSED = MAX_FILE_SIZE
LONG_LINE = 50_000

Notify = Callable[[str], None]


def cut_at(text: str) -> int | None:
    """Where the analysis of `text` stops; None when all of it is analysed."""
    end = min(len(text), MAX_ANALYSED)
    start = 0
    while start < end:
        stop = text.find("\n", start, end)
        if stop < 0:
            stop = end
        if stop - start > LONG_LINE:
            return start + LONG_LINE
        start = stop + 1
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

    def whole_text(self, uri: str) -> str | None:
        """The whole text of a document analysed in part (None for the others)."""
        whole = self._whole.get(uri)
        return whole.text if whole is not None else None


OVERSIZED = Oversized()
