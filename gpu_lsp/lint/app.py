"""The `gpu-lint` check command: options, settings, discovery, the pool, fixes, report and exit status."""

from __future__ import annotations

import argparse
import difflib
import sys
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from gpu_lsp.diagnostics.mlir_versions import NEWEST
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.lint import formats
from gpu_lsp.lint.cache import Caches, check_cached
from gpu_lsp.lint.check import FileReport, FixMode, fix_level
from gpu_lsp.lint.config import OUTPUT_FORMATS, SEVERITY_NAMES, ConfigError, Settings
from gpu_lsp.lint.discovery import Target, discover
from gpu_lsp.lint.formats import statistics
from gpu_lsp.lint.formats.common import Context, all_problems, fix_applies, fix_count
from gpu_lsp.lint.hierarchy import Resolver, make_resolver
from gpu_lsp.lint.op_definitions import use_op_definitions
from gpu_lsp.lint.rules import known_codes, rule_info
from gpu_lsp.lint.shard import parse_shard, select_shard

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2

# Formats meant for people: the summary goes with them, and --show-fixes output goes to the same stream.
HUMAN_FORMATS = ("text", "concise", "grouped")


def _codes(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _add_list(parser: argparse.ArgumentParser, option: str, metavar: str, description: str) -> None:
    """A comma-separated list option; given again, its lists add up."""
    parser.add_argument(option, type=_codes, action="append", metavar=metavar, help=description)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the check command's options on `parser` (selection options included)."""
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders to check ('-' reads standard input); default: ."
    )
    parser.add_argument("--output-format", choices=OUTPUT_FORMATS, help="report format (default: text)")
    parser.add_argument(
        "-o", "--output-file", metavar="FILE", help="write the report to FILE instead of standard output"
    )
    parser.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="FILE|KEY=VALUE",
        help="a configuration file, or a TOML 'key = value' that overrides one setting",
    )
    parser.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    parser.add_argument("--show-settings", action="store_true", help="print the resolved settings and exit")
    parser.add_argument(
        "--stdin-filename", metavar="NAME", help="the name standard input is reported and configured as"
    )
    parser.add_argument("--fix", action=argparse.BooleanOptionalAction, default=None, help="apply safe fixes in place")
    parser.add_argument(
        "--unsafe-fixes",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also apply (and count as fixable) unsafe fixes",
    )
    parser.add_argument("--diff", action="store_true", help="print the fixes as a unified diff and write nothing")
    parser.add_argument(
        "--show-fixes", action="store_true", help="list the fixes applied (or, without --fix, those --fix would apply)"
    )
    parser.add_argument(
        "--statistics",
        action="store_true",
        help="print how many diagnostics each rule produced instead of the diagnostics",
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    parser.add_argument(
        "--fail-on",
        choices=tuple(SEVERITY_NAMES),
        help="lowest severity that makes the exit status 1 (default: warning)",
    )
    _add_list(parser, "--select", "CODES", "comma-separated codes or prefixes to check (replaces the configured select)")
    _add_list(parser, "--extend-select", "CODES", "codes or prefixes to check in addition")
    _add_list(parser, "--ignore", "CODES", "codes or prefixes not to report")
    parser.add_argument(
        "--per-file-ignores", action="append", metavar="GLOB:CODES", help="codes to ignore in files matching GLOB"
    )
    _add_list(parser, "--exclude", "GLOBS", "paths to skip (replaces the configured exclude)")
    _add_list(parser, "--extend-exclude", "GLOBS", "paths to skip in addition")
    parser.add_argument(
        "--force-exclude", action="store_true", help="apply exclusions to files named on the command line too"
    )
    parser.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="skip files .gitignore ignores (default: yes)",
    )
    parser.add_argument(
        "--mlir-version",
        type=int,
        metavar="N",
        help=f"the LLVM major version you compile with; lowering checks follow it (default: {NEWEST})",
    )
    parser.add_argument(
        "--report-undecided",
        action="store_true",
        default=None,
        help="an info for each kernel access GPU416/GPU417 cannot decide, saying why (default: no)",
    )
    parser.add_argument("-j", "--jobs", type=int, metavar="N", help="worker processes (default: one per core)")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    parser.add_argument("--cache-dir", metavar="DIR", help="the cache folder (default: .gpu-lint-cache in the project root)")
    parser.add_argument("--shard", metavar="I/N", help="check only the I-th of N shards of the files (for CI matrices)")


