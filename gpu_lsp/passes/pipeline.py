"""Pass pipelines: mlir-opt's `-pass[=options]` flags and `--pass-pipeline='builtin.module(...)'`.

`parse_flag` / `parse_pipeline` build a `Nest` (an op name and the passes and
nests to run on it); `run_pipeline` runs one on a module. Passes restricted to
func.func given as flags are nested implicitly under `func.func(...)`, like
mlir-opt does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir.core import Operation
from gpu_lsp.passes.base import PassDiagnostic, PassFailure
from gpu_lsp.passes.catalog import PASSES


class PipelineError(ValueError):
    """A pipeline that cannot be parsed or scheduled (mlir-opt's command-line errors)."""


@dataclass
class PassSpec:
    name: str
    options: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.options:
            return self.name
        return self.name + "{" + " ".join(f"{k}={v}" for k, v in self.options.items()) + "}"


@dataclass
class Nest:
    """Passes to run, in order, on an op named `op_name`."""

    op_name: str
    items: list[PassSpec | Nest] = field(default_factory=list)

    def __str__(self) -> str:
        return self.op_name + "(" + ",".join(map(str, self.items)) + ")"

    def add(self, spec: PassSpec) -> None:
        """Append a pass, nesting it under func.func when it is restricted to that (implicit nesting)."""
        anchor = PASSES[spec.name].anchor
        if anchor is None or anchor == self.op_name:
            self.items.append(spec)
            return
        if self.items and isinstance(self.items[-1], Nest) and self.items[-1].op_name == anchor:
            self.items[-1].items.append(spec)
        else:
            self.items.append(Nest(anchor, [spec]))


def _matching(text: str, i: int) -> int:
    """Index just past the bracket group or quoted string starting at `text[i]`."""
    pairs = {"(": ")", "{": "}", "[": "]", "<": ">"}
    if text[i] in "'\"":
        end = text.find(text[i], i + 1)
        if end < 0:
            raise PipelineError(f"unbalanced quote in '{text}'")
        return end + 1
    stack = [pairs[text[i]]]
    j = i + 1
    while j < len(text) and stack:
        ch = text[j]
        if ch in "'\"":
            j = _matching(text, j)
            continue
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch == stack[-1]:
            stack.pop()
        j += 1
    if stack:
        raise PipelineError(f"unbalanced brackets in '{text}'")
    return j


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    if len(value) >= 2 and value[0] == "{" and value[-1] == "}":
        return value[1:-1]
    return value


def parse_options(name: str, text: str) -> dict[str, str]:
    """`key=value key2=value2` (values may be quoted or braced) for pass `name`."""
    allowed = PASSES[name].options
    options: dict[str, str] = {}
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        eq = text.find("=", i)
        key = text[i:eq].strip() if eq >= 0 else text[i:].strip()
        if eq < 0:
            raise PipelineError(f"missing value for option '{key}' of pass '{name}'")
        j = eq + 1
        start = j
        while j < len(text) and not text[j].isspace():
            if text[j] in "'\"{[(<":
                j = _matching(text, j)
            else:
                j += 1
        if key not in allowed:
            raise PipelineError(f"'{name}' does not have an option named '{key}'")
        options[key] = _unquote(text[start:j])
        i = j
    return options


def _pass_spec(name: str, options: str) -> PassSpec:
    if name not in PASSES:
        raise PipelineError(f"'{name}' does not refer to a registered pass or pass pipeline")
    return PassSpec(name, parse_options(name, options) if options else {})


def parse_flag(flag: str, nest: Nest) -> bool:
    """Add a `-pass[=options]` command-line flag to `nest`; False when it is no pass flag."""
    body = flag.lstrip("-")
    name, _, options = body.partition("=")
    if name not in PASSES:
        return False
    nest.add(_pass_spec(name, options))
    return True


def _parse_items(text: str) -> list[PassSpec | Nest]:
    items: list[PassSpec | Nest] = []
    i = 0
    while i < len(text):
        while i < len(text) and (text[i].isspace() or text[i] == ","):
            i += 1
        if i >= len(text):
            break
        j = i
        while j < len(text) and text[j] not in "({,":
            j += 1
        name = text[i:j].strip()
        if j < len(text) and text[j] == "(":
            end = _matching(text, j)
            items.append(Nest(name, _parse_items(text[j + 1 : end - 1])))
            i = end
        elif j < len(text) and text[j] == "{":
            end = _matching(text, j)
            items.append(_pass_spec(name, text[j + 1 : end - 1]))
            i = end
        else:
            items.append(_pass_spec(name, ""))
            i = j
    return items


def parse_pipeline(text: str) -> Nest:
    """`builtin.module(pass1,func.func(pass2{opt=v}))` (the outer anchor may be left out)."""
    text = _unquote(text.strip())
    items = _parse_items(text)
    if len(items) == 1 and isinstance(items[0], Nest) and items[0].op_name == "builtin.module":
        root = items[0]
    else:
        root = Nest("builtin.module", items)
    _check(root)
    return root


def _check(nest: Nest) -> None:
    for item in nest.items:
        if isinstance(item, Nest):
            _check(item)
            continue
        anchor = PASSES[item.name].anchor
        if anchor is not None and anchor != nest.op_name:
            raise PipelineError(
                f"can't run '{item.name}' on '{nest.op_name}': the pass is restricted to '{anchor}'; "
                f"nest it as {anchor}({item.name})"
            )


def _children(op: Operation, name: str) -> list[Operation]:
    return [child for region in op.regions for block in region.blocks for child in block.operations if child.name == name]


def run_pass(spec: PassSpec, op: Operation) -> None:
    PASSES[spec.name].run(op, spec.options)


def run_nest(nest: Nest, op: Operation) -> None:
    """Run `nest`'s items on `op` (whose name is `nest.op_name`), in order."""
    for item in nest.items:
        if isinstance(item, Nest):
            failures: list[PassDiagnostic] = []
            for child in _children(op, item.op_name):
                try:
                    run_nest(item, child)
                except PassFailure as exc:
                    failures.extend(exc.diagnostics)
            if failures:
                raise PassFailure(failures)
        else:
            run_pass(item, op)


def run_pipeline(pipeline: Nest, module: Operation) -> None:
    """Run a pipeline on a builtin.module in place; raises PassFailure when a pass fails."""
    with paused_gc():
        run_nest(pipeline, module)
