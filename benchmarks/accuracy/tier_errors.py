"""The CALLS pairs of one tier that no judge confirms, site by site, grouped by the rule
that made them, to find classes of wrong edges rather than instances.

Each pair (caller module, callee) of the tier that jedi, mypy and running code (where cached)
all leave unconfirmed is listed with its edges' file:line and `via`, marked `wrong` when a
checker resolved a call of the callee's name on one of its lines to something else, else
`unjudged`. The group is the edge's `via` with names in backticks blanked
("the return value of `…`"), so one rule's mistakes sit together.

    .venv/bin/python -m benchmarks.accuracy.tier_errors huey==2.5.2 [--tier inferred]
        [--only wrong] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.accuracy import call_pairs
from benchmarks.accuracy import graph_accuracy as ga
from benchmarks.accuracy.tier_precision import Judges
from benchmarks.oracles.packages import ORACLE_OUT_DIR, fetch, parse_spec
from benchmarks.oracles.runtime_env import RUNTIME_DIR
from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.model import Resolution


@dataclass(frozen=True)
class Site:
    """One unconfirmed edge: where it is, what it reaches, why."""

    verdict: str  # "wrong" (a checker judged a call of that name there) or "unjudged"
    caller: str
    callee: str
    file: str
    lines: tuple[int, ...]
    via: str

    @property
    def rule(self) -> str:
        return re.sub(r"`[^`]*`", "`…`", self.via)


def _load(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text()) if path.is_file() else None


def _judges(spec: str, modules: list[str]) -> tuple[Judges, set[tuple[str, int, str]]]:
    name, version = parse_spec(spec)
    base = ORACLE_OUT_DIR / f"{name}-{version}"
    jedi = json.loads(Path(f"{base}.calls.json").read_text())
    mypy = _load(Path(f"{base}.calls_mypy.json"))
    runtime = _load(RUNTIME_DIR / f"{name}-{version}.calls.json")
    oracle = call_pairs.oracle_call_pairs(jedi)
    judges = Judges(
        jedi=frozenset(oracle),
        checkers=frozenset(oracle | call_pairs.second_opinion_pairs(jedi, mypy)),
        running=frozenset(call_pairs.runtime_pairs(runtime, modules)) if runtime else None,
    )
    return judges, call_pairs.named_sites(jedi, mypy)


def unconfirmed(spec: str, tier: Resolution) -> list[Site]:
    """The sites of `tier`'s pairs in `spec` that no judge confirms."""
    name, version = parse_spec(spec)
    linked = link_repository(fetch(name, version).package_dir, repo=name)
    imports = json.loads(Path(f"{ORACLE_OUT_DIR / f'{name}-{version}'}.imports.json").read_text())
    judges, named = _judges(spec, imports["modules"])
    confirmed = judges.confirmed()
    judged = call_pairs.judged_by_name(linked, {tier}, named)
    return sorted(_sites(linked, tier, confirmed, judged), key=lambda s: (s.rule, s.file, s.lines))


def _sites(
    linked: LinkedRepository,
    tier: Resolution,
    confirmed: frozenset[tuple[str, str]],
    judged: set[tuple[str, str]],
) -> list[Site]:
    sites = []
    for path in sorted(linked.links):
        edges = linked.links[path].edges
        for module, callee, edge in call_pairs.tier_edges(linked, {tier}, edges):
            pair = (module, callee)
            if pair in confirmed:
                continue
            verdict = "wrong" if pair in judged else "unjudged"
            caller = call_pairs.strip(linked.repo, edge.source)
            sites.append(Site(verdict, caller, pair[1], path, edge.lines, edge.via or "-"))
    return sites


def report(sites: list[Site]) -> str:
    """Sites grouped by rule, the largest group first."""
    groups: dict[str, list[Site]] = defaultdict(list)
    for site in sites:
        groups[site.rule].append(site)
    out = []
    for rule, members in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        wrong = sum(site.verdict == "wrong" for site in members)
        out.append(f"## {rule}  ({len(members)} sites, {wrong} wrong)")
        for s in members:
            lines = ",".join(map(str, s.lines))
            out.append(f"  {s.verdict:8} {s.file}:{lines}  {s.caller} -> {s.callee}  [{s.via}]")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="+")
    parser.add_argument(
        "--tier", default=Resolution.INFERRED.value, choices=[tier.value for tier in Resolution]
    )
    parser.add_argument("--only", choices=("wrong", "unjudged"))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    ga.require_oracles(args.packages)
    everything = {}
    for spec in args.packages:
        sites = unconfirmed(spec, Resolution(args.tier))
        if args.only:
            sites = [site for site in sites if site.verdict == args.only]
        print(f"# {spec}: {len(sites)} unconfirmed {args.tier} sites")
        print(report(sites))
        everything[spec] = [site.__dict__ for site in sites]
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1) + "\n")


if __name__ == "__main__":
    main()
