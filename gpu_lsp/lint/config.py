"""gpu-lint settings: `[tool.gpu-lint]` in pyproject.toml or gpu-lint.toml, validated, merged with the command line."""

from __future__ import annotations

import difflib
import fnmatch
import functools
import os
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from gpu_lsp.diagnostics.mlir_versions import NEWEST, check_version
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Selection, aliased

PYPROJECT = "pyproject.toml"
GPU_LINT_TOML = "gpu-lint.toml"
DOT_GPU_LINT_TOML = ".gpu-lint.toml"
# Searched in this order in each folder, from the current folder up (ruff's order).
CONFIG_NAMES = (DOT_GPU_LINT_TOML, GPU_LINT_TOML, PYPROJECT)

DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "node_modules",
    "__pycache__",
    "build",
    "dist",
    "site-packages",
)

SEVERITY_NAMES = {s.label: s for s in Severity}
OUTPUT_FORMATS = ("text", "concise", "json", "sarif", "github", "junit", "grouped")
SELECTOR = re.compile(r"ALL|GPU[0-9]{0,3}")


class ConfigError(Exception):
    """A configuration file or option gpu-lint cannot use; the message names the culprit."""


@dataclass(frozen=True)
class Settings:
    """Everything that decides what gpu-lint checks and how it reports (picklable, for workers)."""

    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    severity: tuple[tuple[str, Severity], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    fix: bool = False
    unsafe_fixes: bool = False
    output_format: str = "text"
    fail_on: Severity = Severity.WARNING
    mlir_version: int = NEWEST
    report_undecided: bool = False
    cache_dir: str = ".gpu-lint-cache"  # relative to the project root
    docs_url: str = ""  # where the rule pages are served; reports link rules only when set
    op_definitions: tuple[str, ...] = ()  # a project's op-definitions files (absolute; lint/op_definitions.py)
    root: Path = field(default_factory=Path.cwd)
    config_file: Path | None = None

    def is_enabled(self, code: str, path: str | None = None) -> bool:
        """Whether `code` is reported, for the file at `path` (per-file-ignores apply)."""
        if not Selection(self.select + self.extend_select, self.ignore).enabled(code):
            return False
        if path is not None:
            for _, selectors in self.matching_file_ignores(path):
                if _best(code, selectors) >= 0:
                    return False
        return True

    def matching_file_ignores(self, path: str) -> list[tuple[str, tuple[str, ...]]]:
        """The `per-file-ignores` entries whose glob matches `path`."""
        return [(p, s) for p, s in self.per_file_ignores if _path_matches(p, path, self.root)]

    def severity_of(self, code: str, default: Severity) -> Severity:
        """The severity `code` is reported at: the most specific override, else `default`."""
        best, chosen = -1, default
        for selector, level in self.severity:
            n = _specificity(selector, code)
            if n > best:
                best, chosen = n, level
        return chosen

    def describe(self) -> str:
        """The resolved settings as `key = value` lines (`gpu-lint --show-settings`)."""
        lines = [f"# config file: {self.config_file or '(none)'}", f"# project root: {self.root}"]
        for spec in fields(self):
            if spec.name in ("root", "config_file"):
                continue
            value = getattr(self, spec.name)
            if spec.name in ("per_file_ignores", "severity"):
                inner = ", ".join(f'"{k}" = {_toml_value(v)}' for k, v in value)
                text = "{ " + inner + " }" if inner else "{}"
            else:
                text = _toml_value(value)
            lines.append(f"{spec.name.replace('_', '-')} = {text}")
        return "\n".join(lines) + "\n"


def _specificity(selector: str, code: str) -> int:
    """How long a prefix of `code` the selector is (-1 when it does not match; ALL matches with 0)."""
    if selector == "ALL":
        return 0
    selector = aliased(selector)
    return len(selector) if code.startswith(selector) else -1


def _best(code: str, selectors: Iterable[str]) -> int:
    return max((_specificity(s, code) for s in selectors), default=-1)


def _path_matches(pattern: str, path: str, root: Path) -> bool:
    """A per-file-ignores glob matches the path relative to the project root, or its file name."""
    return forms_match(pattern, path_forms(path, root))


def path_forms(path: str, root: Path) -> tuple[str, str, str]:
    """What globs are matched against: the file name, the path relative to `root` (absolute
    outside it) and the absolute path (computed once per path, for many globs)."""
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(root).as_posix()
    except ValueError:
        relative = absolute.as_posix()
    return absolute.name, relative, absolute.as_posix()


def forms_match(pattern: str, forms: tuple[str, str, str]) -> bool:
    """`_path_matches` on the `path_forms` of a path."""
    name, relative, absolute = forms
    if "/" not in pattern.rstrip("/"):
        return glob_match(pattern, name) or glob_match(pattern, relative)
    return glob_match(pattern.removeprefix("./"), relative) or glob_match(pattern, absolute)


def glob_match(pattern: str, path: str) -> bool:
    """ruff's glob semantics: `**/` matches zero or more folders, a trailing `/**` everything below,
    and `*`, `?`, `[...]` are fnmatch's (`*` may cross `/`)."""
    return _glob_regex(pattern).fullmatch(path) is not None


@functools.lru_cache(maxsize=1024)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    parts = re.split(r"(\*\*/|/\*\*$)", pattern)
    out = []
    for part in parts:
        if part == "**/":
            out.append("(?:.*/)?")
        elif part == "/**":
            out.append("/.*")
        elif part:
            out.append(_fnmatch_body(part))
    return re.compile("".join(out), re.S)


def _fnmatch_body(part: str) -> str:
    """fnmatch's translation of `part` without its anchors (`(?s:...)\\Z`)."""
    translated = fnmatch.translate(part)
    return translated.removeprefix("(?s:").removesuffix(")\\Z")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Severity):
        return f'"{value.label}"'
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return str(value)


