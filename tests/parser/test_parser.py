"""Parser behaviour: custom syntax, source ranges, scoping and error recovery."""

from __future__ import annotations

from gpu_lsp.analysis import verify_chunk
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir import types as T
from gpu_lsp.parser.api import parse
from gpu_lsp.syntax.lexer import tokenize

PIPELINE = """\
func.func @pipeline(%arg0: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %t0 = gpu.wait async
  %buf, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
  %t2 = gpu.memcpy async [%t1] %buf, %arg0 : memref<?xf32>, memref<?xf32>
  %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c32, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %buf[%tx] : memref<?xf32>
    memref.store %v, %buf[%tx] : memref<?xf32>
    gpu.terminator
  }
  gpu.wait [%t3]
  return
}
"""


def _ops(text: str):
    parsed = parse(text)
    first: dict = {}
    for op in parsed.chunks[0].module.walk():
        first.setdefault(op.name, op)
    return parsed, first


def test_gpu_ops_read_with_types_and_ranges() -> None:
    parsed, ops = _ops(PIPELINE)
    assert [d for d in parsed.diagnostics if d.severity >= 3] == []
    alloc = ops["gpu.alloc"]
    assert [str(r.type) for r in alloc.results] == ["memref<?xf32>", "!gpu.async.token"]
    assert [r.name for r in alloc.results] == ["buf", "t1"]
    assert str(alloc.properties["operandSegmentSizes"]) == "array<i32: 1, 1, 0>"
    launch = ops["gpu.launch"]
    assert len(launch.operands) == 7
    assert launch.operands[0] is ops["gpu.memcpy"].results[0]
    body = launch.regions[0].blocks[0]
    assert [a.name for a in body.arguments[:6]] == ["bx", "by", "bz", "tx", "ty", "tz"]
    load = ops["memref.load"]
    assert load.results[0].type == T.F32
    assert load.operands[1] is body.arguments[3]
    text = PIPELINE
    name = launch.name_range
    assert text[name.start : name.end] == "gpu.launch"
    whole = launch.range
    assert text[whole.start : whole.end].startswith("%t3 = gpu.launch") and text[whole.start : whole.end].endswith("}")


def test_value_uses_are_recorded_with_ranges() -> None:
    parsed, ops = _ops(PIPELINE)
    t0 = ops["gpu.wait"].results[0]
    assert t0.name == "t0"
    (use,) = t0.uses
    assert use.owner is ops["gpu.alloc"]
    rng = use.span.range
    assert PIPELINE[rng.start : rng.end] == "%t0"
    d = t0.def_span.range
    assert PIPELINE[d.start : d.end] == "%t0"


def test_one_typo_gives_one_diagnostic_and_the_rest_is_analysed() -> None:
    broken = PIPELINE.replace("%t2 = gpu.memcpy async [%t1] %buf, %arg0 :", "%t2 = gpu.memcpy async [%t1] %buf %arg0 :")
    parsed = parse(broken)
    errors = [d for d in parsed.diagnostics if d.severity >= 3]
    assert len(errors) == 1
    assert errors[0].message == "expected ','"  # upstream's generic parser: no 'custom op' prefix
    # upstream points just after the last token read (Parser::emitWrongTokenError)
    assert errors[0].range.start == errors[0].range.end == broken.index("%buf %arg0") + len("%buf")
    names = [op.name for op in parsed.chunks[0].module.walk()]
    assert "gpu.launch" in names and "memref.store" in names


def test_unbalanced_bracket_reports_once_and_recovers_at_next_op() -> None:
    broken = PIPELINE.replace("(%n) : memref<?xf32>", "(%n : memref<?xf32>")
    parsed = parse(broken)
    syntax = [d for d in parsed.diagnostics if d.code == "GPU001"]
    assert len(syntax) == 1 and syntax[0].message.startswith("expected ')'")
    names = [op.name for op in parsed.chunks[0].module.walk()]
    assert names.count("gpu.wait") == 2 and "gpu.launch" in names


def test_undefined_redefined_and_mistyped_values() -> None:
    text = """\
func.func @f(%a: i32) {
  %x = arith.addi %a, %missing : i32
  %x = arith.constant 1 : i32
  %y = arith.addf %a, %a : f32
  return
}
"""
    parsed = parse(text)
    by_code = {d.code: d for d in parsed.diagnostics}
    assert by_code["GPU003"].message == "use of undeclared SSA value name"
    assert by_code["GPU004"].message == "redefinition of SSA value '%x'"
    assert by_code["GPU004"].related[0].message == "previously defined here"
    assert by_code["GPU005"].message == "use of value '%a' expects different type than prior uses: 'f32' vs 'i32'"


def test_isolated_regions_do_not_see_outer_values() -> None:
    text = """\
%c = "test.source"() : () -> i32
gpu.module @m {
  gpu.func @k() kernel {
    %d = arith.addi %c, %c : i32
    gpu.return
  }
}
"""
    parsed = parse(text)
    # upstream's parser binds the name; its verifier rejects the use (IsolatedFromAbove)
    assert [d for d in parsed.diagnostics if d.code == "GPU003"] == []
    errors = [d for d in verify_chunk(parsed.chunks[0]) if d.severity == Severity.ERROR]
    assert [(d.code, d.message) for d in errors] == [
        ("GPU125", "'arith.addi' op using value defined outside the region")
    ]
    assert text[errors[0].range.start : errors[0].range.end] == "arith.addi"
    (note,) = errors[0].related
    assert note.message == "required by region isolation constraints"
    assert text[note.range.start : note.range.end] == "gpu.func"


