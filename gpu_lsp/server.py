"""pygls wiring: LSP handlers that call `gpu_lsp.lsp` features and convert their results."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from gpu_lsp import __version__
from gpu_lsp.lsp import commands as C
from gpu_lsp.lsp import convert as V
from gpu_lsp.lsp import manifest as M
from gpu_lsp.lsp.bounded import OVERSIZED, local_view
from gpu_lsp.lsp.documents import PARTIAL_TOKENS, Change, Document, DocumentStore, Phase, Snapshot
from gpu_lsp.lsp.gate import PARKED
from gpu_lsp.lsp.heap import HeapPolicy
from gpu_lsp.lsp.outbox import Outbox
from gpu_lsp.lsp.range_lint import RangeLints, prestart
from gpu_lsp.lsp.settings import EditorSettings, SettingProblems, parse_settings
from gpu_lsp.lsp.trace import mark
from gpu_lsp.lsp.user_errors import quiet_answered_errors

if TYPE_CHECKING:
    from gpu_lsp.diagnostics.model import Diagnostic
    from gpu_lsp.lsp.publish import SeverityOverrides

log = logging.getLogger("gpu_lsp.server")

DEBOUNCE_S = 0.01
# After a quick (one-unit) lint, a full lint once the document has been left alone this long.
SETTLE_S = 0.75
# The open of a large document parses on while no other job waits for the analysis thread, this
# long at most per job (then other documents' jobs get their turn).
OPEN_SLICE_S = 0.5
# The open's own parse starts once its workers have their text, or after this long: both cut the
# text into units and the workers' start pickles it, each under the GIL (~50 ms each at 100k lines).
WORKERS_FED_S = 0.25
# A request about a whole document during its open takes the open's steps up to the answer
# computed ahead for it this long at most (then it is answered from the part parsed).
ANSWER_AHEAD_S = 2.0
# Building the JSON of a large diagnostic set: the most a step takes (requests run in between).
PREPARE_SLICE_S = 0.015
# Lexing the semantic tokens of a document once published: the most a step takes.
KEEP_TOKENS_SLICE_S = 0.015
# The views a client may be asked to refresh (`workspace/<view>/refresh`): what the open of a
# document answered from a part of it (semantic tokens, code lenses, inlay hints, folding ranges).
REFRESHED = ("semantic_tokens", "code_lens", "inlay_hint", "folding_range")
REQUEST_FAILED = -32803
INVALID_PARAMS = -32602
CODE_ACTION_KINDS = list(M.CODE_ACTION_KINDS)


class _Dropped:
    """A message that could not be read; `handle_message` ignores it (wrong jsonrpc version)."""

    jsonrpc = "invalid"


class GpuProtocol(LanguageServerProtocol):
    """pygls' protocol without its own copy of the documents (`DocumentStore` keeps them), and
    answering requests it cannot read with an error instead of silence."""

    def structure_message(self, data: dict):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if "id" in data and "method" in data:
                log.warning("invalid params for %s (id %s)", data.get("method"), data.get("id"))
                self._send_response(data["id"], error=exc.to_response_error())
            return _Dropped()

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: types.ExecuteCommandParams):
        """A first-release command id (`gpu-lsp.*`, not advertised) runs the command it stands for."""
        params.command = C.canonical(params.command)
        return (yield from super().lsp_workspace__execute_command(params))

    def _send_response(self, msg_id, result=None, error=None):
        """A result the analysis thread encoded already (`wire.JsonText`) is written as it is."""
        from gpu_lsp.lsp.wire import JsonText

        if error is not None or not isinstance(result, JsonText):
            return super()._send_response(msg_id, result, error)
        self._result_types.pop(msg_id, None)
        self._server.send_raw(f'{{"jsonrpc":"2.0","id":{json.dumps(msg_id)},"result":{result.text}}}')

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class GpuLanguageServer(LanguageServer):
    """The server state: open documents, settings, the analysis thread and the debouncer."""

    def __init__(self) -> None:
        super().__init__("gpu-lsp", __version__, protocol_cls=GpuProtocol)
        self.store = DocumentStore()
        self.settings = EditorSettings()
        # One thread owns the IR: analyses and every feature run there, in order.
        self.analysis = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gpu-lsp-analysis")
        self.debounce_s = DEBOUNCE_S
        self._debouncer = None
        self._published: dict[str, int] = {}
        # The early publishes of opens running beside their parse (`_publish_early`): held until done.
        self._early: set[asyncio.Future] = set()
        # The message each published, by URI, until the analysis's own would repeat it.
        self._early_sent: dict[str, str] = {}
        self._settle: dict[str, asyncio.TimerHandle] = {}
        self.heap = HeapPolicy()
        self.settle_s = SETTLE_S
        self.encoding = "utf-16"
        self._config_problems: set[str] = set()
        self.setting_problems = SettingProblems()
        quiet_answered_errors(JsonRpcException)
        self._unshown_problems: list[str] = []  # found on the analysis thread, shown from the event loop
        # The op-definitions files' errors, as published (lsp/definition_diagnostics.py), and what to publish next.
        self._definitions_published: dict[str, tuple[str, ...]] = {}
        self._unsent_definitions: list[str] = []
        self._queued = 0  # jobs submitted to the analysis thread and not started yet
        self._queued_opening = 0  # those of them that take steps of an open (`in_analysis`)
        self._queued_lock = threading.Lock()
        self.stopped = False  # `shutdown` came: the analysis thread takes no more jobs
        self.lit_found: dict[str, tuple[str, list[str]]] = {}  # lsp/lit.py: a lit run's diagnostics per document
        self.outbox: Outbox | None = None  # what is written to the client (`main`)

    # --- plumbing ----------------------------------------------------------------------------

    @property
    def debouncer(self):
        if self._debouncer is None:
            from gpu_lsp.lsp.scheduler import Debouncer

            self._debouncer = Debouncer(self.publish_diagnostics, self.debounce_s)
        return self._debouncer

    async def in_analysis(self, fn: Callable, *args, opening: bool = False) -> Any:
        """Run `fn(*args)` on the analysis thread (`opening`: a job that takes steps of the open of
        a document); after `shutdown` the awaiting task is cancelled instead (a diagnostics job
        still running then ends quietly)."""
        if self.stopped:
            raise asyncio.CancelledError

        def job() -> Any:
            with self._queued_lock:
                self._queued -= 1
                self._queued_opening -= opening
            return fn(*args)

        with self._queued_lock:
            self._queued += 1
            self._queued_opening += opening
        return await asyncio.get_running_loop().run_in_executor(self.analysis, job)

    def others_wait(self) -> bool:
        """Whether jobs that take no steps of an open wait for the analysis thread."""
        return self._queued > self._queued_opening

    def capability(self, path: str, default: Any = None) -> Any:
        return get_capability(self.client_capabilities, path, default)

    def log_error(self, where: str) -> None:
        message = f"gpu-lsp: {where} failed:\n{traceback.format_exc()}"
        log.error(message)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))
        except Exception:
            log.exception("could not send a log message")

    def show_warning(self, message: str) -> None:
        """A window/showMessage warning (and the same in the log)."""
        log.warning("%s", message)
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))

    def settings_for(self, uri: str) -> EditorSettings:
        """The settings a document is linted with: its project's gpu-lint configuration under the editor's."""
        from gpu_lsp.lsp.settings import for_document

        settings, problem = for_document(self.settings, uri)
        if problem is not None and problem not in self._config_problems:
            self._config_problems.add(problem)
            log.warning("configuration: %s", problem)
            self._unshown_problems.append(problem)
        from gpu_lsp.lsp.definition_diagnostics import use_definitions

        # The op registry of the document's configuration is made active: what runs next on this thread uses it.
        settings, registry, messages = use_definitions(settings, self._definitions_published)
        self._unsent_definitions += messages
        doc = self.store.get(uri)
        if doc is not None:
            doc.definitions = registry  # its parse steps activate it again
        return settings

    def _show_config_problems(self) -> None:
        """Tell the user, once each, about configuration files the server could not use (on the event loop)."""
        while self._unsent_definitions:
            self.send_raw(self._unsent_definitions.pop(0))
        while self._unshown_problems:
            problem = self._unshown_problems.pop(0)
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=f"gpu-lsp: {problem}; using the editor's settings")
            )

    def snapshot_of(self, uri: str) -> Snapshot | None:
        """The analysed current version of a document (call on the analysis thread)."""
        doc = self.store.get(uri)
        return doc.analysed(self.settings_for(uri)) if doc is not None else None

    # --- diagnostics -------------------------------------------------------------------------

    def _diagnostics_payload(self, doc: Document, settle: bool = False, child: Any = None) -> tuple[int, str, Snapshot] | None:
        """(version, the publishDiagnostics message, the snapshot) for the current text."""
        from gpu_lsp.lsp.publish import SeverityOverrides, diagnostics_json, publish_message

        if doc.closed:
            return None
        settings = self.settings_for(doc.uri)
        if settle:
            snap = doc.snapshot
            changed = snap is not None and snap.text is doc.text and doc.settle(settings, child)
            self.heap.idle()
            if snap is None or not changed:
                return None
        else:
            snap = doc.analysed(settings)
        from gpu_lsp.lsp.lit import current_items

        items = diagnostics_json(snap, SeverityOverrides(settings.severity)) + current_items(self.lit_found, doc.uri, snap.text)
        return snap.version, publish_message(doc.uri, snap.version, items), snap

    async def _publish_early(self, doc: Document, ranges: RangeLints, overrides: SeverityOverrides) -> None:
        """Publish the open's diagnostics from its range workers' findings alone, before this
        process has parsed the text, where they are the file's (`RangeLints.early`), with the
        severities of the settings the workers were given (`overrides`). The JSON of each range's
        findings is built as they come, while the other workers run, and all of it off the
        analysis thread (which the open's parse may hold for a step)."""
        from gpu_lsp.lsp.diagnostic_json import quote
        from gpu_lsp.lsp.publish import diagnostics_json, items_json, joined_items, publish_message

        uri_json = quote(doc.uri)
        encoded: dict[int, tuple[list[Diagnostic], list[str]]] = {}

        def encode(index: int, found: list[Diagnostic]) -> None:
            locate = doc.locator_of(ranges.text)
            if locate is not None:
                encoded[index] = (found, items_json(found, overrides, uri_json, locate))

        def payload(found: list[Diagnostic]) -> tuple[int, str] | None:
            snap = doc.early_snapshot(ranges.text, found)
            if snap is None or doc.closed:
                return None
            items = joined_items([encoded[i] for i in sorted(encoded)], found)
            if items is None:
                items = diagnostics_json(snap, overrides)
            return snap.version, publish_message(doc.uri, snap.version, items)

        def received() -> tuple[int, str] | None:
            found = ranges.early(encode)
            return payload(found) if found is not None else None

        result = await asyncio.get_running_loop().run_in_executor(None, received)
        if result is None or doc.closed or self.store.get(doc.uri) is not doc:
            return
        version, message = result
        if version != doc.version or version < self._published.get(doc.uri, -(2**31)):
            return
        self._published[doc.uri] = version
        self._early_sent[doc.uri] = message
        self.send_raw(message)
        mark("server: diagnostics published from the range workers")

    def _prepare_payload(self, doc: Document) -> bool:
        """Some of the JSON of the current snapshot's diagnostics (`publish.prepare_json`);
        whether all of it is built (or there is no current snapshot)."""
        from gpu_lsp.lsp.publish import SeverityOverrides, prepare_json

        snap = doc.snapshot
        if doc.closed or snap is None or snap.text is not doc.text:
            return True
        return prepare_json(snap, SeverityOverrides(self.settings_for(doc.uri).severity), PREPARE_SLICE_S)

    def _open_step(self, doc: Document, yield_to_workers: bool = False) -> bool:
        """Steps of the open of `doc` (`opening.open_step`, under the heap policy of an open) until it is
        parsed, another job waits for the analysis thread (a request: it waits one step at most) or
        `OPEN_SLICE_S` has passed; with `yield_to_workers`, none once all that is left is the parse
        and range workers fill the cores (it would slow them down: the caller waits for them
        instead). Whether the parse is complete."""
        from gpu_lsp.lsp.opening import only_parse_left, open_step

        deadline = time.perf_counter() + OPEN_SLICE_S
        parsed = False
        with self.heap.open_step(len(doc.text)):
            while not (yield_to_workers and doc.workers_fill_cores() and only_parse_left(doc)):
                parsed = open_step(doc)
                if parsed or self._queued or time.perf_counter() >= deadline:
                    break
        if parsed and doc.snapshot is None:
            mark("server: parsed")
        return parsed

    def _keep_tokens(self, doc: Document, snap: Snapshot) -> bool:
        """Some more of the semantic tokens of the snapshot just published (`semantic_tokens.keep_step`);
        whether they are all kept (or the document changed since)."""
        from gpu_lsp.lsp.semantic_tokens import keep_step

        if doc.closed or snap.text is not doc.text:
            return True
        doc.use_definitions()
        return keep_step(snap, KEEP_TOKENS_SLICE_S)

    def _after_publish(self, snap: Snapshot, settle: bool) -> None:
        """Heap upkeep on the analysis thread, once the client has its diagnostics."""
        if settle:
            return
        if snap.full_parse:
            snap.full_parse = False
            self.heap.after_full_analysis(len(snap.text))
        else:
            self.heap.after_incremental_analysis(snap.replaced)

    async def publish_diagnostics(self, uri: str, settle: bool = False) -> None:
        from gpu_lsp.lsp.opening import only_parse_left as opening_only_parse_left
        from gpu_lsp.lsp.publish import SeverityOverrides

        doc = self.store.get(uri)
        if doc is None:
            return
        opening = False
        if not settle:  # a large document being opened: requests run between the steps
            starting = None
            early = None  # a K-way open's publish of its workers' diagnostics (`_publish_early`)
            crowded = False
            if doc.snapshot is None:  # the first analysis: an open (its worker: the `opening` path, however short the parse)
                # Started off the analysis thread: the first start waits for the forkserver to be ready.
                settings = await self.in_analysis(self.settings_for, uri)
                mark("server: settings ready")
                starting = asyncio.get_running_loop().run_in_executor(None, doc.open_in_child, settings)
                await asyncio.wait([starting], timeout=WORKERS_FED_S)
            # Until the range workers' publish is done (whatever its outcome), the open's parse yields to them.
            while not await self.in_analysis(self._open_step, doc, early is None or not early.done(), opening=True):
                opening = True
                if doc.closed:
                    return
                if early is None and starting is not None and starting.done() and isinstance(ranges := starting.result(), RangeLints):
                    overrides = SeverityOverrides(settings.severity)
                    self._early.add(early := asyncio.ensure_future(self._publish_early(doc, ranges, overrides)))
                    early.add_done_callback(self._early.discard)
                    crowded = ranges.crowded
                # The range workers fill the cores: once the answers about the whole document are kept,
                # the rest of this parse waits for them (a request parses what it needs).
                if crowded and early is not None and await self.in_analysis(opening_only_parse_left, doc):
                    await asyncio.wait([early])
                    crowded = False
            if starting is not None and await starting is not None:
                opening = True
        if settle or opening:
            # A large document's full lint (the open's, or the idle one) runs in a child process:
            # requests and keystrokes are answered meanwhile.
            start = doc.settle_in_child if settle else doc.lint_in_child
            child = await self.in_analysis(lambda: start(self.settings_for(uri)))
            if not settle:
                mark("server: indexed, waiting for the worker")
            # The rules the open's child leaves to this process, 15 ms of ops per job (requests in between).
            while not settle and not await self.in_analysis(doc.share_step):
                pass
            if not settle:
                mark("server: per-op rules run")
            if child is not None:
                await asyncio.get_running_loop().run_in_executor(None, child.wait)
                if not settle:
                    await self.in_analysis(lambda: doc.take_open_lint(self.settings_for(uri)))
                    mark("server: worker result decoded and completed")
            if not settle:  # the snapshot, then its JSON a few units per job: a request waits for one of them
                await self.in_analysis(lambda: self.snapshot_of(uri))
                mark("server: snapshot made")
                while not await self.in_analysis(self._prepare_payload, doc):
                    pass
                mark("server: diagnostics JSON prepared")
        result = await self.in_analysis(self._diagnostics_payload, doc, settle, child if settle else None)
        self._show_config_problems()
        if result is None or doc.closed or self.store.get(uri) is not doc:
            return
        version, message, snap = result
        # A newer version is on its way (the debouncer runs again): never publish stale results.
        if version != doc.version or version < self._published.get(uri, -(2**31)):
            return
        self._published[uri] = version
        if self._early_sent.pop(uri, None) != message:  # not what the open's range workers published already
            self.send_raw(message)
        mark("server: diagnostics published")
        if opening:  # the next large open's range workers, started while nothing waits for them
            asyncio.get_running_loop().run_in_executor(None, prestart)
        if not settle:
            self._schedule_settle(uri)
            if doc.take_early_answers():  # what the open answered, asked again of the analysed document
                self._refresh_views(REFRESHED)
        await self.in_analysis(self._after_publish, snap, settle)
        if not settle:  # every unit's semantic tokens, a job at a time, before the client asks again
            while not await self.in_analysis(self._keep_tokens, doc, snap):
                pass
            if snap.cache.pop(PARTIAL_TOKENS, False):
                self._refresh_views(("semantic_tokens",))

    def _refresh_views(self, kinds: tuple[str, ...]) -> None:
        """Ask the client to ask again for views of its documents (`REFRESHED`), where it can be asked."""
        for kind in kinds:
            if self.capability(f"workspace.{kind}.refresh_support", False):
                getattr(self, f"workspace_{kind}_refresh")(None)

    def send_raw(self, message: str) -> None:
        """Write a JSON-RPC message that is already JSON text (ASCII) to the client."""
        protocol = self.protocol
        data = f"Content-Length: {len(message)}\r\n\r\n{message}".encode("ascii")
        if protocol.writer is None:
            raise RuntimeError("the server is not connected to a client")
        result = protocol.writer.write(data)
        if asyncio.iscoroutine(result) or isinstance(result, asyncio.Future):
            asyncio.ensure_future(result)

    def _schedule_settle(self, uri: str) -> None:
        """Once the document has been left alone for `settle_s`: complete a quick lint with a
        full one, and let the heap policy reclaim memory."""
        old = self._settle.pop(uri, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._settle[uri] = loop.call_later(
            self.settle_s, lambda: loop.create_task(self.publish_diagnostics(uri, settle=True))
        )

    def request_diagnostics(self, uri: str, at_once: bool = False) -> None:
        old = self._settle.pop(uri, None)
        if old is not None:
            old.cancel()
        self.debouncer.request(uri, at_once)


server = GpuLanguageServer()


def guarded(default: Any = None, what: str | None = None) -> Callable:
    """Log and answer `default` when a handler raises (LSP errors pass through)."""

    def wrap(fn: Callable) -> Callable:
        name = what or fn.__name__

        @functools.wraps(fn)
        async def run(ls: GpuLanguageServer, params: Any) -> Any:
            try:
                return await fn(ls, params)
            except (JsonRpcException, asyncio.CancelledError):
                raise
            except Exception:
                ls.log_error(name)
                return default() if callable(default) else default

        return run

    return wrap


# --- lifecycle and settings --------------------------------------------------------------------------


@server.feature(types.INITIALIZE)
def initialize(ls: GpuLanguageServer, params: types.InitializeParams) -> None:
    encoding = getattr(ls.workspace, "position_encoding", None) or "utf-16"
    ls.encoding = getattr(encoding, "value", encoding)
    ls.settings, problems = parse_settings(params.initialization_options, EditorSettings())
    _tell_setting_problems(ls, problems)


@server.feature(types.INITIALIZED)
async def initialized(ls: GpuLanguageServer, params: types.InitializedParams) -> None:
    try:
        # Warm up the parser (grammar, registry) off the event loop before the first document, and
        # start the range workers of the first large open (`range_lint.prestart`).
        asyncio.get_running_loop().run_in_executor(None, prestart)
        await ls.in_analysis(_warm_up)
        if ls.capability("workspace.configuration", False):
            await _pull_configuration(ls)
        if ls.capability("workspace.did_change_watched_files.dynamic_registration", False):
            await _watch_configuration_files(ls)
    except Exception:
        ls.log_error("initialized")


async def _watch_configuration_files(ls: GpuLanguageServer) -> None:
    """Ask the client to report changes of the files gpu-lint reads its configuration from, and of TOML files
    (op-definitions files; one of another name is read again when a document using it is next analysed)."""
    watchers = [types.FileSystemWatcher(glob_pattern="**/*.toml")]
    options = types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers)
    registration = types.Registration(
        id="gpu-lsp-config-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
    )
    try:
        await asyncio.wait_for(
            ls.client_register_capability_async(types.RegistrationParams(registrations=[registration])), 10
        )
    except Exception as exc:  # a client that does not answer: settings are still re-read by modification time
        log.warning("could not watch the configuration files: %s", exc)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: GpuLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A configuration file changed: lint every open document again (the settings are re-read by modification
    time); an op-definitions file: those whose configuration uses it (it is read again)."""
    try:
        ls._config_problems.clear()
        from gpu_lsp.lsp.definition_diagnostics import concerned

        for uri in concerned([change.uri for change in params.changes], ls.store, ls.settings):
            ls.request_diagnostics(uri)
    except Exception:
        ls.log_error("workspace/didChangeWatchedFiles")


# Parsed and linted once at start: its types and ops build the parsers and tables that the
# first function of a document would otherwise wait for (the type grammar: ~60 ms).
_WARM_UP_TEXT = """\
func.func @f(%m: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %buf, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
  %t2 = gpu.launch async [%t1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %buf[%tx] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  gpu.wait [%t2]
  return
}
"""


def _warm_up() -> None:
    """Load the grammars, the op registry, the rules, the position features and those VS Code asks
    for at open before the first document arrives (a request during the open of a large document
    must not wait for imports: `actions` alone takes a second without bytecode caches), and write
    the rule pages the diagnostics link to (the first publish of a large open waited 20-40 ms for them)."""
    from gpu_lsp.lsp import actions, completion, engine, hints, hover, navigation, opening, rule_links, semantic_tokens  # noqa: F401

    engine.diagnose(engine.parse_document(_WARM_UP_TEXT))
    rule_links.written_pages()


async def _pull_configuration(ls: GpuLanguageServer) -> None:
    result = await asyncio.wait_for(
        ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section="gpuLsp")])
        ),
        10,
    )
    if result and isinstance(result[0], dict):
        _take_settings(ls, {"gpuLsp": result[0]})


def _tell_setting_problems(ls: GpuLanguageServer, problems: list[str]) -> None:
    """Show the user, once while they last, the settings that were ignored (window/showMessage is allowed before
    the answer to initialize)."""
    fresh = ls.setting_problems.new(problems)
    if fresh:
        log.warning("settings: %s", "; ".join(fresh))
        ls.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Warning, message="gpu-lsp settings: " + "; ".join(fresh) + " (ignored)")
        )


def _take_settings(ls: GpuLanguageServer, raw: Any) -> None:
    settings, problems = parse_settings(raw, ls.settings)
    _tell_setting_problems(ls, problems)
    if settings != ls.settings:
        ls.settings = settings
        for doc in ls.store:
            ls.request_diagnostics(doc.uri)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: GpuLanguageServer, params: types.DidChangeConfigurationParams) -> None:
    try:
        settings = params.settings
        if isinstance(settings, dict) and settings:
            _take_settings(ls, settings)
        elif ls.capability("workspace.configuration", False):
            await _pull_configuration(ls)
    except Exception:
        ls.log_error("workspace/didChangeConfiguration")


@server.feature(types.SHUTDOWN)
def shutdown(ls: GpuLanguageServer, *args) -> None:
    ls.stopped = True
    ls.analysis.shutdown(wait=False, cancel_futures=True)


@server.feature(types.EXIT)
def exit_(ls: GpuLanguageServer, *args) -> None:
    """Exit at once: tearing down the IR of a large document object by object takes seconds."""
    try:
        if ls.outbox is not None:
            ls.outbox.drain(5.0)
        sys.stdout.flush()
    finally:
        os._exit(0 if getattr(ls.protocol, "_shutdown", False) else 1)


# --- document sync -----------------------------------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: GpuLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    try:
        item = params.text_document
        mark("server: didOpen received")
        text = OVERSIZED.open(item.uri, PARKED.take(item.text), item.version, ls.encoding, ls.show_warning)
        ls.store.open(item.uri, text, item.version, item.language_id, ls.encoding)
        mark("server: document made")
        ls._published.pop(item.uri, None)
        ls._early_sent.pop(item.uri, None)
        ls.request_diagnostics(item.uri, at_once=True)
    except Exception:
        ls.log_error("textDocument/didOpen")


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: GpuLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    try:
        doc = ls.store.get(params.text_document.uri)
        if doc is None:
            return
        changes: list[Change] = []
        for change in params.content_changes:
            rng = getattr(change, "range", None)
            text = PARKED.take(change.text)
            if rng is None:
                changes.append((None, text))
            else:
                changes.append(((rng.start.line, rng.start.character, rng.end.line, rng.end.character), text))
        changes = OVERSIZED.change(doc, changes, params.text_document.version, ls.show_warning)
        doc.apply(changes, params.text_document.version)
        ls.request_diagnostics(doc.uri)
    except Exception:
        ls.log_error("textDocument/didChange")


@server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
def did_save(ls: GpuLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    try:
        from gpu_lsp.lsp.definition_diagnostics import concerned

        uri = params.text_document.uri
        for saved in [uri] if ls.store.get(uri) is not None else concerned([uri], ls.store, ls.settings):  # an op-definitions file
            ls.request_diagnostics(saved)
    except Exception:
        ls.log_error("textDocument/didSave")


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: GpuLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    try:
        uri = params.text_document.uri
        ls.debouncer.cancel(uri)
        ls.store.close(uri)
        OVERSIZED.close(uri)
        ls._published.pop(uri, None)
        ls._early_sent.pop(uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    except Exception:
        ls.log_error("textDocument/didClose")


# --- features ----------------------------------------------------------------------------------------


def _at(ls: GpuLanguageServer, uri: str, pos: types.Position, local: bool = False) -> tuple[Snapshot, int] | None:
    doc = ls.store.get(uri)
    if doc is not None and OVERSIZED.beyond_cut(doc, pos.line, pos.character):
        return None  # past the part analysed (lsp/bounded.py): nothing there is known
    if doc is not None:
        doc.use_definitions()  # its op registry, for a partial snapshot too
    partial = doc.opening_at(pos.line, pos.character) if doc is not None else None
    if partial is None and local and doc is not None:  # a hover in a huge line: the ops around it (lsp/bounded.py)
        partial = local_view(doc, pos.line, pos.character)
    if partial is not None:  # the document is being opened: answer from the part parsed so far
        return partial, V.offset_of(partial, pos)
    snap = ls.snapshot_of(uri)
    if snap is None:
        return None
    return snap, V.offset_of(snap, pos)


async def _at_position(ls: GpuLanguageServer, params, empty: Any, compute: Callable[[Snapshot, int], Any], local: bool = False) -> Any:
    """Answer a request at a position: `compute(snapshot, offset)` in the analysis thread, `empty` off-document
    (`local`: from the text around the position while a huge line waits for its analysis)."""

    def run():
        found = _at(ls, params.text_document.uri, params.position, local)
        return empty if found is None else compute(*found)

    return await ls.in_analysis(run)


async def _on_document(
    ls: GpuLanguageServer, params, empty: Any, compute: Callable[[Snapshot], Any], ahead: str | None = None, pick: Callable[[Any], Any] | None = None
) -> Any:
    """Answer a request about a whole document (or a range of it): `compute(snapshot)` in the analysis
    thread, `empty` when it is not open; while a large document is opened, the answer its open
    computes ahead for the request's method `ahead` (`Document.answer_ahead`: here on the event
    loop once computed, else taking the open's steps up to it, `opening.answer_during_open`; `pick`
    takes the request's part of it, None when it does not hold it), else from what is known
    already (`Document.opening_view`: the part parsed so far, at least up to the range)."""

    def take(kept: Any) -> Any:
        return kept if kept is None or pick is None else pick(kept)

    doc = ls.store.get(params.text_document.uri)
    kept = doc.answer_ahead(ahead) if doc is not None and ahead is not None else None
    answer = take(kept)
    if answer is not None:
        return answer
    if doc is not None and ahead is not None and kept is None and doc.phase is Phase.OPENING:
        # The open's steps up to the answer, a job at a time while jobs other than the open's
        # wait (a range request waits for one step, not for the whole outline of a large
        # document), for `ANSWER_AHEAD_S` at most (then from the part parsed, as below).
        from gpu_lsp.lsp.opening import answer_during_open

        deadline = time.perf_counter() + ANSWER_AHEAD_S

        def stop() -> bool:
            return ls.others_wait() or time.perf_counter() >= deadline

        def drive(doc: Document, method: str) -> tuple[Any, bool]:
            with ls.heap.open_step(len(doc.text)):  # the open's steps, as the open takes them
                return answer_during_open(doc, method, stop)

        more = True
        while more and time.perf_counter() < deadline:
            kept, more = await ls.in_analysis(drive, doc, ahead, opening=True)
            answer = take(kept)
            if answer is not None:
                return answer
            if kept is not None:
                break

    def run():
        doc = ls.store.get(params.text_document.uri)
        if doc is not None:
            doc.use_definitions()  # its op registry, for a partial snapshot too
        rng = getattr(params, "range", None)
        view = doc.opening_view(None if rng is None else (rng.end.line, rng.end.character)) if doc is not None else None
        snap = view if view is not None else ls.snapshot_of(params.text_document.uri)
        return empty if snap is None else compute(snap)

    return await ls.in_analysis(run)


@server.feature(types.TEXT_DOCUMENT_HOVER)
@guarded(None)
async def hover(ls: GpuLanguageServer, params: types.HoverParams):
    markdown = types.MarkupKind.Markdown in (ls.capability("text_document.hover.content_format", []) or [])

    def compute(snap: Snapshot, offset: int):
        from gpu_lsp.lsp.hover import hover as feature

        result = feature(snap, offset)
        return None if result is None else V.hover(snap, result.markdown, result.range, markdown)

    return await _at_position(ls, params, None, compute, local=True)


def _locations(snap: Snapshot, ranges) -> list[types.Location]:
    return [types.Location(uri=snap.uri, range=V.lsp_range(snap, r)) for r in ranges]


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@guarded(list)
async def definition(ls: GpuLanguageServer, params: types.DefinitionParams):
    def compute(snap: Snapshot, offset: int):
        from gpu_lsp.lsp.navigation import definition as feature

        return _locations(snap, feature(snap, offset))

    return await _at_position(ls, params, [], compute)


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
@guarded(list)
async def references(ls: GpuLanguageServer, params: types.ReferenceParams):
    def compute(snap: Snapshot, offset: int):
        from gpu_lsp.lsp.navigation import references as feature

        include = params.context.include_declaration if params.context is not None else True
        return _locations(snap, feature(snap, offset, include))

    return await _at_position(ls, params, [], compute)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
@guarded(list)
async def document_highlight(ls: GpuLanguageServer, params: types.DocumentHighlightParams):
    def compute(snap: Snapshot, offset: int):
        from gpu_lsp.lsp.navigation import highlights

        return [
            types.DocumentHighlight(
                range=V.lsp_range(snap, h.range),
                kind=types.DocumentHighlightKind.Write if h.write else types.DocumentHighlightKind.Read,
            )
            for h in highlights(snap, offset)
        ]

    return await _at_position(ls, params, [], compute)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded(list)
async def document_symbol(ls: GpuLanguageServer, params: types.DocumentSymbolParams):
    from gpu_lsp.lsp import ahead

    if ls.capability("text_document.document_symbol.hierarchical_document_symbol_support", False):
        return await _on_document(ls, params, [], ahead.outline, ahead.OUTLINE)

    def flat(snap: Snapshot):
        from gpu_lsp.lsp import wire
        from gpu_lsp.lsp.document_symbols import document_symbols

        return wire.document_symbols(snap, document_symbols(snap), False)

    return await _on_document(ls, params, [], flat)


@server.feature(types.WORKSPACE_SYMBOL)
@guarded(list)
async def workspace_symbol(ls: GpuLanguageServer, params: types.WorkspaceSymbolParams):
    def run():
        from gpu_lsp.lsp.document_symbols import workspace_symbols

        snaps = [doc.analysed(ls.settings_for(doc.uri)) for doc in ls.store]
        return [V.workspace_symbol(s) for s in workspace_symbols(snaps, params.query)]

    return await ls.in_analysis(run)


@server.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=list(M.COMPLETION_TRIGGERS), resolve_provider=False),
)
@guarded(None)
async def completion(ls: GpuLanguageServer, params: types.CompletionParams):
    snippets = bool(ls.capability("text_document.completion.completion_item.snippet_support", False))
    formats = ls.capability("text_document.completion.completion_item.documentation_format", []) or []
    markdown = types.MarkupKind.Markdown in formats

    def compute(snap: Snapshot, offset: int):
        from gpu_lsp.lsp.completion import complete

        entries = complete(snap, offset, snippets)
        return types.CompletionList(
            is_incomplete=False, items=[V.completion_item(snap, e, markdown) for e in entries]
        )

    return await _at_position(ls, params, None, compute)


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
@guarded(None)
async def prepare_rename(ls: GpuLanguageServer, params: types.PrepareRenameParams):
    def compute(snap: Snapshot, offset: int):
        from gpu_lsp.lsp.navigation import RenameError
        from gpu_lsp.lsp.navigation import prepare_rename as feature

        try:
            rng, placeholder = feature(snap, offset)
        except RenameError as exc:
            raise JsonRpcException(code=REQUEST_FAILED, message=str(exc)) from None
        return types.PrepareRenamePlaceholder(range=V.lsp_range(snap, rng), placeholder=placeholder)

    return await _at_position(ls, params, None, compute)


@server.feature(types.TEXT_DOCUMENT_RENAME)
@guarded(None)
async def rename(ls: GpuLanguageServer, params: types.RenameParams):
    document_changes = bool(ls.capability("workspace.workspace_edit.document_changes", False))

    def compute(snap: Snapshot, offset: int):
        from gpu_lsp.lsp.navigation import RenameError
        from gpu_lsp.lsp.navigation import rename as feature

        try:
            edits = feature(snap, offset, params.new_name)
        except RenameError as exc:
            raise JsonRpcException(code=REQUEST_FAILED, message=str(exc)) from None
        return V.workspace_edit(snap.uri, snap.version, [V.text_edit(snap, e) for e in edits], document_changes)

    return await _at_position(ls, params, None, compute)


def _legend() -> types.SemanticTokensLegend:
    from gpu_lsp.lsp.semantic_tokens import TOKEN_MODIFIERS, TOKEN_TYPES

    return types.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS))


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, _legend())
@guarded(None)
async def semantic_tokens_full(ls: GpuLanguageServer, params: types.SemanticTokensParams):
    from gpu_lsp.lsp import ahead

    doc = ls.store.get(params.text_document.uri)
    now = ahead.tokens_now(doc) if doc is not None else None  # on the event loop
    return now if now is not None else await _on_document(ls, params, None, ahead.tokens, ahead.TOKENS)


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, _legend())
@guarded(None)
async def semantic_tokens_range(ls: GpuLanguageServer, params: types.SemanticTokensRangeParams):
    def compute(snap: Snapshot):
        from gpu_lsp.lsp import wire
        from gpu_lsp.lsp.semantic_tokens import semantic_tokens

        start = V.offset_of(snap, params.range.start)
        end = V.offset_of(snap, params.range.end)
        return wire.semantic_tokens(semantic_tokens(snap, start, end))

    from gpu_lsp.lsp import ahead
    from gpu_lsp.lsp.documents import FIRST_LINES

    # While a large document opens, a range within its first screens is answered with the tokens the
    # open keeps for them (LSP lets a range request have the correct tokens of a broader range).
    within_first = params.range.end.line < FIRST_LINES
    return await _on_document(ls, params, None, compute, ahead.TOKENS if within_first else None)


def _serve_as_computed_ahead(method: str, name: str, options: Any = None) -> None:
    """Serve `method`, a whole-document request that a large document's open answers ahead, with the
    computation the open uses for it (`ahead.AHEAD[method]`); `name` is the handler's in the log."""

    async def answer(ls: GpuLanguageServer, params: Any) -> Any:
        from gpu_lsp.lsp import ahead

        return await _on_document(ls, params, [], ahead.AHEAD[method], method)

    server.feature(method, options)(guarded(list, name)(answer))


_serve_as_computed_ahead(types.TEXT_DOCUMENT_FOLDING_RANGE, "folding_range")
_serve_as_computed_ahead(types.TEXT_DOCUMENT_CODE_LENS, "code_lens", types.CodeLensOptions(resolve_provider=False))


@server.feature(types.TEXT_DOCUMENT_SELECTION_RANGE)
@guarded(list)
async def selection_range(ls: GpuLanguageServer, params: types.SelectionRangeParams):
    def compute(snap: Snapshot):
        from gpu_lsp.lsp.folding import selection_ranges

        out = []
        for pos in params.positions:
            offset = V.offset_of(snap, pos)
            chain = selection_ranges(snap, offset)
            out.append(V.selection_range(snap, chain) if chain else types.SelectionRange(range=types.Range(start=pos, end=pos)))
        return out

    return await _on_document(ls, params, [], compute)


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
@guarded(list)
async def inlay_hint(ls: GpuLanguageServer, params: types.InlayHintParams):
    def compute(snap: Snapshot):
        from gpu_lsp.lsp.hints import inlay_hints
        from gpu_lsp.lsp.wire import JsonText

        start = V.offset_of(snap, params.range.start)
        end = V.offset_of(snap, params.range.end)
        return JsonText("[" + ",".join(V.inlay_hint_json(snap, h)[1] for h in inlay_hints(snap, start, end)) + "]")

    from gpu_lsp.lsp import ahead

    # While a large document opens, a range within its part parsed first (the lines an editor shows
    # first) is answered with the hints the open keeps for it.
    shown = (params.range.start.line, params.range.start.character), (params.range.end.line, params.range.end.character)
    return await _on_document(ls, params, [], compute, ahead.HINTS, lambda kept: kept.within(*shown))


@server.feature(
    types.TEXT_DOCUMENT_SIGNATURE_HELP,
    types.SignatureHelpOptions(trigger_characters=list(M.SIGNATURE_TRIGGERS), retrigger_characters=list(M.SIGNATURE_RETRIGGERS)),
)
@guarded(None)
async def signature_help(ls: GpuLanguageServer, params: types.SignatureHelpParams):
    formats = ls.capability("text_document.signature_help.signature_information.documentation_format", []) or []

    def compute(snap: Snapshot, offset: int):
        from gpu_lsp.lsp.hints import signature_help as feature

        sig = feature(snap, offset)
        return None if sig is None else V.signature_help(sig, types.MarkupKind.Markdown in formats)

    return await _at_position(ls, params, None, compute)


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=CODE_ACTION_KINDS, resolve_provider=True)
)
@guarded(list)
async def code_action(ls: GpuLanguageServer, params: types.CodeActionParams):
    document_changes = bool(ls.capability("workspace.workspace_edit.document_changes", False))
    only = params.context.only or []
    uri = params.text_document.uri

    def wants(kind: str) -> bool:
        return not only or any(kind == k or kind.startswith(k + ".") for k in only)

    def run() -> list[types.CodeAction]:
        from gpu_lsp.diagnostics.model import Diagnostic
        from gpu_lsp.lsp import actions as A
        from gpu_lsp.text import TextRange

        out: list[types.CodeAction] = []
        snap = ls.snapshot_of(uri)
        if snap is None:
            return out
        published = ls._published.get(uri, snap.version)
        if wants(types.CodeActionKind.QuickFix):
            for d in params.context.diagnostics:
                if d.source not in (None, V.SOURCE) or d.code is None:
                    continue
                start, end = V.offset_of(snap, d.range.start), V.offset_of(snap, d.range.end)
                if V.has_data(d):
                    fix = V.fix_action_from_data(uri, published, d, document_changes)
                    if fix is not None:
                        out.append(fix)
                else:
                    # A client without dataSupport: find the diagnostic among the analysed ones.
                    core = _find_diagnostic(snap, str(d.code), start, end)
                    quick = A.quick_fix(core) if core is not None else None
                    if quick is not None:
                        out.append(V.action(snap, quick, [d], document_changes))
                ignore = A.ignore_action(snap, Diagnostic(str(d.code), d.message, TextRange(start, end)))
                if ignore is not None:
                    out.append(V.action(snap, ignore, [d], document_changes))
        if wants("source.fixAll.gpu-lint"):
            fix_all = A.fix_all_action(snap.diagnostics)
            if fix_all is not None:
                out.append(V.action(snap, fix_all, [], document_changes))
        offset = V.offset_of(snap, params.range.start)
        if wants(types.CodeActionKind.RefactorRewrite):
            from gpu_lsp.lsp.lit import update_targets

            for title, run_index, chunk in update_targets(snap, offset):
                command = types.Command(title=title, command=C.UPDATE_CHECKS, arguments=[uri, run_index, chunk])
                out.append(types.CodeAction(title=title, kind=types.CodeActionKind.RefactorRewrite, command=command))
        for item in A.refactorings_available(snap, offset):
            if not wants(item.kind):
                continue
            data = {"refactor": item.id, "uri": uri, "offset": offset, "version": snap.version}
            action = types.CodeAction(title=item.title, kind=item.kind, data=data)
            if resolve:
                out.append(action)
            else:  # a client that cannot resolve gets the edits now
                try:
                    out.append(_resolve_refactoring(ls, action, document_changes))
                except JsonRpcException:
                    continue
        return out

    resolve = "edit" in (ls.capability("text_document.code_action.resolve_support.properties", []) or [])
    return await ls.in_analysis(run)


