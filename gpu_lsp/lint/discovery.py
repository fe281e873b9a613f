"""Which files gpu-lint checks: paths and folders (recursive `*.mlir`, .gitignore, exclude) and how each is read
(writing fixes back: writeback.py)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gpu_lsp.lint.config import Settings, forms_match, path_forms
from gpu_lsp.lint.gitignore import GitIgnore, ancestor_ignores, is_ignored, repo_root

STDIN = "-"
SUFFIX = ".mlir"
MAX_FILE_SIZE = 10 * 1024 * 1024
BOM = "\ufeff"


@dataclass(frozen=True)
class Target:
    """One file to lint: where to read it (None: standard input) and the name reports use."""

    path: str | None
    display: str
    root: str | None = None  # the folder it was found in (fixes are written only inside it)


@dataclass(frozen=True)
class Problem:
    """A path gpu-lint could not check, as one line: `level: display: message`."""

    display: str
    message: str
    level: str = "error"

    def line(self) -> str:
        return f"{self.level}: {self.display}: {self.message}"


@dataclass(frozen=True)
class Source:
    """A file's text as linted, with what is needed to write it back unchanged but for fixes."""

    text: str
    bom: bool = False


def display_name(path: Path, cwd: Path) -> str:
    """A path relative to the current folder when it lies below it, else absolute; always with `/`."""
    absolute = Path(os.path.abspath(path))
    try:
        name = absolute.relative_to(cwd).as_posix()
    except ValueError:
        name = absolute.as_posix()
    # A file name that is not valid UTF-8 is shown with replacement characters rather than failing to print.
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _excluded(settings: Settings, path: Path) -> bool:
    forms = path_forms(str(path), settings.root)
    return any(forms_match(pattern.rstrip("/"), forms) for pattern in settings.exclude + settings.extend_exclude)


def force_excluded(settings: Settings, path: Path) -> bool:
    """For `--force-exclude`: the file, or a folder above it inside the repository, is excluded or ignored."""
    absolute = Path(os.path.abspath(path))
    parents = list(absolute.parents)
    top = repo_root(absolute.parent)
    if top is None:
        top = settings.root if settings.root in parents else absolute.parent
    below = [absolute, *parents[: parents.index(top)]]
    if any(_excluded(settings, item) for item in below):
        return True
    if not settings.respect_gitignore:
        return False
    stack = ancestor_ignores(top)
    for item in reversed(below):
        loaded = GitIgnore.load(item.parent / ".gitignore")
        if loaded is not None:
            stack.append(loaded)
        if is_ignored(stack, item, item is not absolute):
            return True
    return False


# The settings of the files in a folder (None: its configuration file is broken, skip them).
SettingsOf = Callable[[Path], Settings | None]


def _walk(folder: Path, settings_of: SettingsOf, stack: list[GitIgnore], found: list[Path], unreadable: list[Path]) -> None:
    settings = settings_of(folder)
    if settings is None:
        return
    if settings.respect_gitignore:
        loaded = GitIgnore.load(folder / ".gitignore")
        if loaded is not None:
            stack = [*stack, loaded]
    try:
        with os.scandir(folder) as entries:
            items = sorted(entries, key=lambda e: e.name)
    except OSError:
        unreadable.append(folder)
        return
    for entry in items:
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if _excluded(settings, path) or (settings.respect_gitignore and is_ignored(stack, path, is_dir)):
            continue
        if is_dir:
            if not entry.is_symlink():
                _walk(path, settings_of, stack, found, unreadable)
        elif entry.name.endswith(SUFFIX):
            found.append(path)


