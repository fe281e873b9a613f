"""Each file's settings: the configuration file nearest to it (ruff's hierarchy), found and read once per folder."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from gpu_lsp.lint.config import ConfigError, Settings, apply_cli, config_in, load_settings, looks_inline
from gpu_lsp.lint.op_definitions import use_op_definitions

# Keys that hold for the whole run: the current folder's value (or `--config FILE`'s) wins over a subfolder's.
RUN_WIDE = ("output_format", "fail_on", "fix", "unsafe_fixes", "docs_url")


class Resolver:
    """The settings of each folder: those of the nearest configuration file at or above it, the command line on top.

    A folder without one above it gets the base settings (the current folder's); so does every folder
    with `--config FILE` or `--isolated`. A configuration file that cannot be used is one error message
    (`errors`), and the folders it configures get None: their files are not checked.
    """

    def __init__(self, base: Settings, load: Callable[[Path], Settings], fixed: bool) -> None:
        self.base = base
        self.errors: list[str] = []
        self._load = load
        self._fixed = fixed
        self._nearest: dict[Path, Path | None] = {}
        self._settings: dict[Path, Settings | None] = {}
        self._of_folder: dict[str, Settings | None] = {}

    def config_of(self, folder: Path) -> Path | None:
        """The nearest configuration file at or above the (absolute) `folder`, memoized per folder."""
        if folder not in self._nearest:
            own = config_in(folder)
            self._nearest[folder] = own if own is not None or folder.parent == folder else self.config_of(folder.parent)
        return self._nearest[folder]

    def for_folder(self, folder: Path | str) -> Settings | None:
        """The settings of the files in `folder`; None when its configuration file is broken (see `errors`)."""
        if self._fixed:
            return self.base
        key = os.path.abspath(folder)
        if key not in self._of_folder:
            self._of_folder[key] = self._read(self.config_of(Path(key)))
        return self._of_folder[key]

    def _read(self, config: Path | None) -> Settings | None:
        """The settings of a configuration file (None: the base), read once."""
        if config is None:
            return self.base
        config = config.resolve()
        if config == self.base.config_file:
            return self.base
        if config not in self._settings:
            try:
                settings: Settings | None = self._load(config)
            except ConfigError as exc:
                self.errors.append(f"{exc} (the files it configures are not checked)")
                settings = None
            self._settings[config] = settings
        return self._settings[config]

    def for_file(self, path: Path | str) -> Settings | None:
        """The settings of the file at `path` (those of its folder)."""
        return self.for_folder(os.path.dirname(os.path.abspath(path)))


def make_resolver(
    cwd: Path, config: Iterable[str], isolated: bool, known: frozenset[str] | None, overrides: dict[str, Any]
) -> Resolver:
    """A Resolver for a run in `cwd` with these `--config` values, `--isolated` and command-line `overrides`
    (`apply_cli`'s keywords). Raises ConfigError when the base settings (the current folder's) are broken."""
    config = tuple(config)
    inline = tuple(c for c in config if looks_inline(c))
    base = apply_cli(load_settings(cwd, config, isolated, known), known, **overrides)

    def load(path: Path) -> Settings:
        settings = apply_cli(load_settings(cwd, (str(path), *inline), known=known), known, **overrides)
        settings = replace(settings, **{key: getattr(base, key) for key in RUN_WIDE})
        declared = use_op_definitions(settings.op_definitions)
        if declared:
            raise ConfigError(f"{path}: 'op-definitions': {declared[0]}" + (f" (and {len(declared) - 1} more)" if len(declared) > 1 else ""))
        return settings

    return Resolver(base, load, fixed=isolated or len(inline) < len(config))
