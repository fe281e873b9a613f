"""Generated pass inputs: ../shared/tools/gen_gpu_mlir.py files and seeded variants of them.

`gen_gpu_mlir.py` is deterministic (a size, a mode). `variant(funcs, seed)` takes
its inline-mode output and rewrites each function with a few transformations
drawn from `random.Random(seed)`, every one keeping the file valid MLIR:

* `sync`: every GPU op synchronous, no tokens (what gpu-async-region starts from);
* `sync_launch`: the second launch synchronous (its successor waits on the first);
* `dynamic_grid`: the first launch's grid size is the function argument `%n`;
* `host_load`: a host-side `memref.load` after the first copy (a side effect);
* `call`: a call of an external function before the return;
* `loop`: the second (synchronous) launch inside an `scf.for`.
"""

from __future__ import annotations

import functools
import importlib.util
import random
import re
from types import ModuleType

from support import SHARED

GEN_PY = SHARED / "tools" / "gen_gpu_mlir.py"
TRANSFORMS = ("sync", "sync_launch", "dynamic_grid", "host_load", "call", "loop")


@functools.cache
def _gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_gen_gpu_mlir", GEN_PY)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def generated(mode: str = "inline", funcs: int | None = None, lines: int | None = None) -> str:
    """The generator's output for a number of functions or of lines."""
    gen = _gen()
    if funcs is None:
        funcs = max(1, round((lines or 1000) / gen.lines_per_function(mode)))
    return gen.generate(mode, funcs)


def _functions(text: str) -> list[tuple[int, int]]:
    """(first, last) line index of each top-level func.func."""
    lines = text.split("\n")
    out = []
    start = None
    for i, line in enumerate(lines):
        if line.startswith("func.func "):
            start = i
        elif line == "}" and start is not None:
            out.append((start, i))
            start = None
    return out


def _launch_blocks(lines: list[str]) -> list[tuple[int, int]]:
    out = []
    start = None
    for i, line in enumerate(lines):
        if "gpu.launch" in line:
            start = i
        elif start is not None and line.strip() == "}":
            out.append((start, i))
            start = None
    return out


def _transform(body: list[str], chosen: set[str]) -> list[str]:
    if "sync" in chosen:
        body = [line for line in body if not re.fullmatch(r"\s*(%t0 = gpu\.wait async|gpu\.wait \[%t\d+\])", line)]
        body = [line.replace("%buf, %t1 = gpu.alloc async [%t0] ", "%buf = gpu.alloc ") for line in body]
        body = [re.sub(r"%t\d+ = (gpu\.\w+) async \[%t\d+\] ", r"\1 ", line) for line in body]
    elif "sync_launch" in chosen:
        body = [line.replace("%t4 = gpu.launch async [%t3] ", "gpu.launch ") for line in body]
        body = [line.replace("gpu.memcpy async [%t4]", "gpu.memcpy async [%t3]") for line in body]
    if "dynamic_grid" in chosen:
        for i, line in enumerate(body):
            if "gpu.launch" in line:
                body[i] = line.replace("(%gx = %c, ", "(%gx = %n, ")
                break
    if "host_load" in chosen:
        for i, line in enumerate(body):
            if "gpu.memcpy" in line:
                body.insert(i + 1, "  %h = memref.load %arg0[%c0] : memref<?xf32>")
                break
    if "call" in chosen:
        body.insert(len(body) - 2, "  func.call @ext() : () -> ()")
    launches = _launch_blocks(body)
    if "loop" in chosen and ("sync" in chosen or "sync_launch" in chosen) and len(launches) == 2:
        start, end = launches[1]
        inner = ["  " + line for line in body[start : end + 1]]
        body = body[:start] + ["  scf.for %iv = %c0 to %c1 step %c1 {"] + inner + ["  }"] + body[end + 1 :]
    return body


def variant(funcs: int, seed: int) -> str:
    """A seeded variant of the inline-mode generated file with `funcs` functions."""
    rng = random.Random(seed)
    lines = generated("inline", funcs).split("\n")
    out: list[str] = []
    pos = 0
    needs_ext = False
    for start, end in _functions("\n".join(lines)):
        out.extend(lines[pos:start])
        chosen = {t for t in TRANSFORMS if rng.random() < 0.4}
        needs_ext |= "call" in chosen
        out.extend(_transform(lines[start : end + 1], chosen))
        pos = end + 1
    out.extend(lines[pos:])
    if needs_ext:
        out.insert(1, "func.func private @ext()")
    return "\n".join(out)


def inputs(count: int = 24) -> list[tuple[str, str]]:
    """(name, text) of generated inputs: plain files of several sizes and seeded variants."""
    items = [(f"gen-inline-{n}", generated("inline", n)) for n in (1, 2, 3, 5)]
    items.append(("gen-outlined-3", generated("outlined", 3)))
    seed = 0
    while len(items) < count:
        funcs = 1 + seed % 4
        items.append((f"variant-{funcs}f-seed{seed}", variant(funcs, seed)))
        seed += 1
    return items