def discover(
    paths: list[str],
    settings: Settings,
    stdin_filename: str | None = None,
    force_exclude: bool = False,
    cwd: Path | None = None,
    settings_of: SettingsOf | None = None,
) -> tuple[list[Target], list[Problem]]:
    """Expand the command-line paths into the files to lint, sorted and without duplicates.

    Parameters
    ----------
    paths: files, folders, or `-` for standard input (none: the current folder).
    settings: exclude patterns, whether to honour .gitignore, the project root.
    stdin_filename: the name standard input is reported (and configured) as.
    force_exclude: apply exclusions to files named on the command line too (pre-commit passes files).
    settings_of: the settings of each folder's files (hierarchy.py; None: `settings` everywhere), whose
        exclusions apply in that folder.

    Returns
    -------
    The targets, then one Problem per path that does not exist or folder without `.mlir` files.
    """
    cwd = cwd or Path.cwd()
    local = settings_of or (lambda _folder: settings)
    if not paths:
        paths = [STDIN] if stdin_filename else ["."]
    targets: dict[str, Target] = {}
    problems: list[Problem] = []
    for raw in paths:
        if raw == STDIN:
            name = stdin_filename or STDIN
            named = local((cwd / name).parent) if stdin_filename else settings
            if named is not None and not (force_exclude and stdin_filename and force_excluded(named, cwd / name)):
                targets.setdefault(STDIN, Target(None, display_name(cwd / name, cwd) if stdin_filename else STDIN))
            continue
        path = cwd / raw
        if path.is_dir():
            found: list[Path] = []
            unreadable: list[Path] = []
            absolute = Path(os.path.abspath(path))
            top = local(absolute)
            stack = ancestor_ignores(absolute) if top is not None and top.respect_gitignore else []
            _walk(absolute, local, stack, found, unreadable)
            problems.extend(Problem(display_name(folder, cwd), "cannot read folder, skipped") for folder in unreadable)
            if not found and not unreadable and top is not None:
                problems.append(Problem(display_name(path, cwd), "no .mlir files found", "warning"))
            for file in found:
                key = os.path.realpath(file)
                targets.setdefault(key, Target(str(file), display_name(file, cwd), str(absolute)))
        elif path.exists() or path.is_symlink():
            named = local(Path(os.path.abspath(path)).parent)
            if named is None or (force_exclude and force_excluded(named, path)):
                continue
            key = os.path.realpath(path)
            targets.setdefault(key, Target(str(path), display_name(path, cwd)))
        else:
            problems.append(Problem(display_name(path, cwd), "no such file or folder"))
    ordered = sorted(targets.values(), key=lambda t: (t.path is None, t.display))
    return ordered, problems


def read_named(name: str, read: Callable[[], bytes]) -> Source | str:
    """What `read` gives, decoded, or the one-line reason file `name` cannot be read as MLIR text
    (a folder, an OS error, binary or non-UTF-8 bytes): the CLIs' shared reader."""
    try:
        data = read()
    except IsADirectoryError:
        return f"{name} is a folder, not a file"
    except OSError as exc:
        return f"cannot read {name}: {exc.strerror or exc}"
    source = decode(data, skipped=False)
    return f"{name}: {source}" if isinstance(source, str) else source


def decode(data: bytes, skipped: bool = True) -> Source | str:
    """Bytes to a Source, or the one-line reason they are not MLIR text (ending in `, skipped` when `skipped`)."""
    tail = ", skipped" if skipped else ""
    if b"\0" in data:
        return f"binary file (contains NUL bytes){tail}"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"invalid UTF-8 at byte {exc.start}{tail}"
    if text.startswith(BOM):
        return Source(text[1:], bom=True)
    return Source(text)


def read_source(path: str, max_size: int = MAX_FILE_SIZE) -> Source | str:
    """Read a file to lint; on any problem return its one-line description instead (never raises)."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return "not a regular file, skipped"
        if info.st_size > max_size:
            return f"file too large ({info.st_size / 1e6:.1f} MB; the limit is {max_size / 1e6:.0f} MB), skipped"
        with open(path, "rb") as handle:
            data = handle.read(max_size + 1)
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if len(data) > max_size:
        return f"file too large (over {max_size / 1e6:.0f} MB), skipped"
    return decode(data)
