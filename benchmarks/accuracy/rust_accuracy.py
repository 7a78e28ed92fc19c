"""Accuracy of our Rust IMPORTS and CALLS edges against rust-analyzer.

The oracle (`benchmarks/oracles/rust_oracle.py`: rust-analyzer's SCIP index resolves every
reference to its definition; calls, `use` leaves and trait-method call sites are derived from it
by `rust_scip`) writes, per pinned crate, the unpacked crate and one JSON file under
`benchmarks/cache/oracles/rust/` (format: `benchmarks/oracles/README.md`). This script links
the same folder with graphrag_code (in memory, no Neo4j) and compares by location only
(`rust_match` says how, independent of the graph's names), over the files of `src/`:

- IMPORTS: per `use` item (its first line), the file declaring each imported item, or the
  external crate (`std` / `core` / `alloc` as one).
- CALLS, certain tiers (exact + inferred): precision over judged pairs, per-tier precision,
  recall against the calls rust-analyzer resolves to a function or method of the crate with one
  body (free functions, associated functions, inherent and trait-impl methods); calls of a
  trait's own method apart; external calls by crate and name.
- Dispatch: the graph's edges on a trait-method call's line against the crate's bodies that
  may run there (the trait's default body and every impl of that method).
- Speed: files linked per second by `link_repository` (parse + link, one worker).

    .venv/bin/python -m benchmarks.accuracy.rust_accuracy --set tuning [--md out.md]
        [--json out.json] [--show-errors N] [--repeat N] [--speed-baseline TREE ...]

The oracle must have run first (`python -m benchmarks.oracles.rust_oracle --set ...`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.accuracy.java_accuracy import GraphNodes
from benchmarks.accuracy.located import cell, line_count, tier_table, timed_link
from benchmarks.accuracy.rust_match import (
    CONCRETE,
    OUTSIDE,
    Decls,
    GraphCall,
    OracleIndex,
    Target,
    UseLines,
    Verdicts,
    dispatch_sites,
    external,
    external_of,
    in_crate,
    judge_all,
    judge_dispatch,
    oracle_calls,
    oracle_imports,
    own_macro_items,
    recall,
    score_sets,
)
from benchmarks.accuracy.scorer_cli import Scorer, score_main
from benchmarks.oracles.rust_oracle import (
    OUTPUT_VERSION,
    RUST_OUT_DIR,
    RUST_SETS,
    OracleSetupError,
    output_path,
    pinned,
)
from graphrag_code.ingest.offline import LinkedRepository
from graphrag_code.model import EdgeKind, Resolution

JsonDict = dict[str, Any]
CERTAIN = (Resolution.EXACT, Resolution.INFERRED)


def graph_calls(
    linked: LinkedRepository, nodes: GraphNodes, decls: Decls, files: set[str]
) -> list[GraphCall]:
    """Every (line, target) of our CALLS edges from the measured files, caller and callee
    mapped to the oracle's declarations."""
    out = []
    for path in sorted(set(linked.links) & files):
        for edge in linked.links[path].edges:
            if edge.kind != EdgeKind.CALLS or edge.resolution is None:
                continue
            caller = decls.caller(nodes.locs.get(edge.source, (path, 0)))
            callee = None
            ext = None
            if edge.external:
                ext = external_of(edge.target)
            else:
                loc = nodes.locs.get(edge.target)
                callee = (decls.at(loc) if loc else None) or (f"?{edge.target}", 0)
                if loc and loc[0] not in files:
                    callee = (f"{OUTSIDE}{loc[0]}", loc[1])
            name = edge.target if edge.external else nodes.name.get(edge.target, edge.target)
            for line in edge.lines:
                out.append(GraphCall(path, line, caller, edge.resolution.value, callee, ext, name))
    return out


