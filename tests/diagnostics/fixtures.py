"""Rule fixtures (tests/fixtures/rules/GPUxxx.mlir): `// OK` and `// Errors` chunks with `expect` annotations.

A fixture is split at `// -----`. A chunk whose first comment starts with `// OK` must produce no
diagnostic of the fixture's code; one starting with `// Errors` must produce exactly the annotated
ones. `// expect@+1 {{text}}` (or `@-N`, or on the line itself without `@`) expects a diagnostic of the
fixture's code on that line whose message contains `text`; `// expect-note@+1 {{text}}` a note of one.
A header such as `// Errors (mlir-version 22)` lints that chunk with that `mlir-version` (default: the newest).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.diagnostics.mlir_versions import NEWEST, AtVersion
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.parser.api import parse
from gpu_lsp.text import LineIndex

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rules"
VERSION = re.compile(r"\(mlir-version (\d+)\)")
EXPECT = re.compile(r"//\s*expect(-note)?(@([+-])(\d+))?\s*\{\{(.*)\}\}\s*$")


@dataclass
class Expect:
    note: bool
    line: int  # 1-based
    text: str
    matched: bool = False


@dataclass
class FixtureChunk:
    kind: str  # "OK" or "Errors"
    version: int
    start: int
    end: int
    first_line: int
    expects: list[Expect] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass
class Fixture:
    code: str
    path: Path
    text: str
    chunks: list[FixtureChunk]
    diagnostics: list[Diagnostic]
    index: LineIndex

    def line_of(self, offset: int) -> int:
        return self.index.position(offset)[0] + 1


def fixture_path(code: str) -> Path:
    return FIXTURES / f"{code}.mlir"


def load(code: str, text: str | None = None) -> Fixture:
    path = fixture_path(code)
    text = path.read_text() if text is None else text
    parsed = parse(text, split=True)
    index = LineIndex(text)
    chunks = []
    for chunk in parsed.chunks:
        body = text[chunk.start : chunk.end]
        header = next((ln.strip() for ln in body.splitlines() if ln.strip().startswith(("// OK", "// Errors"))), "")
        kind = "OK" if header.startswith("// OK") else "Errors" if header.startswith("// Errors") else ""
        first_line = index.position(chunk.start)[0] + 1
        version = VERSION.search(header)
        fc = FixtureChunk(kind, int(version.group(1)) if version else NEWEST, chunk.start, chunk.end, first_line)
        for i, line in enumerate(body.split("\n")):
            m = EXPECT.search(line)
            if m:
                target = first_line + i
                if m.group(2):
                    delta = int(m.group(4))
                    target += delta if m.group(3) == "+" else -delta
                fc.expects.append(Expect(bool(m.group(1)), target, m.group(5)))
        chunks.append(fc)
    by_version = {v: lint_parsed(parsed, AtVersion(v)) for v in {fc.version for fc in chunks} | {NEWEST}}
    for fc in chunks:
        fc.diagnostics = [d for d in by_version[fc.version] if fc.start <= d.range.start <= fc.end and d.code == code]
    diagnostics = [d for fc in chunks for d in by_version[fc.version] if fc.start <= d.range.start <= fc.end]
    return Fixture(code, path, text, chunks, diagnostics or by_version[NEWEST], index)



def mismatches(fx: Fixture) -> list[str]:
    """Everything that does not match the fixture's annotations."""
    problems: list[str] = []
    for chunk in fx.chunks:
        if chunk.kind == "OK":
            for d in chunk.diagnostics:
                problems.append(f"line {fx.line_of(d.range.start)}: unexpected {d.code} in an OK section: {d.message}")
            continue
        for d in chunk.diagnostics:
            entries = [(False, d.message, d.range.start)] + [(True, r.message, r.range.start) for r in d.related]
            for is_note, message, offset in entries:
                line = fx.line_of(offset)
                hit = next((e for e in chunk.expects if e.note == is_note and e.line == line and e.text in message), None)
                if hit is not None:
                    hit.matched = True
                elif not is_note:
                    problems.append(f"line {line}: unexpected {d.code}: {message}")
        for e in chunk.expects:
            if not e.matched:
                problems.append(f"line {e.line}: missing {'note' if e.note else fx.code} {{{{{e.text}}}}}")
    return problems
