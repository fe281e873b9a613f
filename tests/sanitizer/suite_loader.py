"""The labelled kernel suite (`tests/sanitizer/suite/`): each file's header read into a `SuiteKernel`.

Every `.mlir` file under the suite starts with, exactly:

    // verdict: race | race-free | barrier-divergence | out-of-bounds   (several joined by ", ")
    // source: <repository> <path>   or   own
    // launch: block=(X, Y, Z) grid=(X, Y, Z)
    // note: <one line>                                                  (optional)

`load_suite()` reads them all and raises `SuiteError` on a malformed header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SUITE = Path(__file__).resolve().parent / "suite"
VERDICTS = frozenset({"race", "race-free", "barrier-divergence", "out-of-bounds"})

_TRIPLE = r"\((\d+), (\d+), (\d+)\)"
_LAUNCH = re.compile(rf"block={_TRIPLE} grid={_TRIPLE}")


class SuiteError(ValueError):
    """A suite file whose header does not follow the format."""


@dataclass(frozen=True)
class SuiteKernel:
    """One labelled kernel: its file, kernel name, verdicts, provenance and launch sizes."""

    path: Path
    name: str
    verdicts: frozenset[str]
    source: str
    block: tuple[int, int, int]
    grid: tuple[int, int, int]
    note: str


def _field(lines: list[str], index: int, key: str, path: Path) -> str:
    prefix = f"// {key}: "
    if index >= len(lines) or not lines[index].startswith(prefix):
        raise SuiteError(f"{path}: line {index + 1} should start with '{prefix}'")
    value = lines[index][len(prefix) :].strip()
    if not value:
        raise SuiteError(f"{path}: '{key}' is empty")
    return value


def _verdicts(text: str, path: Path) -> frozenset[str]:
    words = text.split(", ")
    unknown = [w for w in words if w not in VERDICTS]
    if unknown or len(set(words)) != len(words):
        raise SuiteError(f"{path}: verdict {text!r} is not a list of {sorted(VERDICTS)}")
    if "race" in words and "race-free" in words:
        raise SuiteError(f"{path}: verdict says both race and race-free")
    return frozenset(words)


def _kernel_name(text: str, path: Path) -> str:
    names = re.findall(r"gpu\.func @([\w$.]+)\([^{]*\bkernel\b", text)
    if len(names) != 1:
        raise SuiteError(f"{path}: expected one kernel gpu.func, found {len(names)}")
    return names[0]


def parse_kernel(path: Path) -> SuiteKernel:
    """The header of one suite file."""
    text = path.read_text()
    lines = text.splitlines()
    verdicts = _verdicts(_field(lines, 0, "verdict", path), path)
    source = _field(lines, 1, "source", path)
    if source != "own" and len(source.split(" ")) != 2:
        raise SuiteError(f"{path}: source {source!r} is neither 'own' nor '<repository> <path>'")
    launch = _LAUNCH.fullmatch(_field(lines, 2, "launch", path))
    if launch is None:
        raise SuiteError(f"{path}: launch should read 'block=(X, Y, Z) grid=(X, Y, Z)'")
    sizes = tuple(int(g) for g in launch.groups())
    if min(sizes) < 1:
        raise SuiteError(f"{path}: launch sizes must be at least 1")
    note = _field(lines, 3, "note", path) if len(lines) > 3 and lines[3].startswith("// note:") else ""
    return SuiteKernel(
        path=path,
        name=_kernel_name(text, path),
        verdicts=verdicts,
        source=source,
        block=(sizes[0], sizes[1], sizes[2]),
        grid=(sizes[3], sizes[4], sizes[5]),
        note=note,
    )


def load_suite(root: Path = SUITE) -> list[SuiteKernel]:
    """Every kernel of the suite, sorted by path."""
    return [parse_kernel(p) for p in sorted(root.rglob("*.mlir"))]
