"""Issue #25's verifier gaps: each case is upstream's error (the oracle's message, line and column), reported
by gpu-opt's verifier and by gpu-lint alike."""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.analysis import lint_text, verify_chunk
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr, FloatAttr
from gpu_lsp.parser.api import parse


def _func(signature: str, body: str, result: str) -> str:
    return f"func.func @f({signature}) -> {result} {{\n  {body}\n  return %0 : {result}\n}}\n"


# name: (text, upstream's first error as (line, column, message), gpu-lsp's code)
CASES = {
    "broadcast element type": (
        _func("%a: f32", "%0 = vector.broadcast %a : f32 to vector<4xi32>", "vector<4xi32>"),
        (2, 8, "'vector.broadcast' op failed to verify that source operand and result have same element type"),
        "GPU141",
    ),
    "broadcast vector element type": (
        _func("%a: vector<2xf32>", "%0 = vector.broadcast %a : vector<2xf32> to vector<4xi32>", "vector<4xi32>"),
        (2, 8, "'vector.broadcast' op failed to verify that source operand and result have same element type"),
        "GPU141",
    ),
    "extract element type": (
        _func("%a: vector<4xf32>", "%0 = vector.extract %a[0] : i32 from vector<4xf32>", "i32"),
        (2, 8, "'vector.extract' op failed to verify that operand and result have same element type"),
        "GPU141",
    ),
    "shape_cast element type": (
        _func("%a: vector<4xf32>", "%0 = vector.shape_cast %a : vector<4xf32> to vector<2x3xi32>", "vector<2x3xi32>"),
        (2, 8, "'vector.shape_cast' op source element type ('f32') does not match result element type ('i32')"),
        "GPU147",
    ),
    "shape_cast element count": (
        _func("%a: vector<4xf32>", "%0 = vector.shape_cast %a : vector<4xf32> to vector<2x3xf32>", "vector<2x3xf32>"),
        (2, 8, "'vector.shape_cast' op has different number of elements at source (4) and result (6)"),
        "GPU147",
    ),
    "shape_cast scalable dims": (
        _func("%a: vector<[4]xf32>", "%0 = vector.shape_cast %a : vector<[4]xf32> to vector<4xf32>", "vector<4xf32>"),
        (2, 8, "'vector.shape_cast' op has different number of scalable dims at source (1) and result (0)"),
        "GPU147",
    ),
    "bitcast minor width": (
        _func("%a: vector<4xf32>", "%0 = vector.bitcast %a : vector<4xf32> to vector<4xf16>", "vector<4xf16>"),
        (2, 8, "'vector.bitcast' op source/result bitwidth of the minor 1-D vectors must be equal"),
        "GPU147",
    ),
    "bitcast 0-D width": (
        _func("%a: vector<f32>", "%0 = vector.bitcast %a : vector<f32> to vector<f16>", "vector<f16>"),
        (2, 8, "'vector.bitcast' op source/result bitwidth of the 0-D vector element types must be equal"),
        "GPU147",
    ),
    "bitcast outer dimension": (
        _func("%a: vector<4x2xf32>", "%0 = vector.bitcast %a : vector<4x2xf32> to vector<3x4xf16>", "vector<3x4xf16>"),
        (2, 8, "'vector.bitcast' op dimension size mismatch at: 0"),
        "GPU147",
    ),
    "bitcast rank": (
        _func("%a: vector<4x2xf32>", "%0 = vector.bitcast %a : vector<4x2xf32> to vector<8xi32>", "vector<8xi32>"),
        (2, 8, "'vector.bitcast' op failed to verify that all of {source, result} have same rank"),
        "GPU141",
    ),
    "tensor.cast shape": (
        _func("%a: tensor<4xf32>", "%0 = tensor.cast %a : tensor<4xf32> to tensor<4x1xf32>", "tensor<4x1xf32>"),
        (2, 8, "'tensor.cast' op operand type 'tensor<4xf32>' and result type 'tensor<4x1xf32>' are cast incompatible"),
        "GPU148",
    ),
    "tensor.cast element type": (
        _func("%a: tensor<4xf32>", "%0 = tensor.cast %a : tensor<4xf32> to tensor<4xi32>", "tensor<4xi32>"),
        (2, 8, "'tensor.cast' op operand type 'tensor<4xf32>' and result type 'tensor<4xi32>' are cast incompatible"),
        "GPU148",
    ),
}

