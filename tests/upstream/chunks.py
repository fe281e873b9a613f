"""Chunk-level FileCheck results for the upstream pass tests (the lit suite's RUN lines).

lit runs each RUN line on the whole file, and one failing `// -----` chunk fails
the whole test. Upstream's FileCheck keeps going per CHECK-LABEL block; the
PyPI `filecheck` stops at its first error. So each chunk is checked on its own:

* `whole` (default, what upstream's FileCheck sees): the RUN line's tool runs
  once on the whole file; each chunk holding check lines of the RUN's prefixes
  is FileChecked alone (a check file with just that chunk, line numbers kept)
  against the whole output, where its CHECK-LABELs find its part.
* `isolated`: the chunk alone goes through the whole RUN line (`%s` names a file
  holding just the chunk), so checks cannot match another chunk's output.

A chunk passes when FileCheck exits 0.

Usage: python tests/upstream/chunks.py [--mlir-opt CMD] [--mode whole|isolated] [-v]
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "upstream" / "mlir" / "test" / "Dialect" / "GPU"
TESTS = ("outlining.mlir", "async-region.mlir", "sink-ops.mlir")
BIN = Path(sys.executable).parent
GPU_OPT = f"{shlex.quote(sys.executable)} -m gpu_lsp.cli.gpu_opt"


def _filecheck() -> str:
    path = BIN / "filecheck"
    return str(path) if path.exists() else "filecheck"


@dataclass(frozen=True)
class ChunkResult:
    test: str
    run: int  # 1-based RUN line index within the file
    chunk: int  # 0-based chunk index
    line: int  # first line of the chunk in the file
    prefixes: tuple[str, ...]
    passed: bool
    output: str

    @property
    def name(self) -> str:
        return f"{self.test} RUN#{self.run} chunk {self.chunk} (line {self.line}, {','.join(self.prefixes)})"


def run_lines(text: str) -> list[str]:
    """The `// RUN:` commands of a test file (continuation lines joined)."""
    out: list[str] = []
    pending = ""
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            pending += part[:-1] + " "
            continue
        out.append(pending + part)
        pending = ""
    return out


def check_prefixes(command: str) -> tuple[str, ...]:
    """The FileCheck prefixes a RUN line uses (CHECK when none is given)."""
    prefixes: list[str] = []
    for m in re.finditer(r"--?check-prefix(?:es)?(?:=|\s+)(\S+)", command):
        prefixes.extend(p for p in m.group(1).split(",") if p)
    return tuple(prefixes) or ("CHECK",)


def has_checks(chunk_text: str, prefixes: tuple[str, ...]) -> bool:
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, prefixes)) + r")(-NEXT|-SAME|-NOT|-LABEL|-DAG|-EMPTY|-COUNT-\d+)?:")
    return bool(pattern.search(chunk_text))


def split_chunks(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each `// -----` chunk, cut like mlir-opt -split-input-file."""
    sys.path.insert(0, str(REPO / "tests"))
    from support.corpus import split_chunks as cut

    return [(c.line, c.text) for c in cut(text)]


def command_for(run: str, chunk_file: str, mlir_opt: str) -> str:
    cmd = run.replace("%s", shlex.quote(chunk_file))
    cmd = re.sub(r"(?<![\w-])mlir-opt(?![\w-])", mlir_opt, cmd)
    return re.sub(r"(?<![\w-])FileCheck(?![\w-])", _filecheck(), cmd)


def _split_run(run: str) -> tuple[str, str]:
    """(tool command, FileCheck command) of a `tool ... | FileCheck ...` RUN line."""
    m = re.search(r"\|\s*FileCheck\b", run)
    if m is None:
        return run, ""
    return run[: m.start()].strip(), run[m.start() + 1 :].strip()


def run_chunks(mlir_opt: str = GPU_OPT, tests: tuple[str, ...] = TESTS, mode: str = "whole") -> list[ChunkResult]:
    """Every (test, RUN line, checked chunk) result."""
    results: list[ChunkResult] = []
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")

    def sh(command: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["bash", "-o", "pipefail", "-c", command], input=stdin, capture_output=True, text=True, env=env, cwd=tmp
        )

    with tempfile.TemporaryDirectory() as tmp:
        for test in tests:
            source = str(CORPUS / test)
            text = (CORPUS / test).read_text(encoding="utf-8")
            chunks = split_chunks(text)
            for r, run in enumerate(run_lines(text), 1):
                prefixes = check_prefixes(run)
                tool, filecheck = _split_run(run)
                whole = sh(command_for(tool, source, mlir_opt)) if mode == "whole" else None
                for k, (line, chunk) in enumerate(chunks):
                    if not has_checks(chunk, prefixes):
                        continue
                    path = os.path.join(tmp, f"{test}.chunk{k}.mlir")
                    # Keep the chunk's line numbers: FileCheck and -verify-diagnostics report them.
                    Path(path).write_text("\n" * (line - 1) + chunk, encoding="utf-8")
                    if mode == "whole":
                        proc = sh(command_for(filecheck, path, mlir_opt), whole.stdout)
                        output = proc.stderr + whole.stderr
                    else:
                        proc = sh(command_for(run, path, mlir_opt))
                        output = proc.stderr + proc.stdout
                    results.append(ChunkResult(test, r, k, line, prefixes, proc.returncode == 0, output))
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mlir-opt", default=GPU_OPT, help="the tool to test (default: gpu-opt)")
    ap.add_argument("--mode", choices=("whole", "isolated"), default="whole")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the output of failing chunks")
    args = ap.parse_args(argv)
    results = run_chunks(args.mlir_opt, mode=args.mode)
    for res in results:
        print(("PASS " if res.passed else "FAIL ") + res.name)
        if args.verbose and not res.passed:
            print("    " + res.output.strip().replace("\n", "\n    "))
    passed = sum(r.passed for r in results)
    print(f"{passed} of {len(results)} checked chunks pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
