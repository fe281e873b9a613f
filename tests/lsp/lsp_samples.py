"""Sample documents and cursor helpers for the editor-feature tests."""

from __future__ import annotations

from lsprotocol import types
from lsprotocol.converters import get_converter

from gpu_lsp.lsp.documents import Document, Snapshot
from gpu_lsp.lsp.hints import InlayHint

URI = "file:///work/sample.mlir"

# Outlined kernels, async tokens, a fork and a join; every feature has something to find here.
OUTLINED = """\
// A host function launching an outlined kernel.
#map = affine_map<(d0) -> (d0)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<16xf32>, %factor: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<16xf32>
      %r = arith.mulf %v, %factor : f32
      memref.store %r, %buf[%i] : memref<16xf32>
      gpu.return
    }
  }

  func.func @main(%host: memref<16xf32>, %factor: f32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<16xf32>, memref<16xf32>
    %t3 = gpu.wait async
    %t4 = gpu.launch_func async [%t2, %t3] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dev : memref<16xf32>, %factor : f32)
    %t5 = gpu.memcpy async [%t4] %host, %dev : memref<16xf32>, memref<16xf32>
    %t6 = gpu.dealloc async [%t5] %dev : memref<16xf32>
    gpu.wait [%t6]
    return
  }
}
"""

# An inline launch with region arguments, blocks with successors, and split chunks.
INLINE = """\
func.func @inline(%a: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<?xf32>
    memref.store %v, %a[%bx] : memref<?xf32>
    gpu.terminator
  }
  gpu.wait [%t1]
  return
}

// -----

func.func @branches(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1(%x : i32), ^bb2
^bb1(%y: i32):
  return %y : i32
^bb2:
  return %x : i32
}
"""


def snapshot(text: str, uri: str = URI, version: int = 1) -> Snapshot:
    return Document(uri, text, version).analysed()


def at(text: str, needle: str, delta: int = 0, occurrence: int = 0) -> int:
    """Offset of the `occurrence`-th `needle` in `text`, plus `delta`."""
    pos = -1
    for _ in range(occurrence + 1):
        pos = text.index(needle, pos + 1)
    return pos + delta


def span(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    start = at(text, needle, 0, occurrence)
    return start, start + len(needle)

# A host function the runner can execute (no arguments, returns what the kernel wrote).
RUNNABLE = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%buf: memref<4xf32>, %v: f32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %buf[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %v = arith.constant 2.5 : f32
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>, %v : f32)
    %h = memref.alloc() : memref<4xf32>
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xf32>, memref<4xf32>
    %t4 = gpu.dealloc async [%t3] %d : memref<4xf32>
    gpu.wait [%t4]
    %r = memref.load %h[%c0] : memref<4xf32>
    return %r : f32
  }
}
"""


# A lit test's RUN line, and a chunk whose CHECK line fails: it expects arith.muli where @two adds.
LIT_RUN = "// RUN: mlir-opt %s -split-input-file | FileCheck %s\n"
FAILING_CHUNK = """\
// CHECK-LABEL: func.func @two
// CHECK: arith.muli
func.func @two(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
"""


def lsp_inlay_hint(snap: Snapshot, hint: InlayHint) -> dict:
    """What lsprotocol's converter writes of a hint: the reference for the JSON the server writes itself."""
    line, character = snap.position(hint.offset)
    return get_converter().unstructure(
        types.InlayHint(
            position=types.Position(line=line, character=character),
            label=hint.label,
            kind=types.InlayHintKind.Parameter if hint.kind == "Parameter" else types.InlayHintKind.Type,
            padding_left=hint.padding_left or None,
            padding_right=hint.padding_right or None,
            tooltip=hint.tooltip or None,
        )
    )