# ---------------------------------------------------------------------------
# Reading and validating a table of options


def _expect_list(key: str, value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: '{key}' must be a list of strings")
    return tuple(value)


def _expect_bool(key: str, value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: '{key}' must be true or false")
    return value


def _selectors(key: str, value: Any, where: str, known: frozenset[str] | None) -> tuple[str, ...]:
    out = _expect_list(key, value, where)
    for selector in out:
        check_selector(selector, f"{where}: '{key}'", known)
    return out


def check_selector(selector: str, where: str, known: frozenset[str] | None) -> None:
    """Raise ConfigError unless `selector` is ALL or a GPU code prefix that names a known rule."""
    if not SELECTOR.fullmatch(selector):
        raise ConfigError(
            f"{where}: invalid rule selector '{selector}' (expected ALL or a code prefix such as GPU2 or GPU201)"
        )
    if known is not None and selector != "ALL" and not any(c.startswith(selector) for c in known):
        raise ConfigError(f"{where}: unknown rule selector '{selector}' (no rule code starts with it)")


def _severity(key: str, value: Any, where: str) -> Severity:
    if not isinstance(value, str) or value not in SEVERITY_NAMES:
        names = ", ".join(SEVERITY_NAMES)
        raise ConfigError(f"{where}: '{key}' must be one of {names} (got {value!r})")
    return SEVERITY_NAMES[value]


def _mlir_version(key: str, value: Any, where: str) -> int:
    try:
        return check_version(value)
    except ValueError as exc:
        raise ConfigError(f"{where}: '{key}' {exc}") from None


def _docs_url(key: str, value: Any, where: str) -> str:
    if not isinstance(value, str) or urlsplit(value).scheme not in ("http", "https", "file"):
        raise ConfigError(f"{where}: '{key}' must be an http(s) or file URL of the rule pages' folder (got {value!r})")
    return value


def _selector_list(key: str, value: Any, where: str, known: frozenset[str] | None) -> tuple[str, ...]:
    return _selectors(key, value, where, known)


def _per_file_ignores(key: str, value: Any, where: str, known: frozenset[str] | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: 'per-file-ignores' must be a table of glob = [codes]")
    return tuple((glob, _selectors(f"per-file-ignores.{glob}", codes, where, known)) for glob, codes in value.items())


def _severity_table(key: str, value: Any, where: str, known: frozenset[str] | None) -> tuple[tuple[str, Severity], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: 'severity' must be a table of code = level")
    pairs = []
    for selector, level in value.items():
        check_selector(selector, f"{where}: 'severity'", known)
        pairs.append((selector, _severity(f"severity.{selector}", level, where)))
    return tuple(pairs)


def _output_format(key: str, value: Any, where: str) -> str:
    if value not in OUTPUT_FORMATS:
        raise ConfigError(f"{where}: 'output-format' must be one of {', '.join(OUTPUT_FORMATS)} (got {value!r})")
    return str(value)


def _cache_dir(key: str, value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{where}: 'cache-dir' must be a folder name")
    return value


def _plain(check: Callable[[str, Any, str], Any]) -> Callable[[str, Any, str, frozenset[str] | None], Any]:
    """A check that does not need the known codes, in the shape of those that do."""
    return lambda key, value, where, known: check(key, value, where)


# Each key of a `[tool.gpu-lint]` table and its check, which returns the value of the Settings
# field of the same name (`-` written `_`).
_KEY_CHECKS: dict[str, Callable[[str, Any, str, frozenset[str] | None], Any]] = {
    "select": _selector_list,
    "extend-select": _selector_list,
    "ignore": _selector_list,
    "per-file-ignores": _per_file_ignores,
    "severity": _severity_table,
    "exclude": _plain(_expect_list),
    "extend-exclude": _plain(_expect_list),
    "respect-gitignore": _plain(_expect_bool),
    "fix": _plain(_expect_bool),
    "unsafe-fixes": _plain(_expect_bool),
    "output-format": _plain(_output_format),
    "fail-on": _plain(_severity),
    "mlir-version": _plain(_mlir_version),
    "report-undecided": _plain(_expect_bool),
    "cache-dir": _plain(_cache_dir),
    "docs-url": _plain(_docs_url),
    "op-definitions": _plain(_expect_list),
}

KEYS = tuple(_KEY_CHECKS)


def _parse_table(table: dict[str, Any], where: str, known: frozenset[str] | None) -> dict[str, Any]:
    """Validate one `[tool.gpu-lint]` table and return Settings field overrides."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        check = _KEY_CHECKS.get(key)
        if check is None:
            hint = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1)
            suggestion = f" (did you mean '{hint[0]}'?)" if hint else ""
            raise ConfigError(f"{where}: unknown key '{key}'{suggestion}")
        out[key.replace("-", "_")] = check(key, value, where, known)
    return out


# ---------------------------------------------------------------------------
# Finding and loading files


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: invalid TOML: not UTF-8") from None


def table_of(path: Path) -> dict[str, Any] | None:
    """The gpu-lint table a config file holds (None: a pyproject.toml without `[tool.gpu-lint]`)."""
    try:
        stat = path.stat()
    except OSError:
        return _table_of(path, 0, -1)  # _read_toml reports it
    return _table_of(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=256)
def _table_of(path: Path, mtime_ns: int, size: int) -> dict[str, Any] | None:
    """`table_of`, read again when the file's modification time or size changes (the language server asks often)."""
    del mtime_ns, size
    data = _read_toml(path)
    if path.name != PYPROJECT:
        return data
    tool = data.get("tool", {})
    table = tool.get("gpu-lint") if isinstance(tool, dict) else None
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.gpu-lint] must be a table")
    return table


def config_in(folder: Path) -> Path | None:
    """The config file of `folder` itself: .gpu-lint.toml, gpu-lint.toml, or a pyproject.toml with [tool.gpu-lint]
    (one that is not valid TOML counts: reading it reports the error)."""
    for name in CONFIG_NAMES:
        path = folder / name
        if path.is_file():
            if name != PYPROJECT:
                return path
            try:
                if table_of(path) is not None:
                    return path
            except ConfigError:
                return path
    return None


def find_config(start: Path) -> Path | None:
    """The nearest config file at or above `start` (`config_in` of it, then of each folder above)."""
    folder = start.resolve()
    return next((found for candidate in (folder, *folder.parents) if (found := config_in(candidate)) is not None), None)


def _where(path: Path) -> str:
    return f"{path} [tool.gpu-lint]" if path.name == PYPROJECT else str(path)


def load_settings(
    cwd: Path | None = None,
    config: Iterable[str] = (),
    isolated: bool = False,
    known: frozenset[str] | None = None,
) -> Settings:
    """Resolve settings: the nearest config file (or `--config FILE`), then `--config 'key = value'` overrides.

    Parameters
    ----------
    cwd: folder the search starts from (the current directory by default).
    config: the `--config` arguments: a file path, or an inline TOML `key = value` override.
    isolated: ignore every configuration file (`--isolated`).
    known: the rule codes selectors are checked against (None: syntax only).

    Returns
    -------
    The settings; raises ConfigError naming the file and the key on any problem.
    """
    cwd = (cwd or Path.cwd()).resolve()
    files = [c for c in config if not looks_inline(c)]
    inline = [c for c in config if looks_inline(c)]
    if len(files) > 1:
        raise ConfigError("--config: only one configuration file may be given")
    if files and isolated:
        raise ConfigError("--config FILE and --isolated cannot be used together")
    settings = Settings(root=cwd)
    path: Path | None = None
    if files:
        path = Path(files[0]).expanduser()
        if not path.is_file():
            raise ConfigError(f"--config: no such file '{files[0]}'")
        path = path.resolve()
    elif not isolated:
        path = find_config(cwd)
    if path is not None:
        table = table_of(path)
        if table is None:
            raise ConfigError(f"{path}: no [tool.gpu-lint] table")
        overrides = _parse_table(table, _where(path), known)
        if "op_definitions" in overrides:
            overrides["op_definitions"] = definition_paths(overrides["op_definitions"], path.parent, _where(path))
        settings = replace(settings, root=path.parent, config_file=path, **overrides)
    for text in inline:
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"--config '{text}': invalid TOML: {exc}") from None
        overrides = _parse_table(table, f"--config '{text}'", known)
        if "op_definitions" in overrides:
            overrides["op_definitions"] = definition_paths(overrides["op_definitions"], cwd, f"--config '{text}'")
        settings = replace(settings, **overrides)
    return settings


def definition_paths(paths: Iterable[str], folder: Path, where: str) -> tuple[str, ...]:
    """`op-definitions` as absolute paths: relative ones from the config file's folder, and never outside it."""
    out: list[str] = []
    for text in paths:
        given = Path(text).expanduser()
        if given.is_absolute():
            out.append(str(given))
            continue
        resolved = (folder / given).resolve()
        if not resolved.is_relative_to(folder.resolve()):
            raise ConfigError(f"{where}: 'op-definitions' path '{text}' leaves the project folder (write an absolute path)")
        out.append(str(resolved))
    return tuple(out)


def settings_for_document(path: Path, known: frozenset[str] | None = None) -> Settings:
    """The settings gpu-lint would use in the document's folder: its nearest configuration file.

    Cached by the file's path and modification time, so an edited file is read again (the
    language server calls this for every analysis). Raises ConfigError like `load_settings`.
    """
    folder = path.parent.resolve()
    found = find_config(folder)
    if found is None:
        return Settings(root=folder)
    stat = found.stat()
    return _settings_of(found, stat.st_mtime_ns, stat.st_size, known)


@functools.lru_cache(maxsize=64)
def _settings_of(path: Path, mtime_ns: int, size: int, known: frozenset[str] | None) -> Settings:
    del mtime_ns, size  # the cache key: a changed file is read again
    return load_settings(path.parent, (str(path),), known=known)


def looks_inline(value: str) -> bool:
    """Whether a `--config` value is a `key = value` override rather than a file (ruff's rule: an existing file wins)."""
    return "=" in value and not os.path.isfile(value)


def apply_cli(settings: Settings, known: frozenset[str] | None = None, **overrides: Any) -> Settings:
    """Layer command-line options over file settings: `select` replaces, `extend_select`/`ignore` add.

    Every override whose value is None (not given) is skipped; selectors are checked like the file's.
    """
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if value is None:
            continue
        if key in ("select", "extend_select", "ignore"):
            for selector in value:
                check_selector(selector, f"--{key.replace('_', '-')}", known)
            value = tuple(value)
            if key != "select":
                value = getattr(settings, key) + value
        elif key == "per_file_ignores":
            pairs = []
            for item in value:
                glob, sep, codes = item.partition(":")
                if not sep or not glob:
                    raise ConfigError(f"--per-file-ignores: expected GLOB:CODE[,CODE...] (got '{item}')")
                selectors = tuple(c.strip() for c in codes.split(",") if c.strip())
                for selector in selectors:
                    check_selector(selector, "--per-file-ignores", known)
                pairs.append((glob, selectors))
            value = settings.per_file_ignores + tuple(pairs)
        elif key in ("extend_exclude",):
            value = settings.extend_exclude + tuple(value)
        elif key == "exclude":
            value = tuple(value)
        elif key == "mlir_version":
            try:
                value = check_version(value)
            except ValueError as exc:
                raise ConfigError(f"--mlir-version {exc}") from None
        changes[key] = value
    return replace(settings, **changes)
