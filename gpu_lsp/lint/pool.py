"""Check many files on a process pool sized to the machine; results come back in input order."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

from gpu_lsp.lint import check
from gpu_lsp.lint.check import FileReport, FixMode, check_target
from gpu_lsp.lint.config import Settings
from gpu_lsp.lint.discovery import Target

# Below this many files per worker, starting workers costs more than it saves.
MIN_FILES_PER_WORKER = 4


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _context() -> multiprocessing.context.BaseContext:
    """fork where the platform has it (workers inherit the loaded parser), else the default."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


# Loads the rules and fills the parser's caches before workers fork, so that none pays for it.
WARM_UP = """\
func.func @warm_up(%buf: memref<?xf32>, %n: index) {
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
      threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %i = gpu.thread_id x
    %v = memref.load %buf[%i] : memref<?xf32>
    gpu.terminator
  }
  gpu.wait [%t1]
  return
}
"""


def warm_up() -> None:
    """Analyse a small file in this process (forked workers inherit the warm state)."""
    check.analyze(WARM_UP)


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to report (a worker would print a traceback of its own)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _interrupt_after_forking() -> Iterator[None]:
    """Ctrl-C while the workers fork is raised once they are all started. Raised inside a fork's at-fork
    hook, CPython prints it as ignored and the run goes on; raised between two forks, it leaves a worker
    that nothing tells to end, and the exit waits for it forever."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    interrupted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: interrupted.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt


def check_all(
    targets: list[Target],
    settings: list[Settings],
    mode: FixMode = FixMode.NONE,
    jobs: int | None = None,
    stdin_data: bytes | None = None,
) -> list[FileReport]:
    """Check every target, in parallel when there are enough files; reports are in `targets` order.

    Parameters
    ----------
    settings: each target's settings (hierarchy.py).
    jobs: worker processes (None: one per core; 1: this process only).
    stdin_data: the bytes of standard input, for a target without a path.
    """
    workers = min(jobs or available_cores(), max(1, len(targets) // MIN_FILES_PER_WORKER))
    run = partial(check_target, mode=mode, stdin_data=stdin_data)
    if workers <= 1:
        return list(map(run, targets, settings))
    chunksize = max(1, len(targets) // (workers * 8))
    warm_up()
    # Objects that exist now are shared with the forked workers; kept out of the collector's
    # reach, they are not touched (and so not copied) by each worker's garbage collections.
    gc.freeze()
    try:
        executor = ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_ignore_interrupts)
        try:
            with _interrupt_after_forking():
                results = executor.map(run, targets, settings, chunksize=chunksize)  # forks every worker
            reports = list(results)
        except BaseException as exc:
            # On Ctrl-C the parent reports it at once; workers drop what is queued and end after their current files.
            executor.shutdown(wait=not isinstance(exc, KeyboardInterrupt), cancel_futures=True)
            raise
        executor.shutdown()
        return reports
    except (BrokenProcessPool, OSError):
        # A worker died (killed, out of memory) or none could start: finish in this process.
        return list(map(run, targets, settings))
    finally:
        gc.unfreeze()
