"""Limits the OS enforces on a process that runs untrusted IR: address space and CPU time.

The interpreter counts the program's own allocations (`--max-memory`) and checks its
deadline between ops; neither sees the temporaries NumPy makes inside one op, nor a single
op that never returns. `enforce` backs both with `resource.setrlimit`: RLIMIT_AS at the
memory cap plus `ADDRESS_SPACE_SLACK` (an allocation past it fails with MemoryError, which
the runner reports), and RLIMIT_CPU at the CPU time used so far plus the time limit on every core plus `CPU_SLACK` (SIGXCPU raises
`RunTimeout`; the hard limit `CPU_KILL_AFTER` seconds later is a SIGKILL). The address-space
cap applies to the NumPy backend only: CUDA reserves far more address space than it uses.
"""

from __future__ import annotations

import math
import os
import signal
from collections.abc import Callable

from gpu_lsp.runner.errors import RunTimeout

# Address space allowed beyond the memory cap: the interpreter, NumPy, their libraries and temporaries.
ADDRESS_SPACE_SLACK = 1 << 30
# CPU seconds allowed beyond the time limit (start-up and imports count too), then until the kill.
CPU_SLACK = 1
CPU_KILL_AFTER = 5


def uses_numpy(backend: str) -> bool:
    """Whether `backend` (a BACKENDS name) runs on the NumPy backend here."""
    if backend == "numpy":
        return True
    if backend != "auto":
        return False
    from gpu_lsp.runner.cupy_backend import probe

    return probe() is not None


def _lower(kind: int, soft: int, hard: int) -> None:
    """Set a limit, never above the current hard limit (an unprivileged process may not raise it)."""
    import resource

    _, current_hard = resource.getrlimit(kind)
    if current_hard != resource.RLIM_INFINITY:
        soft, hard = min(soft, current_hard), min(hard, current_hard)
    resource.setrlimit(kind, (soft, hard))


def _cores() -> int:
    """The cores this process may run on (the NumPy backend's threads add up their CPU time)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _on_cpu_limit(seconds: int) -> None:
    def stop(_signum, _frame) -> None:
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)  # the kernel repeats it every second; the hard limit follows
        raise RunTimeout(f"the program used more than {seconds} s of CPU time (the OS limit for --timeout); stopped")

    signal.signal(signal.SIGXCPU, stop)


def enforce(backend: str, max_memory: int | None, timeout: float | None) -> None:
    """Cap this process's address space (NumPy backend, when `max_memory` is set) and CPU time
    (when `timeout` is set). Does nothing where the platform has no `resource` module."""
    try:
        import resource
    except ImportError:  # not POSIX
        return
    if timeout is not None and timeout > 0:
        used = resource.getrusage(resource.RUSAGE_SELF)
        allowed = math.ceil(timeout * _cores()) + CPU_SLACK
        soft = math.ceil(used.ru_utime + used.ru_stime) + allowed
        _on_cpu_limit(allowed)
        _lower(resource.RLIMIT_CPU, soft, soft + CPU_KILL_AFTER)
    if max_memory is not None and uses_numpy(backend):
        cap = max_memory + ADDRESS_SPACE_SLACK
        _lower(resource.RLIMIT_AS, cap, cap)


def tool_limits(max_memory: int, timeout: float) -> Callable[[], None]:
    """A `preexec_fn` for a tool child (a user's `mlir-opt`, a lit run): address space at `max_memory`
    plus the slack, CPU time at `timeout` plus the slack (SIGXCPU ends it, then SIGKILL)."""

    def apply() -> None:
        import resource

        cpu = math.ceil(timeout) + CPU_SLACK
        _lower(resource.RLIMIT_CPU, cpu, cpu + CPU_KILL_AFTER)
        _lower(resource.RLIMIT_AS, max_memory + ADDRESS_SPACE_SLACK, max_memory + ADDRESS_SPACE_SLACK)

    return apply
