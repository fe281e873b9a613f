"""A project's own ops (`op-definitions`): read from ODS-style TOML into OpDefs, declared, checked, printed like built-in ops."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import oracle

from gpu_lsp.cli import gpu_opt
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.opdefs import OPS, installed_from, lookup, op_names
from gpu_lsp.ir.opdefs.format import parse_format
from gpu_lsp.ir.opdefs.format_checks import format_problem
from gpu_lsp.ir.opdefs.model import OPTIONAL, VARIADIC
from gpu_lsp.ir.opdefs.registry import BUILT_IN, activate, active, registry_of
from gpu_lsp.ir.opdefs.user_ops import read_definitions, read_user_ops
from gpu_lsp.lint.check import analyze
from gpu_lsp.lint.op_definitions import use_op_definitions

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "downstream"
DEFINITIONS = EXAMPLE / "scratch.ops.toml"


@pytest.fixture
def scratch() -> Iterator[str]:
    """The example dialect declared for one test, forgotten afterwards."""
    path = str(DEFINITIONS)
    assert use_op_definitions([path]) == []
    yield path
    use_op_definitions(())


def _codes(text: str) -> list[tuple[int, str, str]]:
    found = analyze(text)
    lines = text.splitlines()
    out = []
    for d in found:
        line = text.count("\n", 0, d.range.start)
        column = d.range.start - (text.rfind("\n", 0, d.range.start) + 1)
        out.append((line + 1, d.code, lines[line][column : column + max(1, d.range.end - d.range.start)]))
    return out


def test_the_example_reads_into_the_same_declarations_as_built_in_ops() -> None:
    read = read_user_ops(DEFINITIONS.read_text(encoding="utf-8"))
    assert read.errors == ()
    ops = {op.name: op for op in read.ops}
    assert sorted(ops) == ["scratch.alloc", "scratch.flush", "scratch.fma", "scratch.for_each_lane", "scratch.yield"]
    fma = ops["scratch.fma"]
    assert [(a.name, a.constraint) for a in fma.operands or ()] == [("a", "AnyFloat"), ("b", "AnyFloat"), ("c", "AnyFloat")]
    assert fma.has("pure") and {(r.target, r.source) for r in fma.type_rules} >= {("result", "a"), ("c", "a")}
    assert fma.syntax == "%result = scratch.fma %a, %b, %c : T"
    alloc = ops["scratch.alloc"]
    assert [(a.name, a.constraint, a.optional) for a in alloc.attributes] == [("alignment", "I64Attr", True)]
    assert not alloc.has("pure")  # MemoryEffects<[MemAlloc]>
    assert ops["scratch.yield"].parents == ("scratch.for_each_lane",) and ops["scratch.yield"].has("terminator")
    assert [(a.name, a.kind) for a in ops["scratch.yield"].operands or ()] == [("values", VARIADIC)]
    assert [r.name for r in ops["scratch.for_each_lane"].regions or ()] == ["body"]
    flush = ops["scratch.flush"]
    assert [(a.name, a.constraint) for a in flush.operands or ()] == [("buffer", "AnyMemRef")]  # Arg<AnyMemRef, ...>
    assert flush.attribute("nontemporal") is not None and flush.attribute("nontemporal").constraint == "UnitAttr"
    assert read_user_ops(DEFINITIONS.read_text(encoding="utf-8")) is read  # cached by content


def test_optional_operands_and_bare_lists_read_too() -> None:
    read = read_user_ops('[ops."my.op"]\narguments = "Optional<I32>:$x"\nresults = "(outs)"\n')
    assert read.errors == ()
    assert [(a.name, a.kind) for a in read.ops[0].operands or ()] == [("x", OPTIONAL)] and read.ops[0].results == ()


# (file text, (line, start column, end column) of the error (0-based), words of its message)
MISTAKES = [
    ('dialect = "t"\n[ops.a]\narguments = "(ins AnyInteger:b)"\n', (2, 18, 30), "expected `Constraint:$name`, got 'AnyInteger:b'"),
    ('dialect = "t"\n[ops.a]\ntraits = ["Pure", "Pur"]\n', (2, 19, 22), "unknown trait 'Pur'"),
    ('dialect = "t"\n[ops.a]\nargs = "(ins)"\n', (2, 0, 4), "unknown key 'args'"),
    ('dialect = "t"\n[ops.a]\nresults = "(outs I32:$r)"\nassemblyFormat = "attr-dict `:` type($x)"\n', (3, 37, 39), "`$x` is not an argument"),
    ('dialect = "t"\n[ops.a]\narguments = "(ins I64Attr:$v)"\nassemblyFormat = "custom<V>($v) attr-dict"\n', (3, 18, 25), "`custom<...>` directives need code"),
    ('dialect = "t"\n[ops.a]\nassemblyFormat = "$x ("\n', (2, 17, 23), "assemblyFormat:"),
    ('dialect = "t"\n[ops.a]\nsummary = 3\n', (2, 10, 11), "'summary' must be a string"),
    ('[ops.a]\nsummary = "no dialect"\n', (0, 0, 7), "'a' is not an op name"),
    ('dialect = "t"\n[ops.a]\nresults = "(ins I32:$r)"\n', (2, 10, 24), "'results' must be written `(outs ...)`"),
    ("dialect = \"t\"\n[ops.a\n", (1, 6, 7), "invalid TOML"),
    ('dialect = "t"\n[enums.K]\ncases = ["a", "b c"]\n', (2, 8, 20), "'cases' must be a list of keywords"),
    ('dialect = "t"\n[enums.K]\ncases = ["a"]\ndefault = "z"\n', (3, 10, 13), "'default' must be one of the cases (a)"),
    ('[enums.K]\ncases = ["a"]\nmnemonic = "k"\n', (2, 11, 14), "needs the file's `dialect"),
    ('dialect = "t"\n[enums.GPU_DimensionAttr]\ncases = ["a"]\n', (1, 0, 25), "enum GPU_DimensionAttr is built in"),
    # What mlir-tblgen checks of a format (ir/opdefs/format_checks.py)
    ('dialect = "t"\n[ops.a]\narguments = "(ins I32:$x)"\nassemblyFormat = "$x"\n', (3, 17, 21), "'attr-dict' directive not found"),
    ('dialect = "t"\n[ops.a]\narguments = "(ins I32:$x, I32:$y)"\nassemblyFormat = "$x attr-dict"\n', (3, 17, 31), "operand #1, named 'y', not found"),
    ('dialect = "t"\n[ops.a]\nregions = "(region AnyRegion:$r)"\nassemblyFormat = "attr-dict"\n', (3, 17, 28), "region #0, named 'r', not found"),
    ('dialect = "t"\n[ops.a]\narguments = "(ins I32:$x)"\nassemblyFormat = "$x $x attr-dict"\n', (3, 18, 20), "'x' is already bound"),
    (
        'dialect = "t"\n[ops.a]\narguments = "(ins AnyInteger:$x)"\nassemblyFormat = "$x attr-dict"\n',
        (3, 17, 31),
        "type of operand #0, named 'x', is not buildable and a buildable type cannot be inferred",
    ),
    (
        'dialect = "t"\n[ops.a]\narguments = "(ins I32:$x)"\nresults = "(outs AnyType:$r)"\nassemblyFormat = "$x attr-dict"\n',
        (4, 17, 31),
        "type of result #0, named 'r', is not buildable",
    ),
    ('dialect = "t"\n[ops.a]\narguments = "(ins I64Attr:$n)"\nassemblyFormat = "$n attr-dict `:` type($n)"\n', (3, 18, 20), "'n' is not an operand or result"),
]


@pytest.mark.parametrize(("text", "where", "words"), MISTAKES, ids=[w for _, _, w in MISTAKES])
def test_a_mistake_is_an_error_at_its_place_and_leaves_the_op_out(text: str, where: tuple[int, int, int], words: str) -> None:
    read = read_user_ops(text)
    assert len(read.errors) == 1 and read.ops == ()
    error = read.errors[0]
    assert words in error.message
    assert (error.line, error.start, error.end) == where
    assert error.describe("d.toml") == f"d.toml:{where[0] + 1}:{where[1] + 1}: error: {error.message}"


def test_unmodelled_traits_and_interfaces_are_accepted_so_td_lists_copy_as_is() -> None:
    traits = '["Commutative", "DeclareOpInterfaceMethods<InferIntRangeInterface>", "MemWrite", "AlwaysSpeculatable"]'
    read = read_user_ops(f'dialect = "t"\n[ops.a]\ntraits = {traits}\n')
    assert read.errors == () and read.ops[0].traits == frozenset()


def test_types_the_format_leaves_out_may_be_built_inferred_or_matched() -> None:
    text = """dialect = "t"
