"""The op definitions (gpu_lsp/ir/opdefs) against upstream MLIR, and the named-operand queries built on them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from support import oracle
from support.corpus import all_corpus_files

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.mlir_versions import OP_PIECES
from gpu_lsp.ir.opdefs import OPS
from gpu_lsp.ir.opdefs.families import family, op_class
from gpu_lsp.ir.opdefs.model import OPTIONAL, SINGLE, VARIADIC
from gpu_lsp.ir.operands import assemble, operand, operand_group, operand_ranges, segments
from gpu_lsp.parser.api import parse

_KINDS = {-1: VARIADIC, 0: OPTIONAL, 1: SINGLE}


def _generated(dialect: str) -> Path:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir (the oracle's MLIR) is not installed")
    import numba_cuda_mlir

    return Path(numba_cuda_mlir.__file__).parent / "_mlir" / "dialects" / f"_{dialect}_ops_gen.py"


def _upstream_ops(dialect: str) -> dict[str, dict]:
    """Per op of upstream's generated Python op classes: operands (name, kind), required attributes, regions."""
    out: dict[str, dict] = {}
    for cls in ast.parse(_generated(dialect).read_text()).body:
        if not isinstance(cls, ast.ClassDef):
            continue
        consts = {
            ast.unparse(st.targets[0]): ast.literal_eval(st.value)
            for st in cls.body
            if isinstance(st, ast.Assign) and ast.unparse(st.targets[0]).startswith(("OPERATION_NAME", "_ODS"))
        }
        init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
        if "OPERATION_NAME" not in consts or init is None:
            continue
        operands, required = [], []
        for st in init.body:
            conditional = isinstance(st, ast.If)
            text = ast.unparse(st.body[0] if conditional else st)
            if text.startswith(("operands.append(", "operands.extend(")):
                arg = text[text.index("(") + 1 : -1]
                variadic = text.startswith("operands.extend(") or arg.startswith("_get_op_results_or_values(")
                name = arg.removeprefix("_get_op_results_or_values(").rstrip(")").rstrip("_")
                operands.append((name, VARIADIC if variadic else OPTIONAL if conditional else SINGLE))
            elif text.startswith("attributes[") and not conditional:
                required.append(text.split("[", 1)[1].split("]", 1)[0].strip("'\""))
        if "_ODS_OPERAND_SEGMENTS" in consts:
            operands = [(name, _KINDS[k]) for (name, _), k in zip(operands, consts["_ODS_OPERAND_SEGMENTS"])]
        out[consts["OPERATION_NAME"]] = {"operands": operands, "required": required, "regions": consts["_ODS_REGIONS"][0]}
    return out


def _newer_than_oracle(op: str) -> set[str | None]:
    return {row.piece for row in OP_PIECES if row.op == op and not row.oracle}


def _assert_declared_as_upstream(name: str, facts: dict) -> None:
    ours = OPS[name]
    newer = _newer_than_oracle(name)
    assert ours.operands is not None and ours.results is not None, name
    declared = [(a.name, a.kind) for a in ours.operands if a.name not in newer]
    assert declared == facts["operands"], name
    required = [a.name for a in ours.attributes if not a.optional and a.name not in newer]
    assert sorted(required) == sorted(facts["required"]), name
    assert len(ours.regions or ()) == facts["regions"], name


def test_every_gpu_op_is_declared_with_upstreams_operands_attributes_and_regions() -> None:
    upstream = _upstream_ops("gpu")
    assert len(upstream) > 60
    for name, facts in sorted(upstream.items()):
        assert OPS[name].regions is not None, name
        _assert_declared_as_upstream(name, facts)


@pytest.mark.parametrize("dialect", ["nvgpu", "amdgpu", "bufferization"])
def test_every_op_of_a_dialect_is_declared_with_upstreams_operands_and_attributes(dialect: str) -> None:
    upstream = _upstream_ops(dialect)
    assert sorted(name for name in OPS if name.split(".", 1)[0] == dialect) == sorted(upstream)
    for name, facts in sorted(upstream.items()):
        _assert_declared_as_upstream(name, facts)


