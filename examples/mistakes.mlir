// Typical async-token mistakes, one per chunk (use -split-input-file).
// Upstream MLIR verifies every chunk but the last (a parse error); the others
// go wrong later, at lowering or at run time.

// A launch that waits on two tokens. It verifies, but gpu-to-llvm in LLVM 22
// and older maps each token to a stream and a kernel runs on one stream: the
// lowering rejects it ("Cannot convert with more than one async dependency.").
// LLVM 23 (llvm-project PR #188987) inserts the join itself, so gpu-lint
// reports it only with `--mlir-version 22` or older. For those, join the
// tokens explicitly: %j = gpu.wait async [%t0, %t1], then launch on [%j].
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%buf: memref<?xf32>, %v: f32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %buf[%i] : memref<?xf32>
      gpu.return
    }
  }

  func.func @launch_with_two_dependencies(%a: memref<?xf32>, %b: memref<?xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %t2 = gpu.launch_func async [%t0, %t1] @kernels::@fill
        blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<?xf32>, %v : f32)
    gpu.wait [%t2]
    return
  }
}

// -----

// A blocking (non-async) memcpy with a dependency. It verifies, but
// gpu-to-llvm only converts async copies ("Can convert only async version.")
// and leaves this one behind. Write %t1 = gpu.memcpy async [%t0] ... and end
// with gpu.wait [%t1].
func.func @blocking_copy_with_dependency(%dst: memref<256xf32>, %src: memref<256xf32>) {
  %t0 = gpu.wait async
  gpu.memcpy [%t0] %dst, %src : memref<256xf32>, memref<256xf32>
  return
}

// -----

// gpu.wait async with a single dependency joins nothing: %t2 orders nothing
// that %t1 does not, yet it lowers to an event and a second stream, and the
// stream of %t1 is then never destroyed. Wait on %t1 directly; gpu.wait async
// exists to join several tokens.
func.func @wait_on_one_token(%dst: memref<256xf32>, %src: memref<256xf32>) {
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %dst, %src : memref<256xf32>, memref<256xf32>
  %t2 = gpu.wait async [%t1]
  gpu.wait [%t2]
  return
}

// -----

// The token of the copy is never waited on: nothing orders the copy before
// the function returns, and its stream is never synchronised or destroyed.
// End with gpu.wait [%t1].
func.func @token_never_waited_on(%dst: memref<256xf32>, %src: memref<256xf32>) {
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %dst, %src : memref<256xf32>, memref<256xf32>
  return
}

// `gpu-run --split-input-file examples/mistakes.mlir` runs this chunk's @main
// and warns, like the linter, about the copy nobody waits for.
func.func @main() {
  %src = memref.alloc() : memref<256xf32>
  %dst = memref.alloc() : memref<256xf32>
  call @token_never_waited_on(%dst, %src) : (memref<256xf32>, memref<256xf32>) -> ()
  return
}

// -----

// An async op whose token is not named. Upstream's parser rejects it:
// "custom op 'gpu.wait' needs to be named when marked 'async'".
// Write %t = gpu.wait async and use %t.
func.func @unnamed_async_token() {
  gpu.wait async
  return
}