[ops.built]
arguments = "(ins I32:$x)"
results = "(outs Index:$r)"
assemblyFormat = "$x attr-dict"
[ops.matched]
arguments = "(ins AnyInteger:$x, AnyInteger:$y)"
results = "(outs AnyInteger:$r)"
traits = ['AllTypesMatch<["x", "y", "r"]>']
assemblyFormat = "$x `,` $y attr-dict `:` type($r)"
[ops.inferred]
arguments = "(ins AnyInteger:$x)"
results = "(outs AnyInteger:$r)"
traits = ["DeclareOpInterfaceMethods<InferTypeOpInterface>"]
assemblyFormat = "$x attr-dict `:` type($x)"
[ops.operands]
arguments = "(ins AnyInteger:$x, AnyInteger:$y)"
traits = ["SameTypeOperands"]
assemblyFormat = "$x `,` $y attr-dict `:` type($x)"
"""
    read = read_user_ops(text)
    assert read.errors == () and [op.name for op in read.ops] == ["t.built", "t.matched", "t.inferred", "t.operands"]
    assert [r.description for r in read.ops[1].type_relations] == ["all of {x, y, r} have same type"]
    assert [r.description for r in read.ops[3].type_relations] == ["requires all operands to have the same type"]


def test_built_in_ops_cannot_be_declared_and_two_files_cannot_share_an_op(tmp_path: Path) -> None:
    one, two = tmp_path / "one.toml", tmp_path / "two.toml"
    one.write_text('dialect = "t"\n\n[ops.a]\n[ops."gpu.barrier"]\n[enums.K]\ncases = ["x"]\n', encoding="utf-8")
    two.write_text('dialect = "t"\n[ops.a]\n[enums.K]\ncases = ["y"]\n', encoding="utf-8")
    try:
        assert use_op_definitions([str(one), str(two)]) == [
            f"{one}:4:1: error: operation gpu.barrier is built in; a project cannot declare it again",
            f"{two}:3:1: error: enum K is already declared in {one}",
            f"{two}:2:1: error: operation t.a is already declared in {one}",
        ]
        assert ENUMS["K"].cases == ("x",)
        assert installed_from("t.a") == str(one) and installed_from("gpu.barrier") is None
        assert use_op_definitions([str(tmp_path / "none.toml")])[0].endswith("error: cannot read op definitions: No such file or directory")
    finally:
        use_op_definitions(())
    assert "K" not in ENUMS
    assert lookup("t.a") is None and "t.a" not in op_names() and lookup("gpu.barrier") is not None


def test_an_edited_file_replaces_what_it_declared(tmp_path: Path) -> None:
    path = tmp_path / "d.toml"
    path.write_text('dialect = "t"\n[ops.old]\n', encoding="utf-8")
    try:
        use_op_definitions([str(path)])
        path.write_text('dialect = "t"\n[ops.new]\n', encoding="utf-8")
        use_op_definitions([str(path)])
        assert (lookup("t.old"), lookup("t.new") is not None) == (None, True)
    finally:
        use_op_definitions(())


def test_correct_uses_are_clean(scratch: str) -> None:
    assert analyze((EXAMPLE / "kernel.mlir").read_text(encoding="utf-8")) == []


def test_wrong_uses_get_the_checks_of_built_in_ops(scratch: str) -> None:
    text = """\
