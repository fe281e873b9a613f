"""The JSON-RPC rules kept before pygls sees a message: parse and shape errors answered as the
spec says, the lifecycle enforced, and the messages pygls would trip on answered here.

`Gate` reads frames (`framing.FrameReader`) and offers pygls a clean stream (`readline`,
`read`) of the messages that pass. It answers -32700 to a body that is not JSON, -32600 to
one that is not a JSON-RPC message and to any request after `shutdown`, -32002 to a
request before `initialize` (notifications before it, and after `shutdown` but `exit`,
are dropped), drops a `$/cancelRequest` whose id is not a number or string, and answers
-32602 to `workspace/executeCommand` whose `arguments` are not a list. Its answers go
through the same `LockedWriter` as the server's. The texts of a large didOpen or didChange
are parked (`Parked`): pygls reads the message without them. The pipes it reads and writes get
a buffer of 1 MiB where the system allows (`widen_pipe`). Standard library only.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import stat
import threading
from typing import BinaryIO

from gpu_lsp.lsp.framing import INVALID_REQUEST, MAX_BODY, PARSE_ERROR, FrameReader, error_message, frame

log = logging.getLogger("gpu_lsp.gate")

NOT_INITIALIZED = -32002
INVALID_PARAMS = -32602
MAX_MESSAGE_ENV = "GPU_LSP_MAX_MESSAGE_MB"
PARK_SIZE = 1_000_000  # bytes: a didOpen or didChange body this long has its texts parked
PIPE_SIZE = 1024 * 1024  # bytes: Linux's default limit for a pipe's buffer (/proc/sys/fs/pipe-max-size)


def max_body_from_env() -> int:
    """The largest message body accepted: `GPU_LSP_MAX_MESSAGE_MB` megabytes, else `MAX_BODY`."""
    value = os.environ.get(MAX_MESSAGE_ENV, "")
    try:
        megabytes = float(value)
    except ValueError:
        return MAX_BODY
    return int(megabytes * 1024 * 1024) if megabytes > 0 else MAX_BODY


class LockedWriter:
    """`stream` with writes from several threads kept whole."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.lock = threading.Lock()

    def write(self, data: bytes) -> int:
        with self.lock:
            written = self.stream.write(data)
            self.stream.flush()
            return written

    def flush(self) -> None:
        with self.lock:
            self.stream.flush()

    def close(self) -> None:
        self.stream.close()


