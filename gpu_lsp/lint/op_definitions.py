"""A project's `op-definitions` files: read, declared to the op table, their mistakes as one-line errors."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import replace

from gpu_lsp.ir.opdefs import install
from gpu_lsp.ir.opdefs.user_enums import install_enums
from gpu_lsp.ir.opdefs.user_ops import read_user_ops


def load_op_definitions(paths: Iterable[str]) -> list[str]:
    """Declare the ops the files hold (each replaces what it declared before); their errors, one line each."""
    problems: list[str] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            problems.append(f"{path}: error: cannot read op definitions: {exc.strerror or exc}")
            continue
        except UnicodeDecodeError:
            problems.append(f"{path}: error: cannot read op definitions: not UTF-8")
            continue
        found = read_user_ops(text)
        problems.extend(error.describe(path) for error in found.errors)
        headers = dict(found.headers)
        refused = install_enums(path, found.enums) + [(op.name, why) for op, why in install(path, found.ops)]
        problems.extend(replace(headers[name], message=why).describe(path) for name, why in refused)
    return problems


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
