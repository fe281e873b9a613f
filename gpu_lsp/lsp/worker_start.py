"""The lint workers' forkserver: how it starts and what it preloads. Standard library only, so that
the server's bootstrap starts it first thing, before its own imports (about as long as the
forkserver's preload), and the open's first worker does not wait for it (`lint_child.py`)."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import site
import sys
from multiprocessing.context import BaseContext

log = logging.getLogger(__name__)

# How workers are started: a fork of the forkserver, which is a fresh interpreter (no thread).
START_METHOD = "forkserver"
# Where this gpu_lsp was imported from: the forkserver imports it from there too (`start_workers`).
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# What the forkserver imports once, so that each worker starts with the analysis loaded and warm
# (`lint_child_preload`: the rules imported, the parser's caches filled).
PRELOAD = ["gpu_lsp.lsp.lint_child", "gpu_lsp.lsp.lint_child_preload"]


def warn_if_cold() -> None:
    """In a worker: log that the forkserver's preload failed, if it did (multiprocessing ignores an
    import error of a preloaded module: every worker then imports and warms the analysis itself)."""
    missing = [name for name in PRELOAD if name not in sys.modules]
    if missing:
        log.warning("the lint workers' forkserver could not import %s: each worker starts cold", ", ".join(missing))


def context() -> BaseContext | None:
    """The forkserver context, preloading the analysis once started; None where the platform
    has none (Windows)."""
    if START_METHOD not in multiprocessing.get_all_start_methods():
        return None
    ctx = multiprocessing.get_context(START_METHOD)
    ctx.set_forkserver_preload(PRELOAD)  # type: ignore[attr-defined]
    return ctx


def start_workers() -> None:
    """Start the forkserver and let it import the analysis (a second or two, in the background of
    the server's own start); a server calls it before it starts a thread (again: it is started once)."""
    if context() is None:
        return
    from multiprocessing import forkserver

    # The forkserver is `python -c ...`, whose sys.path starts with its working directory: it starts
    # from the file system's root (`runner.child.neutral_cwd`, whose package this start-up module
    # does not import), so a workspace the server was started in is never imported. Python 3.11 does not
    # give it the server's sys.path either: it is told where this gpu_lsp is (`PACKAGE_ROOT`, first on
    # its PYTHONPATH), so that its workers run the server's code, not another install's.
    try:
        here = os.getcwd()
    except OSError:  # the folder was removed
        here = None
    path = os.environ.get("PYTHONPATH")
    try:
        os.chdir(os.path.abspath(os.sep))
        if not _on_default_path(PACKAGE_ROOT):
            os.environ["PYTHONPATH"] = os.pathsep.join([PACKAGE_ROOT, path] if path else [PACKAGE_ROOT])
        forkserver.ensure_running()
    except OSError:
        log.exception("could not start the lint workers' forkserver; linting in process")
    finally:
        if path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = path
        if here is not None:
            with contextlib.suppress(OSError):
                os.chdir(here)


def _on_default_path(folder: str) -> bool:
    """Whether a fresh interpreter finds packages in `folder` without PYTHONPATH (a site-packages
    folder: putting one first on PYTHONPATH would let what is installed there shadow the standard library)."""
    sites = [*site.getsitepackages(), site.getusersitepackages()]
    return any(os.path.realpath(folder) == os.path.realpath(s) for s in sites)
