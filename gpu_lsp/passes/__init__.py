"""IR -> IR rewrites named after their mlir-opt flags, and the text edits that apply them.

* `sink.sink_index_computations` (`-gpu-launch-sink-index-computations`)
* `outlining.outline_kernels` (`-gpu-kernel-outlining[=data-layout-str=...]`)
* `async_region.make_async` (`-gpu-async-region`)
* `catalog` lists them (declared with `registration.gpu_pass`) and the refactorings
  (`registration.RefactoringDef`) that every front end reads;
* `pipeline.run_pipeline` runs them in the order of a command line or a
  `--pass-pipeline='builtin.module(...)'` string.
* `edits.ChunkBeforePass` turns a rewritten module into a minimal set of text edits;
  `refactor` offers the rewrites at a cursor position (outline this launch, every
  launch of a function or file, make a function async, legalize for lowering).
"""

from gpu_lsp.passes.base import PassDiagnostic, PassFailure

__all__ = ["PassDiagnostic", "PassFailure"]