def _resolve_refactoring(ls: GpuLanguageServer, action: types.CodeAction, document_changes: bool) -> types.CodeAction:
    """Compute the edits of a refactoring code action (on the analysis thread)."""
    from gpu_lsp.lsp.actions import compute_refactoring
    from gpu_lsp.passes.refactor import RefactorError

    data = action.data if isinstance(action.data, dict) else {}
    uri = data.get("uri")
    snap = ls.snapshot_of(uri) if isinstance(uri, str) else None
    if not isinstance(uri, str) or snap is None or "refactor" not in data:
        raise JsonRpcException(code=REQUEST_FAILED, message="this code action has nothing to resolve")
    if data.get("version") != snap.version:
        raise JsonRpcException(code=REQUEST_FAILED, message="the document changed: ask for the code actions again")
    try:
        title, edits = compute_refactoring(snap, str(data["refactor"]), int(data.get("offset", 0)))
    except RefactorError as exc:
        raise JsonRpcException(code=REQUEST_FAILED, message=f"{action.title}: {exc}") from None
    action.edit = V.workspace_edit(uri, snap.version, [V.text_edit(snap, e) for e in edits], document_changes)
    return action


@server.feature(types.CODE_ACTION_RESOLVE)
async def code_action_resolve(ls: GpuLanguageServer, action: types.CodeAction):
    document_changes = bool(ls.capability("workspace.workspace_edit.document_changes", False))
    try:
        return await ls.in_analysis(_resolve_refactoring, ls, action, document_changes)
    except (JsonRpcException, asyncio.CancelledError):
        raise
    except Exception:
        ls.log_error("codeAction/resolve")
        return action


