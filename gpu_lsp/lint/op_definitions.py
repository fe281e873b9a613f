"""A project's `op-definitions` files: read (a file that is not TOML keeps its last good text), built into the
configuration's op registry (ir/opdefs/registry.py), their mistakes with their file."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from gpu_lsp.ir.opdefs.definition_file import DefinitionError
from gpu_lsp.ir.opdefs.registry import OpRegistry, activate, registry_of
from gpu_lsp.ir.opdefs.user_ops import read_user_ops


@dataclass(frozen=True, eq=False)
class _File:
    """One op-definitions file as last read: its text, the text its declarations come from, and why not its own."""

    text: str | None  # None: it could not be read
    used: str | None  # the file's text, or its last good one while it is not TOML or UTF-8; None: nothing to use
    problem: tuple[DefinitionError, ...]  # the file cannot be read or is not TOML (a range in the file as it is)


@dataclass(frozen=True, eq=False)
class Definitions:
    """What one configuration's `op-definitions` declare now: the registry, and the mistakes per file."""

    registry: OpRegistry
    errors: tuple[tuple[str, DefinitionError], ...]


_FILES: dict[str, _File] = {}
_CONFIGS: dict[tuple[str, ...], tuple[tuple[_File, ...], Definitions]] = {}


def _read(path: str) -> _File:
    """The file as it is now: read every time (a small file; a modification time may not tell an edit), the same
    object while its text is the same."""
    last = _FILES.get(path)
    kept = last.used if last is not None else None
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:  # gone or unreadable: its declarations are gone too
        now = _File(None, None, (DefinitionError(f"cannot read op definitions: {exc.strerror or exc}", 0, 0, 0),))
    except UnicodeDecodeError:
        now = _File(None, kept, (DefinitionError("cannot read op definitions: not UTF-8", 0, 0, 0),))
    else:
        if last is not None and last.text == text:
            return last
        found = read_user_ops(text)
        now = _File(text, text, ()) if found.readable else _File(text, kept, found.errors)
    if last is not None and (last.text, last.used, last.problem) == (now.text, now.used, now.problem):
        return last  # still unreadable, for the same reason
    _FILES[path] = now
    return now


def definitions_for(paths: tuple[str, ...]) -> Definitions:
    """The registry of a configuration's files as they are now (the same object while none changed)."""
    files = tuple(_read(path) for path in paths)
    cached = _CONFIGS.get(paths)
    if cached is not None and all(a is b for a, b in zip(cached[0], files, strict=True)):
        return cached[1]
    registry = registry_of(tuple((path, f.used) for path, f in zip(paths, files, strict=True) if f.used is not None))
    errors: list[tuple[str, DefinitionError]] = []
    for path, read in zip(paths, files, strict=True):
        # While a file is broken its own error is what to show: the declarations' errors are of its last good text.
        errors.extend([(path, e) for e in read.problem] if read.problem else [e for e in registry.errors if e[0] == path])
    found = Definitions(registry, tuple(errors))
    _CONFIGS[paths] = (files, found)
    return found


def use_op_definitions(paths: Iterable[str]) -> list[str]:
    """Make the ops of exactly these files (and the built-in ones) known, forgetting those of other files;
    their mistakes as the one-line `path:line:col: error: message` the CLIs print."""
    found = definitions_for(tuple(paths))
    activate(found.registry)
    return [error.describe(path) for path, error in found.errors]


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