@pytest.mark.parametrize("dialect", ["arith", "math", "index"])
def test_ops_declared_by_op_class_have_upstreams_operands_and_required_attributes(dialect: str) -> None:
    upstream = _upstream_ops(dialect)
    declared = {name: op for name, op in OPS.items() if op.dialect == dialect and op.operands is not None}
    assert len(declared) > 20
    for name, ours in sorted(declared.items()):
        assert ours.operands is not None
        assert [(a.name, a.kind) for a in ours.operands] == upstream[name]["operands"], name
        assert sorted(a.name for a in ours.attributes if not a.optional) == sorted(upstream[name]["required"]), name


def test_version_rows_name_declared_pieces_and_match_the_oracle() -> None:
    upstream = _upstream_ops("gpu")
    for row in OP_PIECES:
        definition = OPS[row.op]
        if row.piece is not None:
            names = {a.name for a in definition.operands or ()} | {a.name for a in definition.attributes}
            assert row.piece in names, row
        in_oracle = row.op in upstream and (
            row.piece is None or row.piece in {n for n, _ in upstream[row.op]["operands"]} | set(_attribute_names(row.op))
        )
        assert in_oracle == row.oracle, row


def _attribute_names(op: str) -> list[str]:
    text = _generated(op.split(".")[0]).read_text()
    start = text.index(f'OPERATION_NAME = "{op}"')
    body = text[start : text.index("\nclass ", start)]
    return [piece.split('"', 1)[0] for piece in body.split('attributes["')[1:]]


# Generic forms upstream rejects for their structure: our GPU101/GPU102 must give its message.
GENERIC = {
    "missing_dimension": 'func.func @f() {\n  %0 = "gpu.thread_id"() : () -> index\n  return\n}',
    "missing_mode": 'func.func @f(%v: f32, %i: i32) {\n  %0, %1 = "gpu.shuffle"(%v, %i, %i) : (f32, i32, i32) -> (f32, i1)\n  return\n}',
    "missing_rotate_offset": 'func.func @f(%v: f32) {\n  %0, %1 = "gpu.rotate"(%v) : (f32) -> (f32, i1)\n  return\n}',
    "missing_format": 'func.func @f(%v: f32) {\n  "gpu.printf"(%v) : (f32) -> ()\n  return\n}',
    "no_segment_sizes": (
        'func.func @f(%c: index) {\n  "gpu.launch_func"(%c, %c, %c, %c, %c, %c) <{kernel = @m::@k}>'
        " : (index, index, index, index, index, index) -> ()\n  return\n}"
    ),
    "missing_operand": 'func.func @f() {\n  "gpu.set_default_device"() : () -> ()\n  return\n}',
    "launch_five_sizes": (
        'func.func @f(%c: index) {\n  %0 = "gpu.launch"(%c, %c, %c, %c, %c) <{operandSegmentSizes = '
        "array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({\n    gpu.terminator\n  }) : (index, index, index, index, index)"
        " -> !gpu.async.token\n  return\n}"
    ),
    "no_result": 'func.func @f(%c: index) {\n  "gpu.subgroup_mma_load_matrix"(%c) : (index) -> ()\n  return\n}',
    "results_before_operands": 'func.func @f(%c: index) {\n  %0 = "gpu.terminator"(%c) : (index) -> index\n  return\n}',
    "region_on_barrier": 'func.func @f() {\n  "gpu.barrier"() ({\n  }) : () -> ()\n  return\n}',
    "no_region": 'func.func @f(%c: index) {\n  %0 = "gpu.warp_execute_on_lane_0"(%c) : (index) -> index\n  return\n}',
    "shuffle_one_operand": 'func.func @f(%c: i32) {\n  %0, %1 = "gpu.shuffle"(%c) : (i32) -> (i32, i1)\n  return\n}',
    "parallel_segments": (
        'func.func @f(%c: index) {\n  "scf.parallel"(%c, %c, %c) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({\n'
        "  ^bb0(%i: index):\n    scf.reduce\n  }) : (index, index, index) -> ()\n  return\n}"
    ),
    "func_outside_gpu_module": 'func.func @f() {\n  "gpu.func"() ({\n  }) : () -> ()\n  return\n}',
    "counts_before_parent": 'func.func @f(%c: index) {\n  "gpu.terminator"(%c) : (index) -> ()\n  return\n}',
    "return_outside_gpu_func": 'func.func @f() {\n  "gpu.return"() : () -> ()\n}',
}