func.func @f(%x: f32, %i: i32, %n: index) {
  %r = scratch.fma %x, %x, %i : f32
  %b = scratch.alloc(%n) align "x" : memref<4xf32>
  scratch.yield
  scratch.flush %b nontemp : memref<4xf32>
  "scratch.fma"(%x, %x) : (f32, f32) -> f32
  "scratch.fma"(%x, %x, %i) : (f32, f32, i32) -> f32
  return
}
"""
    assert _codes(text) == [
        (2, "GPU005", "%i"),  # the use's type is not the definition's: one error, not GPU141's as well
        (3, "GPU002", '"x"'),
        (4, "GPU102", "scratch.yield"),
        (5, "GPU002", " "),  # expected ':' (after `%b`)
        (6, "GPU101", '"scratch.fma"'),
        (7, "GPU141", '"scratch.fma"'),  # operand #2 must be floating-point (AnyFloat), as for math.fma
    ]
    messages = {d.code: d.message for d in analyze(text)}
    assert messages["GPU141"] == "'scratch.fma' op operand #2 must be floating-point, but got 'i32'"
    assert messages["GPU102"] == "'scratch.yield' op expects parent op 'scratch.for_each_lane'"
    assert messages["GPU101"] == "'scratch.fma' op expected 3 operands, but found 2"


def test_gpu_opt_takes_the_definitions_on_its_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    kernel = str(EXAMPLE / "kernel.mlir")
    try:
        assert gpu_opt.main([f"-op-definitions={DEFINITIONS}", kernel]) == 0
        assert "%1 = scratch.fma %arg2, %arg0, %arg1 : f32" in capsys.readouterr().out
    finally:
        use_op_definitions(())
    assert gpu_opt.main(["--op-definitions", "missing.toml", kernel]) == 2
    assert capsys.readouterr().err == "missing.toml:1:1: error: cannot read op definitions: No such file or directory\n"


def _printed(text: str, generic: bool) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert (gpu_opt.run(gpu_opt.Options(generic=generic), text, "k.mlir", out, err), err.getvalue()) == (0, "")
    return out.getvalue()


def test_declared_ops_print_in_custom_and_generic_form_and_read_back(scratch: str) -> None:
    text = (EXAMPLE / "kernel.mlir").read_text(encoding="utf-8")
    custom, generic = _printed(text, False), _printed(text, True)
    assert "%0 = scratch.alloc(%c32) align 16 : memref<32xf32, 3>" in custom
    assert "scratch.flush %0 nontemporal : memref<32xf32, 3>" in custom
    assert '"scratch.alloc"(%0) <{alignment = 16 : i64}> : (index) -> memref<32xf32, 3>' in generic
    assert (_printed(custom, False), _printed(generic, False), _printed(custom, True)) == (custom, custom, generic)


def test_any_cut_of_a_file_using_declared_ops_is_read_without_an_internal_error(scratch: str) -> None:
    text = (EXAMPLE / "kernel.mlir").read_text(encoding="utf-8")
    body = text.index("%c32")
    for end in range(body, len(text), 3):
        cut = text[:end] + "\n"
        assert [d.message for d in analyze(cut) if d.code == "GPU999"] == [], cut
        assert _printed_or_error(cut)


def _printed_or_error(text: str) -> bool:
    """gpu-opt prints the text or reports its errors: no exception, no internal error."""
    out, err = io.StringIO(), io.StringIO()
    return gpu_opt.run(gpu_opt.Options(), text, "k.mlir", out, err) in (0, 1) and "internal" not in err.getvalue()


LOOPS = """dialect = "w"

