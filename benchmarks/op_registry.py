"""What the per-configuration op registries cost the language server, against its configuration lookup.

Not a test. Run from the repository root:

    .venv/bin/python benchmarks/op_registry.py [--calls N]

The server calls `settings_for` before the jobs on a document: the configuration lookup
(`lsp.settings.for_document`, the reference), then `definition_diagnostics.use_definitions` (read the
document's op-definitions files, compare them with what was read, activate the registry). Measured on
examples/downstream (one definitions file): `use_definitions` with the file and without, and
`activate` of the registry already active and of another one (the op table swaps the project's ops).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gpu_lsp.ir.opdefs.registry import BUILT_IN, activate, registry_of  # noqa: E402
from gpu_lsp.lsp.definition_diagnostics import use_definitions  # noqa: E402
from gpu_lsp.lsp.settings import EditorSettings, for_document  # noqa: E402

EXAMPLE = REPO / "examples" / "downstream"


def _per_call_us(fn: object, calls: int) -> float:
    return min(timeit.repeat(fn, number=calls, repeat=5)) / calls * 1e6  # type: ignore[arg-type]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000, help="calls per measurement")
    args = ap.parse_args()
    uri = (EXAMPLE / "kernel.mlir").as_uri()
    with tempfile.TemporaryDirectory() as plain:
        bare = (Path(plain) / "k.mlir").as_uri()
        with_file, _ = for_document(EditorSettings(), uri)
        without, _ = for_document(EditorSettings(), bare)
        published: dict[str, tuple[str, ...]] = {}
        reference = _per_call_us(lambda: for_document(EditorSettings(), uri), args.calls)
        rows = [
            ("for_document (reference)", reference),
            ("use_definitions, one file", _per_call_us(lambda: use_definitions(with_file, published), args.calls)),
            ("use_definitions, no file", _per_call_us(lambda: use_definitions(without, published), args.calls)),
        ]
    text = (EXAMPLE / "scratch.ops.toml").read_text(encoding="utf-8")
    one, two = registry_of((("a.toml", text),)), registry_of((("b.toml", text.replace("scratch", "other")),))
    activate(one)
    rows.append(("activate, already active", _per_call_us(lambda: activate(one), args.calls * 10)))
    rows.append(("activate, two in turn", _per_call_us(lambda: (activate(one), activate(two)), args.calls) / 2))
    activate(BUILT_IN)
    for name, us in rows:
        print(f"{name:28} {us:8.2f} us/call  {us / reference:6.3f} x reference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
