"""The stdio framing of a client that may send anything: bad headers skipped, oversized bodies
refused unread, the stream resynchronised on the next valid header.

`FrameReader.next_body` returns one message body at a time. A header block whose
`Content-Length` is missing, not a number or negative is answered with a parse error and
dropped; the reader then looks for the next header. A body larger than `max_body` is
discarded as it arrives (only its first bytes are kept, to find the request's id) and
refused. A body that turns out shorter than its length (the next header appears inside it)
is cut there. The one pattern searched for, `Content-Length: N` + CRLF ... CRLF CRLF, cannot
occur inside valid JSON (a JSON string holds no raw line break), so finding it means a
header. Standard library only: the bootstrap reads the first message through this.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import BinaryIO

MAX_BODY = 64 * 1024 * 1024  # bytes; GPU_LSP_MAX_MESSAGE_MB overrides it (gate.py)
MAX_HEADER = 8 * 1024
CHUNK = 1024 * 1024
HEAD_KEPT = 4096  # of a refused body: enough to find its "id"
PARSE_ERROR = -32700
INVALID_REQUEST = -32600

_MARK = b"Content-Length"
_HEADER = re.compile(rb"Content-Length:[ \t]*(\d{1,15})[ \t]*\r\n(?:[!-9;-~]+:[^\r\n]*\r\n)*\r\n")
_HEADER_LINES = re.compile(rb"(?:[!-9;-~]+:[^\r\n]*\r\n)+")  # e.g. a Content-Type before Content-Length
_LENGTH = re.compile(rb"^[ \t]*(\d+)[ \t]*$")
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")(?=\s*[,}])')

Answer = Callable[[object, int, str], None]


def error_message(msg_id: object, code: int, message: str) -> dict:
    """A JSON-RPC error response."""
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def frame(body: bytes) -> bytes:
    """`body` with its header."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def id_in(head: bytes) -> object:
    """The request id found in the first bytes of a body, else None."""
    match = _ID.search(head)
    if match is None:
        return None
    try:
        return json.loads(match.group(1))
    except ValueError:
        return None


class FrameReader:
    """Message bodies from `stream` (which must offer `read1`); `answer(id, code, message)`
    reports each refused frame."""

    def __init__(self, stream: BinaryIO, answer: Answer, max_body: int = MAX_BODY) -> None:
        self._stream = stream
        self._answer = answer
        self.max_body = max_body
        self._buf = bytearray()
        self._eof = False

    def _fill(self) -> bool:
        """Append what the stream has (waiting for at least one byte); False at the end."""
        if self._eof:
            return False
        data = self._stream.read1(CHUNK)  # type: ignore[attr-defined]
        if not data:
            self._eof = True
            return False
        self._buf += data
        return True

    def _next_header(self, start: int, stop: int | None = None) -> int:
        """Where the next complete valid header begins in [`start`, `stop`), else -1."""
        at = self._buf.find(_MARK, start, stop)
        while at >= 0:
            if _HEADER.match(self._buf, at):
                return at
            at = self._buf.find(_MARK, at + 1, stop)
        return -1

    def _resync(self) -> bool:
        """Drop bytes up to the next valid header; False at the end of the stream."""
        while True:
            at = self._next_header(0)
            if at >= 0:
                del self._buf[:at]
                return True
            # keep a tail that may be the start of a header still arriving
            keep = max(0, len(self._buf) - MAX_HEADER)
            del self._buf[:keep]
            if not self._fill():
                return False

    def _header_block(self) -> bytes | None:
        """The header block at the start of the buffer (removed from it), else None at the end."""
        while True:
            end = self._buf.find(b"\r\n\r\n")
            if 0 <= end <= MAX_HEADER:
                at = self._next_header(1, end + 1)
                if at > 0 and not _HEADER_LINES.fullmatch(self._buf, 0, at):  # garbage before a header: drop it
                    self._answer(None, PARSE_ERROR, f"Parse error: {at} bytes before a header, skipped")
                    del self._buf[:at]
                    continue
                block = bytes(self._buf[:end])
                del self._buf[: end + 4]
                return block
            if end > MAX_HEADER or len(self._buf) > MAX_HEADER:
                self._answer(None, PARSE_ERROR, "Parse error: a header block over 8 KiB, skipped")
                if not self._resync():
                    return None
                continue
            if not self._fill():
                return None

    def _discard(self, length: int) -> None:
        """Skip a refused body of `length` bytes without keeping it; answer as soon as its id is
        known (or its first bytes or the body are over)."""
        head = b""
        left = length
        answered = False

        def refuse() -> None:
            self._answer(id_in(head), INVALID_REQUEST, f"a message of {length} bytes exceeds the limit of {self.max_body} bytes; refused")

        while True:
            at = self._next_header(0)
            if length - left == len(head) < HEAD_KEPT:  # the body's first bytes, for its id
                head += bytes(self._buf[: min(HEAD_KEPT - len(head), len(self._buf) if at < 0 else at)])
            if not answered and (id_in(head) is not None or len(head) >= HEAD_KEPT):
                refuse()
                answered = True
            if 0 <= at < left:  # the body ended early: a header follows
                del self._buf[:at]
                break
            if len(self._buf) >= left:
                del self._buf[:left]
                break
            taken = max(0, len(self._buf) - MAX_HEADER)  # keep a tail that may begin a header
            del self._buf[:taken]
            left -= taken
            if not self._fill():
                self._buf.clear()
                break
        if not answered:
            refuse()

    def _body(self, length: int) -> bytes | None:
        """`length` bytes of body, or what precedes the next header when that comes first."""
        scanned = 0
        while True:
            at = self._next_header(max(0, scanned - len(_MARK)))
            if 0 <= at < length:
                body = bytes(self._buf[:at])
                del self._buf[:at]
                return body
            if len(self._buf) >= length:
                body = bytes(self._buf[:length])
                del self._buf[:length]
                return body
            scanned = len(self._buf)
            if not self._fill():
                return None

    def next_body(self) -> bytes | None:
        """The next message body (None at the end of the stream)."""
        while True:
            block = self._header_block()
            if block is None:
                return None
            length = self._length(block)
            if length is None:  # its body (if any) follows: skip to the next header
                if not self._resync():
                    return None
                continue
            if length > self.max_body:
                self._discard(length)
                continue
            return self._body(length)

    def _length(self, block: bytes) -> int | None:
        """The block's Content-Length; None (after answering) when missing or invalid."""
        for line in block.split(b"\r\n"):
            name, colon, value = line.partition(b":")
            if colon and name.strip().lower() == b"content-length":
                match = _LENGTH.match(value)
                if match is None:
                    shown = value.strip()[:40].decode("ascii", "replace")
                    self._answer(None, PARSE_ERROR, f"Parse error: invalid Content-Length {shown!r}, frame skipped")
                    return None
                return int(match.group(1))
        self._answer(None, PARSE_ERROR, "Parse error: a header block without Content-Length, frame skipped")
        return None
