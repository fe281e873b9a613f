"""A pytest-lsp client that records what the server publishes and applies its edits."""

from __future__ import annotations

import asyncio
import sys
import textwrap
import uuid
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from typing import Any

import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.protocol.json_rpc import JsonRPCRequestMessage
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from gpu_lsp.lsp.positions import LineTable

SERVER = [sys.executable, "-m", "gpu_lsp"]
TIMEOUT = 20.0
VSCODE = "visual-studio-code@v1.65.2"


class RecordingClient(LanguageClient):
    """Keeps every publishDiagnostics (with its version) and every applied edit."""

    def __init__(self) -> None:
        super().__init__(converter_factory=default_converter)
        self.published: list[types.PublishDiagnosticsParams] = []
        self.applied: list[types.ApplyWorkspaceEditParams] = []
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.registrations: list[types.Registration] = []
        self.refreshes: list[str] = []  # the refresh requests the server sent, by method


def _publish(ls: RecordingClient, params: types.PublishDiagnosticsParams) -> None:
    ls.published.append(params)
    ls.diagnostics[params.uri] = params.diagnostics


def _apply_edit(ls: RecordingClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
    ls.applied.append(params)
    return types.ApplyWorkspaceEditResult(applied=True)


def _register(ls: RecordingClient, params: types.RegistrationParams) -> None:
    ls.registrations.extend(params.registrations)


def _refreshed(method: str):
    def record(ls: RecordingClient, params: None) -> None:
        ls.refreshes.append(method)

    return record


def make_client() -> RecordingClient:
    client = RecordingClient()
    features = dict(DEFAULT_CLIENT_FEATURES)
    for method in (types.WORKSPACE_SEMANTIC_TOKENS_REFRESH, types.WORKSPACE_CODE_LENS_REFRESH):
        features[method] = _refreshed(method)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _publish
    features[types.WORKSPACE_APPLY_EDIT] = _apply_edit
    features[types.CLIENT_REGISTER_CAPABILITY] = _register
    register_lsp_features(client, features)
    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=make_client)


async def within(awaitable: Any, timeout: float = TIMEOUT) -> Any:
    return await asyncio.wait_for(awaitable, timeout)


async def wait_published(client: RecordingClient, uri: str, version: int | None = None, since: int = 0, timeout: float = TIMEOUT):
    """The first publishDiagnostics for `uri` (and `version`, if given) after index `since`."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        for params in client.published[since:]:
            if params.uri == uri and (version is None or params.version == version):
                return params
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"no diagnostics for {uri} version {version} within {timeout} s")
        await asyncio.sleep(0.01)


def open_document(client: RecordingClient, uri: str, text: str, version: int = 1) -> None:
    client.texts[uri] = text
    client.versions[uri] = version
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="mlir", version=version, text=text)
        )
    )


def client_fixture(
    root_uri: str | None = None,
    documents: tuple[tuple[str, str], ...] = (),
    *,
    settled: tuple[str, ...] = (),
    editor: str = VSCODE,
    config: ClientServerConfig = CONFIG,
    scope: str = "module",
) -> Callable:
    """A `client` fixture: a server session initialised with `editor`'s capabilities (rooted at
    `root_uri`), the `documents` (uri, text) opened and those in `settled` published; shut down after."""

    async def client(lsp_client: RecordingClient) -> AsyncIterator[None]:
        params = types.InitializeParams(capabilities=client_capabilities(editor), root_uri=root_uri)
        await within(lsp_client.initialize_session(params))
        for uri, text in documents:
            open_document(lsp_client, uri, text)
        for uri in settled:
            await wait_published(lsp_client, uri, 1)
        yield
        await within(lsp_client.shutdown_session())

    return pytest_lsp.fixture(client, config=config, scope=scope, name="client")


def patched_client_fixture(root_uri: str, patch: str) -> Callable:
    """A function-scoped `client` fixture of a server that runs the Python source `patch` (which
    monkeypatches the server's modules) before it starts."""
    source = textwrap.dedent(patch) + "\nimport sys\nfrom gpu_lsp.__main__ import main\nsys.exit(main())\n"
    config = ClientServerConfig(server_command=[sys.executable, "-c", source], client_factory=make_client)
    return client_fixture(root_uri, config=config, scope="function")


# What makes a test's document of over 1,000 characters open as a large one, cut into ranges of 10
# top-level units or more, one per core (`k_way_client_fixture`).
_K_WAY_OPEN = """
from gpu_lsp.lsp import documents, range_lint
documents.PROGRESSIVE_SIZE = 1000
range_lint.UNITS_PER_WORKER = 10
range_lint.usable_cores = lambda: {cores}
"""


def k_way_client_fixture(root_uri: str, cores: int, patch: str) -> Callable:
    """`patched_client_fixture` of a server that opens a document with range workers as on `cores`
    cores (`_K_WAY_OPEN`), patched further by the Python source `patch` (which may use the modules
    `documents` and `range_lint` that `_K_WAY_OPEN` imports)."""
    return patched_client_fixture(root_uri, _K_WAY_OPEN.format(cores=cores) + textwrap.dedent(patch))


def change_document(client: RecordingClient, uri: str, start: int, end: int, new_text: str) -> int:
    """Send an incremental change of `[start, end)` (code-point offsets); returns the new version."""
    text = client.texts[uri]
    table = LineTable.of(text)
    sl, sc = table.position(text, start)
    el, ec = table.position(text, end)
    version = client.versions[uri] + 1
    client.versions[uri] = version
    client.texts[uri] = text[:start] + new_text + text[end:]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)),
                    text=new_text,
                )
            ],
        )
    )
    return version


async def raw_request(client: RecordingClient, method: str, params: Any) -> Any:
    """Send a request whose params are not checked by the client (to test malformed requests)."""
    msg_id = str(uuid.uuid4())
    future: Future = Future()
    client.protocol._request_futures[msg_id] = future
    client.protocol._send_data(JsonRPCRequestMessage(id=msg_id, method=method, params=params, jsonrpc="2.0"))
    return await asyncio.wrap_future(future)


def position(text: str, offset: int) -> types.Position:
    line, character = LineTable.of(text).position(text, offset)
    return types.Position(line=line, character=character)


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """`text` with the server's (non-overlapping) edits applied."""
    table = LineTable.of(text)
    spans = [
        (table.offset(text, e.range.start.line, e.range.start.character), table.offset(text, e.range.end.line, e.range.end.character), e.new_text)
        for e in edits
    ]
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text
