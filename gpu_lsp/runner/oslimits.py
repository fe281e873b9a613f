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
import sys

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


# The first words on stderr of a tool that `under_limits` could not start.
START_FAILURE = "could not start: "
# Sets the limits given as arguments, then becomes the tool: the code of `under_limits`' small
# isolated interpreter, so nothing runs between fork and exec in the (threaded) process that starts it.
_SET_LIMITS_AND_EXEC = """\
import os, resource, sys
def lower(kind, soft, hard):
    current = resource.getrlimit(kind)[1]
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    resource.setrlimit(kind, (soft, hard))
cpu, kill, space = map(int, sys.argv[1:4])
failure, argv = sys.argv[4], sys.argv[5:]
lower(resource.RLIMIT_CPU, cpu, kill)
lower(resource.RLIMIT_AS, space, space)
try:
    os.execvp(argv[0], argv)
except OSError as exc:
    sys.stderr.write(failure + (exc.strerror or str(exc)) + "\\n")
    sys.exit(127)
"""


def under_limits(argv: list[str], max_memory: int, timeout: float) -> list[str]:
    """`argv` (a path or a name looked up on PATH, then its arguments) run with the address space capped
    at `max_memory` plus the slack and CPU time at `timeout` plus the slack (SIGXCPU ends it, then
    SIGKILL). A start that fails exits 127 with a line `could not start: REASON` on stderr."""
    cpu = math.ceil(timeout) + CPU_SLACK
    space = max_memory + ADDRESS_SPACE_SLACK
    return [sys.executable, "-I", "-c", _SET_LIMITS_AND_EXEC, str(cpu), str(cpu + CPU_KILL_AFTER), str(space), START_FAILURE, *argv]