def _flat(values: list[list[str]] | None) -> list[str] | None:
    return None if values is None else [v for group in values for v in group]


def resolve_settings(args: argparse.Namespace, cwd: Path) -> Resolver:
    """Each folder's settings: its configuration file (or `--config FILE`), then `--config` overrides, then flags.

    Raises ConfigError when the current folder's settings (those of run-wide keys) are broken.
    """
    overrides = dict(
        select=_flat(args.select),
        extend_select=_flat(args.extend_select),
        ignore=_flat(args.ignore),
        per_file_ignores=args.per_file_ignores,
        exclude=_flat(args.exclude),
        extend_exclude=_flat(args.extend_exclude),
        respect_gitignore=args.respect_gitignore,
        fix=args.fix,
        unsafe_fixes=args.unsafe_fixes,
        output_format=args.output_format,
        fail_on=SEVERITY_NAMES[args.fail_on] if args.fail_on else None,
        mlir_version=args.mlir_version,
        report_undecided=args.report_undecided,
        cache_dir=None if args.cache_dir is None else str(cwd / args.cache_dir),
    )
    return make_resolver(cwd, args.config, args.isolated, known_codes(), overrides)


def _shown(args: argparse.Namespace, resolver: Resolver, cwd: Path) -> Settings | None:
    """The settings `--show-settings` prints: those of the first path given (ruff's rule), else the current folder's."""
    first = args.paths[0] if args.paths else None
    if first == "-" or first is None:
        first = args.stdin_filename
    if first is None:
        return resolver.base
    path = cwd / first
    return resolver.for_folder(path if path.is_dir() else path.parent)


def _settings_of(target: Target, resolver: Resolver, stdin_filename: str | None, cwd: Path) -> Settings | None:
    """The settings one target is checked with: its folder's (standard input: `--stdin-filename`'s)."""
    if target.path is not None:
        return resolver.for_file(target.path)
    return resolver.for_file(cwd / stdin_filename) if stdin_filename else resolver.base


def unified_diff(report: FileReport) -> str:
    """The fixes of one file as a unified diff (`--- path` / `+++ path`)."""
    before = (report.original or "").splitlines(keepends=True)
    after = (report.text or "").splitlines(keepends=True)
    lines = []
    for line in difflib.unified_diff(before, after, fromfile=report.display, tofile=report.display):
        lines.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(lines)


def _fix_listing(reports: list[FileReport], applied: bool, context: Context) -> str:
    """`Fixed N errors:` then, per file, `N × CODE (name)` (ruff's --show-fixes)."""
    per_file: list[tuple[str, Counter[str]]] = []
    severities: Counter[Severity] = Counter()
    if applied:
        per_file = [(r.display, r.applied) for r in reports if r.applied]
        for report in reports:
            severities.update(report.applied_severities)
    else:
        for report in reports:
            fixable = [d for d in report.diagnostics if fix_applies(d, context.fix_level)]
            if fixable:
                per_file.append((report.display, Counter(d.code for d in fixable)))
                severities.update(d.severity for d in fixable)
    if not severities:
        return f"{'No errors fixed' if applied else 'No fixes available'}.\n"
    lines = [f"{'Fixed' if applied else 'Would fix'} {fix_count(severities)}:"]
    for display, counts in per_file:
        lines.append(f"- {display}:")
        for code in sorted(counts):
            lines.append(f"    {counts[code]} × {code} ({rule_info(code).name})")
    return "\n".join(lines) + "\n"


