"""The rule registry: every code with its name, severity, documentation and check function."""

from __future__ import annotations

import ast
import enum
import functools
import inspect
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from gpu_lsp.diagnostics.model import Fix, Related, Severity
from gpu_lsp.ir.opdefs import OPS, OpDef, installed_from, op_names
from gpu_lsp.text import TextRange

CODE_RE = re.compile(r"^GPU\d{3}$")
NAME_RE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
DOC_SECTIONS = ("## What it does", "## Why is this bad?", "## Example", "## Fix safety", "## References")


class FixAvailability(enum.Enum):
    """Whether a rule's diagnostics carry a fix (ruff's FixAvailability)."""

    NONE = "none"
    SOMETIMES = "sometimes"
    ALWAYS = "always"


class Phase(enum.IntEnum):
    """When a rule runs; earlier phases first, like MLIR's parse, then verify, then lint."""

    PARSE = 0  # what MLIR's parser reports (only its first error survives in mlir-opt)
    VERIFY = 1  # op verifiers and the generic IR checks
    LINT = 2  # beyond upstream


class Stage(enum.IntEnum):
    """When a per-op verifier check runs during the verifier's walk (MLIR's OperationVerifier)."""

    ATTRIBUTES = 0  # dialect attributes, on entering the op
    INVARIANTS = 1  # the op's declared (ODS) constraints, before its hand-written `verify()`
    ENTRANCE = 2  # the op's own verifier (`verify()`); a failure here or before skips nested ops
    REGIONS = 3  # after the nested ops verified (`verifyRegions()`)


class Scope(enum.Enum):
    """How much of the IR a rule's findings on an op depend on: the op itself (a per-op rule),
    the top-level op it lies in (a whole-chunk rule that looks at each top-level op on its own),
    or the module's symbols (it looks symbols up, or follows launches and calls, across top-level
    ops). A rule of the first two finds the same in a range of top-level ops as in the file
    (`parser/ranges.py`; tested); a whole-module one does where no symbol is referred to across
    ranges nor defined in two (`analysis.merge_ranges`)."""

    OP = "op"
    UNIT = "unit"
    MODULE = "module"


@dataclass(frozen=True)
class Violation:
    """What a check function yields; the engine adds the rule's code and severity."""

    message: str
    range: TextRange
    fix: Fix | None = None
    related: tuple[Related, ...] = ()
    severity: Severity | None = None


@dataclass(frozen=True)
class Rule:
    """One diagnostic code: metadata, documentation and (optionally) its check function.

    `check` takes `(ctx)` for a whole-chunk rule, or `(op, ctx)` for a per-op rule
    (one whose `ops` names the operations it looks at), and yields Violations.
    `upstream` marks what mlir-opt itself reports (GPU0xx/GPU1xx parity).
    `traits` narrows a check of every op (`ops=("*",)`) to the ops whose definition has all
    of these traits (`has_trait`); the engine decides it once per op name.
    `scope`: how much of the IR its findings on an op depend on (`Scope`).
    `suppressible`: whether a `gpu-lint: ignore[...]` comment may hide its diagnostics (not
    syntax errors: the code after them is not what the user meant). `always_reported`: shown
    whatever `select`/`ignore` say. `tags`: the tags of every diagnostic of the code
    (`unnecessary`: editors fade the code it points at).
    """

    code: str
    name: str
    severity: Severity
    doc: str
    check: Callable[..., Iterable[Violation]] | None = None
    ops: tuple[str, ...] = ()
    fix: FixAvailability = FixAvailability.NONE
    upstream: bool = False
    phase: Phase = Phase.LINT
    stage: Stage = Stage.ENTRANCE
    checked_by: str = ""  # where diagnostics of a rule without a check function come from
    traits: tuple[str, ...] = ()
    module: str = field(default="", compare=False)
    suppressible: bool = True
    always_reported: bool = False
    tags: tuple[str, ...] = ()
    linted: bool = True  # gpu-lint emits it (gpu-run's and the passes' codes: no)
    scope: Scope = Scope.UNIT  # what its findings depend on (`Scope`)
    # The ops a check of declared facts concerns, as a test of their declaration: `ops` holds the
    # built-in ops it passes; the engine asks it of ops a project declares (ir/opdefs/user_ops.py).
    declared: Callable[[OpDef], bool] | None = field(default=None, compare=False)

    @property
    def summary(self) -> str:
        """The first sentence of "What it does"."""
        body = section(self.doc, "## What it does")
        first = " ".join(body.split("\n\n")[0].split())
        return first


