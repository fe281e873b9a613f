"""`--shard I/N`: the shards of a tree cover every file exactly once, the same way on every run."""

from __future__ import annotations

import json

from lintkit import BROKEN, VALID


def _checked(gpu_lint, *argv: str) -> list[str]:
    """The files one run reports (each file has a finding, so each appears)."""
    result = gpu_lint("--output-format", "json", "--exit-zero", "--jobs", "1", *argv)
    assert result.code == 0, result.err
    return sorted({item["filename"].split("<ROOT>/")[-1] for item in json.loads(result.out)})


def test_the_shards_cover_every_file_exactly_once(gpu_lint, write) -> None:
    names = [f"d{i % 3}/f{i}.mlir" for i in range(11)]
    for name in names:
        write(name, BROKEN)
    write("clean.mlir", VALID)
    shards = [_checked(gpu_lint, "--shard", f"{i}/4") for i in range(1, 5)]
    assert sorted(n for shard in shards for n in shard) == sorted(names)
    assert all(2 <= len(shard) <= 3 for shard in shards), "dealt out evenly"
    assert shards == [_checked(gpu_lint, "--shard", f"{i}/4") for i in range(1, 5)], "deterministic"
    assert _checked(gpu_lint, "--shard", "1/1") == sorted(names)


def test_a_bad_shard_is_a_usage_error(gpu_lint, write) -> None:
    write("a.mlir", VALID)
    for bad in ("0/3", "4/3", "x/2", "3"):
        result = gpu_lint("--shard", bad)
        assert result.code == 2 and result.err.startswith("gpu-lint: error: --shard") and result.err.endswith("\n")
        assert result.err.count("\n") == 1
