"""GPU122, GPU123: what upstream's gpu type and attribute parsers reject, found while parsing.

The checks live in gpu_lsp/syntax/gpu_syntax.py: the parser runs them on every type and
attribute token it reads, so that the problem is reported where upstream's parser reports it
(the type keyword, the attribute mnemonic or the `<` opening its parameters).
"""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import declare

declare(
    "GPU122",
    "invalid-gpu-type",
    Severity.ERROR,
    """
    ## What it does
    Reports a `!gpu` type that upstream's type parser rejects, at the keyword, wherever the
    type is written.

    An unknown keyword (`unknown gpu type: async.tokn`; the gpu types are `!gpu.async.token`,
    `!gpu.mma_matrix<...>`, `!gpu.sparse.dntensor_handle`, `!gpu.sparse.spmat_handle` and
    `!gpu.sparse.spgemmop_handle`), and a `!gpu.mma_matrix` that is not a two-dimensional
    static matrix of SI8/UI8/32-bit integer/F16/F32/F64 elements with operand `"AOp"`, `"BOp"`
    or `"COp"` (`MMAMatrixType must have exactly two dimensions`, `operand expected to be one
    of AOp, BOp or COp`, `MMAMatrixType elements must be SI8, UI8, I32, F16, or F32`), in an
    operand or result type, a function signature, a block argument or an alias.

    LLVM 23 words the element-type message `... F16, F32, or F64`; gpu-lsp keeps the older
    text that upstream's `invalid.mlir` tests for, and accepts F64 (and `si32`/`ui32`) like
    LLVM 23.

    ## Why is this bad?
    Upstream's parser rejects the file. A misspelt `!gpu.async.token` is the usual cause.

    ## Example
    ```mlir
    func.func @f(%t: !gpu.async_token) {
      return
    }
    ```
    Use instead:
    ```mlir
    func.func @f(%t: !gpu.async.token) {
      return
    }
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu` dialect types](https://mlir.llvm.org/docs/Dialects/GPU/#types)
    """,
    checked_by="gpu_lsp/syntax/gpu_syntax.py (while the parser reads each type)",
)

declare(
    "GPU123",
    "invalid-gpu-attribute",
    Severity.ERROR,
    """
    ## What it does
    Reports a `#gpu` attribute, or an `#nvvm.target`, that upstream's attribute parsers reject
    when they build it.

    - an unknown mnemonic: ``unknown attribute `objct` in dialect `gpu` ``;
    - an enum attribute whose case is not one of the enum's (`#gpu<dim w>`: `expected
      ::mlir::gpu::Dimension to be one of: x, y, z`, then ``failed to parse GPU_DimensionAttr
      parameter 'value' ...``), or an angled one written without its `<` (`#gpu<address_space
      global>`: `expected '<'`);
    - `#gpu.object<target, [properties = {...},] [kernels = ...,] [format =] "...">`: the target
      is not a GPU target attribute (``the target attribute must implement or promise the
      `gpu::TargetAttrInterface` ``), a format keyword other than `offload`, `assembly`, `bin`,
      `fatbin` (`expected keyword for GPU object format`), a format without `=` (`expected an
      equal sign`), an object that is not a string (``failed to parse GPU_ObjectAttr parameter
      'object' which is to be a `StringAttr` ``);
    - `#gpu.select_object<...>`: a negative index (`the object index must be positive`) or a
      value that is neither an index nor a target (`the target attribute must be a GPU Target
      attribute`);
    - `#gpu.kernel_metadata<"name", type, ...>`: an empty name (`the kernel name can't be
      empty`), `arg_attrs` holding something other than dictionaries (`all attributes in the
      array must be a dictionary attribute`);
    - `#gpu.kernel_table<[...]>`: two kernels with one name (`expected all kernels to be
      uniquely named`);
    - `#nvvm.target<...>` (the target of a `gpu.module` or `#gpu.object`): `O` outside 0..3
      (`The optimization level must be a number between 0 and 3.`), an empty `triple` or
      `chip` (`The target triple cannot be empty.`, `The target chip cannot be empty.`), a
      `link` entry that is not a string, an unknown parameter.

    Each error is reported where upstream reports it (the mnemonic, or the `<` of the
    attribute's parameters), followed by the errors each enclosing attribute adds, such as
    ``failed to parse GPU_ObjectAttr parameter 'kernels' which is to be a `KernelTableAttr` ``.

    ## Why is this bad?
    Upstream's parser rejects the file; `gpu-module-to-binary` and the offloading translation
    need these attributes to be well formed (an object per target, a valid selection).

    ## Example
    ```mlir
    gpu.binary @kernels <#gpu.select_object<-1>> [#gpu.object<#nvvm.target, "">]
    ```
    Use instead:
    ```mlir
    gpu.binary @kernels <#gpu.select_object<0>> [#gpu.object<#nvvm.target, "">]
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu` dialect attributes](https://mlir.llvm.org/docs/Dialects/GPU/)
    - [GPU compilation: `#gpu.object`, offloading handlers](https://mlir.llvm.org/docs/Dialects/GPU/#gpu-compilation)
    """,
    checked_by="gpu_lsp/syntax/gpu_syntax.py (while the parser reads each attribute)",
)
