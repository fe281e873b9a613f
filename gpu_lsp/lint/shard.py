"""`--shard I/N`: the files one of N CI jobs checks, chosen by a stable hash of each path, not by order."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from gpu_lsp.lint.discovery import Target

SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


def parse_shard(value: str) -> tuple[int, int]:
    """`I/N` as (I, N) with 1 <= I <= N; raises ValueError with a one-line reason."""
    match = SHARD.fullmatch(value)
    if match is None:
        raise ValueError(f"--shard: expected I/N such as 1/4 (got '{value}')")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"--shard: I must be between 1 and N, and N at least 1 (got '{value}')")
    return index, count


def shard_of(target: Target, root: Path, count: int) -> int:
    """The shard (1-based) that checks `target`: its path relative to `root` (else absolute), hashed."""
    if target.path is None:
        name = target.display
    else:
        absolute = Path(os.path.abspath(target.path))
        try:
            name = absolute.relative_to(root).as_posix()
        except ValueError:
            name = absolute.as_posix()
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def select_shard(targets: list[Target], root: Path, shard: tuple[int, int]) -> list[Target]:
    """The targets shard `I` of `N` checks, in their discovery order."""
    index, count = shard
    return [t for t in targets if shard_of(t, root, count) == index]
