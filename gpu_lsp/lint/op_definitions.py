"""A project's `op-definitions` files: read, declared to the op table, their mistakes as one-line errors."""

from __future__ import annotations

import hashlib
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
