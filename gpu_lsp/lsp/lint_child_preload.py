"""Imported once by the lint workers' forkserver (`worker_start.PRELOAD`): a worker's work on a small
text, so that every worker it forks starts with the rules imported and the parser's caches filled
(a cold worker pays about a second for them under load, on the open's critical path)."""

from __future__ import annotations

import gc

from gpu_lsp.lint.pool import WARM_UP
from gpu_lsp.lsp.lint_child import lint
from gpu_lsp.lsp.settings import EditorSettings

# Two top-level ops: the open's parse takes them one segment at a time, as it does a large text.
# With the editor's settings, which the server feeds its workers: unpickling them in a worker would
# otherwise import their module first (13 ms, on the open's critical path).
lint(WARM_UP + WARM_UP.replace("@warm_up", "@warm_up_again"), EditorSettings(), leaves_per_op_rules=False)
# What is left is the workers' to share: out of the collector's reach, it is not copied by a collection.
gc.collect()
gc.freeze()
