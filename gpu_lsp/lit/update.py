"""Update CHECK lines: a chunk's checks rewritten from the actual output, generate-test-checks style.

Every output line of the chunk becomes a check line; SSA names become FileCheck
variables, `%[[VAL_0:.*]]` where a name first appears in a function and
`%[[VAL_0]]` after; a function's line is a CHECK-LABEL up to its `(` and a
CHECK-SAME for the rest. The implicit `module {` ... `}` around the output is left
out. The chunk's old lines of the RUN line's prefix go; the new block takes the
place of the first of them (else it comes before the chunk's first op).
"""

from __future__ import annotations

import re

from gpu_lsp.lit.runlines import run_lines
from gpu_lsp.lit.runner import SPLIT_OUTPUT, Tool, chunks_of, refusal, run_pipeline
from gpu_lsp.syntax.names import STRING_LITERAL, SUFFIX_ID

_STRING = re.compile(STRING_LITERAL)
_SSA = re.compile(rf"%({SUFFIX_ID})")
_FUNCTION = re.compile(r"^\s*(?:[\w.]+\.)?func\s+(?:\w+\s+)*@[\w$.-]+\(")


class UpdateError(Exception):
    """The checks of a chunk cannot be regenerated; the message says why."""


def _escape(literal: str) -> str:
    """Literal text as FileCheck pattern text: `[[` and `{{` are not blocks."""
    return literal.replace("{{", "{{\\{\\{}}").replace("[[", "{{\\[\\[}}")


class _Names:
    """SSA name -> FileCheck variable, per function."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.vars: dict[str, str] = {}
        self.taken: set[str] = set()

    def pattern(self, name: str) -> str:
        if name in self.vars:
            return f"%[[{self.vars[name]}]]"
        base = re.sub(r"[^A-Za-z0-9_]", "_", name).upper()
        base = f"VAL_{base}" if base[0].isdigit() else base
        var, n = base, 1
        while var in self.taken:
            var, n = f"{base}_{n}", n + 1
        self.vars[name] = var
        self.taken.add(var)
        return f"%[[{var}:.*]]"


def _line_pattern(line: str, names: _Names) -> str:
    out: list[str] = []
    pos = 0
    for m in _STRING.finditer(line):
        out.append(_code_pattern(line[pos : m.start()], names))
        out.append(_escape(m.group(0)))
        pos = m.end()
    out.append(_code_pattern(line[pos:], names))
    return "".join(out)


def _code_pattern(code: str, names: _Names) -> str:
    out: list[str] = []
    pos = 0
    for m in _SSA.finditer(code):
        out.append(_escape(code[pos : m.start()]))
        out.append(names.pattern(m.group(1)))
        pos = m.end()
    out.append(_escape(code[pos:]))
    return "".join(out)


def _body(output: str) -> list[str]:
    """The output lines to check: without the implicit module's first and last lines, dedented."""
    lines = [line.rstrip() for line in output.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) >= 2 and lines[0] == "module {" and lines[-1] == "}":
        lines = [line[2:] if line.startswith("  ") else line for line in lines[1:-1]]
    return [line for line in lines if line.strip()] or ["module {"]


def generate(output: str, prefix: str, whole: str | None = None) -> list[str]:
    """The check lines for one chunk's output.

    `whole` is the output the checks will run against (the whole file's): a line is
    a CHECK-LABEL only where its text is found once in it, since FileCheck finds a
    label at its first match; the chunk's first line is a label too when it can be.
    """
    whole = output if whole is None else whole
    names = _Names()
    out: list[str] = []
    for number, line in enumerate(_body(output)):
        indent = " " * (len(line) - len(line.lstrip()))
        function = _FUNCTION.match(line)
        head = line[: function.end()].strip() if function is not None else line.strip()
        unique = whole.count(head) == 1
        if function is not None:
            names.reset()
            out.append(f"// {prefix}-LABEL: {_escape(head)}" if unique else f"// {prefix}:       {indent}{_escape(head)}")
            rest = line[function.end() :]
            if rest.strip():
                out.append(f"// {prefix}-SAME:  {indent}{_line_pattern(rest, names)}")
        elif number == 0 and unique and _SSA.search(line) is None:
            out.append(f"// {prefix}-LABEL: {_escape(head)}")
        else:
            out.append(f"// {prefix}:       {indent}{_line_pattern(line.strip(), names)}")
    return out


def _is_check(line: str, prefix: str) -> bool:
    return re.match(rf"\s*//\s*{re.escape(prefix)}(-[A-Z]+|-COUNT-\d+)?(\{{LITERAL\}})?:", line) is not None


def update_chunk(text: str, path: str, tool: Tool, run_index: int, chunk_index: int) -> str:
    """`text` with the checks of one chunk under one RUN line regenerated; raises UpdateError."""
    runs = run_lines(text)
    if not 0 <= run_index < len(runs):
        raise UpdateError(f"there is no RUN line {run_index + 1}")
    run = runs[run_index]
    why = refusal(run, tool)
    if why is not None:
        raise UpdateError(f"the RUN line cannot run here: {why}")
    if run.filecheck is None:
        raise UpdateError("the RUN line has no FileCheck stage")
    if len(run.prefixes) != 1:
        raise UpdateError(f"the RUN line checks several prefixes ({', '.join(run.prefixes)})")
    prefix = run.prefixes[0]
    chunks = chunks_of(text, run.split)
    if not 0 <= chunk_index < len(chunks):
        raise UpdateError(f"there is no chunk {chunk_index + 1}")
    chunk = chunks[chunk_index]
    result = run_pipeline(run, tool, chunk.padded(text), path)
    whole = run_pipeline(run, tool, text, path).stdout if run.split else result.stdout
    if result.status != 0:
        raise UpdateError("the chunk does not run: " + (result.stderr.strip().split("\n")[0] or f"exit status {result.status}"))
    outputs = SPLIT_OUTPUT.split(result.stdout) if run.split else [result.stdout]
    lines = text.split("\n")
    # The chunk's last line holds the next `// -----` marker unless the chunk ends the file.
    stop = chunk.last_line + 1 if chunk.end == len(text) else chunk.last_line
    body = lines[chunk.first_line : stop]
    kept = [line for line in body if not _is_check(line, prefix)]
    at = next((i for i, line in enumerate(body) if _is_check(line, prefix)), None)
    if at is None:
        at = next((i for i, line in enumerate(body) if line.strip() and not line.lstrip().startswith("//")), len(body))
    else:
        at -= sum(1 for line in body[:at] if _is_check(line, prefix))
    kept[at:at] = generate(outputs[-1], prefix, whole)
    return "\n".join(lines[: chunk.first_line] + kept + lines[stop:])
