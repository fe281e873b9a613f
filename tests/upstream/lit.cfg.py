"""lit configuration: upstream's own RUN lines for the passes gpu-opt implements.

The tests are read from the corpus in ../shared/corpus (never copied) and run
unchanged, with `gpu-opt` substituted for `mlir-opt` and the PyPI `filecheck`
for `FileCheck`.
"""

import os
import sys

import lit.formats

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(os.path.dirname(REPO), "shared", "corpus", "upstream", "mlir", "test", "Dialect", "GPU")
TESTS = ("outlining.mlir", "async-region.mlir", "sink-ops.mlir")
BIN = os.path.dirname(sys.executable)


def _tool(name: str) -> str:
    path = os.path.join(BIN, name)
    return path if os.path.exists(path) else name


config.name = "gpu-lsp-upstream-passes"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = CORPUS
config.test_exec_root = lit_config.params.get("exec_root", os.path.join(REPO, "build", "lit-upstream"))
config.excludes = [name for name in os.listdir(CORPUS) if name not in TESTS] if os.path.isdir(CORPUS) else []
config.substitutions.append(("mlir-opt", lit_config.params.get("mlir_opt", f"{sys.executable} -m gpu_lsp.cli.gpu_opt")))
config.substitutions.append(("FileCheck", _tool("filecheck")))
config.environment["PYTHONPATH"] = REPO + os.pathsep + os.environ.get("PYTHONPATH", "")