[enums.W_KindAttr]
cases = ["fast", "exact"]
mnemonic = "kind"

[enums.W_ModeAttr]
cases = ["a", "b", "c"]
default = "b"

[ops.loop]
summary = "A loop."
arguments = "(ins Index:$n, W_KindAttr:$kind, W_ModeAttr:$mode)"
regions = "(region SizedRegion<1>:$body)"
traits = ['SingleBlockImplicitTerminator<"w.end">']
assemblyFormat = "$n $kind (`mode` $mode^)? $body attr-dict"

[ops.end]
traits = ["Terminator", 'HasParent<"w.loop">']
assemblyFormat = "attr-dict"
"""


def test_enums_are_declared_with_the_ops_and_read_as_keywords(tmp_path: Path) -> None:
    path = tmp_path / "w.toml"
    path.write_text(LOOPS, encoding="utf-8")
    read = read_user_ops(LOOPS)
    assert read.errors == () and [e.constraint for e in read.enums] == ["W_KindAttr", "W_ModeAttr"]
    assert "W_KindAttr" not in ENUMS  # reading declares nothing
    loop = read.ops[0]
    assert loop.syntax == "w.loop %n fast|exact [mode a|b|c] { ... }" and loop.implicit_terminator == "w.end"
    assert loop.attribute("mode") is not None and loop.attribute("mode").default == "b"
    try:
        assert use_op_definitions([str(path)]) == []
        text = "func.func @f(%x: index) {\n  w.loop %x exact mode c {\n  }\n  w.loop %x slow {\n  }\n  return\n}\n"
        found = analyze(text)
        assert [(d.code, d.message) for d in found] == [("GPU002", "custom op 'w.loop' expected W_KindAttr to be one of: fast, exact")]
        good = text.replace("  w.loop %x slow {\n  }\n", "")
        assert '"w.loop"(%arg0) <{kind = #w<kind exact>, mode = 2 : i32}> ({\n      "w.end"() : () -> ()' in _printed(good, True)
        assert _printed(good, False).count("w.end") == 0  # the implicit terminator is not printed
    finally:
        use_op_definitions(())
    assert "W_KindAttr" not in ENUMS and lookup("w.loop") is None


def test_upstream_reads_the_generic_form_back_unchanged(scratch: str) -> None:
    """With -allow-unregistered-dialect, mlir-opt prints our generic form of the example as we do."""
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    generic = _printed((EXAMPLE / "kernel.mlir").read_text(encoding="utf-8"), True)
    result, diagnostics = oracle._run(generic, "builtin.module()", True)
    assert diagnostics == []
    assert str(result.module.operation.get_asm(print_generic_op_form=True)) == generic


# Built-in ops whose result (or, for async.runtime.store, operand) types upstream's C++ infers
# (InferTypeOpInterface, a TypesMatchWith the declaration leaves to the reader): no format alone types them.
INFERRED_IN_CODE = {"async.runtime.load", "async.runtime.store", "memref.distinct_objects", "vector.shuffle", "vector.to_elements"}


def test_the_format_checks_accept_every_built_in_format_they_can_judge() -> None:
    judged = {name: d for name, d in OPS.items() if d.format is not None and "custom<" not in d.format}
    assert len(judged) > 250
    rejected = {name for name, d in judged.items() if format_problem(d, parse_format(d.format or "")) is not None}
    assert rejected == INFERRED_IN_CODE


def test_declared_constraints_are_checked_by_the_generic_rule(scratch: str) -> None:
    text = """\