def exit_status(reports: list[FileReport], context: Context, settings: Settings, diff: bool) -> int:
    """2 when a file could not be read or written; else 1 when a diagnostic at or above `fail-on` remains or
    --diff would change a file."""
    if any(p.level == "error" for p in all_problems(reports, context)):
        return EXIT_ERROR
    if diff:
        return EXIT_FINDINGS if any(r.changed for r in reports) else EXIT_CLEAN
    if any(d.severity >= settings.fail_on for r in reports for d in r.diagnostics):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def run(
    args: argparse.Namespace,
    emitters: dict[str, formats.Emitter],
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: bytes | None = None,
    cwd: Path | None = None,
) -> int:
    """Run a check as parsed by `add_arguments`; `emitters` maps every format name to its writer."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    cwd = (cwd or Path.cwd()).resolve()
    try:
        resolver = resolve_settings(args, cwd)
    except ConfigError as exc:
        stderr.write(f"gpu-lint: error: {exc}\n")
        return EXIT_ERROR
    settings = resolver.base
    declared = use_op_definitions(settings.op_definitions)
    if declared:
        stderr.write("".join(f"{line}\n" for line in declared))
        return EXIT_ERROR
    if args.show_settings:
        shown = _shown(args, resolver, cwd)
        stderr.write("".join(f"gpu-lint: error: {line}\n" for line in resolver.errors))
        if shown is None:
            return EXIT_ERROR
        stdout.write(shown.describe())
        return EXIT_CLEAN
    if args.jobs is not None and args.jobs < 1:
        stderr.write("gpu-lint: error: --jobs must be at least 1\n")
        return EXIT_ERROR
    if settings.output_format not in emitters and not args.diff:
        stderr.write(f"gpu-lint: error: output format '{settings.output_format}' is not available\n")
        return EXIT_ERROR
    try:
        shard = None if args.shard is None else parse_shard(args.shard)
    except ValueError as exc:
        stderr.write(f"gpu-lint: error: {exc}\n")
        return EXIT_ERROR
    found, problems = discover(args.paths, settings, args.stdin_filename, args.force_exclude, cwd, resolver.for_folder)
    if shard is not None:
        found = select_shard(found, settings.root, shard)
    targets: list[Target] = []
    chosen: list[Settings] = []
    for target in found:
        own = _settings_of(target, resolver, args.stdin_filename, cwd)
        if own is not None:
            targets.append(target)
            chosen.append(own)
    stderr.write("".join(f"gpu-lint: error: {line}\n" for line in resolver.errors))
    broken = bool(resolver.errors)
    reading_stdin = any(t.path is None for t in targets)
    if reading_stdin and stdin is None:
        stdin = sys.stdin.buffer.read()
    if args.diff:
        mode = FixMode.COMPUTE
    elif settings.fix:
        mode = FixMode.COMPUTE if reading_stdin and len(targets) == 1 else FixMode.WRITE
    else:
        mode = FixMode.NONE
    if reading_stdin and settings.fix and len(targets) > 1:
        stderr.write("gpu-lint: error: --fix with standard input cannot be combined with other paths\n")
        return EXIT_ERROR
    reports = check_cached(targets, chosen, None if args.no_cache else Caches(), mode, args.jobs, stdin)
    context = Context(problems, fix_level(settings), cwd, fixing=mode is not FixMode.NONE, docs_url=settings.docs_url)
    fmt = settings.output_format
    human = fmt in HUMAN_FORMATS

    if args.diff:
        for report in reports:
            if report.changed:
                stdout.write(unified_diff(report))
        for problem in all_problems(reports, context):
            stderr.write(problem.line() + "\n")
        would: Counter[Severity] = Counter()
        for report in reports:
            would.update(report.applied_severities)
        stderr.write(f"Would fix {fix_count(would)}.\n" if would else "No errors would be fixed.\n")
        return _final(exit_status(reports, context, settings, diff=True), args.exit_zero, broken)

    stdin_fix = mode is FixMode.COMPUTE and reading_stdin
    if stdin_fix:
        stdout.write(reports[0].text if reports[0].text is not None else (stdin or b"").decode("utf-8", "replace"))
    report_stream = stderr if stdin_fix else stdout
    with ExitStack() as stack:
        if args.output_file:
            try:
                report_stream = stack.enter_context(open(args.output_file, "w", encoding="utf-8"))
            except OSError as exc:
                stderr.write(f"gpu-lint: error: cannot write {args.output_file}: {exc.strerror or exc}\n")
                return EXIT_ERROR
        if args.show_fixes:
            (report_stream if human else stderr).write(_fix_listing(reports, mode is not FixMode.NONE, context))
        if args.statistics:
            statistics.emit(report_stream, reports, context, as_json=fmt == "json")
        else:
            emitters[fmt](report_stream, reports, context)
    for problem in all_problems(reports, context):
        stderr.write(problem.line() + "\n")
    return _final(exit_status(reports, context, settings, diff=False), args.exit_zero, broken)


def _final(status: int, exit_zero: bool, broken: bool) -> int:
    """`--exit-zero` turns findings into 0; a file that could not be read or written, or a broken
    configuration file (`broken`), makes it 2."""
    if broken:
        return EXIT_ERROR
    return EXIT_CLEAN if exit_zero and status == EXIT_FINDINGS else status
