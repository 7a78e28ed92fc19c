"""Accuracy of our Java IMPORTS and CALLS edges against javac.

The oracle (`benchmarks/oracles/java_oracle.py`: javac's Trees API names the declaration of
every call, the sources' overrides of every virtual callee) writes, per pinned code base, the
unpacked main sources and one JSON file under `benchmarks/cache/oracles/java/` (format:
`benchmarks/oracles/README.md`). This script links the same folder with graphrag_code (in
memory, no Neo4j) and compares by location only (`java_match` says how, independent of the
graph's names):

- IMPORTS: per import statement, the file declaring the imported type (a package's folder for
  `pkg.*`), or the external's qualified name.
- CALLS, certain tiers (exact + inferred): precision over judged pairs, per-tier precision,
  recall against the calls javac binds to a declaration in the sources (method, static, `new`,
  `this(...)`, `super(...)`; calls through an interface or abstract method apart, enum
  constants and method references apart), and external calls where the graph names them.
- Overload choice: at calls whose callee has overloads in its class, how often the graph's
  certain edge is javac's choice.
- Dispatch: the graph's possible edges at virtual calls against the overrides CHA gives.
- Speed: files linked per second by `link_repository` (parse + link, one worker).

    .venv/bin/python -m benchmarks.accuracy.java_accuracy --set tuning [--md out.md]
        [--json out.json] [--show-errors N]
    .venv/bin/python -m benchmarks.accuracy.java_accuracy gson jsoup

The oracle must have run first (`python -m benchmarks.oracles.java_oracle --set ...`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.accuracy.java_match import (
    CALL_KINDS,
    Decls,
    GraphCall,
    Loc,
    OracleIndex,
    Target,
    Verdicts,
    dispatch_targets,
    in_sources,
    judge_all,
    judge_dispatch,
    missed,
    oracle_calls,
    oracle_imports,
    overload_choice,
    recall,
    score_imports,
)
from benchmarks.accuracy.located import cell, line_count, tier_table, timed_link
from benchmarks.accuracy.scorer_cli import Scorer, score_main
from benchmarks.oracles.java_oracle import (
    JAVA_OUT_DIR,
    JAVA_SETS,
    OUTPUT_SUFFIX,
    OracleSetupError,
    pinned,
)
from graphrag_code.ingest.offline import LinkedRepository
from graphrag_code.model import EdgeKind, Resolution

JsonDict = dict[str, Any]
CERTAIN = (Resolution.EXACT, Resolution.INFERRED)


class GraphNodes:
    """Our nodes as locations: node id -> (file, first line); a file's node -> (file, 0)."""

    def __init__(self, linked: LinkedRepository) -> None:
        self.locs: dict[str, Loc] = {}
        self.name: dict[str, str] = {}
        for path, parsed in sorted(linked.parsed.items()):
            self.locs[linked.ids.of_module(parsed)] = (path, 0)
            for symbol in parsed.symbols:
                node = linked.ids.of_symbol(
                    symbol.qualified_name, ordinal=symbol.ordinal, path=parsed.path
                )
                self.locs.setdefault(node, (path, symbol.start_line))
                self.name[node] = symbol.qualified_name


def graph_calls(
    linked: LinkedRepository, nodes: GraphNodes, decls: Decls, files: set[str]
) -> list[GraphCall]:
    """Every (line, target) of our CALLS edges from the compiled files, caller and callee
    mapped to javac's declarations."""
    out = []
    for path in sorted(set(linked.links) & files):
        for edge in linked.links[path].edges:
            if edge.kind != EdgeKind.CALLS or edge.resolution is None:
                continue
            caller = decls.caller(nodes.locs.get(edge.source, (path, 0)))
            callee: Loc | None = None
            external = None
            if edge.external:
                external = edge.target
            else:
                loc = nodes.locs.get(edge.target)
                callee = (decls.callee(loc) if loc else None) or (f"?{edge.target}", 0)
            name = edge.target if edge.external else nodes.name.get(edge.target, edge.target)
            for line in edge.lines:
                out.append(
                    GraphCall(path, line, caller, edge.resolution.value, callee, external, name)
                )
    return out


def graph_imports(
    linked: LinkedRepository, nodes: GraphNodes, files: set[str]
) -> list[tuple[Loc, Target]]:
    """((file, line), target) of our IMPORTS edges from the compiled files."""
    out: list[tuple[Loc, Target]] = []
    for path in sorted(set(linked.links) & files):
        for edge in linked.links[path].edges:
            if edge.kind != EdgeKind.IMPORTS:
                continue
            target: Target
            if edge.external:
                target = ("ext", edge.target)
            else:
                loc = nodes.locs.get(edge.target)
                target = ("file", loc[0]) if loc else ("ext", f"?{edge.target}")
            for line in edge.lines or (0,):
                out.append(((path, line), target))
    return out


