"""A project's `op-definitions` files: read, declared to the op table, their mistakes as one-line errors."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import replace

from gpu_lsp.ir.opdefs import install
from gpu_lsp.ir.opdefs.definition_file import DefinitionError
from gpu_lsp.ir.opdefs.user_enums import install_enums
from gpu_lsp.ir.opdefs.user_ops import read_user_ops


def declare_op_definitions(paths: Iterable[str]) -> list[tuple[str, DefinitionError]]:
    """Declare the ops the files hold (each replaces what it declared before); each error with its file."""
    problems: list[tuple[str, DefinitionError]] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            problems.append((path, DefinitionError(f"cannot read op definitions: {exc.strerror or exc}", 0, 0, 0)))
            continue
        except UnicodeDecodeError:
            problems.append((path, DefinitionError("cannot read op definitions: not UTF-8", 0, 0, 0)))
            continue
        found = read_user_ops(text)
        problems.extend((path, error) for error in found.errors)
        headers = dict(found.headers)
        refused = install_enums(path, found.enums) + [(op.name, why) for op, why in install(path, found.ops)]
        problems.extend((path, replace(headers[name], message=why)) for name, why in refused)
    return problems


def load_op_definitions(paths: Iterable[str]) -> list[str]:
    """`declare_op_definitions`, its errors as the one-line `path:line:col: error: message` the CLIs print."""
    return [error.describe(path) for path, error in declare_op_definitions(paths)]


# What `use_op_definitions` declared last: the files, their stat (size, modification time), their error lines.
_ACTIVE: list[tuple[tuple[str, ...], tuple[tuple[int, int], ...], list[str]]] = [((), (), [])]


def _stamp(path: str) -> tuple[int, int]:
    try:
        info = os.stat(path)
    except OSError:
        return (-1, -1)
    return (info.st_size, info.st_mtime_ns)


def use_op_definitions(paths: tuple[str, ...]) -> list[str]:
    """Declare exactly the ops of `paths`, forgetting those other files declared (another configuration's);
    `load_op_definitions`'s error lines. The same files, unchanged since last time, are not read again."""
    active, stamps, errors = _ACTIVE[0]
    now = tuple(map(_stamp, paths))
    if paths == active and now == stamps:
        return errors
    for source in active:
        install(source, ())
        install_enums(source, ())
    errors = load_op_definitions(paths)
    _ACTIVE[0] = (paths, now, errors)
    return errors


def definitions_fingerprint(paths: Iterable[str]) -> str:
    """A digest of the files' contents (what a cached lint of a file depends on besides its text)."""
    digest = hashlib.sha256()
    for path in paths:
        try:
            with open(path, "rb") as handle:
                digest.update(path.encode() + b"\0" + handle.read() + b"\0")
        except OSError:
            digest.update(path.encode() + b"\1")
    return digest.hexdigest()