@pytest.mark.parametrize("name", list(GENERIC))
def test_generic_form_structure_errors_are_upstreams(name: str) -> None:
    text = GENERIC[name]
    expected = [d for d in oracle.verify(text) if d[2] == "error"]
    assert expected, "the oracle accepts the snippet"
    ours = [d for d in lint_text(text) if d.code in ("GPU101", "GPU102")]
    assert [d.message for d in ours][:1] == [expected[0][3]]
    line = text.count("\n", 0, ours[0].range.start) + 1
    assert line == expected[0][0]


LAUNCHES = """\
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @f(%g1: index, %g2: index, %g3: index, %b1: index, %b2: index, %b3: index,
               %c1: index, %c2: index, %c3: index, %smem: i32, %x: f32, %n: index) {
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @m::@k clusters in (%c1, %c2, %c3) blocks in (%g1, %g2, %g3)
        threads in (%b1, %b2, %b3) dynamic_shared_memory_size %smem args(%x : f32)
    gpu.launch_func @m::@k blocks in (%g1, %g2, %g3) threads in (%b1, %b2, %b3) args(%x : f32)
    %t2 = gpu.launch async [%t0, %t1] clusters(%cx, %cy, %cz) in (%sx = %c1, %sy = %c2, %sz = %c3)
        blocks(%bx, %by, %bz) in (%gx = %g1, %gy = %g2, %gz = %g3)
        threads(%tx, %ty, %tz) in (%lx = %b1, %ly = %b2, %lz = %b3) dynamic_shared_memory_size %smem {
      gpu.terminator
    }
    %m, %t3 = gpu.alloc async [%t2] (%n) : memref<?xf32>
    %t4 = gpu.memcpy async [%t3] %m, %m : memref<?xf32>, memref<?xf32>
    return
  }
}
"""


def _ops(text: str) -> dict[str, list]:
    out: dict[str, list] = {}
    for op in parse(text).chunks[0].module.walk():
        out.setdefault(op.name, []).append(op)
    return out


def _names(values: list) -> list[str]:
    return [v.name for v in values]


def test_named_operands_of_launch_func_with_and_without_clusters() -> None:
    with_clusters, plain = _ops(LAUNCHES)["gpu.launch_func"]
    groups = segments(with_clusters)
    assert list(groups) == [a.name for a in OPS["gpu.launch_func"].operands]
    assert _names(groups["asyncDependencies"]) == ["t0"]
    assert [operand(with_clusters, f"gridSize{d}").name for d in "XYZ"] == ["g1", "g2", "g3"]
    assert [operand(with_clusters, f"clusterSize{d}").name for d in "XYZ"] == ["c1", "c2", "c3"]
    assert operand(with_clusters, "dynamicSharedMemorySize").name == "smem"
    assert _names(operand_group(with_clusters, "kernelOperands")) == ["x"]
    assert operand(with_clusters, "asyncObject") is None
    assert operand_ranges(with_clusters)["kernelOperands"] == range(11, 12)
    assert operand_group(plain, "asyncDependencies") == [] and operand(plain, "clusterSizeX") is None
    assert [operand(plain, f"blockSize{d}").name for d in "XYZ"] == ["b1", "b2", "b3"]
    assert operand_ranges(plain)["kernelOperands"] == range(6, 7)


def test_named_operands_of_launch_alloc_and_memcpy() -> None:
    ops = _ops(LAUNCHES)
    launch = ops["gpu.launch"][0]
    assert _names(operand_group(launch, "asyncDependencies")) == ["t0", "t1"]
    assert [operand(launch, f"clusterSize{d}").name for d in "XYZ"] == ["c1", "c2", "c3"]
    assert operand(launch, "dynamicSharedMemorySize").name == "smem"
    alloc = ops["gpu.alloc"][0]
    assert _names(operand_group(alloc, "dynamicSizes")) == ["n"] and operand_group(alloc, "symbolOperands") == []
    memcpy = ops["gpu.memcpy"][0]  # one variadic group: split by the operand count
    assert _names(operand_group(memcpy, "asyncDependencies")) == ["t3"]
    assert (operand(memcpy, "dst").name, operand(memcpy, "src").name) == ("m", "m")


