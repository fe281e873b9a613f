"""Write fixed text back as a transaction: a temporary file in the same folder, fsync, rename.

The file is never emptied first, so a full disk, a file-size limit or a crash leaves the
original whole. The file's mode (and owner, where allowed) and its line endings are kept;
a file whose bytes changed since they were read (the user saved it meanwhile) is skipped;
a read-only file is not replaced; a symlink is written at its real path, and only when that
lies inside the folder the file was found in (`root`): `gpu-lint --fix .` never rewrites a
file outside the tree through a link.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile

from gpu_lsp.lint.discovery import BOM, Source

_LONE_LF = re.compile(r"(?<!\r)\n")


def keep_line_endings(original: str, fixed: str) -> str:
    """`fixed` with the line endings of `original`: when every line of it ends in CRLF, so do
    the lines fixes inserted."""
    crlf = original.count("\r\n")
    if crlf and crlf == original.count("\n"):
        return _LONE_LF.sub("\r\n", fixed)
    return fixed


def encode(source: Source) -> bytes:
    """The bytes of a source as written (BOM kept)."""
    return ((BOM if source.bom else "") + source.text).encode("utf-8")


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _unchanged(path: str, expected: bytes) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(expected) + 1) == expected


def write_fixed(path: str, original: Source, fixed: Source, root: str | None = None, what: str = "fixes") -> str | None:
    """Replace the file at `path` (read as `original`) by `fixed`; the one-line reason it was not
    written (`what` names the new text), else None. `root`: the real path of the folder the file was found below."""
    real = os.path.realpath(path)
    if root is not None and not _inside(real, os.path.realpath(root)):
        return f"{what} not written: the file is a link to {real}, outside {root}"
    temp = None
    try:
        info = os.stat(real)
        if not stat.S_ISREG(info.st_mode):
            return f"{what} not written: not a regular file"
        if not info.st_mode & 0o222 or not os.access(real, os.W_OK):
            return f"cannot write {what}: the file is read-only"
        if not _unchanged(real, encode(original)):
            return f"{what} not written: the file changed since it was read"
        folder, name = os.path.split(real)
        handle, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".gpu-lint", dir=folder)
        with os.fdopen(handle, "wb") as out:
            out.write(encode(fixed))
            out.flush()
            os.fsync(out.fileno())
            os.fchmod(out.fileno(), stat.S_IMODE(info.st_mode))
            with contextlib.suppress(OSError):  # not allowed to give the file away: it keeps our owner
                os.fchown(out.fileno(), info.st_uid, info.st_gid)
        if not _unchanged(real, encode(original)):
            return f"{what} not written: the file changed since it was read"
        os.replace(temp, real)
        temp = None
        _sync_folder(folder)
    except OSError as exc:
        return f"cannot write {what}: {exc.strerror or exc}"
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
    return None


def _sync_folder(folder: str) -> None:
    """Make the rename durable (where the platform allows opening a folder)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