func.func @f(%i: i32, %n: index) {
  %r = scratch.fma %i, %i, %i : i32
  %b = scratch.alloc(%n) : vector<4xf32>
  return
}
"""
    found = [(d.code, d.message) for d in analyze(text)]
    assert found == [
        ("GPU141", "'scratch.fma' op operand #0 must be floating-point, but got 'i32'"),
        ("GPU141", "'scratch.alloc' op result #0 must be memref of any type values, but got 'vector<4xf32>'"),
    ]


def test_each_configuration_has_its_registry_and_switching_replaces_only_the_projects_ops() -> None:
    float_op = 'dialect = "t"\n[ops.op]\narguments = "(ins AnyFloat:$x)"\n'
    one = registry_of((("a.toml", float_op),))
    two = registry_of((("b.toml", float_op.replace("AnyFloat", "AnyInteger")),))
    assert registry_of((("a.toml", float_op),)) is one, "the same texts give the same registry"
    try:
        activate(one)
        assert lookup("t.op") is one.ops["t.op"] and installed_from("t.op") == "a.toml"
        activate(two)
        assert lookup("t.op") is two.ops["t.op"] and installed_from("t.op") == "b.toml" and two.errors == ()
        assert lookup("gpu.barrier") is not None and active() is two
    finally:
        activate(BUILT_IN)
    assert lookup("t.op") is None and "t.op" not in op_names() and installed_from("t.op") is None


def test_reading_a_file_sees_none_of_another_configurations_enums() -> None:
    """A file that uses an enum without declaring it reads alike whichever registry is active (the read is cached by text)."""
    uses = 'dialect = "v"\n[ops.loop]\narguments = "(ins Index:$n, W_ModeAttr:$mode)"\nassemblyFormat = "$n (`mode` $mode^)? attr-dict"\n'
    try:
        activate(registry_of((("w.toml", LOOPS),)))
        assert "W_ModeAttr" in ENUMS
        (loop,) = read_user_ops(uses).ops
    finally:
        activate(BUILT_IN)
    assert loop.syntax == "v.loop %n [mode <mode>]" and loop.attribute("mode").default is None
    assert "W_ModeAttr" not in ENUMS


CLASSES = '''\
dialect = "t"

[classes.op]
regions = "(region)"

[classes.async]
class = "op"
summary = "The `{mnemonic}` op of {name}."
traits = ["GPU_AsyncOpInterface", "..."]
arguments = "(ins Variadic<GPU_AsyncToken>:$deps, ...)"
results = "(outs ..., Optional<GPU_AsyncToken>:$token)"
assemblyFormat = "custom<AsyncDependencies>(type($token), $deps) ..."
members = "wait"

[classes.intrinsic]
prefix = "t.intr"
syntax = "%r = {name} %a"
members = "abs ctpop"

[ops.alloc]
class = "async"
arguments = "(ins Index:$size)"
results = "(outs AnyMemRef:$memref)"
traits = ["AttrSizedResultSegments"]
assemblyFormat = "$size attr-dict `:` type($memref)"
effects = "MemAlloc:$memref"
since = { version = 23, source = "a PR", oracle = false }

[ops."other.op"]
syntax = "other.op %x"
inherent = ["tag"]
'''


def test_classes_give_their_ops_shared_facts_where_the_ops_leave_them_and_around_the_ops_own() -> None:
    read = read_definitions(CLASSES, built_in=True)  # as gpu-lsp's own files: custom directives, lists left undeclared
    assert read.errors == ()
    ops = {op.name: op for op in read.ops}
    assert sorted(ops) == ["other.op", "t.alloc", "t.intr.abs", "t.intr.ctpop", "t.wait"]
    wait, alloc = ops["t.wait"], ops["t.alloc"]
    assert (wait.summary, wait.regions, wait.traits) == ("The `wait` op of t.wait.", (), frozenset({"async"}))
    assert [a.name for a in wait.operands or ()] == ["deps"] and [a.name for a in wait.results or ()] == ["token"]
    assert wait.format == "custom<AsyncDependencies>(type($token), $deps)"
    assert [a.name for a in alloc.operands or ()] == ["deps", "size"] and [a.name for a in alloc.results or ()] == ["memref", "token"]
    assert alloc.format == "custom<AsyncDependencies>(type($token), $deps) $size attr-dict `:` type($memref)"
    assert alloc.traits == frozenset({"async", "attr_sized_results"}) and alloc.summary == "The `alloc` op of t.alloc."
    assert alloc.results is not None and alloc.results[0].effects == frozenset({"alloc"})
    assert alloc.since is not None and (alloc.since.version, alloc.since.source, alloc.since.oracle) == (23, "a PR", False)
    assert ops["t.intr.ctpop"].syntax == "%r = t.intr.ctpop %a" and ops["t.intr.ctpop"].operands is None
    assert ops["other.op"].syntax == "other.op %x" and [a.name for a in ops["other.op"].attributes] == ["tag"]


def test_an_op_names_a_declared_class_and_a_class_one_declared_above_it() -> None:
    text = 'dialect = "t"\n[ops.a]\nclass = "none"\n[classes.b]\nclass = "c"\n[classes.c]\ntraits = ["Pure"]\n'
    read = read_user_ops(text)
    assert [(e.line, e.message) for e in read.errors] == [
        (4, "unknown class 'c' (declare it in a [classes.<name>] table above this one)"),
        (2, "unknown class 'none' (declare it in a [classes.<name>] table)"),
    ]
    assert read.ops == ()


def test_a_class_member_that_is_no_op_name_leaves_the_others_declared() -> None:
    text = (
        'dialect = "t"\n[classes.intr]\nprefix = "t.intr"\narguments = "(ins AnyType:$a)"\n'
        'results = "(outs AnyType:$r)"\nassemblyFormat = "$a attr-dict `:` type($a) `->` type($r)"\n'
        'members = "abs 9bad ctpop"\n'
    )
    read = read_user_ops(text)
    assert [op.name for op in read.ops] == ["t.intr.abs", "t.intr.ctpop"]
    assert [e.message for e in read.errors] == ["'t.intr.9bad' is not an op name (`dialect.op`; give `dialect = \"...\"` or write the full name)"]
