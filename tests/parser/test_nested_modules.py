"""A `gpu.module` written as a module is (its `{` ending its line, its `}` alone, its ops indented)
is read a kernel at a time: an edit of a kernel re-parses that kernel only, and every parse equals
the whole file's."""

from __future__ import annotations

import random

import pytest
from support.irdump import dump_file
from support.typing import generated

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir.core import Operation
from gpu_lsp.parser.api import ParsedFile, parse
from gpu_lsp.parser.incremental import SegmentedFile, parse_units, reparse_units
from gpu_lsp.text import TextRange


def _facts(parsed: ParsedFile) -> tuple:
    """The IR, the diagnostics and the comments."""
    return (
        dump_file(parsed),
        [(d.code, d.message, d.range, d.related, d.severity) for d in parsed.diagnostics],
        [[(c.text, c.range) for c in chunk.comments] for chunk in parsed.chunks],
    )


def _gpu_module(parsed: ParsedFile) -> Operation:
    return next(op for op in parsed.chunks[0].module.walk() if op.name == "gpu.module")


def _kernels(parsed: ParsedFile) -> list[Operation]:
    return list(_gpu_module(parsed).regions[0].blocks[0].operations)


def _nested(parsed: SegmentedFile) -> bool:
    return any(seg.inner is not None for seg in parsed.layout[0] or ())


def _edit(parsed: SegmentedFile, text: str, start: int, end: int, new: str) -> tuple[SegmentedFile, str]:
    text = text[:start] + new + text[end:]
    return reparse_units(parsed, text, TextRange(start, end)), text


def test_the_gpu_module_of_an_outlined_file_is_cut_into_its_kernels() -> None:
    text = generated("outlined", 400)
    parsed = parse_units(text)
    seg = next(seg for seg in parsed.layout[0] or () if seg.inner is not None)
    kernels = _kernels(parsed)
    assert len(kernels) >= 10 and [op for part in seg.inner or () for op in part.ops] == kernels
    assert len({id(op.anchor) for op in kernels}) == len(kernels), "each kernel has an anchor of its own"
    assert _facts(parsed) == _facts(parse(text))