def rule_url(code: str, docs_url: str) -> str | None:
    """The link to rule `code`'s page (docs/rules/GPUxxx.md) under the configured `docs-url`; None when none is set."""
    return f"{docs_url.rstrip('/')}/{code}.md" if docs_url else None


RULES: dict[str, Rule] = {}
_NAMES: dict[str, str] = {}
# `ops=(ANY_OP,)`: a per-op check of every operation.
ANY_OP = "*"


@dataclass(frozen=True)
class Hook:
    """A further per-op check of an already registered verifier rule, run at another stage."""

    code: str
    ops: tuple[str, ...]
    fn: Callable[..., Iterable[Violation]]
    stage: Stage


HOOKS: list[Hook] = []


def section(doc: str, heading: str) -> str:
    """The text of one `## heading` section of a rule docstring."""
    start = doc.find(heading)
    if start < 0:
        return ""
    start += len(heading)
    end = doc.find("\n## ", start)
    return doc[start : end if end >= 0 else len(doc)].strip()


def _clean_doc(doc: str | None) -> str:
    return inspect.cleandoc(doc or "")


def _docstring(fn: Callable) -> str | None:
    """`fn`'s docstring. mypyc keeps none for the functions it compiles (setup.py): those are
    read from the module's source, installed beside the compiled module."""
    if fn.__doc__ is not None:
        return fn.__doc__
    module_file = getattr(sys.modules.get(fn.__module__), "__file__", None)
    if not module_file:
        return None
    path = Path(module_file)
    return _source_docstrings(str(path.with_name(path.name.split(".", 1)[0] + ".py"))).get(fn.__name__)


