"""Open documents: text kept in sync by incremental edits, and their analysed snapshots.

Threading model: the event loop applies edits (`Document.apply`), one analysis
thread owns the IR (`Document.analysed`). The IR of a snapshot is consumed by
the next incremental re-parse, so a snapshot is only read on the analysis
thread, before the next call to `analysed`.
"""

from __future__ import annotations

import enum
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpu_lsp.analysis import RuleSteps, finish_lint, lint_phase_rule
from gpu_lsp.diagnostics.model import STOPPED, Diagnostic
from gpu_lsp.ir.opdefs.registry import OpRegistry, activate, active
from gpu_lsp.lsp import engine, lint_child, range_lint
from gpu_lsp.lsp.index import document_index
from gpu_lsp.lsp.lint_cache import IncrementalLinter, LintKey, LintResult
from gpu_lsp.lsp.positions import UTF16, LineTable
from gpu_lsp.lsp.trace import mark
from gpu_lsp.parser.api import ParsedFile
from gpu_lsp.text import TextRange

log = logging.getLogger(__name__)

# Documents at least this long (code points) are opened a batch of top-level ops at a time,
# with requests on the part already parsed answered in between (`Document.analyse_step`).
PROGRESSIVE_SIZE = 200_000
# Top-level ops parsed per step at most, and the time after which a step stops (what a request
# may wait for, however loaded the machine is).
STEP_SEGMENTS = 64
STEP_S = 0.02


def stopped_early(parsed: ParsedFile) -> bool:
    """Whether the parser stopped at the cap of syntax errors within the first `PROGRESSIVE_SIZE`
    characters (a file that is not MLIR): its IR is no larger than a small document's."""
    return any(STOPPED in d.tags and d.range.start < PROGRESSIVE_SIZE for chunk in parsed.chunks for d in chunk.diagnostics)


# The lines of a large document its open parses before the answers it takes from the part parsed
# (`opening.open_step`): what an editor shows first, and what its semantic tokens cover until the
# document is analysed (`semantic_tokens.encoded`).
FIRST_LINES = 200
# What the features find in the text of a document being opened, beyond the part parsed
# (`Snapshot.parsed_to`; cache keys of `skeleton.TextView`s): kept from one partial snapshot to
# the next, which uses what lies beyond its own `parsed_to`.
TEXT_VIEWS = ("text_outline", "text_braces")
# The JSON of the outline's symbols (`wire.encode_symbols`), kept the same way.
SYMBOL_JSON = "symbol_json"
CARRIED = (*TEXT_VIEWS, SYMBOL_JSON)
# In the cache of the first analysed snapshot of a large document: the answers its open kept
# (`Document.keep_answer`, by request method), which the server may give while the snapshot's own
# are being computed (then asking the client to refresh them).
EARLY_ANSWERS = "early_answers"
# Set in an analysed snapshot's cache when a request got only some of its semantic tokens
# (`semantic_tokens.FULL_BUDGET_S`): the client is asked to refresh them once all are kept.
PARTIAL_TOKENS = "semantic_tokens_partial"

# An LSP content change: ((start line, start character, end line, end character) or None for
# the whole text, new text).
Change = tuple[tuple[int, int, int, int] | None, str]