def _tier_pairs(pairs: Iterable[GraphCall], tiers: Iterable[str]) -> list[GraphCall]:
    wanted = set(tiers)
    return [p for p in pairs if p.tier in wanted]


def _dedupe(pairs: Iterable[GraphCall]) -> list[GraphCall]:
    """One pair per (file, line, caller, target): two tiers of one edge count once."""
    seen: dict[tuple[Any, ...], GraphCall] = {}
    for p in pairs:
        seen.setdefault((p.file, p.line, p.caller, p.callee, p.external), p)
    return list(seen.values())


def compare(root: Path, oracle: JsonDict, repeat: int = 1) -> tuple[JsonDict, JsonDict]:
    """Scores for one code base, and the material for error listings."""
    linked, link_s = timed_link(root, repeat, frozenset({"java"}))
    files = set(oracle["files"])
    decls = Decls(oracle["decls"])
    nodes = GraphNodes(linked)
    ocalls = oracle_calls(oracle["calls"], decls)
    index = OracleIndex(ocalls, decls, dispatch_targets(oracle["dispatch"], decls))
    pairs = graph_calls(linked, nodes, decls, files)
    internal = [p for p in pairs if p.callee is not None]
    external = [p for p in pairs if p.external is not None]
    certain_tiers = [t.value for t in CERTAIN]
    certain = judge_all(index, _dedupe(_tier_pairs(internal, certain_tiers)))
    per_tier = {
        tier.value: judge_all(index, _dedupe(_tier_pairs(internal, [tier.value])))
        for tier in Resolution
    }
    any_tier = judge_all(index, _dedupe(internal))
    ext = judge_all(index, _dedupe(_tier_pairs(external, certain_tiers)))
    oracle_ext = [c for c in ocalls if c.external and c.kind in CALL_KINDS]
    wanted_imports = oracle_imports(oracle["imports"], decls, files)
    dispatched = [p for p in internal if p.tier == Resolution.DISPATCH.value]
    java_files = sum(1 for path in linked.parsed if path.endswith(".java"))
    aside = {
        kind: recall(certain.found, [c for c in ocalls if c.kind == kind and c.callee])
        for kind in ("enum_constant", "reference")
    }
    result: JsonDict = {
        "code_base": root.name,
        "files": len(files),
        "files_linked": len(files & set(linked.parsed)),
        "imports": score_imports(wanted_imports, graph_imports(linked, nodes, files)),
        "calls_certain": certain.as_dict(),
        "calls_certain_recall": recall(
            certain.found, in_sources(ocalls, CALL_KINDS, dynamic=False)
        ),
        "calls_certain_recall_with_dynamic": recall(
            certain.found, in_sources(ocalls, CALL_KINDS, dynamic=True)
        ),
        "calls_any_tier_recall": recall(
            any_tier.found, in_sources(ocalls, CALL_KINDS, dynamic=False)
        ),
        "calls_recall_aside": aside,
        "calls_by_tier": {tier: v.as_dict() for tier, v in per_tier.items()},
        "overloads": overload_choice(index, internal, certain_tiers),
        "external_calls": {**ext.as_dict(), **recall(ext.found, oracle_ext)},
        "dispatch": judge_dispatch(index, dispatched),
        "dispatch_sites": len(index.dispatch),
        "link_s": round(link_s, 2),
        "java_files_linked": java_files,
        "files_per_s": round(java_files / link_s, 1) if link_s else None,
        "lines_per_s": round(line_count(root, linked.parsed) / link_s) if link_s else None,
    }
    material = {"certain": certain, "any": any_tier, "external": ext, "index": index, "root": root}
    return result, material


def _source(root: Path, file: str, line: int) -> str:
    try:
        lines = (root / file).read_text(encoding="utf-8").splitlines()
        return lines[line - 1].strip()[:120] if 0 < line <= len(lines) else ""
    except OSError:
        return ""


