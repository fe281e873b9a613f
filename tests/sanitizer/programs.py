"""Small generated GPU programs, each with or without one hazard, for checking the sanitizer against gpu-run."""

from __future__ import annotations

import random
from dataclasses import dataclass

KERNELS = """  gpu.module @kernels {
    gpu.func @fill(%m: memref<64xf32>, %v: f32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %m[%i] : memref<64xf32>
      gpu.return
    }
    gpu.func @copy(%src: memref<64xf32>, %dst: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %src[%i] : memref<64xf32>
      memref.store %x, %dst[%i] : memref<64xf32>
      gpu.return
    }
    gpu.func @sum(%m: memref<64xf32>, %limit: index) kernel {
      %t = gpu.thread_id x
      %n = arith.constant 64 : index
      %i = arith.remui %t, %n : index
      %b = gpu.block_id x
      %x = memref.load %m[%i] : memref<64xf32>
      %c = arith.cmpi ult, %COND, %limit : index
      scf.if %c {
        %s = gpu.all_reduce add %x uniform {} : (f32) -> (f32)
        memref.store %s, %m[%i] : memref<64xf32>
      }
      gpu.return
    }
  }
"""

BUFFERS = ("%a", "%b", "%c")
T = "memref<64xf32>"


@dataclass
class Program:
    """MLIR text and what the generator meant (for failure messages)."""

    text: str
    story: str


class Builder:
    """Host code of `@main`: a running list of lines and the tokens nothing has consumed yet."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.open: list[str] = []  # tokens not yet used as a dependency or waited for
        self.all: list[str] = []
        self.n = 0

    def token(self) -> str:
        self.n += 1
        return f"%t{self.n}"

    def deps(self) -> list[str]:
        """A random choice of earlier tokens (possibly none)."""
        if not self.all:
            return []
        k = self.rng.choice((0, 1, 1, 1, 2))
        return self.rng.sample(self.all, min(k, len(self.all)))

    def emit(self, body: str, async_: bool, deps: list[str] | None = None) -> None:
        """`body` is the op after its `async [deps]` part, as `NAME{ASYNC} rest`."""
        deps = self.deps() if deps is None else deps
        if not async_ and body.startswith("gpu.launch{"):
            deps = []  # upstream's parser gives a gpu.launch without `async` dependencies no type: no valid program
        for d in deps:
            if d in self.open:
                self.open.remove(d)
        dep_text = f" [{', '.join(deps)}]" if deps else ""
        if async_:
            t = self.token()
            self.lines.append(f"    {t} = {body.format(ASYNC=' async' + dep_text)}")
            self.open.append(t)
            self.all.append(t)
        else:
            self.lines.append(f"    {body.format(ASYNC=dep_text)}")

    def blocking_wait(self) -> None:
        if self.all:
            picked = self.rng.sample(self.all, self.rng.choice((1, 1, 2)) if len(self.all) > 1 else 1)
            for d in picked:
                if d in self.open:
                    self.open.remove(d)
            self.lines.append(f"    gpu.wait [{', '.join(picked)}]")

    def wait_all(self) -> None:
        if self.open:
            self.lines.append(f"    gpu.wait [{', '.join(self.open)}]")
            self.open = []


def launch(kernel: str, args: str, block: str = "%c64", grid: str = "%c1") -> str:
    return f"gpu.launch_func{{ASYNC}} @kernels::@{kernel} blocks in ({grid}, %c1, %c1) threads in ({block}, %c1, %c1) args({args})"


def inline_copy(x: str, y: str) -> str:
    """A `gpu.launch` whose body copies buffer `x` into `y` (captured from the host); braces doubled
    for `str.format`."""
    return (
        "gpu.launch{ASYNC} blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) "
        "threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {{\n"
        f"      %v = memref.load {x}[%tx] : {T}\n"
        f"      memref.store %v, {y}[%tx] : {T}\n"
        "      gpu.terminator\n    }}"
    )


def gpu_op(rng: random.Random) -> str:
    """One GPU op over the buffers: a kernel writing, a kernel copying (outlined or inline), a memcpy
    or a memset."""
    x, y = rng.sample(BUFFERS, 2)
    return rng.choice(
        (
            launch("fill", f"{x} : {T}, %one : f32"),
            launch("copy", f"{x} : {T}, {y} : {T}"),
            inline_copy(x, y),
            f"gpu.memcpy{{ASYNC}} {y}, {x} : {T}, {T}",
            f"gpu.memset{{ASYNC}} {x}, %one : {T}, f32",
        )
    )


def wrap(host: list[str], block: int = 64) -> str:
    prologue = [
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        f"    %c64 = arith.constant {block} : index",
        "    %one = arith.constant 1.0 : f32",
    ]
    return (
        "module attributes {gpu.container_module} {\n"
        + KERNELS
        + "  func.func @main() {\n"
        + "\n".join(prologue + host)
        + "\n    return\n  }\n}\n"
    )


def _allocate(b: Builder) -> None:
    for name in BUFFERS:
        b.lines.append(f"    {name} = gpu.alloc () : {T}")
        b.lines.append(f"    gpu.memset {name}, %one : {T}, f32")


def _free(b: Builder) -> None:
    for name in BUFFERS:
        b.lines.append(f"    gpu.dealloc {name} : {T}")


def ordering(rng: random.Random) -> Program:
    """Two to four GPU ops, async or not, with random dependencies and blocking waits between them."""
    b = Builder(rng)
    _allocate(b)
    for _ in range(rng.randint(2, 4)):
        if rng.random() < 0.25:
            b.blocking_wait()
        b.emit(gpu_op(rng), async_=rng.random() < 0.8)
    b.wait_all()
    _free(b)
    return Program(wrap(b.lines).replace("%COND", "%b"), "ordering")


def lifetime(rng: random.Random) -> Program:
    """A buffer freed before, after, twice, or asynchronously beside the work that uses it."""
    b = Builder(rng)
    _allocate(b)
    case = rng.choice(("ok", "use-after-free", "double-free", "async-free", "async-free-ordered"))
    use = launch("fill", f"%a : {T}, %one : f32")
    if case == "ok":
        b.emit(use, async_=False)
        b.lines.append(f"    gpu.dealloc %a : {T}")
    elif case == "use-after-free":
        b.lines.append(f"    gpu.dealloc %a : {T}")
        b.emit(rng.choice((use, f"gpu.memset{{ASYNC}} %a, %one : {T}, f32")), async_=rng.random() < 0.5, deps=[])
    elif case == "double-free":
        b.lines.append(f"    gpu.dealloc %a : {T}")
        b.lines.append(f"    gpu.dealloc %a : {T}")
    else:
        b.emit(use, async_=True, deps=[])
        launched = b.all[-1]
        deps = [launched] if case == "async-free-ordered" else []
        b.emit(f"gpu.dealloc{{ASYNC}} %a : {T}", async_=True, deps=deps)
    b.wait_all()
    for name in BUFFERS[1:]:
        b.lines.append(f"    gpu.dealloc {name} : {T}")
    return Program(wrap(b.lines).replace("%COND", "%b"), f"lifetime {case}")


def launch_sizes(rng: random.Random) -> Program:
    """A launch with random constant block and grid sizes, some beyond CUDA's limits."""
    bx, by, bz = (rng.choice((1, 2, 32, 64)) for _ in range(3))
    if rng.random() < 0.6:
        axis = rng.randrange(3)
        bad = rng.choice((0, 65, 1025, 2048))
        bx, by, bz = [bad if i == axis else v for i, v in enumerate((bx, by, bz))]
    gx = rng.choice((0, 1, 2)) if rng.random() < 0.3 else 1
    host = [
        f"    %bx = arith.constant {bx} : index",
        f"    %by = arith.constant {by} : index",
        f"    %bz = arith.constant {bz} : index",
        f"    %gx = arith.constant {gx} : index",
        f"    %s = gpu.alloc () : {T}",
        f"    gpu.memset %s, %one : {T}, f32",
        f"    gpu.launch_func @kernels::@sum blocks in (%gx, %c1, %c1) threads in (%bx, %by, %bz) args(%s : {T}, %c64 : index)",
        f"    gpu.dealloc %s : {T}",
    ]
    return Program(wrap(host).replace("%COND", "%b"), f"launch sizes grid ({gx}, 1, 1) block ({bx}, {by}, {bz})")