@dataclass
class Snapshot:
    """One analysed version of a document: text, line table, IR and every diagnostic."""

    uri: str
    version: int
    text: str
    lines: LineTable
    parsed: ParsedFile
    lint: LintResult
    encoding: str = UTF16
    lint_key: LintKey = field(default_factory=LintKey)
    full_parse: bool = True
    # After an incremental parse: how many code points of the previous parse it parsed anew (what
    # it left to the collector, `HeapPolicy`).
    replaced: int = 0
    cache: dict[str, Any] = field(default_factory=dict)
    # While a large document is opened (a partial snapshot): where the part parsed so far ends
    # (the end of the text once parsed, while its lint runs); None once analysed.
    parsed_to: int | None = None
    # The op registry the text was parsed with (ir/opdefs/registry.py): another one parses it again.
    definitions: OpRegistry | None = None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every diagnostic, sorted (before the user's severity overrides)."""
        return self.lint.diagnostics

    @property
    def complete(self) -> bool:
        """False for a quick incremental lint, until `Document.settle` completes it."""
        return self.lint.complete

    def position(self, offset: int) -> tuple[int, int]:
        return self.lines.position(self.text, offset, self.encoding)

    def locator(self) -> Callable[[int], tuple[int, int]]:
        """`position` for the many offsets of one answer (`LineTable.locator`)."""
        return self.lines.locator(self.text, self.encoding)

    def offset(self, line: int, character: int) -> int:
        return self.lines.offset(self.text, line, character, self.encoding)

    def cached(self, key: str, build: Callable[[], Any]) -> Any:
        """A value derived from this snapshot, computed once."""
        try:
            return self.cache[key]
        except KeyError:
            value = self.cache[key] = build()
            return value


@dataclass(frozen=True)
class RunningLint:
    """A full lint running in a worker process: of which text, with which settings (`LintKey`),
    and whether it leaves the per-op lint-phase rules to this process (the open's, `open_in_child`)."""

    text: str
    key: LintKey
    child: lint_child.ChildLint | range_lint.RangeLints
    leaves_per_op_rules: bool


@dataclass(frozen=True)
class TakenLint:
    """The open's diagnostics, taken from its worker before `Document.analysed` (None: it failed)."""

    text: str
    key: LintKey
    found: list[Diagnostic] | None


class Phase(enum.Enum):
    """Where a document is in its life: being opened (no analysis yet; requests answered from
    the part parsed and the text), usable (analysed; a quick lint may wait for the full one), or
    settled (its analysis is of the current text and complete)."""

    OPENING = "opening"
    USABLE = "usable"
    SETTLED = "settled"


class Document:
    """An open text document and the edits not analysed yet."""

    def __init__(self, uri: str, text: str, version: int, language_id: str = "mlir", encoding: str = UTF16) -> None:
        self.uri = uri
        self.language_id = language_id
        self.encoding = encoding
        self.text = text
        self.version = version
        # The open's line table is made when first asked for (`lines`): the open of a large
        # document feeds its range workers first.
        self._lines: LineTable | None = None
        self._lines_lock = threading.Lock()
        self._lock = threading.Lock()
        # The edits since the text the last analysis started from (or the open's), as one range of
        # that text: all of it after a whole new text.
        self._base_length = len(text)
        self._window: tuple[int, int] | None = None
        self._full = True
        self._parsed: ParsedFile | None = None
        self._linter = IncrementalLinter()
        self._progress: engine.Progressive | None = None
        self._progress_definitions: OpRegistry | None = None  # the op registry `_progress` parses with
        # A full lint running in a worker process.
        self._child: RunningLint | None = None
        # Those rules on this process's parse while the open's child runs (`share_step`).
        self._share: RuleSteps | None = None
        # The open's diagnostics, taken from its worker before `analysed` (`take_open_lint`).
        self._taken: TakenLint | None = None
        self.snapshot: Snapshot | None = None
        # While a large document is being opened: a snapshot of the part parsed so far.
        self.partial: Snapshot | None = None
        # While a large document is opened: answers computed ahead (`ahead.py`) by request
        # method, and the text they are of.
        self._ahead: tuple[str, dict[str, Any]] = (text, {})
        self._answered_early = False
        self.closed = False
        # The op registry of the document's configuration (set by the server); None: the one active.
        self.definitions: OpRegistry | None = None

    @property
    def lines(self) -> LineTable:
        """The line table of the current text."""
        lines = self._lines
        if lines is None:
            with self._lines_lock:
                lines = self._lines
                if lines is None:
                    lines = self._lines = LineTable.of(self.text)
        return lines

    @lines.setter
    def lines(self, table: LineTable) -> None:
        with self._lines_lock:
            self._lines = table

    # --- the event loop's side --------------------------------------------------------------

    def apply(self, changes: list[Change], version: int) -> None:
        """Apply LSP content changes (in order) and take the new version."""
        with self._lock:
            for rng, new_text in changes:
                if rng is None:
                    self.text = new_text
                    self.lines = LineTable.of(new_text)
                    self._full = True
                    self._window = (0, self._base_length)
                    continue
                sl, sc, el, ec = rng
                start = self.lines.offset(self.text, sl, sc, self.encoding)
                end = self.lines.offset(self.text, el, ec, self.encoding)
                if end < start:
                    start, end = end, start
                self._replace(start, end, new_text)
            self.version = version

    def replace(self, start: int, end: int, new_text: str, version: int) -> None:
        """Replace `[start, end)` (code-point offsets) by `new_text`."""
        with self._lock:
            self._replace(start, end, new_text)
            self.version = version

    def _replace(self, start: int, end: int, new_text: str) -> None:
        old = self.text
        start = max(0, min(start, len(old)))
        end = max(start, min(end, len(old)))
        drift = len(old) - self._base_length
        if self._window is None:
            lo, hi = start, end - drift
        else:
            lo0, hi0 = self._window
            lo = min(lo0, start)
            hi = max(hi0 + drift, end) - drift
        self._window = (lo, hi)
        self.text = old[:start] + new_text + old[end:]
        self.lines = self.lines.edited(start, end, new_text)

    @property
    def phase(self) -> Phase:
        """Where the document is in its life (`Phase`)."""
        snap = self.snapshot
        if snap is None:
            return Phase.OPENING
        if self.dirty or not snap.complete:
            return Phase.USABLE
        return Phase.SETTLED

    @property
    def dirty(self) -> bool:
        """Whether the text changed since the last analysis."""
        snap = self.snapshot
        return snap is None or snap.version != self.version or snap.text is not self.text

    # --- the analysis thread's side ---------------------------------------------------------

    def analysed(self, lint_settings: object | None = None) -> Snapshot:
        """The snapshot of the current text, analysing (incrementally when possible) if needed.

        `lint_settings` (anything with `select`/`ignore`) chooses the rules; changing it
        re-lints the current IR without parsing again.
        """
        key = LintKey.of(lint_settings)
        snap = self.snapshot
        definitions = self.use_definitions()
        with self._lock:
            text, version, lines = self.text, self.version, self.lines
            if snap is not None and snap.definitions is not definitions:
                self._full = True  # the project's ops changed: what was parsed with the old ones is parsed again
            elif snap is not None and snap.text is text:
                if snap.version != version:
                    snap.version = version
                if snap.lint_key != key:
                    snap.lint = self._diagnose(snap.parsed, lint_settings, key)
                    snap.lint_key = key
                return snap
            opened = self._opened_text()
            full, window, base_length = self._full, self._window, self._base_length
            self._full = False
            self._window = None
            self._base_length = len(text)
        if opened is not None:
            # An edit came during the open: the text opened is analysed first (its workers' lint,
            # the parse the open took this far), then the edit as any edit.
            self._finish_open(opened, lint_settings, key)
            full = False
        partial = self.partial
        kept_text, early = self._ahead
        parsed, reused = self._parse(text, full, window, base_length)
        lint = None
        taken, self._taken = self._taken, None
        if taken is not None and taken.text is text and taken.key == key:
            found = taken.found
        else:
            found = self._child_result(text, key, parsed, lint_settings)
        if found is not None:
            lint = self._diagnose(parsed, lint_settings, key, found)
        elif not full:
            try:
                lint = self._linter.quick(parsed, lint_settings, key)
            except Exception:
                log.exception("incremental lint failed for %s; linting it all", self.uri)
        if lint is None:
            lint = self._diagnose(parsed, lint_settings, key)
        snap = Snapshot(self.uri, version, text, lines, parsed, lint, self.encoding, key, not reused, definitions=definitions)
        if reused:
            snap.replaced = engine.replaced_by(parsed)
        if early and kept_text is text:
            snap.cache[EARLY_ANSWERS] = early
        old = self.snapshot or partial
        if old is not None:
            previous_index = old.cache.get("index") or old.cache.get("previous_index")
            if previous_index is not None:
                snap.cache["previous_index"] = previous_index
        self.snapshot = snap
        return snap

    def analyse_step(self) -> bool:
        """Parse a little of the current text; whether what is left (for `analysed`) is at most
        a lint. A large document without a previous parse is parsed a batch of top-level ops
        per call, and `partial` shows the part done so far."""
        with self._lock:
            text, version, lines = self.text, self.version, self.lines
            ready = self.snapshot is not None and self.snapshot.text is text
            fresh = self._full or self._parsed is None
        opened = self._opened_text()
        if opened is not None:  # an edit came during the open: the text opened is parsed to its end first
            self.partial = None  # no view of the current text (requests wait for `analysed`)
            return self._progress is not None and self._progress.step(STEP_SEGMENTS, STEP_S)
        if ready or not fresh or len(text) < PROGRESSIVE_SIZE:
            self.partial = None
            return True
        definitions = self.use_definitions()
        progress = self._progress
        if progress is None or progress.text is not text or self._progress_definitions is not definitions:
            progress = self._progress = engine.start_document(text)
            self._progress_definitions = definitions
            mark("server: parse started")
        # The first screens first: the open answers from them while its range workers have the cores.
        first_screens = lines.starts[min(FIRST_LINES, len(lines.starts) - 1)]
        done = progress.step(STEP_SEGMENTS, STEP_S, first_screens if progress.parsed_to < first_screens else None)
        self._show_partial(version, text, lines, progress.partial(), progress.parsed_to)
        return done  # once complete, `analysed` (or `lint_in_child`) lints it

    def opening_at(self, line: int, character: int) -> Snapshot | None:
        """While a large document is opened: the partial snapshot covering an LSP position,
        parsing as far as it first (a request never waits for the whole open); None when the
        document is not being opened."""
        if self.phase is not Phase.OPENING or len(self.text) < PROGRESSIVE_SIZE:
            return None
        offset = self.lines.offset(self.text, line, character, self.encoding)
        while True:
            snap = self.partial_at(offset)
            if snap is not None:
                return snap
            if self.analyse_step():
                return self.partial_at(offset)

    def opening_view(self, until: tuple[int, int] | None = None) -> Snapshot | None:
        """While a large document is opened: the partial snapshot, parsed at least up to the
        LSP position `until` (by default as far as it is, one step at least), for the requests about
        the whole document (`Snapshot.parsed_to` tells the features where the text takes over);
        None when the document is not being opened."""
        if self.phase is not Phase.OPENING or len(self.text) < PROGRESSIVE_SIZE:
            return None
        upto = None if until is None else self.lines.offset(self.text, *until, self.encoding)
        while True:
            snap = self.partial
            if snap is not None and snap.text is self.text and (upto is None or snap.parsed_to is None or min(upto, len(snap.text) - 1) < snap.parsed_to):
                self._answered_early = True
                return snap
            if self.analyse_step() and self.partial is None:
                return None

    def boundary_after(self, offset: int) -> int:
        """While the document is opened: where the first top-level op that ends at or after
        `offset` ends (the end of the text otherwise)."""
        progress = self._progress
        if progress is None or progress.text is not self.text:
            return len(self.text)
        return progress.boundary_after(offset)

    def keep_answer(self, text: str, method: str, answer: Any) -> None:
        """Keep the answer to a request about the whole of `text` (computed ahead during its open:
        `opening.open_step`), for `answer_ahead` (on the event loop)."""
        kept_text, answers = self._ahead
        if kept_text is not text:
            answers = {}
        self._ahead = (text, {**answers, method: answer})

    def kept_answers(self) -> list[str]:
        """The methods of the answers kept for the current text."""
        text, answers = self._ahead
        return list(answers) if text is self.text else []

    def answer_ahead(self, method: str) -> Any | None:
        """While the document is opened: the answer kept for `method` about its current text
        (counted as answered from a part of the open: refreshed once analysed), else None."""
        text, answers = self._ahead
        answer = answers.get(method)
        if answer is None or text is not self.text or self.phase is not Phase.OPENING:
            return None
        self._answered_early = True
        return answer

    def take_early_answers(self) -> bool:
        """Whether a request was answered from a part of the open (`opening_view`) since the last
        call: what it answered is to be asked again."""
        answered, self._answered_early = self._answered_early, False
        return answered

    def _opened_text(self) -> str | None:
        """While edits that came during the open of a large document wait: the text opened, whose
        workers lint it (or whose lint they gave) and whose parse the open has started, analysed
        first (`analysed`); None otherwise, and when the edits replaced the whole text."""
        progress, running, taken = self._progress, self._child, self._taken
        if self.snapshot is not None or progress is None or progress.text is self.text:
            return None
        if len(progress.text) != self._base_length or self._window in (None, (0, self._base_length)):
            return None  # a whole new text: nothing of the text opened stays
        linted = (running is not None and running.text is progress.text) or (taken is not None and taken.text is progress.text)
        return progress.text if linted else None

    def _finish_open(self, opened: str, lint_settings: object | None, key: LintKey) -> None:
        """Analyse the text `opened` (see `_opened_text`): its parse completed, its workers' lint
        taken (waiting for them), and the incremental linter's records of both, as the previous
        analysis of the edited text."""
        progress, self._progress = self._progress, None
        assert progress is not None
        parsed = progress.result()
        taken, self._taken = self._taken, None
        if taken is not None and taken.text is opened and taken.key == key:
            found = taken.found
        else:
            found = self._child_result(opened, key, parsed, lint_settings)
        self._diagnose(parsed, lint_settings, key, found)
        self._parsed = parsed
        mark("server: the text opened analysed")

    def workers_fill_cores(self) -> bool:
        """Whether the open's range workers, still running on the current text, fill the cores
        (`RangeLints.crowded`): the open's own parse then waits for them."""
        running = self._child
        if running is None or running.text is not self.text or not isinstance(running.child, range_lint.RangeLints):
            return False
        return running.child.crowded and running.child.running

    def open_in_child(self, lint_settings: object | None = None) -> lint_child.ChildLint | range_lint.RangeLints | None:
        """Before the open of a large document parses anything: start the workers that lint the
        text while this process parses it for requests; `lint_in_child` then waits for them
        instead of starting one. Where the cores and the text allow, K workers each parse and lint
        a range of it (`range_lint.start`); otherwise one worker parses it all and lints it
        (`lint_child.start`), leaving the per-op lint-phase rules to this process (`share_step`, once parsed)."""
        with self._lock:
            text = self.text
        if len(text) < PROGRESSIVE_SIZE or self.snapshot is not None:
            return None
        running = self._child
        if running is not None:
            if running.text is text:
                return None
            running.child.cancel()  # the workers of another text (the open's are left to finish, `_opened_text`)
            self._child = None
        key = LintKey.of(lint_settings)
        ranges = range_lint.start(text, lint_settings)
        if ranges is not None:
            self._child = RunningLint(text, key, ranges, False)
            return ranges
        child = lint_child.start(text, lint_settings, leaves_per_op_rules=True)
        if child is not None:
            self._child = RunningLint(text, key, child, True)
        return child

    def lint_in_child(self, lint_settings: object | None = None) -> lint_child.ChildLint | range_lint.RangeLints | None:
        """Once the open of a large document has parsed it (`analyse_step` returned True), start
        its full lint in a child process (`lint_child`), unless `open_in_child` started one, and
        answer requests from the parse meanwhile; `analysed` takes the child's diagnostics.
        None when `analysed` lints here (a parse that stopped early, `stopped_early`, included:
        the open's child is stopped)."""
        with self._lock:
            text, version, lines = self.text, self.version, self.lines
        opened = self._opened_text()
        target = text if opened is None else opened  # the text opened, while an edit waits for its analysis
        progress = self._progress
        if len(target) < PROGRESSIVE_SIZE or progress is None or progress.text is not target or not progress.complete:
            return None
        if self.snapshot is not None and self.snapshot.text is text:
            return None
        parsed = progress.result()
        running = self._child
        if stopped_early(parsed):  # what it read is a small document's: linted here, at once
            if running is not None:
                running.child.cancel()
            self._child = None
            return None
        if running is not None and running.text is target and running.key == LintKey.of(lint_settings):
            child: lint_child.ChildLint | range_lint.RangeLints | None = running.child
            if running.leaves_per_op_rules:
                self._share = RuleSteps(parsed, lint_settings, lint_phase_rule)
            if opened is not None:
                return child
        elif opened is not None:
            return None
        else:
            child = self._start_child(text, parsed, lint_settings)
        if child is not None:
            self._show_partial(version, text, lines, parsed, len(text))
            document_index(self.partial)  # while the child lints: requests find it, and so does `analysed`
        return child

    def _show_partial(self, version: int, text: str, lines: LineTable, parsed: ParsedFile, parsed_to: int) -> None:
        """Answer requests from `parsed` (the current text up to `parsed_to`) until `analysed`
        runs; its index grows from the previous partial one."""
        old = self.partial
        snap = Snapshot(self.uri, version, text, lines, parsed, LintResult.of(parsed.diagnostics), self.encoding)
        snap.parsed_to = parsed_to
        if old is not None and old.text is text:
            snap.cache.update((key, old.cache[key]) for key in CARRIED if key in old.cache)
        if old is not None:
            index = old.cache.get("index") or old.cache.get("previous_index")
            if index is not None:
                snap.cache["previous_index"] = index
        self.partial = snap

    def early_snapshot(self, text: str, found: list[Diagnostic]) -> Snapshot | None:
        """A snapshot of `text` with the diagnostics `found` without this process's parse (the open's
        range workers', `range_lint.RangeLints.early`), to publish them only; None when the text has
        changed or the document is analysed already."""
        with self._lock:
            version, lines = self.version, self.lines
            if self.text is not text or (self.snapshot is not None and self.snapshot.text is text):
                return None
        return Snapshot(self.uri, version, text, lines, ParsedFile(text, [], False), LintResult.of(found), self.encoding)

    def locator_of(self, text: str) -> Callable[[int], tuple[int, int]] | None:
        """`Snapshot.locator` of `text` while it is the current text; None once it is not."""
        with self._lock:
            if self.text is not text:
                return None
            lines = self.lines
        return lines.locator(text, self.encoding)

    def partial_at(self, offset: int) -> Snapshot | None:
        """The partial snapshot, when it covers `offset` (and is of the current text)."""
        snap = self.partial
        progress = self._progress
        if snap is None or progress is None or snap.text is not self.text or progress.text is not snap.text:
            return None
        return snap if offset < progress.parsed_to else None

    def take_open_lint(self, lint_settings: object | None = None) -> None:
        """Once the open's child has ended: its diagnostics, completed by the rules it left to
        this process, kept for `analysed` (a job of its own, so that a request waits for one of
        the open's last steps at most)."""
        with self._lock:
            opened = self._opened_text()
            text = self.text if opened is None else opened
        progress = self._progress
        if self._child is None or progress is None or progress.text is not text or not progress.complete:
            return
        key = LintKey.of(lint_settings)
        self._taken = TakenLint(text, key, self._child_result(text, key, progress.result(), lint_settings))

    def share_step(self) -> bool:
        """Run the rules the open's child leaves to this process on some more ops (`RuleSteps.step`);
        whether they have run on every op."""
        share = self._share
        if share is None:
            return True
        self.use_definitions()
        return share.step()

    def use_definitions(self) -> OpRegistry:
        """Make the document's op registry the active one (`definitions`; None: keep the active one); returns it."""
        if self.definitions is not None:
            activate(self.definitions)
        return active()

    def settle_in_child(self, lint_settings: object | None = None) -> lint_child.ChildLint | None:
        """Start the full lint that `settle` will take in a child process, for a large document
        (the analysis thread stays free for the next keystroke); None when `settle` lints here."""
        snap = self.snapshot
        if snap is None or snap.complete or snap.text is not self.text or len(snap.text) < PROGRESSIVE_SIZE:
            return None
        return self._start_child(snap.text, snap.parsed, lint_settings)

    def settle(self, lint_settings: object | None = None, child: lint_child.ChildLint | None = None) -> bool:
        """Replace a quick lint of the current snapshot by a full one; whether anything changed.

        `child` is the lint `settle_in_child` started for it: when an edit has come since (and
        stopped it), nothing is settled; the next idle moment settles the new text."""
        snap = self.snapshot
        key = LintKey.of(lint_settings)
        if child is not None and (self._child is None or self._child.child is not child):
            return False
        found = self._child_result(self.text, key, snap.parsed if snap is not None else None, lint_settings)
        if snap is None or snap.complete or snap.text is not self.text:
            return False
        before = snap.diagnostics
        snap.lint = self._diagnose(snap.parsed, lint_settings, key, found)
        return snap.diagnostics != before

    def _start_child(self, text: str, parsed: ParsedFile, lint_settings: object | None) -> lint_child.ChildLint | None:
        child = lint_child.start(text, lint_settings, parsed)
        if child is not None:
            if self._child is not None:
                self._child.child.cancel()
            self._child = RunningLint(text, LintKey.of(lint_settings), child, False)
        return child

    def _child_result(
        self, text: str, key: LintKey, parsed: ParsedFile | None, lint_settings: object | None
    ) -> list[Diagnostic] | None:
        """The diagnostics of the child lint of `text` with these settings (waiting for it), read
        against `parsed` (this process's parse of `text`) and completed by the rules it left to
        this process, or None; a child of another text or settings is stopped."""
        child, self._child = self._child, None
        share, self._share = self._share, None
        if child is None:
            return None
        if child.text is not text or child.key != key:
            child.child.cancel()
            return None
        found = child.child.wait(parsed)
        if found is None or not child.leaves_per_op_rules or parsed is None:
            return found
        steps = share if share is not None and share.parsed is parsed else RuleSteps(parsed, lint_settings, lint_phase_rule)
        return finish_lint(parsed, found + steps.finish(), lint_settings)

    def _diagnose(self, parsed: ParsedFile, lint_settings: object | None, key: LintKey, found: list[Diagnostic] | None = None) -> LintResult:
        try:
            return self._linter.full(parsed, lint_settings, key, found)
        except Exception:
            log.exception("diagnostics failed for %s", self.uri)
            self._linter = IncrementalLinter()
            return LintResult.of(list(parsed.diagnostics))

    def _parse(self, text: str, full: bool, window: tuple[int, int] | None, base_length: int) -> tuple[ParsedFile, bool]:
        """The parse of `text`, and whether it reused the previous one."""
        previous = self._parsed
        self._parsed = None
        parsed = None
        if previous is not None and not full:
            changed = TextRange(*window) if window is not None else TextRange(0, 0)
            if window is None and len(text) == base_length and previous.text == text:
                parsed = previous
            else:
                try:
                    parsed = engine.reparse_document(previous, text, changed)
                except Exception:
                    log.exception("incremental re-parse failed for %s; parsing it again", self.uri)
        reused = parsed is not None and previous is not None and parsed.chunks is previous.chunks
        progress, self._progress = self._progress, None
        self.partial = None
        self._ahead = (text, {})
        if parsed is None and progress is not None and progress.text is text and self._progress_definitions is active():
            parsed = progress.result()
        if parsed is None:
            parsed = engine.parse_document(text)
        self._parsed = parsed
        return parsed, reused


class DocumentStore:
    """The open documents by URI."""

    def __init__(self) -> None:
        self.documents: dict[str, Document] = {}

    def open(self, uri: str, text: str, version: int, language_id: str = "mlir", encoding: str = UTF16) -> Document:
        old = self.documents.get(uri)
        if old is not None:
            old.closed = True
        doc = Document(uri, text, version, language_id, encoding)
        self.documents[uri] = doc
        return doc

    def get(self, uri: str) -> Document | None:
        return self.documents.get(uri)

    def close(self, uri: str) -> Document | None:
        doc = self.documents.pop(uri, None)
        if doc is not None:
            doc.closed = True
        return doc

    def __iter__(self):
        return iter(list(self.documents.values()))
