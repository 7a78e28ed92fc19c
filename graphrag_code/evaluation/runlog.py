"""The JSONL run log: every benchmark records what it asked, what came back and its scores.

A log holds runs. Each run starts with one ``run`` record (its configuration, the time, the
git commit of the code that ran, and the log's context); the records that follow carry the
run's id. Which records follow is the benchmark's business (``query``, ``answer``,
``evaluation``, ...): `read_run_log` and the report helpers read them back.

    log = RunLog(Path("eval-results/history.jsonl"), context={"command": "..."})
    run_id = log.start({"repo": "shop"})
    log.write(run_id, [{"type": "evaluation", "label": "hybrid", "means": {...}}])
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..runtime.git import GitError, git

__all__ = ["RunLog", "git_commit"]


def git_commit(root: Path | None = None) -> dict[str, Any]:
    """HEAD's commit and whether tracked files differ from it (None outside a checkout)."""
    folder = root or Path(__file__).resolve().parent
    try:
        head = git(folder, "rev-parse", "HEAD").stdout.strip()
        status = git(folder, "status", "--porcelain", "--untracked-files=no").stdout
    except GitError:
        return {"commit": None, "dirty": None}
    return {"commit": head, "dirty": bool(status.strip())}


class RunLog:
    """Appends runs to one JSONL file (created, with its folder, on the first write)."""

    def __init__(self, path: Path, *, context: Mapping[str, Any] | None = None) -> None:
        self.path = path
        self.context = dict(context or {})
        """Added to every ``run`` record (the command line, the dataset, the embedder...)."""

    def start(self, config: Mapping[str, Any]) -> str:
        """Write a ``run`` record for `config`; returns the new run's id (for `write`)."""
        run_id = uuid.uuid4().hex[:12]
        header = {
            "type": "run",
            "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "config": dict(config),
            "git": git_commit(),
            **self.context,
        }
        self.write(run_id, [header])
        return run_id

    def write(self, run_id: str, records: Iterable[Mapping[str, Any]]) -> None:
        """Append `records`, each with `run_id`, one JSON object per line (keys sorted)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            for record in records:
                line = {**record, "run_id": run_id}
                handle.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