def graph_imports(
    linked: LinkedRepository, nodes: GraphNodes, lines: UseLines, files: set[str]
) -> set[tuple[str, int, Target]]:
    """(file, first line of the `use`, target) of our IMPORTS edges from the measured files."""
    out: set[tuple[str, int, Target]] = set()
    for path in sorted(set(linked.links) & files):
        for edge in linked.links[path].edges:
            if edge.kind != EdgeKind.IMPORTS:
                continue
            target: Target
            if edge.external:
                target = ("ext", external_of(edge.target)[0], 0)
            else:
                loc = nodes.locs.get(edge.target)
                target = ("file", loc[0], 0) if loc else ("ext", f"?{edge.target}", 0)
            for line in edge.lines or (0,):
                out.add((path, lines.first((path, line)), target))
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
    """Scores for one crate, and the material for error listings."""
    linked, link_s = timed_link(root, repeat, frozenset({"rust"}))
    files = set(oracle["files"])
    decls = Decls(oracle["decls"])
    nodes = GraphNodes(linked)
    ocalls = oracle_calls(oracle["calls"])
    index = OracleIndex(ocalls, oracle.get("value_calls", ()), oracle.get("macro_rules", ()))
    pairs = graph_calls(linked, nodes, decls, files)
    internal = [p for p in pairs if p.callee is not None]
    ext_pairs = [p for p in pairs if p.external is not None]
    certain_tiers = [t.value for t in CERTAIN]
    certain = judge_all(index, _dedupe(_tier_pairs(internal, certain_tiers)))
    per_tier = {
        tier.value: judge_all(index, _dedupe(_tier_pairs(internal, [tier.value])))
        for tier in Resolution
    }
    any_tier = judge_all(index, _dedupe(internal))
    ext = judge_all(index, _dedupe(_tier_pairs(ext_pairs, certain_tiers)))
    use_lines = UseLines(oracle["imports"])
    rust_files = sum(1 for path in linked.parsed if path.endswith(".rs"))
    our_imports = graph_imports(linked, nodes, use_lines, files)
    their_imports = oracle_imports(
        own_macro_items(oracle["imports"], oracle.get("crate", ""), files), use_lines
    )
    result: JsonDict = {
        "code_base": root.name,
        "files": len(files),
        "files_linked": len(files & set(linked.parsed)),
        "imports": score_sets(our_imports, their_imports),
        "calls_certain": certain.as_dict(),
        "calls_certain_recall": recall(certain.found, in_crate(ocalls)),
        "calls_trait_method_recall": recall(any_tier.found, in_crate(ocalls, frozenset({"trait"}))),
        "calls_any_tier_recall": recall(any_tier.found, in_crate(ocalls)),
        "calls_by_tier": {tier: v.as_dict() for tier, v in per_tier.items()},
        "external_calls": {**ext.as_dict(), **recall(ext.found, external(ocalls))},
        "dispatch": judge_dispatch(
            dispatch_sites(oracle["dispatch"], files),
            [p for p in internal if p.tier == Resolution.DISPATCH.value],
        ),
        "link_s": round(link_s, 2),
        "rust_files_linked": rust_files,
        "files_per_s": round(rust_files / link_s, 1) if link_s else None,
        "lines_per_s": round(line_count(root, linked.parsed) / link_s) if link_s else None,
        "oracle": oracle.get("oracle", ""),
    }
    material = {
        "certain": certain,
        "any": any_tier,
        "external": ext,
        "index": index,
        "root": root,
        "imports": (our_imports, their_imports),
    }
    return result, material


def _source(root: Path, file: str, line: int) -> str:
    try:
        lines = (root / file).read_text(encoding="utf-8").splitlines()
        return lines[line - 1].strip()[:120] if 0 < line <= len(lines) else ""
    except OSError:
        return ""


def error_examples(material: JsonDict, count: int) -> JsonDict:
    """Per wrong class of the certain tiers, and for the misses: `count` examples with what
    the graph said and what rust-analyzer said on that line."""
    certain: Verdicts = material["certain"]
    ext: Verdicts = material["external"]
    possible: Verdicts = material["any"]
    index: OracleIndex = material["index"]
    root: Path = material["root"]
    by_class: dict[str, list[str]] = defaultdict(list)
    sizes: dict[str, int] = defaultdict(int)
    wrong = certain.wrong + [(pair, f"external: {cls}") for pair, cls in ext.wrong]
    for pair, cls in wrong:
        sizes[cls] += 1
        if len(by_class[cls]) < count:
            said = [f"{c.kind} {c.name}" for c in index.at.get((pair.file, pair.line), [])]
            by_class[cls].append(
                f"{pair.file}:{pair.line} [{pair.tier}] graph: {pair.callee_name} "
                f"(caller line {pair.caller[1]}); rust-analyzer: {'; '.join(said) or 'no call'} "
                f"| {_source(root, pair.file, pair.line)}"
            )
    misses: dict[str, list[str]] = defaultdict(list)
    miss_sizes: dict[str, int] = defaultdict(int)
    for call in in_crate(index.calls, CONCRETE):
        if call in certain.found:
            continue
        key = f"missed {call.kind}: " + (
            "possible edges only" if call in possible.found else "no edge"
        )
        miss_sizes[key] += 1
        if len(misses[key]) < count:
            misses[key].append(
                f"{call.file}:{call.line} rust-analyzer: {call.name} -> {call.callee} "
                f"| {_source(root, call.file, call.line)}"
            )
    return {
        "wrong": {f"{cls} ({sizes[cls]})": ex for cls, ex in by_class.items()},
        "missed": {f"{kind} ({miss_sizes[kind]})": ex for kind, ex in misses.items()},
        "imports": import_examples(material["imports"][0], material["imports"][1], root, count),
    }


