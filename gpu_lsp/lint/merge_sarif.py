"""`gpu-lint merge-sarif`: the SARIF logs of `--shard` jobs as one log with one run, rules re-indexed (docs/lint-ci.md)."""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path
from typing import Any, NoReturn, TextIO

from gpu_lsp.lint.discovery import read_named

EXIT_USAGE = 2


class MergeError(Exception):
    """A log that cannot be merged; the message names the file."""


def _run_of(log: Any, name: str) -> dict[str, Any]:
    runs = log.get("runs") if isinstance(log, dict) else None
    if not isinstance(runs, list) or len(runs) != 1 or not isinstance(runs[0], dict):
        raise MergeError(f"{name}: not a gpu-lint SARIF log (expected one run)")
    run = runs[0]
    if not isinstance(run.get("tool", {}).get("driver", {}).get("rules", []), list):
        raise MergeError(f"{name}: not a gpu-lint SARIF log (no rule table)")
    return run


def merge(logs: list[tuple[str, Any]]) -> dict[str, Any]:
    """One log from the logs of several shards (name, parsed JSON); raises MergeError."""
    if not logs:
        raise MergeError("no SARIF files given")
    runs = [_run_of(log, name) for name, log in logs]
    first_log = logs[0][1]
    merged = copy.deepcopy(runs[0])
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    notifications: list[Any] = []
    successful = True
    for run in runs:
        for rule in run.get("tool", {}).get("driver", {}).get("rules", []):
            if rule.get("id") not in index:
                index[rule.get("id")] = len(rules)
                rules.append(rule)
        for result in run.get("results", []):
            result = dict(result)
            if result.get("ruleId") in index:
                result["ruleIndex"] = index[result["ruleId"]]
            results.append(result)
        for done in run.get("invocations", []):
            successful = successful and bool(done.get("executionSuccessful", True))
            notifications.extend(done.get("toolExecutionNotifications", []))
    merged.setdefault("tool", {}).setdefault("driver", {})["rules"] = rules
    merged["results"] = results
    invocation: dict[str, Any] = {"executionSuccessful": successful}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    merged["invocations"] = [invocation]
    return {"$schema": first_log.get("$schema"), "version": first_log.get("version"), "runs": [merged]}


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line (the command line interface's CliParser; this layer cannot import it)."""

    def error(self, message: str) -> NoReturn:
        raise MergeError(f"{message} (see {self.prog} --help)")


def _read(name: str) -> str:
    """The UTF-8 text of the file `name`; MergeError for a missing, unreadable, binary or non-UTF-8 file or a folder."""
    source = read_named(name, Path(name).read_bytes)
    if isinstance(source, str):
        raise MergeError(source)
    return source.text


def merge_command(argv: list[str], out: TextIO, err: TextIO) -> int:
    """`gpu-lint merge-sarif FILE... [-o OUT]`: write the merged log to OUT (standard output by default)."""
    parser = _Parser(prog="gpu-lint merge-sarif", description="Merge the SARIF logs of gpu-lint --shard runs into one run.")
    parser.add_argument("files", nargs="+", metavar="FILE", help="SARIF logs written by gpu-lint")
    parser.add_argument("-o", "--output-file", metavar="FILE", help="write the merged log to FILE")
    logs = []
    try:
        args = parser.parse_args(argv)
        for name in args.files:
            try:
                logs.append((name, json.loads(_read(name))))
            except ValueError as exc:
                raise MergeError(f"{name}: invalid JSON: {exc}") from None
        try:
            text = json.dumps(merge(logs), indent=2, ensure_ascii=False) + "\n"
        except (AttributeError, TypeError):
            raise MergeError("a file given is not a gpu-lint SARIF log") from None
        if args.output_file:
            try:
                with open(args.output_file, "w", encoding="utf-8") as handle:
                    handle.write(text)
            except OSError as exc:
                raise MergeError(f"cannot write {args.output_file}: {exc.strerror or exc}") from None
        else:
            out.write(text)
    except SystemExit as exc:
        return int(exc.code or 0)
    except MergeError as exc:
        err.write(f"gpu-lint merge-sarif: error: {exc}\n")
        return EXIT_USAGE
    return 0