def _find_diagnostic(snap: Snapshot, code: str, start: int, end: int):
    for core in snap.diagnostics:
        if core.range.start == start and core.range.end == end and core.code == code:
            return core
    return None


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
@guarded(None)
async def formatting(ls: GpuLanguageServer, params: types.DocumentFormattingParams):
    return await _format(ls, params, None)


@server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
@guarded(None)
async def range_formatting(ls: GpuLanguageServer, params: types.DocumentRangeFormattingParams):
    return await _format(ls, params, (params.range.start.line, params.range.end.line))


async def _format(ls: GpuLanguageServer, params: Any, lines: tuple[int, int] | None) -> list[types.TextEdit]:
    """The formatter's edits (lsp/formatting.py); what it left as written goes to the log."""

    def compute(snap: Snapshot):
        from gpu_lsp.lsp.formatting import formatting_edits

        edits, problems = formatting_edits(snap.text, *(lines or (None, None)))
        return [V.text_edit(snap, e) for e in edits], problems

    edits, problems = await _on_document(ls, params, ([], []), compute)
    for problem in problems:
        ls.window_log_message(types.LogMessageParams(type=types.MessageType.Info, message=f"format: {params.text_document.uri}: {problem}"))
    return edits


@server.feature(C.ASYNC_GRAPH)
@guarded(None, C.ASYNC_GRAPH)
async def async_graph(ls: GpuLanguageServer, params: Any):
    """`{textDocument: {uri}, function?, format?}` -> the async graph (docs/async-graph.md)."""
    uri = params.textDocument.uri
    function = getattr(params, "function", None)
    fmt = getattr(params, "format", None) or "json"

    def run():
        from gpu_lsp.lsp import graph

        if fmt not in graph.FORMATS:
            raise JsonRpcException(code=INVALID_PARAMS, message=f"{C.ASYNC_GRAPH}: format must be one of {', '.join(graph.FORMATS)}")
        snap = ls.snapshot_of(uri)
        return None if snap is None else graph.async_graph(snap, function, fmt)

    return await ls.in_analysis(run)


