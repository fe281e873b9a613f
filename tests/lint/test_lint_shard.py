"""`--shard I/N`: every file checked by exactly one shard, chosen by path; bad values are usage errors; SARIF logs merge."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from lintkit import BROKEN

from gpu_lsp.lint.discovery import Target
from gpu_lsp.lint.shard import select_shard, shard_of

FILES = [f"d{i % 3}/sub{i % 2}/f{i:02}.mlir" for i in range(12)]


@pytest.fixture
def tree(write: Callable[[str, str], Path]) -> list[str]:
    for name in FILES:
        write(name, BROKEN)  # one finding a file, so that the JSON report names every checked file
    return FILES


def _checked(result) -> list[str]:
    return sorted({d["filename"] for d in json.loads(result.out)})


@pytest.mark.usefixtures("tree")
@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_shards_cover_every_file_exactly_once(gpu_lint, count: int) -> None:
    seen: list[str] = []
    for index in range(1, count + 1):
        result = gpu_lint(".", "--shard", f"{index}/{count}", "--output-format", "json", "-j", "1", "--no-cache")
        assert result.code in (0, 1) and result.err == ""
        seen.extend(_checked(result))
    assert sorted(seen) == sorted(FILES)


def test_the_split_depends_on_the_path_not_the_order_or_the_cwd(tmp_path: Path) -> None:
    targets = [Target(str(tmp_path / name), name) for name in FILES]
    for count in (2, 3, 7):
        forward = {t.display for i in range(1, count + 1) for t in select_shard(targets, tmp_path, (i, count))}
        assert forward == set(FILES)
        for target in targets:  # relative to the root: the same for another spelling of the path
            spelled = Target(str(tmp_path / "d0" / ".." / target.display), target.display)
            assert shard_of(spelled, tmp_path, count) == shard_of(target, tmp_path, count)
        shuffled = list(reversed(targets))
        for index in range(1, count + 1):
            assert {t.display for t in select_shard(shuffled, tmp_path, (index, count))} == {
                t.display for t in select_shard(targets, tmp_path, (index, count))
            }
    # 12 files over 3 shards by hash: no shard holds them all.
    assert all(len(select_shard(targets, tmp_path, (i, 3))) < len(FILES) for i in (1, 2, 3))


@pytest.mark.usefixtures("tree")
def test_a_shard_is_the_same_from_a_subfolder_of_the_project(gpu_lint, tmp_path: Path, write) -> None:
    write("gpu-lint.toml", "")
    top = _checked(gpu_lint("d1", "--shard", "2/3", "--output-format", "json", "--no-cache"))
    below = _checked(gpu_lint(".", "--shard", "2/3", "--output-format", "json", "--no-cache", cwd=tmp_path / "d1"))
    assert [name.removeprefix("d1/") for name in top] == below


@pytest.mark.parametrize("value", ["0/3", "4/3", "1/0", "0/0", "a/b", "3", "", "1/2/3", "-1/2", "1.5/2"])
def test_bad_shard_values_are_usage_errors(gpu_lint, write, value: str) -> None:
    write("a.mlir", BROKEN)
    result = gpu_lint(".", f"--shard={value}")
    assert result.code == 2 and result.out == ""
    assert len(result.err.splitlines()) == 1 and result.err.startswith("gpu-lint: error: --shard: ")


@pytest.mark.usefixtures("tree")
def test_merged_shard_logs_match_one_unsharded_log(gpu_lint, tmp_path: Path) -> None:
    gpu_lint(".", "--output-format", "sarif", "-o", "whole.sarif", "--no-cache", "-j", "1")
    names = []
    for index in (1, 2, 3):
        name = f"shard{index}.sarif"
        gpu_lint(".", "--shard", f"{index}/3", "--output-format", "sarif", "-o", name, "--no-cache", "-j", "1")
        names.append(name)
    merged = gpu_lint("merge-sarif", *names, "-o", "merged.sarif")
    assert (merged.code, merged.out, merged.err) == (0, "", "")
    expected, got = json.loads((tmp_path / "whole.sarif").read_text()), json.loads((tmp_path / "merged.sarif").read_text())
    (run,), (merged_run,) = expected["runs"], got["runs"]

    def key(result: dict) -> str:
        return json.dumps(result, sort_keys=True)

    assert sorted(map(key, merged_run.pop("results"))) == sorted(map(key, run.pop("results")))
    assert merged_run == run and got["version"] == expected["version"] == "2.1.0"


def test_merge_sarif_reindexes_rules_and_joins_notifications(gpu_lint, write) -> None:
    def log(rules: list[str], results: list[str], ok: bool, note: str | None) -> str:
        invocation: dict = {"executionSuccessful": ok}
        if note:
            invocation["toolExecutionNotifications"] = [{"level": "error", "message": {"text": note}}]
        run = {
            "tool": {"driver": {"name": "gpu-lint", "rules": [{"id": r} for r in rules]}},
            "invocations": [invocation],
            "results": [{"ruleId": r, "ruleIndex": rules.index(r)} for r in results],
        }
        return json.dumps({"version": "2.1.0", "runs": [run]})

    write("a.sarif", log(["GPU1", "GPU2"], ["GPU2"], True, None))
    write("b.sarif", log(["GPU3", "GPU2"], ["GPU2", "GPU3"], False, "cannot read x"))
    result = gpu_lint("merge-sarif", "a.sarif", "b.sarif")
    (run,) = json.loads(result.out)["runs"]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rules == ["GPU1", "GPU2", "GPU3"]
    assert [(r["ruleId"], rules[r["ruleIndex"]]) for r in run["results"]] == [("GPU2",) * 2, ("GPU2",) * 2, ("GPU3",) * 2]
    assert run["invocations"] == [
        {"executionSuccessful": False, "toolExecutionNotifications": [{"level": "error", "message": {"text": "cannot read x"}}]}
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{", "invalid JSON"),
        ('{"runs": []}', "not a gpu-lint SARIF log"),
        ('{"runs": [{"tool": 3}]}', "not a gpu-lint SARIF log"),
        ('{"runs": [{"results": [3]}]}', "not a gpu-lint SARIF log"),
    ],
)
def test_merge_sarif_errors_are_one_line(gpu_lint, write, content: str | None, message: str) -> None:
    if content is not None:
        write("bad.sarif", content)
    result = gpu_lint("merge-sarif", "bad.sarif")
    assert result.code == 2 and result.out == ""
    assert len(result.err.splitlines()) == 1 and message in result.err
