"""gpu-lint's persistent cache: a file's findings kept by its text, the settings, gpu-lsp's build and rule set (docs/lint-ci.md)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import gpu_lsp
from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Related, Severity
from gpu_lsp.lint.check import FileReport, FixMode
from gpu_lsp.lint.config import Settings
from gpu_lsp.lint.discovery import Source, Target, read_source
from gpu_lsp.lint.op_definitions import definitions_fingerprint
from gpu_lsp.lint.pool import check_all
from gpu_lsp.lint.rules import all_rules
from gpu_lsp.text import Edit, TextRange

# Bumped when the entry layout changes.
FORMAT = 1
# The names of build folders (`build_key`): only these are removed when the build changes.
BUILD_FOLDER = re.compile(r"[0-9a-f]{24}")
GITIGNORE = "# Created by gpu-lint.\n*\n"
CACHEDIR_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# gpu-lint's cache (https://bford.info/cachedir/)\n"


@functools.cache
def package_fingerprint() -> str:
    """A hash of every file of the installed gpu_lsp package (relative path, size, modification time); computed once a process."""
    root = Path(gpu_lsp.__file__).parent
    digest = hashlib.sha256()
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(names):
            path = os.path.join(folder, name)
            try:
                info = os.stat(path)
            except OSError:
                continue
            digest.update(f"{os.path.relpath(path, root)}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def build_key() -> str:
    """What identifies the analysing code: cache format, Python, gpu-lsp's version and files, the rule set."""
    digest = hashlib.sha256()
    for part in (FORMAT, sys.implementation.cache_tag, gpu_lsp.__version__, package_fingerprint(), all_rules()):
        digest.update(repr(part).encode() + b"\0")
    return digest.hexdigest()[:24]


def settings_key(settings: Settings) -> str:
    """The part of the settings that decides every file's findings (per-file ignores are added per file)."""
    return repr((
        settings.select, settings.extend_select, settings.ignore, settings.severity, settings.mlir_version,
        settings.report_undecided, definitions_fingerprint(settings.op_definitions),
    ))


def cache_folder(settings: Settings) -> Path:
    """The cache folder the settings name: `cache-dir`, relative to the project root (absolute as given)."""
    return settings.root / settings.cache_dir


