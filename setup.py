"""Build hook: a wheel (`pip install .`) compiles the parser's and the checks' hot modules with mypyc.

Everything else is in pyproject.toml. The compiled modules behave as the Python ones (the test
suite runs against both, `make test-compiled`) and parse and lint about twice as fast. An editable
install (`pip install -e .`, what `make test` uses) stays pure Python, so that an edited module
is never shadowed by a stale compiled one; so does a build with GPU_LSP_PURE=1, and any build
where mypyc or a C compiler fails (with a warning: the wheel is then the pure-Python one).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

# The modules that run for every op of every parse and lint, as globs under gpu_lsp/. Not
# compiled: syntax/structure.py (its classes subclass Lark's),
# ir/op_facts.py (its shared record overrides __setattr__), ir/types.py, ir/attributes.py and
# ir/attribute_base.py (compiled code compares two values typed by a compiled base class by
# identity, skipping the subclasses' dataclass __eq__), and the declarations' tables (with
# ir/enums.py and ir/flags.py), which run once at import.
NATIVE = (
    "syntax/*.py",
    "parser/builder.py",
    "parser/resolve.py",
    "parser/api.py",
    "parser/incremental.py",
    "ir/*.py",
    "ir/opdefs/format*.py",
    "ir/opdefs/*_read.py",
    "ir/opdefs/readers.py",
    "ir/opdefs/segments.py",
    "ir/opdefs/table.py",
    "ir/opdefs/relations.py",
    "ir/opdefs/typing.py",
    "diagnostics/rule_engine.py",
    "diagnostics/context.py",
    "diagnostics/rules/*.py",
    "diagnostics/sanitizer/*.py",
    # What the open of a large file computes from its text alone while the range workers parse it
    # (its outline, folding ranges and line table): on the server's cores too. Not their JSON
    # (lsp/wire.py, lsp/publish.py): those import the server's modules, and through them the
    # runner's, which mypyc cannot type without numpy in the isolated build.
    "lsp/skeleton.py",
    "lsp/positions.py",
    # The index of a document's units, built again after each edit (every unit's range: thousands in
    # an outlined file, whose kernels are units of their own).
    "lsp/index.py",
    "lsp/document_symbols.py",
    "lsp/folding.py",
    # A diagnostic's JSON: what the open publishes once its range workers end is thousands of them.
    "lsp/diagnostic_json.py",
)
NOT_NATIVE = (
    "ir/op_facts.py", "ir/types.py", "ir/attributes.py", "ir/attribute_base.py", "ir/enums.py", "ir/flags.py",
    "syntax/structure.py", "syntax/tolerant.py",
)


def native_sources() -> list[str]:
    """The files NATIVE names, relative to the project root, sorted."""
    package = ROOT / "gpu_lsp"
    skipped = {package / name for name in NOT_NATIVE}
    found = {path for pattern in NATIVE for path in package.glob(pattern) if path not in skipped}
    return sorted(str(path.relative_to(ROOT)) for path in found)


def _wants_native() -> bool:
    """Whether this run builds a wheel (not metadata, an sdist or an editable install) and may compile."""
    if os.environ.get("GPU_LSP_PURE", "") not in ("", "0"):
        return False
    return any(command in sys.argv for command in ("bdist_wheel", "build_ext", "build"))


def _native_extensions() -> list:
    if not _wants_native():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        print(f"gpu-lsp: mypyc is not available ({exc}); building pure Python", file=sys.stderr)
        return []
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return mypycify(native_sources(), opt_level="3", multi_file=True)
    except BaseException as exc:  # mypyc reports type errors with SystemExit
        print(f"gpu-lsp: mypyc failed ({exc!r}); building pure Python", file=sys.stderr)
        return []
    finally:
        os.chdir(cwd)


class OptionalBuildExt(build_ext):
    """Builds the compiled modules, or none of them when any fails (a partial set cannot import)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            print(f"gpu-lsp: compiling with mypyc failed ({exc}); installing pure Python", file=sys.stderr)
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []


setup(ext_modules=_native_extensions(), cmdclass={"build_ext": OptionalBuildExt})