@server.feature(C.PIPELINE_STEPS)
@guarded(None, C.PIPELINE_STEPS)
async def pipeline_steps(ls: GpuLanguageServer, params: Any):
    """`{textDocument: {uri}, pipeline, line?}` -> `{steps: [{name, text, origins}]}` (docs/pipelines.md)."""
    uri = params.textDocument.uri
    pipeline = str(getattr(params, "pipeline", "") or "")
    line = int(getattr(params, "line", 0) or 0)
    from gpu_lsp.passes.steps import StepError

    if ls.settings.lit_mlir_opt:  # the user's mlir-opt runs the pipeline, in a child
        from gpu_lsp.lsp.pipeline import mlir_opt_steps_json

        snap = await ls.in_analysis(ls.snapshot_of, uri)
        if snap is None:
            return None
        try:
            return await mlir_opt_steps_json(snap, pipeline, line, ls.settings.lit_mlir_opt, ls.settings.run_timeout_s, ls.settings.run_max_memory)
        except StepError as exc:
            raise JsonRpcException(code=INVALID_PARAMS, message=f"{C.PIPELINE_STEPS}: {exc}") from None

    def run():
        from gpu_lsp.lsp.pipeline import steps_json

        snap = ls.snapshot_of(uri)
        if snap is None:
            return None
        try:
            return steps_json(snap, pipeline, line)
        except StepError as exc:
            raise JsonRpcException(code=INVALID_PARAMS, message=f"{C.PIPELINE_STEPS}: {exc}") from None

    return await ls.in_analysis(run)