# Casts upstream accepts: the checks above do not overreach.
ACCEPTED = {
    "bitcast index": _func("%a: vector<2xindex>", "%0 = vector.bitcast %a : vector<2xindex> to vector<4xi32>", "vector<4xi32>"),
    "shape_cast scalable": _func("%a: vector<[4]xf32>", "%0 = vector.shape_cast %a : vector<[4]xf32> to vector<[2]x2xf32>", "vector<[2]x2xf32>"),
    "tensor.cast dynamic": _func("%a: tensor<?xf32>", "%0 = tensor.cast %a : tensor<?xf32> to tensor<4xf32>", "tensor<4xf32>"),
    "tensor.cast unranked": _func("%a: tensor<4x?xf32>", "%0 = tensor.cast %a : tensor<4x?xf32> to tensor<*xf32>", "tensor<*xf32>"),
    "tensor.cast encoding": _func('%a: tensor<4xf32, "e">', '%0 = tensor.cast %a : tensor<4xf32, "e"> to tensor<4xf32>', "tensor<4xf32>"),
    "extract sub-vector": _func("%a: vector<4x4xf32>", "%0 = vector.extract %a[1] : vector<4xf32> from vector<4x4xf32>", "vector<4xf32>"),
}


# A type where upstream expects one and none is written: its parser's error, where it stops.
NOT_A_TYPE = {
    "vector element": ("func.func @f(%a: vector<4xfoo>) {\n  return\n}\n", (1, 27)),
    "tensor element": ("func.func @f(%a: tensor<foo>) {\n  return\n}\n", (1, 25)),
    "memref element": ("func.func @f(%a: memref<?x4xbar>) {\n  return\n}\n", (1, 29)),
    "tuple member after a blank": ("func.func @f(%a: tuple<i32, foo>) {\n  return\n}\n", (1, 28)),
    "missing vector element": ("func.func @f(%a: vector<4x>) {\n  return\n}\n", (1, 27)),
    "dotted name": ("func.func @f(%a: tensor<4x?xfoo.bar>) {\n  return\n}\n", (1, 29)),
}


# Symbols as upstream's lexer reads them: `@` and a bare-id (or a string); `@my-k` is `@my` and a `-`.
SYMBOLS = {
    "dash in a definition": ("func.func @my-k() {\n  return\n}\n", (1, 14, "expected '('")),
    "dash in a call": (
        'func.func @"my-k"() {\n  return\n}\nfunc.func @g() {\n  func.call @my-k() : () -> ()\n  return\n}\n',
        (5, 16, "expected '('"),
    ),
    "dash first": ("func.func @-k() {\n  return\n}\n", (1, 12, "@ identifier expected to start with letter or '_'")),
    "dash in a dictionary": (
        'func.func @g() {\n  "func.call"() {callee = @a::@b-c} : () -> ()\n  return\n}\n',
        (2, 33, "expected '}' in attribute dictionary"),
    ),
    "two entries without a comma": (
        'func.func @g() {\n  "func.call"() {callee = @a b} : () -> ()\n  return\n}\n',
        (2, 29, "expected '}' in attribute dictionary"),
    ),
}


_ALLOW = (
    "If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use "
    "-allow-unregistered-dialect with the MLIR opt tool used"
)
# A dialect mlir-opt does not register, without -allow-unregistered-dialect: upstream's first error.
UNREGISTERED = {
    "type": ("func.func @u(%a: !foo.bar) {\n  return\n}\n", (1, 23, f'`!"foo"<"bar">` type created with unregistered dialect. {_ALLOW}')),
    "element type": (
        "func.func @u(%a: tensor<4x!foo.bar<1>>) {\n  return\n}\n",
        (1, 32, f'`!"foo"<"bar<1>">` type created with unregistered dialect. {_ALLOW}'),
    ),
    "opaque type": (
        'func.func @u(%a: i32, %b: !foo<"x">) {\n  return\n}\n',
        (1, 27, f'`!"foo"<""x"">` type created with unregistered dialect. {_ALLOW}'),
    ),
    "aliased type": ("!t = !foo.t\nfunc.func @f(%a: !t) {\n  return\n}\n", (1, 11, f'`!"foo"<"t">` type created with unregistered dialect. {_ALLOW}')),
    "attribute": (
        "func.func @u() attributes {x = #foo.bar} {\n  return\n}\n",
        (1, 37, f"#\"foo\"<\"bar\"> : 'none' attribute created with unregistered dialect. {_ALLOW}"),
    ),
    "generic op": (
        'func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n',
        (2, 12, "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used"),
    ),
    "custom op": ("func.func @f(%a: i32) {\n  %0 = foo.bar %a : i32\n  return\n}\n", (2, 8, "Dialect `foo' not found for custom op 'foo.bar' ")),
}


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _verifier_errors(text: str, allow_unregistered: bool = True) -> list[tuple[int, int, str]]:
    """gpu-opt's errors: (line, column, message)."""
    chunk = parse(text).chunks[0]
    found = verify_chunk(chunk, allow_unregistered=allow_unregistered, text=text)
    return [(*_position(text, d.range.start), d.message) for d in found if d.severity >= Severity.ERROR]


