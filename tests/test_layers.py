"""The layers of gpu_lsp, enforced over its import graph (every import, lazy ones included).

Ranks, lowest first (DESIGN.md's data flow: dependencies point one way, the front
ends on top). A module may import a module of a lower rank, or of its own unit
(the prefix that gave it its rank); anything else is a violation.

0. the leaves: `text` (ranges, edits), `gcpause`, the package root (its version)
1. `diagnostics.model`: DESIGN's core types `Diagnostic`/`Fix`, which the parser, the
   passes and the runner report (a leaf, though it lives in `diagnostics/`)
2. `ir`'s core: operations, types, attributes (and the enum and flag tables, `ir.enums` and `ir.flags`,
   which the attribute syntax reads)
2.1 `syntax`: the reading primitives (tokens, lexer, raw structure, type syntax, cursor), which
   build the core's types and attributes
2.2 `ir.opdefs`: the op model (declarations, the format engine that reads and prints by them, the
   hand-written readers beside their declarations)
2.3 `ir`'s views over the op model (operand groups, symbols, traits, views, memory effects), then its printer
2.5 `diagnostics.mlir_versions` (and its op-name table `diagnostics.op_names`): what each LLVM
   version's lowering takes, read by the rules and by the passes' Legalize (tables, though they live
   in `diagnostics/`)
3. `parser`: text -> IR (builder, resolve, api, module_shell, incremental, in that order)
5. `diagnostics` and `passes`: the rules, the rewrites (siblings: neither imports the other)
6. `analysis`: parse + verify + lint, what front ends call
7. `runner`: codegen and backends over the analysed IR
8. `lint`: gpu-lint's batch side, its configuration files included
9. `lsp`: the editor features (which read the same configuration files as gpu-lint)
10. `cli` and `server`: the front ends; then the server's start-up edge: `lsp.bootstrap`
   (answers `initialize`, then starts the server) and `__main__` (starts the bootstrap)

Known violations are listed with a reason in `KNOWN`; each must still occur (a fixed
one is removed from the list).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import REPO

PACKAGE = REPO / "gpu_lsp"

RANKS: dict[str, float] = {
    "gpu_lsp": 0,
    "gpu_lsp.text": 0,
    "gpu_lsp.gcpause": 0,
    "gpu_lsp.diagnostics.model": 1,
    "gpu_lsp.ir": 2,
    "gpu_lsp.ir.enums": 2.04,
    "gpu_lsp.ir.flags": 2.05,
    "gpu_lsp.syntax": 2.1,
    "gpu_lsp.ir.opdefs": 2.2,
    "gpu_lsp.ir.operands": 2.3,
    "gpu_lsp.ir.symbols": 2.3,
    "gpu_lsp.ir.traits": 2.3,
    "gpu_lsp.ir.views": 2.31,
    "gpu_lsp.ir.effects": 2.31,
    "gpu_lsp.ir.printer": 2.32,
    "gpu_lsp.ir.printers": 2.33,
    "gpu_lsp.diagnostics.mlir_versions": 2.5,
    "gpu_lsp.diagnostics.op_names": 2.4,
    "gpu_lsp.parser": 3,
    "gpu_lsp.parser.builder": 3.1,
    "gpu_lsp.parser.resolve": 3.2,
    "gpu_lsp.parser.api": 3.3,
    "gpu_lsp.parser.module_shell": 3.35,
    "gpu_lsp.parser.incremental": 3.4,
    "gpu_lsp.parser.ranges": 3.5,
    "gpu_lsp.diagnostics": 6,
    "gpu_lsp.passes": 6,
    "gpu_lsp.formatter": 6.5,
    "gpu_lsp.analysis": 7,
    "gpu_lsp.runner": 8,
    "gpu_lsp.lint": 9,
    "gpu_lsp.lit": 9.5,
    "gpu_lsp.lsp": 10,
    "gpu_lsp.cli": 11,
    "gpu_lsp.server": 11,
    "gpu_lsp.lsp.bootstrap": 12,
    "gpu_lsp.__main__": 13,
}

# (importer unit, imported unit) -> why it is tolerated for now.
KNOWN: dict[tuple[str, str], str] = {
}

# Import cycles (the modules of each strongly connected component) -> why tolerated for now.
KNOWN_CYCLES: dict[frozenset[str], str] = {
}

# Modules that load others by name (importlib), which the graph cannot see -> why tolerated.
KNOWN_DYNAMIC: dict[str, str] = {
}

CUPY_MODULES = {"gpu_lsp.runner.cupy_backend"}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, str]:
    """Every module of gpu_lsp and its source."""
    return {module_name(p): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str, known: set[str]) -> str:
    """The longest known module that `name` (a module or a name in one) refers to."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def imports(module: str, source: str, known: set[str]) -> list[Import]:
    """Every import of `module` (module level or not) of a module in `known` or of another package."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            target = _resolve(name, known) if name.startswith("gpu_lsp") else name.split(".")[0]
            out.append(Import(module, target, node.lineno))
            out.extend(Import(module, package, node.lineno) for package in _packages_run(module, target, known))
    return out


def _packages_run(importer: str, target: str, known: set[str]) -> list[str]:
    """The packages whose `__init__` importing `target` runs first and imports modules of ours
    (the parents of `target` that are not the importer's)."""
    parents = [target.rsplit(".", n)[0] for n in range(1, target.count(".") + 1)]
    return [p for p in parents if p in LOADING_PACKAGES and not (importer == p or importer.startswith(p + "."))]


def graph(sources: dict[str, str], changed: dict[str, str] | None = None) -> list[Import]:
    """The imports of every module; `changed` replaces the source of some modules."""
    known = set(sources)
    changed = changed or {}
    return [
        imp
        for module in sources
        for imp in (imports(module, changed[module], known) if module in changed else _BY_MODULE[module])
    ]


def unit(module: str) -> str:
    """The longest prefix of `module` in RANKS."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in RANKS:
            return prefix
    raise AssertionError(f"{module} has no rank: add its package to RANKS")


def rank_violations(edges: list[Import]) -> list[str]:
    out = []
    for e in edges:
        if not e.imported.startswith("gpu_lsp"):
            continue
        a, b = unit(e.importer), unit(e.imported)
        if a == b or RANKS[b] < RANKS[a] or (a, b) in KNOWN:
            continue
        out.append(f"{e.importer}:{e.line} imports {e.imported} ({a} rank {RANKS[a]} -> {b} rank {RANKS[b]})")
    return out


def cycles(edges: list[Import]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    succ: dict[str, set[str]] = {}
    for e in edges:
        if e.imported.startswith("gpu_lsp") and e.imported != e.importer:
            succ.setdefault(e.importer, set()).add(e.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(succ.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return found


def dynamic_importers(sources: dict[str, str]) -> set[str]:
    """Modules that call `importlib.import_module` or `__import__`."""
    out = set()
    for module, source in sources.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call):
                fn = node.func
                name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
                if name in ("import_module", "__import__"):
                    out.add(module)
    return out


SOURCES = modules()
# Packages whose `__init__` imports modules of ours: importing any module inside one runs those first.
LOADING_PACKAGES = {
    m
    for m, source in SOURCES.items()
    if any(n.startswith(m + ".") for n in SOURCES)
    and any(
        (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gpu_lsp"))
        or (isinstance(node, ast.Import) and any(a.name.startswith("gpu_lsp") for a in node.names))
        for node in ast.parse(source).body
    )
}
_BY_MODULE = {module: imports(module, source, set(SOURCES)) for module, source in SOURCES.items()}
EDGES = graph(SOURCES)
DYNAMIC = dynamic_importers(SOURCES)
RULE_REGISTRY = "gpu_lsp.diagnostics.registry"
# registry.load_rules() imports rules/all.py (which lists every rule module), and each rule module
# registers into the registry: about 40 callers use the registry's lookups.
_RULE_CYCLE = next((c for c in cycles(EDGES) if RULE_REGISTRY in c), frozenset())
if all(m.startswith("gpu_lsp.diagnostics.") for m in _RULE_CYCLE):
    KNOWN_CYCLES[_RULE_CYCLE] = "the rule registry's load cycle, inside gpu_lsp.diagnostics"


def test_every_import_goes_down_the_ranks() -> None:
    assert rank_violations(EDGES) == []


def test_the_known_violations_still_occur() -> None:
    seen = {(unit(e.importer), unit(e.imported)) for e in EDGES if e.imported.startswith("gpu_lsp")}
    assert set(KNOWN) <= seen
    assert set(KNOWN_CYCLES) <= set(cycles(EDGES))
    assert set(KNOWN_DYNAMIC) <= DYNAMIC


def test_the_rule_registry_cycle_stays_inside_diagnostics() -> None:
    assert {RULE_REGISTRY, "gpu_lsp.diagnostics.rules.all"} <= _RULE_CYCLE
    # nothing a rule uses (the sanitizer's analyses, the helpers) joins it: those import on their own
    assert [m for m in _RULE_CYCLE if m != RULE_REGISTRY and not m.startswith("gpu_lsp.diagnostics.rules.")] == []


def test_no_import_cycles() -> None:
    assert [sorted(c) for c in cycles(EDGES) if c not in KNOWN_CYCLES] == []


def test_no_module_imports_by_name() -> None:
    assert DYNAMIC - set(KNOWN_DYNAMIC) == set()


def test_only_the_cupy_backend_imports_cupy() -> None:
    assert {e.importer for e in EDGES if e.imported == "cupy"} == CUPY_MODULES


@pytest.mark.parametrize(
    ("module", "line"),
    [
        ("gpu_lsp.text", "from gpu_lsp.server import main"),
        ("gpu_lsp.ir.core", "    from gpu_lsp.lsp.hover import hover"),
        ("gpu_lsp.diagnostics.model", "from gpu_lsp.diagnostics.registry import RULES"),
        ("gpu_lsp.passes.sink", "from gpu_lsp.diagnostics.rule_engine import run_rules"),
    ],
)
def test_an_inverted_import_is_caught(module: str, line: str) -> None:
    source = SOURCES[module] + ("\ndef _late():\n" + line + "\n" if line.startswith(" ") else "\n" + line + "\n")
    edges = graph(SOURCES, {module: source})
    assert any(v.startswith(f"{module}:") for v in rank_violations(edges))


def test_an_import_cycle_is_caught() -> None:
    source = SOURCES["gpu_lsp.text"] + "\ndef _late():\n    from gpu_lsp.gcpause import paused_gc\n"
    gc_source = SOURCES["gpu_lsp.gcpause"] + "\nfrom gpu_lsp.text import TextRange\n"
    edges = graph(SOURCES, {"gpu_lsp.text": source, "gpu_lsp.gcpause": gc_source})
    assert frozenset({"gpu_lsp.text", "gpu_lsp.gcpause"}) in cycles(edges)


def test_cupy_outside_the_backend_is_caught() -> None:
    source = SOURCES["gpu_lsp.runner.codegen"] + "\ndef _late():\n    import cupy\n"
    edges = graph(SOURCES, {"gpu_lsp.runner.codegen": source})
    assert {e.importer for e in edges if e.imported == "cupy"} != CUPY_MODULES


def test_a_module_import_by_name_is_caught() -> None:
    changed = {"gpu_lsp.text": SOURCES["gpu_lsp.text"] + "\nimport importlib\nimportlib.import_module('gpu_lsp.gcpause')\n"}
    assert "gpu_lsp.text" in dynamic_importers({**SOURCES, **changed})