@server.feature(C.PASS_LIST)
@guarded(None, C.PASS_LIST)
async def pass_list(ls: GpuLanguageServer, params: Any):
    """The passes a pipeline may name: `[{name, summary, options, anchor}]`."""
    from gpu_lsp.lsp.pipeline import pass_list as passes

    return passes()


# --- commands ----------------------------------------------------------------------------------------


def _command_error(message: str) -> JsonRpcException:
    return JsonRpcException(code=REQUEST_FAILED, message=message)


@server.command(C.FIX_ALL)
async def fix_all_command(ls: GpuLanguageServer, uri: str):
    """Apply every safe fix of a document through workspace/applyEdit."""
    if ls.store.get(uri) is None:
        raise _command_error(f"{C.FIX_ALL}: {uri} is not open")
    document_changes = bool(ls.capability("workspace.workspace_edit.document_changes", False))

    def run():
        from gpu_lsp.lsp.actions import fix_all_edits

        snap = ls.snapshot_of(uri)
        if snap is None:
            return None, 0
        edits = fix_all_edits(snap.diagnostics)
        if not edits:
            return None, 0
        return V.workspace_edit(uri, snap.version, [V.text_edit(snap, e) for e in edits], document_changes), len(edits)

    try:
        edit, count = await ls.in_analysis(run)
    except Exception:
        ls.log_error(C.FIX_ALL)
        raise _command_error(f"{C.FIX_ALL} failed; see the server log") from None
    if edit is None:
        return {"applied": False, "message": "No auto-fixable problems."}
    if not ls.capability("workspace.apply_edit", False):
        raise _command_error(f"{C.FIX_ALL}: the client does not accept workspace/applyEdit")
    result = await asyncio.wait_for(
        ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label="gpu-lint: fix all")), 30
    )
    if not result.applied:
        return {"applied": False, "message": f"The editor did not apply the fixes: {result.failure_reason or 'no reason given'}"}
    return {"applied": True, "message": f"Applied {count} edit{'s' if count != 1 else ''}."}


