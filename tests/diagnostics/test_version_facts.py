"""The version facts behind GPU142, GPU146 and GPU104 (op lists, dialects without type/attribute parsers, verifier checks) against the oracle."""

from __future__ import annotations

from support import oracle

from gpu_lsp.diagnostics.mlir_versions import LAUNCH_FUNC_ONE_ASYNC_MODEL, OP_NAMES, ORACLE, PARSING_HOOKS
from gpu_lsp.diagnostics.op_names import ORACLE_OPS
from gpu_lsp.ir.opdefs import OPS


def test_every_listed_op_is_registered_in_the_oracle() -> None:
    context = oracle.backend().new_context()
    unregistered = [
        f"{dialect}.{name}"
        for dialect, names in ORACLE_OPS.items()
        for name in names.split()
        if not context.is_registered_operation(f"{dialect}.{name}")
    ]
    assert unregistered == []
    assert not context.is_registered_operation("llvm.ptr")  # a type, never an op


def test_the_ops_gpu_lsp_reads_are_listed() -> None:
    missing = [
        name
        for name in OPS
        if (listed := OP_NAMES.at(23, name.partition(".")[0])) is not None and name.partition(".")[2] not in listed
    ]
    assert missing == []


def test_the_list_is_only_claimed_for_the_oracles_version() -> None:
    assert "LLVM 23" in ORACLE
    assert OP_NAMES.at(23, "llvm") is not None and "mlir.zero" in OP_NAMES.at(23, "llvm")
    assert OP_NAMES.at(22, "llvm") is None
    assert OP_NAMES.at(23, "not_a_dialect") is None


def test_dialects_without_parsing_hooks_match_the_oracle() -> None:
    no_types, no_attributes = PARSING_HOOKS.at(23)
    for dialect in sorted(no_types | no_attributes | {"gpu", "llvm", "spirv", "nvvm", "vector"}):
        type_errors = oracle.verify(f"func.func @f(%a: !{dialect}.foo) {{\n  return\n}}\n")
        attr_errors = oracle.verify(f"func.func @f() attributes {{x = #{dialect}.foo<1>}} {{\n  return\n}}\n")
        assert (type_errors[0][3] == f"dialect '{dialect}' provides no type parsing hook") == (dialect in no_types)
        assert (attr_errors[0][3] == f"dialect '{dialect}' provides no attribute parsing hook") == (dialect in no_attributes)


_BOTH_ASYNC_MODELS = """\
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index, %stream: !llvm.ptr) {
    %dep = gpu.wait async
    %t = gpu.launch_func async [%dep] <%stream : !llvm.ptr> @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t]
    return
  }
}
"""


def test_the_oracle_predates_the_one_async_model_check() -> None:
    accepted = [d for d in oracle.verify(_BOTH_ASYNC_MODELS) if d[2] == "error"] == []
    assert accepted == (not LAUNCH_FUNC_ONE_ASYNC_MODEL.oracle)
    assert LAUNCH_FUNC_ONE_ASYNC_MODEL.at(23) and not LAUNCH_FUNC_ONE_ASYNC_MODEL.at(22)
