"""A console entry point called in this process, as a shell would run it."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable


def call_main(main: Callable[[list[str]], int | None], argv: list[str], stdin: str | bytes = "") -> tuple[int, str, str]:
    """`main(argv)` with `stdin` as standard input: (exit status, stdout, stderr); a SystemExit is its status."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin if isinstance(stdin, bytes) else stdin.encode("utf-8")), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as done:
                status = done.code if isinstance(done.code, int) else int(done.code is not None)
    finally:
        sys.stdin = saved
    return int(status or 0), out.getvalue(), err.getvalue()