@server.command(C.RUN_ON_GPU)
async def run_on_gpu_command(ls: GpuLanguageServer, uri: str, function: str):
    """Run a host function in a child process, streaming its output as log messages and progress."""
    doc = ls.store.get(uri)
    if doc is None:
        raise _command_error(f"{C.RUN_ON_GPU}: {uri} is not open")
    filename = uri[len("file://") :] if uri.startswith("file://") else uri
    name = function.lstrip("@")
    token = await _begin_progress(ls, f"Run on GPU: @{name}")

    def on_output(stream: str, text: str) -> None:
        kind = types.MessageType.Log if stream == "stdout" else types.MessageType.Warning
        for line in text.splitlines():
            ls.window_log_message(types.LogMessageParams(type=kind, message=f"@{name}: {line}"))
            if token is not None:
                ls.work_done_progress.report(token, types.WorkDoneProgressReport(message=line[:200]))

    summary = "cancelled"
    try:
        result = await C.RUNS.run(uri, C.run_in_child(
            doc.text, name, ls.settings.runner_backend, ls.settings.run_timeout_s, filename,
            max_memory=ls.settings.run_max_memory, on_output=on_output,
        ))
        summary = str(result.get("message", "finished"))
        return result
    except C.CommandError as exc:
        summary = str(exc)
        raise _command_error(str(exc)) from None
    finally:
        if token is not None:
            ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message=summary))