def import_examples(
    ours: set[tuple[str, int, Target]],
    oracle: set[tuple[str, int, Target]],
    root: Path,
    count: int,
) -> JsonDict:
    """The wrong and missed IMPORTS pairs, grouped by what the `use` names (a file of the
    crate, or another crate): `count` examples a group, with the `use` line's source."""
    out: JsonDict = {}
    for what, pairs in (("wrong", ours - oracle), ("missed", oracle - ours)):
        groups: dict[str, list[tuple[str, int, Target]]] = defaultdict(list)
        for pair in sorted(pairs):
            kind, name, _ = pair[2]
            groups["a file of the crate" if kind == "file" else f"crate {name}"].append(pair)
        out[what] = {
            f"{group} ({len(items)})": [
                f"{file}:{line} -> {target[1]} | {_source(root, file, line)}"
                for file, line, target in items[:count]
            ]
            for group, items in sorted(groups.items(), key=lambda kv: -len(kv[1]))
        }
    return out


def evaluate(name: str, show_errors: int = 0, repeat: int = 1) -> JsonDict:
    """Compare with the oracle output for the folder `name` (`semver-1.0.27`)."""
    oracle = json.loads(output_path(pinned(name)).read_text(encoding="utf-8"))
    result, material = compare(RUST_OUT_DIR / name, oracle, repeat)
    if show_errors:
        result["errors"] = error_examples(material, show_errors)
    return result


def markdown(results: Sequence[JsonDict]) -> str:
    """The summary table, the dispatch table and the per-tier table."""
    lines = [
        "| set | crate | files | imports P | imports R | calls P (exact+inferred) "
        "| unjudged | calls R | R (any tier) | trait-method calls R (any tier) | external P "
        "| external R | link s | files/s | lines/s |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.get('set') or '–'} | {r['code_base']} | {r['files']} "
            f"| {cell(r['imports']['precision'])} | {cell(r['imports']['recall'])} "
            f"| {cell(r['calls_certain']['precision'])} | {r['calls_certain']['unjudged']} "
            f"| {cell(r['calls_certain_recall']['recall'])} "
            f"| {cell(r['calls_any_tier_recall']['recall'])} "
            f"| {cell(r['calls_trait_method_recall']['recall'])} "
            f"| {cell(r['external_calls']['precision'])} | {cell(r['external_calls']['recall'])} "
            f"| {r['link_s']} | {r['files_per_s']} | {r['lines_per_s']} |"
        )
    lines += [
        "",
        "| set | crate | trait call sites | dispatch P (right / wrong) "
        "| dispatch R (oracle pairs) |",
        "|---|---|---:|---:|---:|",
    ]
    for r in results:
        d = r["dispatch"]
        lines.append(
            f"| {r.get('set') or '–'} | {r['code_base']} | {d['sites']} "
            f"| {cell(d['precision'])} ({d['right']} / {d['wrong']}) "
            f"| {cell(d['recall'])} ({d['oracle_pairs']}) |"
        )
    lines += ["", *tier_table(results, "code_base", "crate")]
    return "\n".join(lines)


SCORER = Scorer(
    language='rust', title='Rust', unit='crate', example='semver',
    sets=RUST_SETS, out_dir=RUST_OUT_DIR, output_suffix=f'.v{OUTPUT_VERSION}.json',
    oracle_module="benchmarks.oracles.rust_oracle", pinned=pinned,
    setup_error=OracleSetupError, evaluate=evaluate, markdown=markdown, name_key='code_base',
)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module's docstring)."""
    return score_main(SCORER, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    raise SystemExit(main())
