"""Run `gpu-run` in a subprocess for front ends: streamed output, a time limit, a memory cap, cancellation.

The language server uses this for "Run on GPU": nothing runs in the server's own
process, a runaway program is killed, and its diagnostics come back parsed.
"""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from gpu_lsp.runner.child import neutral_cwd, python_module
from gpu_lsp.runner.oslimits import ADDRESS_SPACE_SLACK

_DIAG = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning): (?P<message>.*)$")
# Seconds a program may overrun its --timeout before the process is killed.
GRACE = 5.0


@dataclass
class RunDiagnostic:
    """One `file:line:col: severity: message` line of gpu-run's standard error (1-based line/col)."""

    line: int
    column: int
    severity: str
    message: str


@dataclass
class RunOutcome:
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool = False
    cancelled: bool = False
    diagnostics: list[RunDiagnostic] = field(default_factory=list)


def parse_diagnostics(stderr: str) -> list[RunDiagnostic]:
    out = []
    for line in stderr.splitlines():
        m = _DIAG.match(line)
        if m:
            out.append(RunDiagnostic(int(m.group("line")), int(m.group("col")), m.group("severity"), m.group("message")))
    return out


class RunProcess:
    """One program run in a child process; `start`, then `wait` (or `cancel` from another thread)."""

    def __init__(
        self,
        text: str,
        *,
        entry: str = "main",
        arguments: list[str] | None = None,
        backend: str = "auto",
        timeout: float = 60.0,
        max_memory: int | None = None,
        on_stdout: Callable[[str], None] | None = None,
        on_stderr: Callable[[str], None] | None = None,
    ) -> None:
        self.text = text
        self.timeout = timeout
        self.on_stdout = on_stdout
        self.on_stderr = on_stderr
        self.args = [*python_module("gpu_lsp.cli.gpu_run"), "--entry", entry, "--backend", backend, "--timeout", str(timeout)]
        if max_memory is not None:
            self.args += ["--max-memory", str(max_memory)]
        for value in arguments or []:
            self.args.append(f"--arg={value}")  # `=` keeps a value such as -1 from reading as an option
        self.args.append("-")
        # A hard cap on the child's address space backs up --max-memory (which counts the
        # program's allocations) on the NumPy backend; CUDA reserves too much address space for it.
        self.address_space = max_memory + ADDRESS_SPACE_SLACK if max_memory is not None and backend == "numpy" else None
        self.proc: subprocess.Popen | None = None
        self._out: list[str] = []
        self._err: list[str] = []
        self._threads: list[threading.Thread] = []
        self._cancelled = False

    def start(self) -> RunProcess:
        self.proc = subprocess.Popen(
            self.args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            cwd=neutral_cwd(),
            preexec_fn=self._limit if self.address_space is not None else None,
        )
        for stream, sink, callback in ((self.proc.stdout, self._out, self.on_stdout), (self.proc.stderr, self._err, self.on_stderr)):
            t = threading.Thread(target=self._pump, args=(stream, sink, callback), daemon=True)
            t.start()
            self._threads.append(t)
        try:
            stdin = self.proc.stdin
            assert stdin is not None  # a pipe
            stdin.write(self.text)
            stdin.close()
        except BrokenPipeError:
            pass
        return self

    def _limit(self) -> None:
        import resource

        if self.address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (self.address_space, self.address_space))

    @staticmethod
    def _pump(stream, sink: list[str], callback) -> None:
        for line in iter(stream.readline, ""):
            sink.append(line)
            if callback is not None:
                callback(line)
        stream.close()

    def cancel(self) -> None:
        self._cancelled = True
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(2.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def wait(self) -> RunOutcome:
        proc = self.proc if self.proc is not None else self.start().proc
        assert proc is not None  # start() sets it
        timed_out = False
        try:
            proc.wait(self.timeout + GRACE)
        except subprocess.TimeoutExpired:
            timed_out = True
            proc.kill()
            proc.wait()
        for t in self._threads:
            t.join(5.0)
        stderr = "".join(self._err)
        return RunOutcome(
            proc.returncode,
            "".join(self._out),
            stderr,
            timed_out or "ran past its time limit" in stderr,
            self._cancelled,
            parse_diagnostics(stderr),
        )

