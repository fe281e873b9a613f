"""Memory effects stated on operands and results of the declarations, and the lookups derived from them (ir/effects.py)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpu_lsp.ir import effects
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import lookup, op_names
from gpu_lsp.ir.opdefs.model import declare
from gpu_lsp.ir.opdefs.opdef import ALLOC, FREE, READ, WRITE
from gpu_lsp.ir.opdefs.registry import BUILT_IN, activate, registry_of
from gpu_lsp.ir.opdefs.user_ops import read_user_ops
from gpu_lsp.lint.check import analyze
from gpu_lsp.parser.api import parse

PACKAGE = Path(__file__).resolve().parents[1] / "gpu_lsp"

HOST = """
func.func @f(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %i: index, %v: f32, %t0: !gpu.async.token) {
  memref.store %v, %a[%i, %i] : memref<4x4xf32>
  memref.copy %a, %b : memref<4x4xf32> to memref<4x4xf32>
  %t1 = gpu.memcpy async [%t0] %b, %a : memref<4x4xf32>, memref<4x4xf32>
  %d, %t2 = gpu.alloc async [%t1] () : memref<4xf32>
  %t3 = gpu.dealloc async [%t2] %d : memref<4xf32>
  %s = memref.subview %a[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  %w = vector.transfer_read %s[%i, %i], %v : memref<2x2xf32, strided<[4, 1]>>, vector<2xf32>
  %x = memref.atomic_rmw addf %v, %a[%i, %i] : (f32, memref<4x4xf32>) -> f32
  return
}
"""


def _ops(text: str) -> dict[str, Operation]:
    module = parse(text).chunks[0].module
    return {op.name: op for op in module.nested()}


def test_the_lookups_follow_the_declared_operands_through_variadic_groups() -> None:
    ops = _ops(HOST)
    assert effects.writes(ops["memref.store"]) == [1] and effects.reads(ops["memref.store"]) == []
    assert (effects.reads(ops["memref.copy"]), effects.writes(ops["memref.copy"])) == ([0], [1])
    # async dependencies come first: dst and src follow the variadic group
    assert (effects.writes(ops["gpu.memcpy"]), effects.reads(ops["gpu.memcpy"])) == ([1], [2])
    assert effects.allocated(ops["gpu.alloc"]) == [ops["gpu.alloc"].results[0]]
    assert effects.frees(ops["gpu.dealloc"]) == [1]
    assert effects.reads(ops["vector.transfer_read"]) == [0]  # by position: a hand-written reader's op
    assert effects.reads(ops["memref.atomic_rmw"]) == effects.writes(ops["memref.atomic_rmw"]) == [1]
    subview = ops["memref.subview"]
    assert effects.is_view(subview) and effects.view_source(subview) is subview.operands[0]
    assert not effects.is_view(ops["memref.store"]) and effects.view_source(ops["memref.copy"]) is None
    assert not effects.declares_effects(ops["func.return"])


def test_ods_arg_and_res_decorators_put_effects_on_the_operand_and_result() -> None:
    op = declare(
        "t.op",
        ins='Arg<AnyMemRef, "the buffer", [MemRead, MemWriteAt<0, FullEffect>]>:$m, Index:$i',
        outs='Res<AnyMemRef, "", [MemAlloc<DefaultResource>]>:$r',
    )
    assert [(a.name, a.constraint, a.effects) for a in op.operands or ()] == [("m", "AnyMemRef", {READ, WRITE}), ("i", "Index", frozenset())]
    assert [(a.name, a.effects) for a in op.results or ()] == [("r", {ALLOC})]
    keyword = declare("t.op", ins="AnyMemRef:$m, Index:$i", outs="AnyMemRef:$r", effects="MemRead:$m, MemWrite:$m, MemAlloc:$r")
    assert keyword.operands == op.operands and keyword.results == op.results
    assert declare("t.loose", effects="MemFree:#1", view="#0").positional_effects == ((1, frozenset({FREE})),)


@pytest.mark.parametrize(
    ("facts", "words"),
    [
        ({"ins": "AnyMemRef:$m", "effects": "MemRead:$n"}, "undeclared operands or results ['n']"),
        ({"ins": "AnyMemRef:$m", "effects": "MemRead:#0"}, "name the operand"),
        ({"ins": "AnyMemRef:$m", "effects": "MemSteal:$m"}, "expected a memory effect"),
        ({"ins": 'Arg<AnyMemRef, "", [MemSteal]>:$m'}, "expected a memory effect"),
        ({"ins": "AnyMemRef:$m", "view": "n"}, "view of an undeclared operand"),
    ],
)
def test_effects_on_what_is_not_declared_are_refused(facts: dict[str, str], words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        declare("t.op", **facts)


def test_a_project_op_states_effects_as_its_td_file_does() -> None:
    read = read_user_ops('[ops."t.put"]\narguments = \'(ins AnyFloat:$v, Arg<AnyMemRef, "dest", [MemWrite]>:$m)\'\n')
    assert read.errors == ()
    assert [(a.name, a.constraint, a.effects) for a in read.ops[0].operands or ()] == [("v", "AnyFloat", frozenset()), ("m", "AnyMemRef", {WRITE})]
    wrong = read_user_ops('[ops."t.put"]\narguments = \'(ins Arg<AnyMemRef, "dest", [MemWipe]>:$m)\'\n')
    assert wrong.ops == () and "expected a memory effect" in wrong.errors[0].message


KERNEL_RACE = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%m: memref<64xf32>) kernel {
      t.put %m : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%c1: index, %c64: index, %a: memref<64xf32>) {
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>)
    %t2 = gpu.launch_func async [%t0] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>)
    gpu.wait [%t1, %t2]
    return
  }
}
"""


@pytest.fixture
def put_op(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[None]:
    """`t.put %m : memref<...>` declared with the operand `request.param` (its effects), forgotten afterwards."""
    text = f'[ops."t.put"]\narguments = \'(ins {request.param}:$m)\'\nassemblyFormat = "$m attr-dict `:` type($m)"\n'
    registry = registry_of(((str(tmp_path / "t.ops.toml"), text),))
    assert registry.errors == ()
    activate(registry)
    yield
    activate(BUILT_IN)


@pytest.mark.parametrize(
    ("put_op", "race"),
    [('Arg<AnyMemRef, "", [MemWrite]>', True), ('Arg<AnyMemRef, "", [MemRead]>', False), ("AnyMemRef", False)],
    indirect=["put_op"],
)
def test_a_project_ops_declared_write_is_a_write_for_the_sanitizer(put_op: None, race: bool) -> None:
    codes = [d.code for d in analyze(KERNEL_RACE)]
    assert ("GPU410" in codes) == race, codes


HOST_USE = """
func.func @main() {
  %m = gpu.alloc () : memref<64xf32>
  t.put %m : memref<64xf32>
  gpu.dealloc %m : memref<64xf32>
  return
}
"""


@pytest.mark.parametrize(("put_op", "reported"), [('Arg<AnyMemRef, "", [MemWrite]>', True), ("AnyMemRef", False)], indirect=["put_op"])
def test_a_project_op_touching_device_memory_on_the_host_is_reported(put_op: None, reported: bool) -> None:
    found = [d.message for d in analyze(HOST_USE) if d.code == "GPU415"]
    assert any(m.startswith("`t.put` accesses `%m` on the host") for m in found) == reported, found


def _positional_tables(path: Path, effectful: frozenset[str]) -> Iterator[str]:
    """Dict literals of `path` mapping a name of an op with declared effects to an operand position (an int, or a tuple opening with one)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values):
            position = value.elts[0] if isinstance(value, ast.Tuple) and value.elts else value
            if (
                isinstance(key, ast.Constant) and key.value in effectful
                and isinstance(position, ast.Constant) and type(position.value) is int
            ):
                yield f"{path.relative_to(PACKAGE.parent)}:{node.lineno} ({key.value})"
                break


def test_no_table_outside_the_declarations_names_an_effects_operand_by_position() -> None:
    effectful = frozenset(
        name for name in op_names()
        if any(a.effects for a in (lookup(name).operands or ()) + (lookup(name).results or ())) or lookup(name).positional_effects
    )
    assert {"memref.load", "vector.store", "gpu.memcpy"} <= effectful
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) if "opdefs" not in path.parts for hit in _positional_tables(path, effectful)]
    assert found == []


def test_operand_effects_and_may_touch_agree_with_the_single_lookups() -> None:
    """`operand_effects` is (reads, writes, frees) of each op; `may_touch` is true of every name an op that touches has."""
    ops = list(parse(HOST).chunks[0].module.nested())
    for op in ops:
        assert effects.operand_effects(op) == (effects.reads(op), effects.writes(op), effects.frees(op))
        if effects.touches(op):
            assert effects.may_touch(op.name)
    assert effects.operand_effects(_ops(HOST)["gpu.memcpy"]) == ([2], [1], [])
    assert effects.may_touch("gpu.dealloc") and not effects.may_touch("arith.addf") and not effects.may_touch("no.such_op")
