"""User errors over the wire (issue 26): answered as LSP errors with one log line and no traceback; a setting of
the wrong value is told once (window/showMessage) and ignored."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from support import REPO

EXAMPLE = REPO / "examples" / "async_pipeline.mlir"
URI = EXAMPLE.as_uri()
BAD = {"lint": {"severity": {"GPU3": "information"}}}


class Wire:
    """A bare JSON-RPC client over the server's stdio that answers workspace/configuration with BAD."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gpu_lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO
        )
        self.notes: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while (line := self.proc.stdout.readline().strip()) != b"":
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def answer(self, request_id: int) -> dict[str, Any]:
        """Read until the response to `request_id`, answering the server's configuration requests meanwhile."""
        while True:
            message = self._read()
            if message.get("method") == "workspace/configuration":
                self.send({"id": message["id"], "result": [BAD]})
            elif "method" in message:
                self.notes.append(message)
            elif message.get("id") == request_id:
                return message


def test_user_errors_are_answered_without_tracebacks_and_bad_settings_told_once() -> None:
    wire = Wire()
    capabilities = {"workspace": {"configuration": True}}
    wire.send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": capabilities, "initializationOptions": BAD}})
    wire.answer(1)
    wire.send({"method": "initialized", "params": {}})
    wire.send({"method": "textDocument/didOpen", "params": {"textDocument": {"uri": URI, "languageId": "mlir", "version": 1, "text": EXAMPLE.read_text()}}})
    line = next(i for i, text in enumerate(EXAMPLE.read_text().splitlines()) if text.startswith("  %t0 = gpu.wait async"))
    clash = {"textDocument": {"uri": URI}, "position": {"line": line, "character": 3}, "newName": "t1"}
    wire.send({"id": 2, "method": "textDocument/rename", "params": clash})
    assert wire.answer(2)["error"]["message"] == "'%t1' is already defined in this scope"
    wire.send({"id": 3, "method": "gpu-lsp/asyncGraph", "params": {"textDocument": {"uri": URI}, "format": "png"}})
    assert "format must be one of" in wire.answer(3)["error"]["message"]
    wire.send({"method": "workspace/didChangeConfiguration", "params": {"settings": {"gpuLsp": BAD}}})
    wire.send({"id": 4, "method": "shutdown"})
    wire.answer(4)
    wire.send({"method": "exit"})
    _out, err = wire.proc.communicate(timeout=30)
    shown = [n["params"]["message"] for n in wire.notes if n["method"] == "window/showMessage"]
    assert shown == ["gpu-lsp settings: gpuLsp.lint.severity.GPU3 must be one of error, warning, info, hint, not 'information' (ignored)"]
    log = err.decode()
    assert "Traceback" not in log, log
    assert "answered with error -32803: '%t1' is already defined in this scope" in log