def _upstream_first_error(text: str, allow_unregistered: bool = False) -> tuple[int, int, str] | None:
    diagnostics = oracle.verify(text, allow_unregistered=allow_unregistered)
    errors = [(line, col, message) for line, col, severity, message in diagnostics if severity == "error"]
    return errors[0] if errors else None


@pytest.mark.parametrize("case", list(CASES))
def test_upstreams_error_is_reported(case: str) -> None:
    text, expected, code = CASES[case]
    assert _verifier_errors(text) == [expected]
    assert [(d.code, d.message) for d in lint_text(text) if d.severity >= Severity.ERROR] == [(code, expected[2])]
    if oracle.available():
        assert _upstream_first_error(text) == expected


@pytest.mark.parametrize("case", list(ACCEPTED))
def test_an_accepted_cast_is_not_reported(case: str) -> None:
    text = ACCEPTED[case]
    assert _verifier_errors(text) == []
    if oracle.available():
        assert _upstream_first_error(text) is None


@pytest.mark.parametrize("case", list(NOT_A_TYPE))
def test_a_missing_type_is_upstreams_parse_error(case: str) -> None:
    text, (line, column) = NOT_A_TYPE[case]
    expected = (line, column, "expected non-function type")
    assert _verifier_errors(text) == [expected]
    assert [d.message for d in lint_text(text) if d.severity >= Severity.ERROR] == [expected[2]]
    if oracle.available():
        assert _upstream_first_error(text) == expected


@pytest.mark.parametrize("case", list(SYMBOLS))
def test_a_symbol_is_read_as_upstream_reads_it(case: str) -> None:
    text, expected = SYMBOLS[case]
    assert _verifier_errors(text) == [expected]
    if oracle.available():
        assert _upstream_first_error(text) == expected


def test_a_quoted_symbol_with_a_dash_is_valid() -> None:
    text = 'func.func @"my-k"() {\n  return\n}\nfunc.func @g() {\n  func.call @"my-k"() : () -> ()\n  return\n}\n'
    assert _verifier_errors(text) == []


# An attribute built without a spelling (by a pass, a fix) prints as mlir-opt prints the value.
FLOATS = [
    (FloatAttr(float("nan"), T.FloatType("f64")), "0x7FF8000000000000 : f64"),
    (FloatAttr(float("nan"), T.FloatType("f32")), "0x7FC00000 : f32"),
    (FloatAttr(float("-inf"), T.FloatType("f64")), "0xFFF0000000000000 : f64"),
    (FloatAttr(0.1, T.FloatType("f32")), "1.000000e-01 : f32"),
    (DenseArrayAttr(T.FloatType("f64"), (0.1, float("inf"))), "array<f64: 1.000000e-01, 0x7FF0000000000000>"),
]


@pytest.mark.parametrize(("attr", "printed"), FLOATS, ids=[p for _, p in FLOATS])
def test_a_float_attribute_prints_with_the_one_float_printer(attr: object, printed: str) -> None:
    assert str(attr) == printed
    if oracle.available():
        text = f"func.func @f() attributes {{a = {printed}}} {{\n  return\n}}\n"
        output, _ = oracle.run_pass(text, "builtin.module(cse)")
        assert output is not None and f"a = {printed}" in output


@pytest.mark.parametrize("case", list(UNREGISTERED))
def test_an_unregistered_dialect_is_upstreams_error_without_the_flag(case: str) -> None:
    text, expected = UNREGISTERED[case]
    assert _verifier_errors(text, allow_unregistered=False) == [expected]
    if oracle.available():
        assert _upstream_first_error(text) == expected


@pytest.mark.parametrize("case", [c for c in UNREGISTERED if c != "custom op"])
def test_an_unregistered_dialect_is_accepted_with_the_flag_and_by_gpu_lint(case: str) -> None:
    """gpu-lint keeps its documented behaviour: other dialects are a project's own (docs/downstream-dialects.md)."""
    text, _ = UNREGISTERED[case]
    assert _verifier_errors(text) == []
    assert [d for d in lint_text(text) if d.severity >= Severity.ERROR] == []
    if oracle.available():
        assert _upstream_first_error(text, allow_unregistered=True) is None