@functools.cache
def _source_docstrings(path: str) -> dict[str, str]:
    """The docstrings of the top-level functions of a Python source file, by name ({} without the file)."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return {}
    return {
        node.name: doc
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and (doc := ast.get_docstring(node, clean=False)) is not None
    }


def register(rule: Rule) -> Rule:
    """Add `rule`; a malformed or duplicate code or name is a programming error raised at import."""
    if not CODE_RE.match(rule.code):
        raise ValueError(f"malformed rule code {rule.code!r}")
    if not NAME_RE.match(rule.name):
        raise ValueError(f"rule name {rule.name!r} is not kebab-case")
    if rule.code in RULES:
        raise ValueError(f"rule code {rule.code} registered twice ({RULES[rule.code].name} and {rule.name})")
    if rule.name in _NAMES:
        raise ValueError(f"rule name {rule.name} registered twice ({_NAMES[rule.name]} and {rule.code})")
    RULES[rule.code] = rule
    _NAMES[rule.name] = rule.code
    return rule


def rule(
    code: str,
    name: str,
    severity: Severity,
    *,
    ops: tuple[str, ...] = (),
    fix: FixAvailability = FixAvailability.NONE,
    upstream: bool = False,
    phase: Phase | None = None,
    stage: Stage = Stage.ENTRANCE,
    traits: tuple[str, ...] = (),
    tags: tuple[str, ...] = (),
    declared: Callable[[OpDef], bool] | None = None,
    linted: bool = True,
    whole_module: bool = False,
):
    """Decorator registering a check function (its docstring is the rule's documentation).

    `declared` in place of `ops`: the check concerns every op whose declaration passes the test;
    `linted=False`: only gpu-opt's verifier reports it (an mlir-opt option gpu-lint has not).
    `whole_module=True`: its findings depend on the whole module (`Scope.MODULE`).
    """
    if traits and tuple(ops) != (ANY_OP,):
        raise ValueError(f"rule {code}: traits narrow a check of every op (ops=({ANY_OP!r},))")
    if declared is not None:
        ops = tuple(sorted(n for n, d in OPS.items() if installed_from(n) is None and declared(d)))

    def wrap(fn: Callable) -> Callable:
        register(
            Rule(
                code,
                name,
                severity,
                _clean_doc(_docstring(fn)),
                fn,
                tuple(ops),
                fix,
                upstream,
                phase if phase is not None else (Phase.VERIFY if upstream else Phase.LINT),
                stage,
                traits=tuple(traits),
                module=fn.__module__,
                tags=tuple(tags),
                linted=linted,
                declared=declared,
                scope=Scope.MODULE if whole_module else Scope.OP if ops else Scope.UNIT,
            )
        )
        return fn

    return wrap


def hook(code: str, ops: tuple[str, ...], stage: Stage = Stage.REGIONS):
    """Decorator adding another per-op check, at `stage`, to the verifier rule `code`."""

    def wrap(fn: Callable) -> Callable:
        if code not in RULES:
            raise ValueError(f"hook for unregistered rule {code}")
        HOOKS.append(Hook(code, tuple(ops), fn, stage))
        return fn

    return wrap


def declare(
    code: str,
    name: str,
    severity: Severity,
    doc: str,
    *,
    checked_by: str,
    upstream: bool = True,
    fix: FixAvailability = FixAvailability.NONE,
    suppressible: bool = True,
    always_reported: bool = False,
    tags: tuple[str, ...] = (),
    linted: bool = True,
) -> Rule:
    """Register a code whose diagnostics another component emits (the parser's GPU0xx, gpu-run's GPU4xx)."""
    rule = Rule(code, name, severity, _clean_doc(doc), None, (), fix, upstream, Phase.PARSE, Stage.ENTRANCE, checked_by)
    return register(replace(rule, suppressible=suppressible, always_reported=always_reported, tags=tags, linted=linted))


def suppressible(code: str) -> bool:
    """Whether a suppression comment may hide diagnostics of `code` (a code no rule has: yes)."""
    rule = load_rules().get(code)
    return rule is None or rule.suppressible


def always_reported(code: str) -> bool:
    """Whether diagnostics of `code` are shown whatever `select`/`ignore` say."""
    rule = load_rules().get(code)
    return rule is not None and rule.always_reported


def code_tags(code: str) -> tuple[str, ...]:
    """The tags every diagnostic of `code` carries."""
    rule = load_rules().get(code)
    return rule.tags if rule is not None else ()


def load_rules() -> dict[str, Rule]:
    """Import every rule module once; the registry, keyed by code.

    An op name in a rule's or hook's `ops` that no dialect registers (a typo) raises.
    """
    global _checked
    import gpu_lsp.diagnostics.rules.all  # noqa: F401  (registers on import)

    if not _checked:
        _checked = True
        check_op_names(RULES.values(), HOOKS)
    return RULES


_checked = False


def check_op_names(rules: Iterable[Rule], hooks: Iterable[Hook]) -> None:
    """Raise when a rule or hook names an operation that no dialect registers."""
    known = op_names() | {ANY_OP}
    unknown = sorted({(r.code, o) for r in rules for o in r.ops if o not in known} | {(h.code, o) for h in hooks for o in h.ops if o not in known})
    if unknown:
        raise ValueError("rules name unknown operations: " + ", ".join(f"{code} {name!r}" for code, name in unknown))


def get(code: str) -> Rule | None:
    load_rules()
    return RULES.get(code.upper())


def by_name(name: str) -> Rule | None:
    load_rules()
    code = _NAMES.get(name)
    return RULES.get(code) if code else None


# Retired codes and the code that reports their finding now (one rule per fact; codes are never reused).
ALIASES: dict[str, str] = {"GPU210": "GPU415"}


def aliased(selector: str) -> str:
    """A code selector with a retired code replaced by the code that took over its finding."""
    return ALIASES.get(selector, selector)


def matches(code: str, selectors: Iterable[str]) -> bool:
    """Whether `code` is covered by one of the selectors (a code, a prefix such as `GPU2`, or `ALL`)."""
    for sel in selectors:
        sel = aliased(sel.upper())
        if sel == "ALL" or code.startswith(sel):
            return True
    return False


@dataclass(frozen=True)
class Selection:
    """Which codes are reported: ruff's `select` / `ignore` by prefix (the longer prefix wins)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def enabled(self, code: str) -> bool:
        best_select = _longest(code, self.select) if self.select else 0
        if self.select and best_select < 0:
            return False
        best_ignore = _longest(code, self.ignore)
        return best_ignore < 0 or best_select > best_ignore

    @staticmethod
    def of(settings: object | None) -> Selection:
        """A Selection from anything with `select`/`extend_select`/`ignore` sequences (or None: everything)."""
        if settings is None:
            return Selection()
        if isinstance(settings, Selection):
            return settings
        select = tuple(getattr(settings, "select", ()) or ()) + tuple(getattr(settings, "extend_select", ()) or ())
        ignore = tuple(getattr(settings, "ignore", ()) or ())
        return Selection(select, ignore)


def _longest(code: str, selectors: Iterable[str]) -> int:
    """Length of the longest selector covering `code` (`ALL` counts as 0), or -1 when none does."""
    best = -1
    for sel in selectors:
        sel = aliased(sel.upper())
        if sel == "ALL":
            best = max(best, 0)
        elif code.startswith(sel):
            best = max(best, len(sel))
    return best