def widen_pipe(stream: object) -> None:
    """Give the pipe behind `stream` (if it is one, on Linux) a buffer of `PIPE_SIZE`: a 20 MB
    message then crosses in 20 reads, not 300 of 64 KiB, each a switch between the client and
    the server."""
    try:
        import fcntl

        descriptor = stream.fileno()  # type: ignore[attr-defined]
        if stat.S_ISFIFO(os.fstat(descriptor).st_mode):
            fcntl.fcntl(descriptor, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
    except (ImportError, AttributeError, OSError, ValueError):
        pass  # not Linux, not a file, not a pipe, or over the system's limit: the default buffer


def _as_text(body: bytes) -> str | bytes:
    """`body` for `json.loads`: decoded as UTF-8 here, which takes half the time of json's own
    decoding of bytes (20 MB: ~50 ms less); bytes that are not strict UTF-8 are left to json."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body


def _is_id(value: object) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _has_arguments(params: object) -> bool:
    return isinstance(params, dict) and isinstance(params.get("arguments"), list)


class Parked:
    """Document texts taken out of large messages before pygls reads them: pygls decodes the rest
    (placeholders instead of the texts), and the handlers `take` the texts back. A 20 MB didOpen
    is then decoded once, not twice, and not converted into lsprotocol objects. A placeholder
    holds a random key of this process, so no client can name a parked text."""

    KEPT = 4  # texts not taken yet (pygls handles a message before it reads the next one)

    def __init__(self) -> None:
        self._prefix = f"\x00gpu-lsp-parked-{secrets.token_hex(16)}-"
        self._texts: dict[str, str] = {}
        self._count = 0

    def park(self, message: dict) -> bytes:
        """The body of `message` with the document texts of a didOpen or didChange parked."""
        params = message.get("params")
        if message.get("method") == "textDocument/didOpen" and isinstance(params, dict):
            self._park_in(params.get("textDocument"))
        elif message.get("method") == "textDocument/didChange" and isinstance(params, dict):
            changes = params.get("contentChanges")
            for change in changes if isinstance(changes, list) else []:
                self._park_in(change)
        return json.dumps(message).encode("utf-8")

    def _park_in(self, holder: object) -> None:
        if not isinstance(holder, dict) or not isinstance(holder.get("text"), str):
            return
        self._count += 1
        key = f"{self._prefix}{self._count}"
        self._texts[key] = holder["text"]
        holder["text"] = key
        while len(self._texts) > self.KEPT:
            del self._texts[next(iter(self._texts))]

    def take(self, text: str) -> str:
        """The text a handler got: the parked one when `text` is its placeholder."""
        if not text.startswith(self._prefix):
            return text
        return self._texts.pop(text, "")


PARKED = Parked()


class Gate:
    """The messages of `stream` that pygls may see, as a byte stream; the rest answered on `out`."""

    def __init__(self, stream: BinaryIO, out: LockedWriter, max_body: int | None = None) -> None:
        self.out = out
        widen_pipe(stream)
        widen_pipe(out.stream)
        self.frames = FrameReader(stream, self.answer, max_body or max_body_from_env())
        self.initialized = False
        self.shut_down = False
        self._pending = memoryview(b"")

    def answer(self, msg_id: object, code: int, message: str) -> None:
        """Send an error response."""
        log.warning("answered %s: %s", code, message)
        try:
            self.out.write(frame(json.dumps(error_message(msg_id, code, message)).encode("utf-8")))
        except (OSError, ValueError):
            log.warning("could not answer the client")

    def next_message(self) -> bytes | None:
        """The next body pygls should handle (None at the end of the stream); a large document
        text in it is parked (`PARKED`)."""
        while True:
            body = self.frames.next_body()
            if body is None:
                return None
            message = self._passing(body)
            if message is not None:
                return PARKED.park(message) if len(body) >= PARK_SIZE else body

    def _passing(self, body: bytes) -> dict | None:
        """The message of `body` when it goes on to pygls; None when it was answered or dropped."""
        try:
            message = json.loads(_as_text(body))
        except (ValueError, RecursionError):
            self.answer(None, PARSE_ERROR, "Parse error: the message is not valid JSON")
            return None
        if not isinstance(message, dict):
            self.answer(None, INVALID_REQUEST, "Invalid request: a message must be a JSON object")
            return None
        return message if self._checked(message) else None

    def _checked(self, message: dict) -> bool:
        """Whether a JSON object goes on to pygls; if not, it was answered or dropped."""
        msg_id = message.get("id")
        if "id" in message and not _is_id(msg_id) and msg_id is not None:
            self.answer(None, INVALID_REQUEST, "Invalid request: an id must be a number or a string")
            return False
        reply_id = msg_id if _is_id(msg_id) else None
        if message.get("jsonrpc") != "2.0":
            self.answer(reply_id, INVALID_REQUEST, 'Invalid request: "jsonrpc" must be "2.0"')
            return False
        method = message.get("method")
        if method is None:  # a response to one of the server's requests
            return "id" in message and ("result" in message or "error" in message)
        if not isinstance(method, str):
            self.answer(reply_id, INVALID_REQUEST, 'Invalid request: "method" must be a string')
            return False
        return self._in_lifecycle(method, reply_id, "id" in message, message.get("params"))

    def _in_lifecycle(self, method: str, msg_id: object, request: bool, params: object) -> bool:
        if method == "exit":
            return True
        if self.shut_down:
            if request:
                self.answer(msg_id, INVALID_REQUEST, f"Invalid request: {method} after shutdown")
            return False
        if not self.initialized:
            if method == "initialize" and request:
                self.initialized = True
                return True
            if request:
                self.answer(msg_id, NOT_INITIALIZED, f"Server not initialized: {method} before initialize")
            return False
        if method == "shutdown" and request:
            self.shut_down = True
        elif method == "$/cancelRequest":
            return isinstance(params, dict) and _is_id(params.get("id"))
        elif method == "workspace/executeCommand" and request and not _has_arguments(params):
            self.answer(msg_id, INVALID_PARAMS, "Invalid params: workspace/executeCommand needs its arguments as a list")
            return False
        return True

    # --- the stream pygls reads ---------------------------------------------------------------

    def _refill(self) -> bool:
        if not self._pending:
            body = self.next_message()
            if body is None:
                return False
            self._pending = memoryview(frame(body))
        return True

    def readline(self) -> bytes:
        if not self._refill():
            return b""
        data = self._pending
        end = bytes(data[: min(len(data), 256)]).find(b"\n")
        end = len(data) if end < 0 else end + 1
        line, self._pending = bytes(data[:end]), data[end:]
        return line

    def read(self, n: int) -> bytes:
        if not self._refill():
            return b""
        data, self._pending = bytes(self._pending[:n]), self._pending[n:]
        return data
