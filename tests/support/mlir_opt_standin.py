"""A stand-in for a real `mlir-opt` over MLIR's Python bindings (numba-cuda-mlir, as the oracle loads them).

Understands what the pipeline view passes (`-pass-pipeline=P`, the IR printing flags, `-` for
stdin); the dumps come from MLIR's own IR printer, on stderr, as mlir-opt prints them, and a
failing pass's errors are printed as `FILE:LINE:COL: error: MESSAGE`. Run as a script:
`python mlir_opt_standin.py ORACLE_PY -pass-pipeline=... -mlir-print-ir-after-all ... -`.
"""

from __future__ import annotations

import importlib.util
import re
import sys


def main(oracle_py: str, args: list[str]) -> int:
    spec = importlib.util.spec_from_file_location("_standin_oracle", oracle_py)
    assert spec is not None and spec.loader is not None
    oracle = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = oracle
    spec.loader.exec_module(oracle)
    backend = oracle.load_backend("numba-cuda-mlir")
    pipeline = next(a.split("=", 1)[1] for a in args if a.startswith("-pass-pipeline="))
    backend.threads = "-mlir-disable-threading" not in args
    with backend.new_context():
        try:
            module = backend.ir.Module.parse(sys.stdin.read())
            pm = backend.passmanager.PassManager.parse(pipeline)
        except Exception as exc:  # MLIRError or ValueError: the input or the pipeline
            print(f"error: {exc}", file=sys.stderr)
            return 1
        pm.enable_ir_printing(
            print_before_all="-mlir-print-ir-before-all" in args,
            print_after_all="-mlir-print-ir-after-all" in args,
            print_module_scope="-mlir-print-ir-module-scope" in args,
        )
        try:
            pm.run(module.operation)
        except Exception as exc:
            for d in getattr(exc, "error_diagnostics", []):
                m = re.match(r'loc\("([^"]*)":(\d+):(\d+)\)', str(d.location))
                where = f"{m.group(1)}:{m.group(2)}:{m.group(3)}: " if m else ""
                print(f"{where}error: {d.message}", file=sys.stderr)
            return 1
        print(module)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