def test_unknown_custom_op_is_opaque_without_false_errors() -> None:
    text = """\
func.func @f(%a: f32) -> f32 {
  %r = mydialect.frobnicate %a by 3 {
  ^bb0(%inner: f32):
    mydialect.yield %inner : f32
  } : f32
  return %r : f32
}
"""
    parsed = parse(text)
    assert [d for d in parsed.diagnostics if d.severity >= 3] == []
    hints = [d for d in parsed.diagnostics if d.code == "GPU006"]
    assert {h.message.split("'")[1] for h in hints} == {"mydialect.frobnicate", "mydialect.yield"}
    frob = next(op for op in parsed.chunks[0].module.walk() if op.name == "mydialect.frobnicate")
    assert frob.operands[0].name == "a" and frob.regions[0].blocks[0].arguments[0].name == "inner"


def test_generic_form_and_split_chunks_keep_whole_file_offsets() -> None:
    text = (
        '"func.func"() <{function_type = () -> (), sym_name = "g"}> ({\n  "func.return"() : () -> ()\n}) : () -> ()\n'
        "// -----\nfunc.func @h() {\n  return\n}\n"
    )
    parsed = parse(text, split=True)
    assert len(parsed.chunks) == 2
    assert [d for d in parsed.diagnostics if d.severity >= 3] == []
    g = parsed.chunks[0].top_level[0]
    assert g.generic and str(g.properties["sym_name"]) == '"g"'
    h = parsed.chunks[1].top_level[0]
    assert text[h.range.start : h.range.start + 9] == "func.func"


def test_generic_form_without_properties_reads_like_the_custom_form() -> None:
    """Inherent attributes written in a generic op's attr-dict land where the custom form's
    reader puts them (upstream moves them into the properties when `<{...}>` is absent)."""
    generic = (
        '"gpu.module"() ({\n'
        '  "gpu.func"() ({\n  ^bb0(%a: f32, %w: memref<5xf32, 3>):\n    "gpu.return"() : () -> ()\n'
        '  }) {function_type = (f32) -> (), gpu.kernel, sym_name = "k", workgroup_attributions = 1 : i64} : () -> ()\n'
        '}) {sym_name = "m"} : () -> ()\n'
    )
    custom = "gpu.module @m {\n  gpu.func @k(%a: f32) workgroup(%w : memref<5xf32, 3>) kernel {\n    gpu.return\n  }\n}\n"
    split = []
    for text in (generic, custom):
        chunk = parse(text).chunks[0]
        assert [d for d in chunk.diagnostics if d.severity >= Severity.ERROR] == []
        module, func = chunk.top_level[0], chunk.top_level[0].regions[0].blocks[0].operations[0]
        split.append([(sorted(op.properties), sorted(op.attributes)) for op in (module, func)])
    assert split[0] == split[1]


def test_lexer_tells_dictionaries_from_regions_and_results_from_uses() -> None:
    text = "%a, %b:2 = foo.bar {x = 1} {\n  %c = foo.baz %a\n}\n"
    tokens = tokenize(text).tokens
    kinds = [t.type for t in tokens]
    assert kinds[:4] == ["RESULTS", "OPNAME", "DICT", "LBRACE"]


def test_symbol_and_alias_definitions_and_uses_have_ranges() -> None:
    text = """\
#map = affine_map<(d0) -> (d0)>
!tok = !gpu.async.token
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @host(%a: f32, %c: index, %t: !tok) -> !tok {
    %r = gpu.launch_func async [%t] @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%a : f32)
    return %r : !tok
  }
}
"""
    parsed = parse(text)
    assert [d for d in parsed.diagnostics if d.severity >= 3] == []
    ops = {op.name: op for op in parsed.chunks[0].module.walk()}
    k = ops["gpu.func"]
    assert text[k.sym_span.range.start : k.sym_span.range.end] == "@k"
    ((ref, span),) = ops["gpu.launch_func"].symbol_spans
    assert str(ref) == "@kernels::@k" and text[span.range.start : span.range.end] == "@kernels::@k"
    ctx = parsed.chunks[0].context
    assert set(ctx.alias_defs) == {"#map", "!tok"}
    assert [name for name, _, _ in ctx.alias_uses] == ["!tok", "!tok", "!tok"]


def test_zero_width_integer_types() -> None:
    """`i0`, `si0` and `ui0` are integer types of width 0 (upstream's IntegerType allows it)."""
    parsed, ops = _ops("func.func @f(%a: i0, %b: si0, %c: ui0, %v: vector<4xi0>) {\n  return\n}\n")
    assert [d for d in parsed.diagnostics if d.severity >= 3] == []
    entry = ops["func.func"].regions[0].blocks[0]
    assert [a.type for a in entry.arguments] == [
        T.IntegerType(0), T.IntegerType(0, "s"), T.IntegerType(0, "u"), T.VectorType((4,), T.IntegerType(0))
    ]
