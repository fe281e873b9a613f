"""What ships for teams: the pre-commit hooks call gpu-lint with options it has; the CI example does too."""

from __future__ import annotations

import re
import shlex
import tomllib

from support import REPO

HOOKS = REPO / ".pre-commit-hooks.yaml"


def hooks() -> list[dict[str, str]]:
    """The hooks of .pre-commit-hooks.yaml (a flat list of `- key: value` mappings)."""
    out: list[dict[str, str]] = []
    for line in HOOKS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r"^(- |  )(\w+): (.*)$", line)
        assert m, f"unexpected line in {HOOKS.name}: {line!r}"
        if m.group(1) == "- ":
            out.append({})
        out[-1][m.group(2)] = m.group(3).strip('"')
    return out


def test_pre_commit_hooks_run_gpu_lint_with_valid_options(gpu_lint, write) -> None:
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    found = hooks()
    assert [h["id"] for h in found] == ["gpu-lint", "gpu-lint-fix"]
    write("a.mlir", "func.func @f() {\n  return\n}\n")
    for hook in found:
        command, *options = shlex.split(hook["entry"])
        assert command in scripts and hook["language"] == "python" and hook["require_serial"] == "true"
        assert re.search(hook["files"], "dir/k.mlir") and not re.search(hook["files"], "k.mlir.txt")
        assert gpu_lint(*options, "a.mlir").code == 0


def test_the_readme_workflow_uses_options_gpu_lint_has(gpu_lint, write) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## gpu-lint in CI") :]
    # The matrix job's command, as its first shard runs it.
    commands = [c.replace("${{ matrix.shard }}", "1") for c in re.findall(r"run: (gpu-lint .*)", section)]
    assert len(commands) == 3 and "upload-sarif" in section and "--shard 1/4" in commands[2]
    write("a.mlir", "func.func @f() {\n  return\n}\n")
    for command in commands:
        assert gpu_lint(*shlex.split(command)[1:]).code == 0