def test_a_kernel_edit_reparses_that_kernel_only() -> None:
    """A stray `@` in a kernel and its repair: the `gpu.module` and the other kernels are kept (the
    whole `gpu.module`, half the file, was parsed again for each keystroke)."""
    text = generated("outlined", 400)
    parsed = parse_units(text)
    module, kernels = _gpu_module(parsed), _kernels(parsed)
    at = text.index("%s = arith.addf", len(text) // 4)
    edited = next(i for i, k in enumerate(kernels) if k.range is not None and k.range.start < at < k.range.end)
    for start, end, new in ((at, at, "@"), (at, at + 1, "")):
        parsed, text = _edit(parsed, text, start, end, new)
        assert _facts(parsed) == _facts(parse_units(text))
        assert _gpu_module(parsed) is module and parsed.replaced < 2_000
        now = _kernels(parsed)
        assert [k for i, k in enumerate(now) if i != edited] == [k for i, k in enumerate(kernels) if i != edited]
        assert now[edited] is not kernels[edited]
    assert _facts(parsed) == _facts(parse(text))


_FORMS = [
    # at the top of a file, with a comment before and between its kernels, targets and attributes
    "// kernels\ngpu.module @k [#nvvm.target<chip = \"sm_90\">] attributes {foo = 1} {\n  // first\n"
    "  gpu.func @f(%a: memref<4xf32>) kernel {\n    %c = arith.constant 0 : index\n    gpu.return\n  }\n\n"
    "  gpu.func @g() kernel {\n    gpu.return\n  }\n}\nfunc.func @h() {\n  return\n}\n",
    # in a container module, with a header over two lines, tabs and CRLF line ends
    "module attributes {gpu.container_module} {\r\n\tgpu.module @k\r\n\t    attributes {foo} {\r\n\t\tgpu.func @f() kernel {\r\n"
    "\t\t\tgpu.return\r\n\t\t}\r\n\t\tfunc.func @helper() {\r\n\t\t\treturn\r\n\t\t}\r\n\t}\r\n}\r\n",
    # a name used before its definition across kernels, and an undefined one (resolved per kernel)
    "gpu.module @k {\n  gpu.func @f() kernel {\n    %x = arith.addi %y, %y : index\n    gpu.return\n  }\n"
    "  gpu.func @g() kernel {\n    %y = arith.constant 1 : index\n    gpu.return\n  }\n}\n",
    # a file that is one `gpu.module`
    "gpu.module @lib {\n  gpu.func @f() kernel {\n    gpu.return\n  }\n  gpu.func @g() kernel {\n    gpu.return\n  }\n}\n",
]


@pytest.mark.parametrize("form", range(len(_FORMS)))
def test_gpu_modules_of_every_form_nest_and_reparse_as_a_fresh_parse(form: int) -> None:
    text = _FORMS[form]
    parsed = parse_units(text)
    assert _nested(parsed), "read a kernel at a time"
    assert _facts(parsed) == _facts(parse(text))
    module = _gpu_module(parsed)
    rng = random.Random(form)
    for _ in range(30):
        span, first = _gpu_module(parsed).range, _kernels(parsed)[0].range
        assert span is not None and first is not None
        at = rng.randrange(first.start, span.end - 2)
        parsed, text = _edit(parsed, text, at, at, rng.choice(["x", "@", "%", " ", "1"]))
        assert _facts(parsed) == _facts(parse_units(text)), repr(text)
    assert _gpu_module(parsed) is module, "kernel edits kept the module"


@pytest.mark.parametrize(
    "text",
    [
        "gpu.module @k { gpu.func @f() kernel {\n    gpu.return\n  }\n}\n",  # an op on the module's line
        "gpu.module @k {\n  gpu.func @f() kernel {\n    gpu.return\n  }\n} loc(unknown)\n",  # something after its brace
        "gpu.module @k {\ngpu.func @f() kernel {\n  gpu.return\n}\n}\n",  # an unindented body
        "gpu.module @k {\n  #a = 1\n  gpu.func @f() kernel {\n    gpu.return\n  }\n}\n",  # an alias definition in it
    ],
)
def test_what_is_no_gpu_module_around_indented_ops_is_read_whole(text: str) -> None:
    parsed = parse_units(text)
    assert not _nested(parsed)
    fresh = parse(text)
    if not any(d.severity >= Severity.ERROR for d in fresh.diagnostics):
        assert _facts(parsed) == _facts(fresh)
    at = text.index("gpu.return")
    parsed, text = _edit(parsed, text, at, at, "@")
    assert _facts(parsed) == _facts(parse_units(text))


@pytest.mark.parametrize(
    "new",
    [
        "\n  func.func @x() {\n    return\n  }\n",  # an op line at the container module's indentation
        "\nfunc.func @x() {\n  return\n}\n",  # an unindented op line
        "\n    }\n",  # the kernel closed early: a brace too many for the module
        "\n    #a = 1\n",  # an alias definition
    ],
)
def test_an_edit_that_changes_the_modules_cut_reparses_it_whole(new: str) -> None:
    text = generated("outlined", 200)
    parsed = parse_units(text)
    at = text.index("\n", text.index("gpu.thread_id x"))
    parsed, text = _edit(parsed, text, at, at, new)
    assert _facts(parsed) == _facts(parse_units(text))
    parsed, text = _edit(parsed, text, at, at + len(new), "")
    assert _facts(parsed) == _facts(parse_units(text))


@pytest.mark.parametrize("seed", [1, 4])
def test_random_kernel_edits_and_their_undo_equal_a_fresh_parse(seed: int) -> None:
    """Characters typed and deleted in the kernels' lines of an outlined file, each edit undone."""
    rng = random.Random(seed)
    text = generated("outlined", 300)
    parsed = parse_units(text)
    kept = nested = 0
    for _ in range(40):
        module = _gpu_module(parsed)
        first = _kernels(parsed)[0].range
        assert first is not None
        was_nested = _nested(parsed)
        at = rng.randrange(first.start, module.range.end - 2 if module.range is not None else first.end)
        end = at + rng.choice((0, 0, 1, 2))
        old = text[at:end]
        new = rng.choice(["", "x", "%t0", " ", "\n", "}", "{", "1", "@", "gpu.barrier\n"])
        parsed, text = _edit(parsed, text, at, end, new)
        assert _facts(parsed) == _facts(parse_units(text)), (at, end, new)
        nested += was_nested
        kept += was_nested and _gpu_module(parsed) is module
        parsed, text = _edit(parsed, text, at, at + len(new), old)
        assert _facts(parsed) == _facts(parse_units(text)), (at, end, new, "undone")
    # An op line written unindented leaves the file unsegmented (its parse is the whole chunk's:
    # each edit then re-parses the unit it falls in, a kernel alone, `_try_incremental`).
    assert nested >= 10 and kept >= nested * 0.8, "most edits of a module read a kernel at a time keep it"


def test_after_a_file_no_longer_cut_a_kernel_edit_reparses_that_kernel_only() -> None:
    """An op line written at the container's indentation inside a host function leaves the file
    unsegmented (the whole chunk's parse): an edit inside a unit then re-parses that unit alone,
    and inside a `gpu.module`, the kernel alone."""
    text = generated("outlined", 200)
    parsed = parse_units(text)
    at = text.index("\n", text.index("%c1 = arith.constant 1 : index", text.index("func.func @fn")))
    parsed, text = _edit(parsed, text, at, at, "\n  %extra = gpu.wait async")
    assert parsed.layout == [None] and _facts(parsed) == _facts(parse_units(text))
    module, kernels = _gpu_module(parsed), _kernels(parsed)
    at = text.index("gpu.thread_id x", text.index("gpu.func", text.index("gpu.func") + 1))
    parsed, text = _edit(parsed, text, at, at + 3, "gpu")
    assert _facts(parsed) == _facts(parse_units(text))
    assert _gpu_module(parsed) is module and _kernels(parsed)[0] is kernels[0] and _kernels(parsed)[1] is not kernels[1]


@pytest.mark.parametrize(
    "text, at, new",
    [
        # a `{` before the module, then a `}` typed after the `gpu.module`'s: the chunk balances, the
        # segment before it no longer does (the cut is not trusted: it is parsed whole)
        ("// x\n{\nmodule attributes {gpu.container_module} {\n  gpu.module @k {\n    gpu.func @f() kernel {\n"
         "      gpu.return\n    }\n  }\n}\n", -2, "  }\n"),
        # the same with the `}` typed in a kernel, its module's segment no longer balanced
        ("// x\n{\nmodule attributes {gpu.container_module} {\n  gpu.module @k {\n    gpu.func @f() kernel {\n"
         "      gpu.return\n    }\n    gpu.func @g() kernel {\n      gpu.return\n    }\n  }\n}\n", -20, "}"),
    ],
)
def test_an_edit_that_balances_the_chunk_around_an_unbalanced_segment_reparses_it_whole(text: str, at: int, new: str) -> None:
    parsed = parse_units(text)
    pos = len(text) + at
    parsed, text = _edit(parsed, text, pos, pos, new)
    assert _facts(parsed) == _facts(parse_units(text))


def test_an_error_reported_where_a_unit_starts_stays_with_the_op_before() -> None:
    """`func.func` alone on its line expects its name at the next op's start: an edit of that op
    (re-parsed alone, in a `gpu.module` whose unindented body leaves the file unsegmented) leaves
    the error in place."""
    text = "gpu.module @m {\nfunc.func\nfunc.func @f() {\n  // a comment\n  return\n}\n}\n"
    parsed = parse_units(text)
    assert parsed.layout == [None] and parsed.diagnostics
    at = text.index("a comment")
    parsed, text = _edit(parsed, text, at, at, "{")
    assert _facts(parsed) == _facts(parse_units(text))
