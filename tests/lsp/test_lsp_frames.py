"""A client that sends anything: bad frames are skipped or answered and the server answers the
next request; JSON-RPC errors as the spec says (adversarial suite, issue 29)."""

from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading

import pytest

from gpu_lsp.lsp.framing import FrameReader, frame
from gpu_lsp.lsp.gate import PIPE_SIZE, Gate, LockedWriter

TIMEOUT = 20.0
INITIALIZE = {"processId": None, "rootUri": None, "capabilities": {}}


class RawServer:
    """The server over pipes, written to byte by byte as a client would, its messages in a queue."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gpu_lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
        )
        self.messages: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        reader = FrameReader(self.proc.stdout, lambda *a: None)
        while (body := reader.next_body()) is not None:
            self.messages.put(json.loads(body))

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_raw(frame(json.dumps({"jsonrpc": "2.0", **message}).encode()))

    def answer(self, msg_id: object) -> dict:
        """The response with `msg_id` (server requests and notifications in between are skipped)."""
        while True:
            message = self.messages.get(timeout=TIMEOUT)
            if "method" not in message and message.get("id") == msg_id:
                return message

    def notification(self, method: str) -> dict:
        while True:
            message = self.messages.get(timeout=TIMEOUT)
            if message.get("method") == method and "id" not in message:
                return message

    def close(self) -> int:
        self.send({"id": "bye", "method": "shutdown"})
        self.answer("bye")
        self.send({"method": "exit"})
        return self.proc.wait(TIMEOUT)


@pytest.fixture
def server():
    running = RawServer()
    yield running
    running.proc.kill()
    running.proc.wait()


BAD_FRAMES = {
    "length not a number": b"Content-Length: abc\r\n\r\n{}",
    "length overflowing": b"Content-Length: 99999999999999999999\r\n\r\n{}",
    "negative length": b"Content-Length: -1\r\n\r\n{}",
    "no Content-Length": b'Content-Type: application/json\r\n\r\n{"jsonrpc":"2.0","id":99,"method":"shutdown"}',
    "length longer than the body": b'Content-Length: 400\r\n\r\n{"jsonrpc":"2.0","method":"x"}',
    "length shorter than the body": b"Content-Length: 5\r\n\r\nnot json at all",
    "garbage line": b"hello there\r\n\r\n",
    "header over 8 KiB": b"X-Padding: " + b"a" * 9000 + b"\r\n\r\n",
    "body not JSON": b"Content-Length: 3\r\n\r\n{{{",
}


def test_the_server_answers_initialize_after_each_bad_frame(server: RawServer) -> None:
    for number, (name, data) in enumerate(BAD_FRAMES.items(), start=1):
        server.send_raw(data)
        server.send({"id": number, "method": "initialize", "params": INITIALIZE})
        answer = server.answer(number)
        assert "capabilities" in answer.get("result", {}), name
    assert server.close() == 0


def test_a_huge_length_after_initialize_is_refused_unread() -> None:
    server = RawServer(env={"GPU_LSP_MAX_MESSAGE_MB": "0.05"})
    try:
        server.send({"id": 1, "method": "initialize", "params": INITIALIZE})
        server.answer(1)
        server.send_raw(b'Content-Length: 30000000000\r\n\r\n{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{')
        refused = server.answer(2)
        assert refused["error"]["code"] == -32600 and "exceeds the limit" in refused["error"]["message"]
        big = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "workspace/symbol", "params": {"query": "x" * 200_000}}).encode()
        server.send_raw(frame(big))
        assert server.answer(3)["error"]["code"] == -32600
        server.send({"id": 4, "method": "workspace/symbol", "params": {"query": "x"}})
        assert "result" in server.answer(4)
        assert server.close() == 0
    finally:
        server.proc.kill()
        server.proc.wait()


def test_protocol_errors_follow_the_spec(server: RawServer) -> None:
    hover = {"textDocument": {"uri": "file:///w/a.mlir"}, "position": {"line": 0, "character": 0}}
    server.send({"id": 1, "method": "textDocument/hover", "params": hover})
    assert server.answer(1)["error"]["code"] == -32002
    server.send({"id": 2, "method": "initialize", "params": INITIALIZE})
    server.answer(2)
    server.send({"method": "initialized", "params": {}})
    server.send_raw(frame(b'{"jsonrpc": "2.0", "id": 3, "method": '))
    assert server.answer(None)["error"]["code"] == -32700
    server.send_raw(frame(b"[1, 2]"))
    assert server.answer(None)["error"]["code"] == -32600
    server.send({"id": 4, "method": "textDocument/hover", "jsonrpc": "1.0", "params": hover})
    assert server.answer(4)["error"]["code"] == -32600
    server.send({"method": "$/cancelRequest", "params": {"id": {"nested": 1}}})
    server.send({"id": 5, "method": "workspace/executeCommand", "params": {"command": "gpuLsp.server.fixAll", "arguments": None}})
    error = server.answer(5)["error"]
    assert error["code"] == -32602 and "Traceback" not in error["message"]
    server.send({"id": 6, "method": "workspace/symbol", "params": {"query": "x"}})
    assert "result" in server.answer(6)
    # a document path longer than PATH_MAX: no configuration lookup, still diagnostics
    uri = "file:///tmp/" + "/".join(["e" * 250] * 20) + "/x.mlir"
    item = {"uri": uri, "languageId": "mlir", "version": 1, "text": "func.func @f() {\n  %0 = arith.constant 1 : i32\n}\n"}
    server.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
    published = server.notification("textDocument/publishDiagnostics")
    assert published["params"]["uri"] == uri and published["params"]["diagnostics"]
    server.send({"id": 7, "method": "shutdown"})
    assert server.answer(7)["result"] is None
    server.send({"id": 8, "method": "textDocument/hover", "params": hover})
    assert server.answer(8)["error"]["code"] == -32600
    server.send({"method": "exit"})
    assert server.proc.wait(TIMEOUT) == 0
    shown = []
    while not server.messages.empty():
        shown.append(server.messages.get())
    assert not [m for m in shown if m.get("method") == "window/showMessage"], shown


def test_frame_reader_cuts_a_short_body_at_the_next_header() -> None:
    answers: list[tuple] = []
    good = frame(b'{"a": 1}')
    stream = io.BufferedReader(io.BytesIO(b'Content-Length: 90\r\n\r\n{"b": 2}' + good))  # type: ignore[arg-type]
    reader = FrameReader(stream, lambda *a: answers.append(a))
    assert reader.next_body() == b'{"b": 2}'
    assert reader.next_body() == b'{"a": 1}'
    assert reader.next_body() is None


def test_frame_reader_keeps_content_length_text_inside_a_body() -> None:
    body = json.dumps({"text": "Content-Length: 12\r\n\r\n"}).encode()
    stream = io.BufferedReader(io.BytesIO(frame(body) + frame(b"{}")))  # type: ignore[arg-type]
    reader = FrameReader(stream, lambda *a: None)
    assert reader.next_body() == body
    assert reader.next_body() == b"{}"


def test_frame_reader_accepts_other_headers_before_content_length() -> None:
    answers: list[tuple] = []
    data = b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}"
    reader = FrameReader(io.BufferedReader(io.BytesIO(data + frame(b"[]"))), lambda *a: answers.append(a))  # type: ignore[arg-type]
    assert (reader.next_body(), reader.next_body(), answers) == (b"{}", b"[]", [])


def test_the_gate_widens_the_pipes_it_reads_and_writes() -> None:
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("pipe sizes are Linux's")
    read_end, write_end = os.pipe()
    out_read, out_write = os.pipe()
    with open(read_end, "rb") as stream, open(out_write, "wb") as out, open(write_end, "wb"), open(out_read, "rb"):
        Gate(stream, LockedWriter(out))
        assert fcntl.fcntl(read_end, fcntl.F_GETPIPE_SZ) == PIPE_SIZE
        assert fcntl.fcntl(out_write, fcntl.F_GETPIPE_SZ) == PIPE_SIZE
    Gate(io.BytesIO(b""), LockedWriter(io.BytesIO()))  # not a pipe: left as it is
