"""A kernel linted in its own unit's view (an incremental lint) finds its launch sites through the
text of the chunk's units (`RuleContext.chunk_ops`): the same sites as in the whole chunk's view."""

from __future__ import annotations

from support.corpus import all_corpus_files
from support.typing import generated

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.sanitizer.host import kernel_of
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.parser.api import Chunk
from gpu_lsp.parser.incremental import parse_units


def _sites(chunk: Chunk, text: str, kernel, whole: bool) -> list[int]:
    ctx = RuleContext(chunk, text)
    if not whole:
        ctx.module = kernel  # the rules' view of one unit
    name = symbol_name(kernel)
    return [id(op) for op in ctx.chunk_ops("gpu.launch_func", {name} if name else set()) if kernel_of(op, ctx) is kernel]


def _checked(text: str) -> int:
    launched = 0
    for chunk in parse_units(text, split=True).chunks:
        for kernel in (op for op in chunk.module.walk() if op.name == "gpu.func"):
            whole = _sites(chunk, text, kernel, True)
            assert _sites(chunk, text, kernel, False) == whole, symbol_name(kernel)
            launched += bool(whole)
    return launched


def test_a_kernels_launch_sites_in_its_own_view_are_those_of_the_whole_chunk() -> None:
    launched = sum(_checked(path.read_text()) for path in all_corpus_files() if "gpu.launch_func" in path.read_text())
    assert launched > 20, "kernels with launch sites checked"
    assert _checked(generated("outlined", 300)) > 10


_SPELLED = (
    "module attributes {gpu.container_module} {\n  gpu.module @m {\n    gpu.func @kernel() kernel {\n"
    "      gpu.return\n    }\n  }\n  func.func @host() {\n    %c1 = arith.constant 1 : index\n"
    "    gpu.launch_func LAUNCHED blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)\n    return\n  }\n}\n"
)


def test_a_launch_that_does_not_spell_the_kernels_name_is_found_too() -> None:
    """Through escapes in a quoted name (`@"\\6Bernel"` is `@kernel`)."""
    assert _checked(_SPELLED.replace("LAUNCHED", '@m::@"\\6Bernel"')) == 1