async def _begin_progress(ls: GpuLanguageServer, title: str) -> str | None:
    """A work-done progress token when the client supports it (else None)."""
    if not ls.capability("window.work_done_progress", False):
        return None
    token = f"gpu-lsp-run-{uuid.uuid4().hex}"
    try:
        await asyncio.wait_for(ls.work_done_progress.create_async(token), 5)
    except Exception:  # the client refused or did not answer: run without progress
        return None
    ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=title, cancellable=False))
    return token


async def _refactor_command(ls: GpuLanguageServer, command: str, refactoring: str, uri: str, line: int, character: int):
    """Compute a refactoring at a position and apply it through workspace/applyEdit."""
    from gpu_lsp.lsp.actions import compute_refactoring
    from gpu_lsp.passes.refactor import RefactorError

    if ls.store.get(uri) is None:
        raise _command_error(f"{command}: {uri} is not open")
    document_changes = bool(ls.capability("workspace.workspace_edit.document_changes", False))

    def run():
        snap = ls.snapshot_of(uri)
        offset = V.offset_of(snap, types.Position(line=max(0, line), character=max(0, character)))
        try:
            title, edits = compute_refactoring(snap, refactoring, offset)
        except RefactorError as exc:
            raise _command_error(f"{command}: {exc}") from None
        return title, V.workspace_edit(uri, snap.version, [V.text_edit(snap, e) for e in edits], document_changes)

    title, edit = await ls.in_analysis(run)
    if not ls.capability("workspace.apply_edit", False):
        raise _command_error(f"{command}: the client does not accept workspace/applyEdit")
    result = await asyncio.wait_for(ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=title)), 30)
    if not result.applied:
        return {"applied": False, "message": f"The editor did not apply the edit: {result.failure_reason or 'no reason given'}"}
    return {"applied": True, "message": title}


