"""GPU0xx: the parser's own diagnostics (emitted by gpu_lsp/parser), documented as rules."""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import declare


def _unreadable(code: str, name: str, doc: str, *, checked_by: str) -> None:
    """Declare an error after which upstream's parser reads no further: never suppressed, always reported."""
    declare(code, name, Severity.ERROR, doc, checked_by=checked_by, suppressible=False, always_reported=True)


_unreadable(
    "GPU001",
    "syntax-error",
    """
    ## What it does
    Reports text that is not MLIR: a stray or missing bracket, an unterminated string,
    a token where the structure of an operation, region or block expects another one, an
    `!llvm.` type keyword LLVM does not have (`unknown LLVM type: load`) or one written
    without the parameters it needs (`!llvm.struct` without `<...>`).

    ## Why is this bad?
    `mlir-opt` stops at the first syntax error and the file is not compiled at all.
    gpu-lsp resynchronises at the next operation so the rest of the file is still checked,
    up to 10,000 syntax errors: there (in a file that is not MLIR at all) it stops reading and
    says so. At most 10,000 diagnostics of any code are reported per file.

    ## Example
    ```mlir
    func.func @f() {
      %c = arith.constant 1 : index
      return
    ```
    Use instead:
    ```mlir
    func.func @f() {
      %c = arith.constant 1 : index
      return
    }
    ```

    ## Fix safety
    There is no fix: only the author knows what was meant.

    ## References
    - [MLIR Language Reference](https://mlir.llvm.org/docs/LangRef/)
    """,
    checked_by="gpu_lsp/parser (lexer and structure grammar)",
)

_unreadable(
    "GPU002",
    "custom-syntax-error",
    """
    ## What it does
    Reports an operation whose custom assembly format does not match what its dialect
    defines, with upstream's message, e.g. `custom op 'gpu.launch_func' invalid kind of
    attribute specified` or `custom op 'gpu.func' gpu.func requires named arguments`.

    ## Why is this bad?
    Upstream's parser rejects the operation and with it the whole file.

    ## Example
    ```mlir
    gpu.launch_func "kernels" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```
    Use instead:
    ```mlir
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu` dialect operations](https://mlir.llvm.org/docs/Dialects/GPU/)
    """,
    checked_by="gpu_lsp/parser/builder.py (the dialect syntax readers)",
)

declare(
    "GPU003",
    "undefined-value",
    Severity.ERROR,
    """
    ## What it does
    Reports a use of an SSA value that has no definition in scope
    (`use of undeclared SSA value name`), including a value defined outside an
    isolated-from-above operation such as `gpu.func`, `func.func` or `gpu.module`.

    ## Why is this bad?
    Upstream's parser rejects it. Kernels in particular cannot capture host values:
    they must be passed as kernel operands.

    ## Example
    ```mlir
    %c = arith.constant 1 : index
    gpu.module @kernels {
      gpu.func @k() kernel {
        %x = arith.addi %c, %c : index
        gpu.return
      }
    }
    ```
    Use instead: pass `%c` as an argument of `@k` (or define it inside the kernel).

    ## Fix safety
    There is no fix.

    ## References
    - [MLIR Language Reference: Value Scoping](https://mlir.llvm.org/docs/LangRef/#value-scoping)
    """,
    checked_by="gpu_lsp/parser/resolve.py",
)

declare(
    "GPU004",
    "redefined-value",
    Severity.ERROR,
    """
    ## What it does
    Reports a second definition of an SSA name in the same scope
    (`redefinition of SSA value '%x'`, with a note at the first definition).

    ## Why is this bad?
    SSA names are unique per scope; upstream's parser rejects the file.

    ## Example
    ```mlir
    %t = gpu.wait async
    %t = gpu.wait async
    ```
    Use instead:
    ```mlir
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [MLIR Language Reference: SSA values](https://mlir.llvm.org/docs/LangRef/#identifiers-and-keywords)
    """,
    checked_by="gpu_lsp/parser/resolve.py",
)

declare(
    "GPU005",
    "use-type-mismatch",
    Severity.ERROR,
    """
    ## What it does
    Reports a use whose written or implied type differs from the value's definition
    (`use of value '%x' expects different type than prior uses`).

    ## Why is this bad?
    Upstream's parser rejects it.

    ## Example
    ```mlir
    %n = arith.constant 4 : i32
    %m = gpu.alloc (%n) : memref<?xf32>
    ```
    Use instead: pass an `index` (`arith.index_cast %n : i32 to index`).

    ## Fix safety
    There is no fix.

    ## References
    - [MLIR Language Reference](https://mlir.llvm.org/docs/LangRef/)
    """,
    checked_by="gpu_lsp/parser/resolve.py",
)

declare(
    "GPU006",
    "unknown-operation",
    Severity.HINT,
    """
    ## What it does
    Points out an operation gpu-lsp has no syntax reader for. Its operands, regions and
    successors are still read, but its results have no known type and it is not verified.

    ## Why is this bad?
    It is not wrong. It only means that checks involving the operation are weaker.

    ## Example
    ```mlir
    "test.finish"() : () -> ()
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [MLIR Language Reference: Operations](https://mlir.llvm.org/docs/LangRef/#operations)
    """,
    checked_by="gpu_lsp/parser/builder.py",
    upstream=False,
)

declare(
    "GPU007",
    "undefined-block",
    Severity.ERROR,
    """
    ## What it does
    Reports a branch to a block label that the region does not define, or a label
    defined twice.

    ## Why is this bad?
    Upstream's parser rejects it.

    ## Example
    ```mlir
    cf.br ^bb9
    ```
    Use instead: branch to a block of the same region.

    ## Fix safety
    There is no fix.

    ## References
    - [MLIR Language Reference: Blocks](https://mlir.llvm.org/docs/LangRef/#blocks)
    """,
    checked_by="gpu_lsp/parser/resolve.py",
)

declare(
    "GPU008",
    "result-count-mismatch",
    Severity.ERROR,
    """
    ## What it does
    Reports a result list that names more or fewer values than the operation produces:
    `cannot name an operation with no results`, or
    `operation defines 2 results but was provided 1 to bind`.

    ## Why is this bad?
    Upstream's parser rejects it. A frequent case is naming a synchronous
    `gpu.wait`, which has no token.

    ## Example
    ```mlir
    %t = gpu.wait [%t0]
    ```
    Use instead:
    ```mlir
    %t = gpu.wait async [%t0]
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.wait`](https://mlir.llvm.org/docs/Dialects/GPU/#gpuwait-gpuwaitop)
    """,
    checked_by="gpu_lsp/parser/builder.py",
)
