"""Every tier of our TS/JS CALLS sites judged by the checker, then by running code (issue 50).

A trace (``benchmarks/oracles/ts/runtime_trace.js finish``) holds "caller file<TAB>call
line<TAB>callee file<TAB>callee candidates<TAB>the call's callee name" rows, a candidate being
"name@line" of the callee's name (its own and the one it is bound to), the last field the last
name of the callee expression that ran (`this.a.send(…)`: "send"; empty for a getter read). A
callee becomes our node as `ts_accuracy` matches a checker declaration (file, name, line inside
the node's span). Then each of our call sites
(file, line, target) of a tier is, in this order:

- confirmed by the checker (it resolves that call to our target);
- refuted by the checker (it answered at that line and the line is judged, `ts_accuracy`'s
  rule) unless the run saw the line call our target, which overrides it;
- confirmed by running code (the line called our target);
- contradicted: a call at that line by our target's name (or an alias, `Nodes.called_as`) ran
  and reached other functions, never ours, and ours did run, from elsewhere. (`ts_runtime.judge`
  asks only that the line ran other traced functions; on a line such as `a ? x.f() : x.g()` that
  contradicts `f` whenever only `g` ran.)
- else not judged.

Where the checker confirms a site, the run is counted beside it (it saw the call, or it would
contradict it): how often the two judges agree checks the tracer.

Precision is reported over all sites (unjudged ones count as wrong) and over judged ones,
before (the checker alone, `ts_accuracy.tier_figures`) and after (checker, then running code).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from benchmarks.accuracy.ts_accuracy import CERTAIN, Call, Nodes, Site
from graphrag_code.model import Resolution

TraceRow = tuple[str, int, str, str, str]
"""Caller file, call line, callee file, callee candidates, the call's callee name."""
NamedRun = tuple[str, int, str, str]  # caller file, call line, callee name at the call, our node

COUNTS = (
    "sites",
    "checker_confirmed",
    "checker_refuted",
    "run_confirmed",
    "run_overrode_checker",
    "contradicted",
    "not_judged",
    "judged_before",
    "right_before",
    "checker_confirmed_ran",
    "checker_confirmed_contradicted",
)


class TraceError(ValueError):
    """A trace file whose rows are not "file<TAB>line<TAB>callee file<TAB>candidates<TAB>name"."""


def read_trace(path: Path) -> list[TraceRow]:
    """The rows of a finished trace."""
    rows: list[TraceRow] = []
    for number, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = row.split("\t")
        if len(parts) != 5 or not parts[1].isdigit():
            raise TraceError(f"{path}:{number}: not a trace row: {row!r}")
        rows.append((parts[0], int(parts[1]), parts[2], parts[3], parts[4]))
    return rows


def callee_node(nodes: Nodes, file: str, candidates: str) -> str:
    """Our node for a traced function, or a key no node has (an anonymous callback)."""
    for candidate in filter(None, candidates.split("|")):
        name, _, line = candidate.rpartition("@")
        node = nodes.match({"file": file, "name": name, "line": int(line)})
        if not node.startswith("missing:"):
            return node
    return f"unnamed:{file}:{candidates}"


def named_runs(rows: Iterable[TraceRow], nodes: Nodes, files: set[str]) -> set[NamedRun]:
    """(caller file, line, callee name at the call, our node) of the traced calls made from the
    analysed files."""
    return {
        (file, line, name, callee_node(nodes, callee_file, candidates))
        for file, line, callee_file, candidates, name in rows
        if file in files
    }


def ran_calls(runs: Iterable[NamedRun]) -> set[Call]:
    """(caller file, line, our node) of the traced calls."""
    return {(file, line, node) for file, line, _name, node in runs}


def went_elsewhere(
    sites: set[Call], runs: set[NamedRun], called_as: Callable[[str, str], bool]
) -> set[Call]:
    """Our sites whose line ran a call by the target's name (`called_as(target, name)`) that
    reached other functions, never the target, while the target ran from elsewhere."""
    at_line: dict[tuple[str, int], set[tuple[str, str]]] = defaultdict(set)
    for file, line, name, node in runs:
        at_line[(file, line)].add((name, node))
    traced = {node for _file, _line, _name, node in runs}
    out: set[Call] = set()
    for site in sites:
        calls = at_line.get(site[:2], set())
        if site[2] not in traced or any(node == site[2] for _name, node in calls):
            continue
        if any(name and called_as(site[2], name) for name, _node in calls):
            out.add(site)
    return out


def judge_sites(
    sites: set[Call],
    checker: set[Call],
    judged: set[Site],
    unjudged: set[Call],
    ran: set[Call],
    elsewhere: set[Call],
) -> dict[str, int]:
    """Counts of one tier's sites, checker first, then running code (module docstring);
    `elsewhere`: sites whose call ran and reached other functions (`went_elsewhere`)."""
    confirmed = sites & checker
    refuted = {c for c in sites - checker if c[:2] in judged and c not in unjudged}
    by_run = (sites - checker) & ran
    ran_elsewhere = (sites & elsewhere) - ran
    contradicted = ran_elsewhere - checker - refuted
    wrong = len(refuted - by_run) + len(contradicted)
    return {
        "sites": len(sites),
        "checker_confirmed": len(confirmed),
        "checker_refuted": len(refuted - by_run),
        "run_confirmed": len(by_run),
        "run_overrode_checker": len(by_run & refuted),
        "contradicted": len(contradicted),
        "not_judged": len(sites) - len(confirmed) - len(by_run) - wrong,
        "judged_before": len(confirmed) + len(refuted),
        "right_before": len(confirmed),
        # the two judges side by side, where both answer: the tracer's own check
        "checker_confirmed_ran": len(confirmed & ran),
        "checker_confirmed_contradicted": len(confirmed & ran_elsewhere),
    }


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def precisions(counts: dict[str, int]) -> dict[str, Any]:
    """The counts with precision before and after, over all sites and over judged ones."""
    right = counts["checker_confirmed"] + counts["run_confirmed"]
    judged = right + counts["checker_refuted"] + counts["contradicted"]
    return {
        **counts,
        "precision_before": _ratio(counts["right_before"], counts["sites"]),
        "judged_precision_before": _ratio(counts["right_before"], counts["judged_before"]),
        "precision_after": _ratio(right, counts["sites"]),
        "judged_after": judged,
        "judged_precision_after": _ratio(right, judged),
    }


def judge_tiers(
    tiers: dict[Resolution, set[Call]],
    checker: set[Call],
    judged: set[Site],
    unjudged: set[Call],
    ran: set[Call],
    elsewhere: set[Call],
) -> dict[str, dict[str, Any]]:
    """Per tier (and "certain", exact and inferred together): counts and precisions."""
    groups: dict[str, set[Call]] = {tier.value: tiers.get(tier, set()) for tier in Resolution}
    groups["certain"] = set().union(*(tiers.get(tier, set()) for tier in CERTAIN))
    return {
        name: precisions(judge_sites(sites, checker, judged, unjudged, ran, elsewhere))
        for name, sites in groups.items()
    }


def pool(results: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Several packages' tier figures summed (their sites never coincide: files differ)."""
    names = list(dict.fromkeys(name for result in results for name in result))
    return {
        name: precisions({key: sum(r[name][key] for r in results if name in r) for key in COUNTS})
        for name in names
    }