def placement(rng: random.Random) -> Program:
    """Host memory given to a kernel (registered or not), device memory read on the host (shared or not)."""
    case = rng.choice(("host-registered", "host-plain", "device-read", "shared-read"))
    host = []
    if case.startswith("host"):
        host.append(f"    %h = memref.alloc() : {T}")
        if case == "host-registered":
            host.append(f"    %u = memref.cast %h : {T} to memref<*xf32>")
            host.append("    gpu.host_register %u : memref<*xf32>")
        host.append(f"    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%h : {T}, %one : f32)")
        host.append(f"    memref.dealloc %h : {T}")
    else:
        shared = " host_shared" if case == "shared-read" else ""
        host.append(f"    %d = gpu.alloc{shared} () : {T}")
        host.append(f"    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%d : {T}, %one : f32)")
        host.append(f"    %x = memref.load %d[%c0] : {T}")
        host.append(f"    gpu.dealloc %d : {T}")
    return Program(wrap(host).replace("%COND", "%b"), f"placement {case}")


def divergence(rng: random.Random) -> Program:
    """An all_reduce under a condition on the thread id (splitting the block) or on the block id."""
    on_thread = rng.random() < 0.5
    block = rng.choice((32, 64))
    limit = rng.randrange(1, block) if on_thread else rng.randrange(1, 3)
    host = [
        f"    %limit = arith.constant {limit} : index",
        f"    %s = gpu.alloc () : {T}",
        f"    gpu.memset %s, %one : {T}, f32",
        f"    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%s : {T}, %limit : index)",
        f"    gpu.dealloc %s : {T}",
    ]
    cond = "%t" if on_thread else "%b"
    return Program(wrap(host, block).replace("%COND", cond), f"divergence on {'thread' if on_thread else 'block'} id, limit {limit}")


FAMILIES = (ordering, ordering, ordering, lifetime, launch_sizes, placement, divergence)


def generate(count: int, seed: int = 14) -> list[Program]:
    rng = random.Random(seed)
    return [rng.choice(FAMILIES)(rng) for _ in range(count)]
