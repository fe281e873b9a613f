"""A real `mlir-opt`'s IR after each pass: its command line, and its `-mlir-print-ir-after-all` dump cut into steps.

mlir-opt writes the dump to stderr, one block per pass run, each after a header
`// -----// IR Dump After NAME (ARG) ('OP' operation: @SYM) //----- //` (`Before` for
`-mlir-print-ir-before-all`, `After NAME Failed` for a pass that failed) and followed by a
blank line; its diagnostics come between the blocks. The steps are the IR before the
first pass (the input, as mlir-opt prints it), then the IR after each pass run; a pass
nested under an op (`func.func(canonicalize)`) runs, and is a step, once per such op.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpu_lsp.passes.steps import Step, StepError

# The flags that make mlir-opt print the whole module before and after every pass, in order.
DUMP_FLAGS = (
    "-mlir-print-ir-before-all",
    "-mlir-print-ir-after-all",
    "-mlir-print-ir-module-scope",
    "-mlir-disable-threading",
)
_HEADER = re.compile(
    r"^// -----// IR Dump (?P<when>Before|After) (?P<pass>.+?)(?P<failed> Failed)? \((?P<arg>[^()]*)\)"
    r"(?: \('(?P<op>[^']*)' operation(?:: @(?P<symbol>.*?))?\))? //----- //$",
    re.M,
)


@dataclass(frozen=True)
class _Block:
    """One dump block: which pass, on what, the IR printed, and what came after it before the next header."""

    before: bool
    failed: bool
    name: str
    text: str
    messages: str


def pass_pipeline(pipeline: str) -> str:
    """`-pass-pipeline=` for what the user typed: anchored on `builtin.module` unless it is already."""
    text = pipeline.strip()
    if text.startswith("builtin.module(") and _closes_at_end(text, len("builtin.module")):
        return f"-pass-pipeline={text}"
    return f"-pass-pipeline=builtin.module({text})"


def _closes_at_end(text: str, open_at: int) -> bool:
    """Whether the parenthesis at `open_at` is closed by the last character."""
    depth = 0
    for i in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i == len(text) - 1
    return False


def command(mlir_opt: str, pipeline: str) -> list[str]:
    """The argument vector that runs `pipeline` on stdin and dumps the IR around every pass to stderr."""
    return [mlir_opt, pass_pipeline(pipeline), *DUMP_FLAGS, "-"]


def _blocks(stderr: str) -> tuple[str, list[_Block]]:
    """What stderr holds before the first header, and its dump blocks."""
    headers = list(_HEADER.finditer(stderr))
    lead = stderr[: headers[0].start()] if headers else stderr
    out = []
    for i, m in enumerate(headers):
        body = stderr[m.end() + 1 : headers[i + 1].start() if i + 1 < len(headers) else len(stderr)]
        ir, _, rest = body.partition("\n\n")
        arg = m.group("arg") or m.group("pass")
        name = f"{arg} @{m.group('symbol')}" if m.group("symbol") else arg
        out.append(_Block(m.group("when") == "Before", bool(m.group("failed")), name, ir + "\n", rest.strip("\n")))
    return lead, out


def _commented(messages: str) -> str:
    return "".join(f"// {line}".rstrip() + "\n" for line in messages.split("\n"))


def dump_steps(status: int, stdout: str, stderr: str) -> list[Step]:
    """The steps of a run of `command(...)` that ended with `status`. A pass's diagnostics head its
    step as comments; a failing pass is the last step, its error above the IR it left. Raises
    StepError when no pass ran (an unknown pass, input that does not parse)."""
    lead, blocks = _blocks(stderr)
    before = next((b for b in blocks if b.before), None)
    steps: list[Step] = []
    if before is not None:
        steps.append(Step("input", before.text, ()))
    elif status == 0 and not blocks:
        steps.append(Step("input", stdout, ()))
    messages = lead.strip("\n")
    for block in blocks:
        if block.before:
            messages = "\n".join(m for m in (messages, block.messages) if m)
            continue
        if block.failed:  # its error comes before the block or, from some drivers, after it
            why = "\n".join(m for m in (messages, block.messages) if m) or "the pass failed"
            steps.append(Step(f"{block.name} (failed)", _commented(why) + block.text, ()))
            return steps
        steps.append(Step(block.name, (_commented(messages) if messages else "") + block.text, ()))
        messages = block.messages
    if status != 0:
        why = messages or f"mlir-opt exited with status {status}"
        if not steps:
            raise StepError(why.split("\n")[0])
        steps.append(Step("(failed)", _commented(why) + steps[-1].text, ()))
    return steps
