"""The bootstrap answers `initialize` exactly as the pygls server would, and passes the rest on."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.protocol import default_converter

from gpu_lsp.lsp.bootstrap import REPLAY_ID, DroppingWriter, PrefixedReader, capabilities, early_answer, frame, read_message
from gpu_lsp.server import server

CLIENTS = sorted((Path(pytest_lsp.__file__).parent / "clients").glob("*.json"))


def _pygls_capabilities(client: dict) -> dict:
    """What pygls' `initialize` computes for this server and client."""
    converter = default_converter()
    caps = converter.structure(client, types.ClientCapabilities)
    fm = server.protocol.fm
    built = ServerCapabilitiesBuilder(
        caps,
        set({**fm.features, **fm.builtin_features}.keys()),
        fm.feature_options,
        list(fm.commands.keys()),
        server._text_document_sync_kind,
        server._notebook_document_sync,
        ServerCapabilitiesBuilder.choose_position_encoding(caps),
    ).build()
    return converter.unstructure(built)


@pytest.mark.parametrize("path", CLIENTS, ids=lambda p: p.stem)
def test_capabilities_match_pygls_for_every_bundled_client(path: Path) -> None:
    client = json.loads(path.read_text())["capabilities"]
    assert capabilities(client) == _pygls_capabilities(client)


@pytest.mark.parametrize(
    "client", [{}, {"general": {"positionEncodings": ["utf-32", "utf-16"]}}, {"general": {"positionEncodings": ["utf-8"]}}]
)
def test_capabilities_match_pygls_for_minimal_clients(client: dict) -> None:
    assert capabilities(client) == _pygls_capabilities(client)


def test_prefixed_reader_serves_the_prefix_first() -> None:
    rest = io.BytesIO(b"tail\nmore")
    reader = PrefixedReader(b"Content-Length: 2\r\n\r\n{}par", rest)
    assert reader.readline() == b"Content-Length: 2\r\n"
    assert reader.readline() == b"\r\n"
    assert reader.read(2) == b"{}"
    assert reader.readline() == b"partail\n"
    assert reader.read(4) == b"more"


def test_read_message_and_frame_round_trip() -> None:
    message = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    raw, parsed = read_message(io.BytesIO(frame(message) + b"next"))
    assert parsed == message and raw == frame(message)


def test_dropping_writer_drops_only_the_replayed_answer() -> None:
    out = io.BytesIO()
    writer = DroppingWriter(out)
    writer.write(frame({"jsonrpc": "2.0", "id": REPLAY_ID, "result": {}}))
    writer.write(frame({"jsonrpc": "2.0", "id": REPLAY_ID, "result": {}}))
    writer.write(b"other")
    assert out.getvalue() == frame({"jsonrpc": "2.0", "id": REPLAY_ID, "result": {}}) + b"other"


def test_only_well_formed_initialize_requests_are_answered_early() -> None:
    good = {"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"processId": None, "capabilities": {}}}
    answer = early_answer(good)
    assert answer["id"] == 7 and answer["result"]["serverInfo"]["name"] == "gpu-lsp"
    assert answer["result"]["capabilities"] == capabilities({})
    for bad in (None, [], {"method": "shutdown", "id": 1}, dict(good, params={}), dict(good, params={"capabilities": {}})):
        assert early_answer(bad) is None
    no_id = dict(good)
    del no_id["id"]
    assert early_answer(no_id) is None