def error_examples(material: JsonDict, count: int) -> JsonDict:
    """Per wrong class of the certain tiers, and for the misses: `count` examples with what
    the graph said and what javac said on that line."""
    certain: Verdicts = material["certain"]
    external: Verdicts = material["external"]
    index: OracleIndex = material["index"]
    root: Path = material["root"]
    by_class: dict[str, list[str]] = defaultdict(list)
    sizes: dict[str, int] = defaultdict(int)
    wrong = certain.wrong + [(pair, f"external: {cls}") for pair, cls in external.wrong]
    for pair, cls in wrong:
        sizes[cls] += 1
        if len(by_class[cls]) < count:
            said = [f"{c.kind} {c.name}" for c in index.at.get((pair.file, pair.line), [])]
            by_class[cls].append(
                f"{pair.file}:{pair.line} [{pair.tier}] graph: {pair.callee_name} "
                f"(caller line {pair.caller[1]}); javac: {'; '.join(said) or 'no call'} "
                f"| {_source(root, pair.file, pair.line)}"
            )
    misses: dict[str, list[str]] = defaultdict(list)
    miss_sizes: dict[str, int] = defaultdict(int)
    possible: Verdicts = material["any"]
    for call in missed(index.calls, certain.found):
        key = f"missed {call.kind}" + (" (virtual)" if call.virtual == "class" else "")
        key += ": possible edges only" if call in possible.found else ": no edge"
        miss_sizes[key] += 1
        if len(misses[key]) < count:
            misses[key].append(
                f"{call.file}:{call.line} javac: {call.name} "
                f"| {_source(root, call.file, call.line)}"
            )
    return {
        "wrong": {f"{cls} ({sizes[cls]})": ex for cls, ex in by_class.items()},
        "missed": {f"{kind} ({miss_sizes[kind]})": ex for kind, ex in misses.items()},
    }


def evaluate(name: str, show_errors: int = 0, repeat: int = 1) -> JsonDict:
    """Compare with the oracle output for the folder `name` (`gson-2.11.0`)."""
    oracle = json.loads((JAVA_OUT_DIR / f"{name}{OUTPUT_SUFFIX}").read_text(encoding="utf-8"))
    result, material = compare(JAVA_OUT_DIR / name, oracle, repeat)
    if show_errors:
        result["errors"] = error_examples(material, show_errors)
    return result


def markdown(results: Sequence[JsonDict]) -> str:
    """The summary table, the overload / dispatch table and the per-tier table."""
    lines = [
        "| set | code base | files | imports P | imports R | calls P (exact+inferred) "
        "| unjudged | calls R | R (+ interface/abstract) | R (any tier) | external P "
        "| external R | link s | files/s | lines/s |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.get('set') or '–'} | {r['code_base']} | {r['files']} "
            f"| {cell(r['imports']['precision'])} | {cell(r['imports']['recall'])} "
            f"| {cell(r['calls_certain']['precision'])} | {r['calls_certain']['unjudged']} "
            f"| {cell(r['calls_certain_recall']['recall'])} "
            f"| {cell(r['calls_certain_recall_with_dynamic']['recall'])} "
            f"| {cell(r['calls_any_tier_recall']['recall'])} "
            f"| {cell(r['external_calls']['precision'])} | {cell(r['external_calls']['recall'])} "
            f"| {r['link_s']} | {r['files_per_s']} | {r['lines_per_s']} |"
        )
    lines += [
        "",
        "| set | code base | overload sites | overload choice accuracy (right / wrong) "
        "| only possible edges (holding javac's) | no edge | dispatch P vs CHA (right / wrong) "
        "| dispatch R (CHA pairs) | possible pairs off virtual calls |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        o, d = r["overloads"], r["dispatch"]
        lines.append(
            f"| {r.get('set') or '–'} | {r['code_base']} | {o['sites']} "
            f"| {cell(o['accuracy'])} ({o['right']} / {o['wrong']}) "
            f"| {o['possible_only']} ({o['possible_only_holding_javac_choice']}) | {o['no_edge']} "
            f"| {cell(d['precision'])} ({d['right']} / {d['wrong']}) "
            f"| {cell(d['recall'])} ({d['oracle_pairs']}) | {d['pairs_off_virtual_sites']} |"
        )
    lines += ["", *tier_table(results, "code_base", "code base")]
    return "\n".join(lines)


SCORER = Scorer(
    language='java', title='Java', unit='code base', example='gson',
    sets=JAVA_SETS, out_dir=JAVA_OUT_DIR, output_suffix=OUTPUT_SUFFIX,
    oracle_module="benchmarks.oracles.java_oracle", pinned=pinned,
    setup_error=OracleSetupError, evaluate=evaluate, markdown=markdown, name_key='code_base',
)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module's docstring)."""
    return score_main(SCORER, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    raise SystemExit(main())
