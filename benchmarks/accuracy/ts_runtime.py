"""Our certain TypeScript / JavaScript CALLS call sites judged by the checker, then by running
code: where the checker leaves `this` untyped (express's `app.init = function () {
this.set(…) }`), a trace of the running package says whether the edge is right.

    .venv/bin/python -m benchmarks.accuracy.ts_runtime express-4.21.2 trace.tsv

The trace holds "file<TAB>line<TAB>target" rows, targets named as `ts_accuracy` names our
nodes (`benchmarks/oracles/ts/express_trace.js` writes one for express). A site of ours the
checker does not confirm is confirmed by running code when the trace holds it, contradicted
when the trace saw its line call the target's own code base but never the target, and not run
otherwise.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from benchmarks.accuracy.ts_accuracy import (
    ORACLE_DIR,
    Call,
    Nodes,
    checker_calls,
    our_calls,
)
from graphrag_code.ingest.offline import link_repository
from graphrag_code.model import Resolution


def read_trace(path: Path) -> set[Call]:
    """(file, line, target) rows of a runtime trace."""
    calls: set[Call] = set()
    for row in path.read_text(encoding="utf-8").splitlines():
        file, line, target = row.split("\t")
        calls.add((file, int(line), target))
    return calls


def judge(certain: set[Call], checker: set[Call], ran: set[Call]) -> dict[str, Any]:
    """Our certain sites: confirmed by the checker, else by running code, contradicted (the
    line ran and called other traced targets, never ours), or not run."""
    ran_lines = {call[:2] for call in ran}
    traced = {call[2] for call in ran}
    rest = certain - checker
    by_run = rest & ran
    contradicted = {c for c in rest - ran if c[:2] in ran_lines and c[2] in traced}
    judged = len(certain & checker) + len(by_run) + len(contradicted)
    return {
        "certain": len(certain),
        "checker_confirmed": len(certain & checker),
        "run_confirmed": len(by_run),
        "contradicted": sorted(contradicted),
        "not_run": len(rest - by_run - contradicted),
        "precision_checker_then_run": round((judged - len(contradicted)) / judged, 4)
        if judged
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("codebase", help="the code base folder, e.g. express-4.21.2")
    parser.add_argument("trace", type=Path)
    args = parser.parse_args()
    root = ORACLE_DIR / args.codebase
    calls = json.loads((ORACLE_DIR / f"{args.codebase}.calls.json").read_text())
    linked = link_repository(root, repo="ts")
    files = set(calls["files"])
    nodes = Nodes(linked)
    checker, _judged, _unanswered = checker_calls(calls, nodes, files)
    tiers, _edges = our_calls(linked, nodes, files)
    certain = tiers[Resolution.EXACT] | tiers[Resolution.INFERRED]
    print(json.dumps(judge(certain, checker, read_trace(args.trace)), indent=1))


if __name__ == "__main__":
    main()
