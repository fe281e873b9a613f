"""gpu-lint's persistent cache: the findings of a file's text, kept on disk under a key of all
they depend on (the text, the MLIR version the checks follow, gpu-lint's version, its rule set
and its build), so that an unchanged tree is checked again in the time it takes to hash it.

What is kept is the analysis before selection (`check.analyze`): select, ignore, per-file
ignores and severities are applied to it on every run. One file per key, in
`<cache-dir>/<format>/<key[:2]>/<key>`; the folder gets a `.gitignore` that ignores it all.
A cache that cannot be read or written is no cache: the file is analysed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path

from gpu_lsp import __version__
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.lint.config import Settings
from gpu_lsp.lint.rules import known_codes

# Changed when what a cache file holds changes.
FORMAT = "v1"
PACKAGE = Path(__file__).resolve().parents[1]


def directory(settings: Settings) -> Path | None:
    """Where the cache lives (`cache-dir`, relative to the project root), or None when it is off."""
    if not settings.cache_dir:
        return None
    folder = Path(settings.cache_dir).expanduser()
    return folder if folder.is_absolute() else settings.root / folder


@functools.lru_cache(maxsize=1)
def rule_set() -> str:
    """What the findings depend on besides the text and the settings: gpu-lint's version, its
    rules and its build (the modification times of its modules, so that an edited checkout
    invalidates the cache too)."""
    stamp = sorted((p.relative_to(PACKAGE).as_posix(), p.stat().st_mtime_ns) for p in PACKAGE.rglob("*") if p.suffix in (".py", ".so", ".pyd", ".lark"))
    parts = [FORMAT, __version__, ",".join(sorted(known_codes())), repr(stamp)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def key(text: str, settings: Settings) -> str:
    """The cache key of the findings of `text` with `settings`."""
    digest = hashlib.sha256()
    digest.update(f"{rule_set()}\n{settings.mlir_version}\n".encode())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _entry(folder: Path, text: str, settings: Settings) -> Path:
    k = key(text, settings)
    return folder / FORMAT / k[:2] / k


def lookup(text: str, settings: Settings) -> list[Diagnostic] | None:
    """The findings of `text` the cache has, or None (no entry, an unreadable one, no cache)."""
    folder = directory(settings)
    if folder is None:
        return None
    try:
        with open(_entry(folder, text, settings), "rb") as handle:
            found = pickle.load(handle)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return None
    return found if isinstance(found, list) else None


def findings(text: str, settings: Settings, compute: Callable[[], list[Diagnostic]]) -> list[Diagnostic]:
    """The findings of `text`: from the cache when it has them, else `compute()` (kept for next time)."""
    found = lookup(text, settings)
    if found is not None:
        return found
    found = compute()
    folder = directory(settings)
    if folder is not None:
        _store(folder, _entry(folder, text, settings), found)
    return found


def _store(folder: Path, path: Path, found: list[Diagnostic]) -> None:
    """Write `found` at `path` atomically (workers may write the same key at once)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        ignore = folder / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# Created by gpu-lint: its cache, never committed.\n*\n", encoding="utf-8")
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            pickle.dump(found, out, pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except (OSError, pickle.PicklingError):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
