"""Answer `initialize` before the heavy imports, then hand the stream to the pygls server.

Importing pygls and lsprotocol takes most of a second on a loaded machine, longer than an
editor should wait for `initialize`. This module (standard library only) reads the first
message; when it is `initialize`, it answers with the capabilities the pygls server
computes for that client (from `advertised.CAPABILITIES`, generated from lsp/manifest.py and
checked against pygls by a test), then imports
the server and replays the request to it under another id, dropping that second answer.
Everything else reaches the server untouched, after the gate (gate.py: framing and
JSON-RPC errors) let it through.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from gpu_lsp.lsp.gate import Gate, LockedWriter

REPLAY_ID = "gpu-lsp-bootstrap-initialize"

_ENCODINGS = ("utf-8", "utf-16", "utf-32")


def _get(d: object, *path: str) -> object:
    for key in path:
        if not isinstance(d, dict):
            return None
        d = d.get(key)
    return d


def capabilities(client: dict) -> dict:
    """The server capabilities pygls computes for `client` (its ClientCapabilities as JSON)."""
    from gpu_lsp.lsp.advertised import CAPABILITIES  # data only, no import of its own

    caps = json.loads(json.dumps(CAPABILITIES))
    encodings = _get(client, "general", "positionEncodings")
    for encoding in encodings if isinstance(encodings, list) else []:
        if encoding in _ENCODINGS:
            caps["positionEncoding"] = encoding
            break
    if not _get(client, "textDocument", "rename", "prepareSupport"):
        caps["renameProvider"] = True
    sync = caps["textDocumentSync"]
    for key in ("willSave", "willSaveWaitUntil"):
        value = _get(client, "textDocument", "synchronization", key)
        if value is not None:
            sync[key] = False  # the client asks, the server does not listen
    return caps


def read_message(stream: BinaryIO | Gate) -> tuple[bytes, dict | None]:
    """One JSON-RPC message: its raw bytes and its JSON (None when unreadable)."""
    raw = b""
    length = None
    while True:
        line = stream.readline()
        raw += line
        if not line:
            return raw, None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    if length is None:
        return raw, None
    body = stream.read(length)
    raw += body
    try:
        return raw, json.loads(body)
    except ValueError:
        return raw, None


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class PrefixedReader:
    """`stream`, after `prefix` (what the bootstrap read ahead)."""

    def __init__(self, prefix: bytes, stream: BinaryIO | Gate) -> None:
        self.prefix = prefix
        self.stream = stream

    def readline(self) -> bytes:
        if self.prefix:
            end = self.prefix.find(b"\n")
            end = len(self.prefix) if end < 0 else end + 1
            line, self.prefix = self.prefix[:end], self.prefix[end:]
            if line.endswith(b"\n"):
                return line
            return line + self.stream.readline()
        return self.stream.readline()

    def read(self, n: int) -> bytes:
        if self.prefix:
            head, self.prefix = self.prefix[:n], self.prefix[n:]
            if len(head) < n:
                head += self.stream.read(n - len(head))
            return head
        return self.stream.read(n)


class DroppingWriter:
    """`stream`, without the server's answer to the replayed `initialize`."""

    def __init__(self, stream: BinaryIO | LockedWriter) -> None:
        self.stream = stream
        self.pending = True

    def write(self, data: bytes) -> int:
        if self.pending and REPLAY_ID.encode() in data:
            self.pending = False
            return len(data)
        return self.stream.write(data)

    def flush(self) -> None:
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()


def early_answer(message: object) -> dict | None:
    """The answer to an `initialize` request, or None when pygls should see it first (another
    method, or params it would reject)."""
    if not isinstance(message, dict) or message.get("method") != "initialize" or "id" not in message:
        return None
    params = message.get("params")
    if not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict) or "processId" not in params:
        return None
    from gpu_lsp import __version__

    result = {"capabilities": capabilities(params["capabilities"]), "serverInfo": {"name": "gpu-lsp", "version": __version__}}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def main() -> None:
    """Serve over stdio, answering `initialize` first."""
    from gpu_lsp.lsp.gate import Gate, LockedWriter
    from gpu_lsp.lsp.worker_start import start_workers

    start_workers()  # its preload runs beside this process's imports; no thread is started yet

    stdout = LockedWriter(sys.stdout.buffer)
    stdin = Gate(sys.stdin.buffer, stdout)
    if os.environ.get("GPU_LSP_NO_BOOTSTRAP") == "1":
        from gpu_lsp.server import main as serve

        serve(stdin=stdin, stdout=stdout)
        return
    raw, message = read_message(stdin)
    writer: LockedWriter | DroppingWriter = stdout
    answer = early_answer(message)
    if answer is not None and message is not None:
        stdout.write(frame(answer))
        stdout.flush()
        raw = frame(dict(message, id=REPLAY_ID))
        writer = DroppingWriter(stdout)
    from gpu_lsp.server import main as serve

    serve(stdin=PrefixedReader(raw, stdin), stdout=writer)