class Cache:
    """Findings by key, in the folder of the current build; every failure is a miss or a skipped write."""

    def __init__(self, folder: Path, settings: Settings) -> None:
        self.root = folder
        self.folder = folder / build_key()
        self.settings = settings
        self.common = settings_key(settings)
        self._ready = False

    def key(self, text: str, path: str) -> str:
        """The entry name of `text` checked as the file at `path`."""
        digest = hashlib.sha256()
        ignores = repr(self.settings.matching_file_ignores(path))
        digest.update(f"{self.common}\0{ignores}\0".encode())
        digest.update(text.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def load(self, key: str) -> list[Diagnostic] | None:
        """The stored findings, or None when there is no usable entry."""
        try:
            with open(self.folder / f"{key}.json", "rb") as handle:
                entry = json.load(handle)
            if entry.get("format") != FORMAT or entry.get("key") != key:
                return None
            found = [_diagnostic(item) for item in entry["diagnostics"]]
        except (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError):
            return None
        return found

    def store(self, key: str, diagnostics: list[Diagnostic]) -> None:
        """Write an entry atomically (a temporary file renamed into place); a failure only loses the entry."""
        data = json.dumps({"format": FORMAT, "key": key, "diagnostics": [_plain(d) for d in diagnostics]})
        try:
            self._prepare()
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    out.write(data)
                os.replace(temporary, self.folder / f"{key}.json")
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:
            return

    def _prepare(self) -> None:
        """Create the folders (a new cache folder with a `.gitignore` of `*` and a CACHEDIR.TAG); remove other builds' folders."""
        if self._ready:
            return
        created = not self.root.exists()
        fresh = not self.folder.is_dir()
        self.folder.mkdir(parents=True, exist_ok=True)
        if created:
            for name, content in ((".gitignore", GITIGNORE), ("CACHEDIR.TAG", CACHEDIR_TAG)):
                (self.root / name).write_text(content, encoding="utf-8")
        if fresh:
            for other in self.root.iterdir():
                if other.is_dir() and BUILD_FOLDER.fullmatch(other.name) and other.name != self.folder.name:
                    shutil.rmtree(other, ignore_errors=True)
        self._ready = True


class Caches:
    """One Cache per configuration, in its `cache-dir` (the folder of a cache given on the command line is shared)."""

    def __init__(self) -> None:
        self._of: dict[Settings, Cache] = {}

    def of(self, settings: Settings) -> Cache:
        """The cache of the files these settings check, made when first asked for."""
        found = self._of.get(settings)
        if found is None:
            found = self._of[settings] = Cache(cache_folder(settings), settings)
        return found


def _plain(diagnostic: Diagnostic) -> dict[str, Any]:
    fix = diagnostic.fix
    return {
        "code": diagnostic.code,
        "message": diagnostic.message,
        "range": [diagnostic.range.start, diagnostic.range.end],
        "severity": int(diagnostic.severity),
        "fix": None
        if fix is None
        else {
            "title": fix.title,
            "edits": [[e.range.start, e.range.end, e.new_text] for e in fix.edits],
            "applicability": int(fix.applicability),
        },
        "related": [[r.message, r.range.start, r.range.end] for r in diagnostic.related],
        "tags": list(diagnostic.tags),
    }


def _diagnostic(item: dict[str, Any]) -> Diagnostic:
    """The inverse of `_plain`; a malformed entry raises ValueError, TypeError, KeyError or IndexError."""
    fix = item["fix"]
    start, end = item["range"]
    return Diagnostic(
        code=_str(item["code"]),
        message=_str(item["message"]),
        range=TextRange(int(start), int(end)),
        severity=Severity(item["severity"]),
        fix=None
        if fix is None
        else Fix(
            _str(fix["title"]),
            tuple(Edit(TextRange(int(s), int(e)), _str(t)) for s, e, t in fix["edits"]),
            Applicability(fix["applicability"]),
        ),
        related=tuple(Related(_str(m), TextRange(int(s), int(e))) for m, s, e in item["related"]),
        tags=tuple(_str(t) for t in item["tags"]),
    )


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("expected a string")
    return value


def _unchanged(path: str, before: os.stat_result) -> bool:
    """Whether the file still has the size and modification time it had when it was read for its key."""
    try:
        after = os.stat(path)
    except OSError:
        return False
    return (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def check_cached(
    targets: list[Target],
    settings: list[Settings],
    caches: Caches | None,
    mode: FixMode = FixMode.NONE,
    jobs: int | None = None,
    stdin_data: bytes | None = None,
) -> list[FileReport]:
    """`pool.check_all` with the cache: a file whose entry exists is not analysed; the others are, and stored.

    `settings` holds each target's settings, whose cache keeps its findings. Without caches, or when
    fixing, every file is checked. Reports are in `targets` order.
    """
    if caches is None or mode is not FixMode.NONE:
        return check_all(targets, settings, mode, jobs, stdin_data)
    reports: list[FileReport | None] = [None] * len(targets)
    pending: dict[int, tuple[Cache, str, os.stat_result]] = {}
    misses: list[int] = []
    for i, (target, chosen) in enumerate(zip(targets, settings, strict=True)):
        cache = caches.of(chosen)
        found = _lookup(target, cache)
        if isinstance(found, FileReport):
            reports[i] = found
            continue
        misses.append(i)
        if found is not None:
            pending[i] = (cache, *found)
    checked = check_all([targets[i] for i in misses], [settings[i] for i in misses], mode, jobs, stdin_data)
    for i, report in zip(misses, checked, strict=True):
        reports[i] = report
        entry = pending.get(i)
        if entry is not None and report.problem is None and report.path is not None and _unchanged(report.path, entry[2]):
            entry[0].store(entry[1], report.diagnostics)
    return [r for r in reports if r is not None]


def _lookup(target: Target, cache: Cache) -> FileReport | tuple[str, os.stat_result] | None:
    """The report from the cache; else the entry key to store under (with the file's stat), or None: not cacheable."""
    if target.path is None:
        return None
    try:
        before = os.stat(target.path)
    except OSError:
        return None
    source = read_source(target.path)
    if not isinstance(source, Source):
        return None
    key = cache.key(source.text, target.path)
    found = cache.load(key)
    if found is None:
        return key, before
    return FileReport(target.display, target.path, text=source.text if found else None, diagnostics=found)