def test_operands_that_do_not_fit_the_declaration_have_no_names() -> None:
    text = (
        'func.func @f(%c: index) {\n  "gpu.launch_func"(%c, %c, %c, %c, %c, %c) <{kernel = @m::@k, operandSegmentSizes = '
        "array<i32: 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> ()\n"
        '  "gpu.set_default_device"() : () -> ()\n  return\n}'
    )
    ops = _ops(text)
    assert segments(ops["gpu.launch_func"][0]) is None and operand(ops["gpu.launch_func"][0], "gridSizeX") is None
    assert segments(ops["gpu.set_default_device"][0]) is None  # a missing operand
    assert segments(ops["builtin.module"][0]) is None  # an op whose operands are not declared
    assert segments(ops["func.func"][0]) == {}  # an op that declares none (only attributes, as upstream's FuncOps.td)


def test_named_operands_on_every_launch_of_both_corpora() -> None:
    """Every gpu.launch and gpu.launch_func the corpora hold splits into its declared groups, in order."""
    seen = {"clusters": 0, "dependencies": 0, "async_object": 0, "kernel_operands": 0}
    for path in all_corpus_files():
        text = path.read_text()
        if "gpu.launch" not in text:
            continue
        for chunk in parse(text, split=True).chunks:
            for op in chunk.module.walk():
                if op.name not in ("gpu.launch", "gpu.launch_func") or op.generic or not op.known:
                    continue
                groups = segments(op)
                assert groups is not None, (path.name, op.name)
                assert [v for group in groups.values() for v in group] == list(op.operands)
                assert all(v.type.is_token for v in groups["asyncDependencies"])
                assert all(len(groups[f"{g}Size{d}"]) == 1 for g in ("grid", "block") for d in "XYZ")
                assert len({len(groups[f"clusterSize{d}"]) for d in "XYZ"}) == 1
                seen["clusters"] += bool(groups["clusterSizeX"])
                seen["dependencies"] += bool(groups["asyncDependencies"])
                seen["async_object"] += bool(groups.get("asyncObject"))
                seen["kernel_operands"] += bool(groups.get("kernelOperands"))
    assert all(count > 0 for count in seen.values()), seen


def test_assemble_orders_named_groups_as_declared() -> None:
    ops = _ops(LAUNCHES)
    launch = ops["gpu.launch"][0]
    groups = dict(segments(launch))
    groups["kernelOperands"] = operand_group(ops["gpu.launch_func"][0], "kernelOperands")
    values, sizes = assemble("gpu.launch_func", groups)
    assert sizes == (2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0)
    assert _names(values) == ["t0", "t1", "g1", "g2", "g3", "b1", "b2", "b3", "c1", "c2", "c3", "smem", "x"]
    with pytest.raises(KeyError):
        assemble("gpu.launch_func", {"gridSize": []})


def test_an_op_class_fills_its_templates_in_name_table_order_and_an_op_may_override_them() -> None:
    unary = op_class("toy", "The toy op `{mnemonic}`.", "%r = {name} %a : T", traits="pure")
    first, second = family(unary, "neg\n    abs")
    assert (first.name, first.summary, first.syntax, first.traits) == ("toy.neg", "The toy op `neg`.", "%r = toy.neg %a : T", frozenset({"pure"}))
    assert second.name == "toy.abs"
    own = unary("sqrt", "Square root.", traits="", syntax="toy.sqrt %a")
    assert (own.summary, own.syntax, own.traits) == ("Square root.", "toy.sqrt %a", frozenset())


@pytest.mark.parametrize(
    ("op", "register"),
    [("nvvm.read.ptx.sreg.tid.x", "%tid.x"), ("nvvm.read.ptx.sreg.cluster.nctaid.y", "%cluster_nctaid.y"), ("nvvm.read.ptx.sreg.envreg7", "%envreg7")],
)
def test_special_register_ops_name_their_ptx_register(op: str, register: str) -> None:
    assert OPS[op].summary == f"Reads the PTX special register {register}."