def _refactoring_command(command: str, refactoring: str, title: str) -> Callable:
    async def run_refactoring(ls: GpuLanguageServer, uri: str, line: int, character: int):
        return await _refactor_command(ls, command, refactoring, uri, line, character)

    run_refactoring.__doc__ = f"{title} (the refactoring {refactoring}, at a position)."
    return run_refactoring


@server.command(C.RUN_LIT)
async def run_lit_command(ls: GpuLanguageServer, uri: str, run: int = 0, chunk: int = 0):
    """Run the document's lit test (RUN line `run`, chunk `chunk`, 1-based, 0 for all) in a child;
    its failures are published as diagnostics until the next edit (docs/lit.md)."""
    from gpu_lsp.lsp import lit

    doc = ls.store.get(uri)
    if doc is None:
        raise _command_error(f"{C.RUN_LIT}: {uri} is not open")
    text = doc.text
    args = lit.child_args(_file_name(uri), ls.settings.lit_mlir_opt) + ["--json", "--only", f"{int(run)}:{int(chunk)}"]
    try:
        rows = lit.parse_rows(*await lit.run_child(args, text, ls.settings.run_timeout_s, ls.settings.run_max_memory))
    except lit.LitError as exc:
        raise _command_error(f"Run lit test: {exc}") from None
    snap = await ls.in_analysis(ls.snapshot_of, uri)
    if snap is not None and snap.text == text:
        ls.lit_found[uri] = (text, lit.diagnostics_json(snap, rows))
        await ls.publish_diagnostics(uri)
    failed = sum(not r["passed"] for r in rows)
    message = f"lit: {len(rows) - failed} passed, {failed} failed" if rows else "lit: no chunk ran (see the RUN lines)"
    return {"passed": len(rows) - failed, "failed": failed, "results": rows, "message": message}


@server.command(C.UPDATE_CHECKS)
async def update_checks_command(ls: GpuLanguageServer, uri: str, run: int, chunk: int):
    """Rewrite one chunk's CHECK lines of a RUN line (1-based) from its actual output, through workspace/applyEdit."""
    from gpu_lsp.lsp import lit
    from gpu_lsp.text import replacement

    doc = ls.store.get(uri)
    if doc is None:
        raise _command_error(f"{C.UPDATE_CHECKS}: {uri} is not open")
    text, version = doc.text, doc.version
    args = lit.child_args(_file_name(uri), ls.settings.lit_mlir_opt) + ["--update", f"{int(run)}:{int(chunk)}"]
    try:
        status, out, err = await lit.run_child(args, text, ls.settings.run_timeout_s, ls.settings.run_max_memory)
    except lit.LitError as exc:
        raise _command_error(f"Update CHECK lines: {exc}") from None
    if status != 0:
        raise _command_error(err.strip().split("\n")[0] or f"Update CHECK lines failed (exit {status})")
    edit = replacement(text, out)
    if edit is None:
        return {"applied": False, "message": "The CHECK lines are up to date."}
    snap = await ls.in_analysis(ls.snapshot_of, uri)
    if snap is None or snap.text != text or doc.version != version:
        raise _command_error("Update CHECK lines: the document changed meanwhile; run it again")
    document_changes = bool(ls.capability("workspace.workspace_edit.document_changes", False))
    workspace_edit = V.workspace_edit(uri, snap.version, [V.text_edit(snap, edit)], document_changes)
    result = await asyncio.wait_for(ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=workspace_edit, label="Update CHECK lines")), 30)
    if not result.applied:
        return {"applied": False, "message": f"The editor did not apply the edit: {result.failure_reason or 'no reason given'}"}
    return {"applied": True, "message": f"Updated the CHECK lines of chunk {int(chunk)}."}


def _file_name(uri: str) -> str:
    return uri[len("file://") :] if uri.startswith("file://") else uri


def _register_refactoring_commands() -> None:
    """One command per refactoring of the registry that has one."""
    from gpu_lsp.passes.catalog import REFACTORINGS

    for item in REFACTORINGS:
        if item.command is not None:
            server.command(item.command)(_refactoring_command(item.command, item.id, item.title))


_register_refactoring_commands()


def main(stdin=None, stdout=None) -> None:
    """Serve over stdio (or the given binary streams)."""
    from gpu_lsp.lsp.worker_start import start_workers

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    start_workers()  # before pygls starts its reader thread (the bootstrap has started it already)
    server.outbox = Outbox(stdout if stdout is not None else sys.stdout.buffer)
    server.start_io(stdin, cast(BinaryIO, server.outbox))  # pygls only writes, flushes and closes it
