"""Accuracy of our Go IMPORTS and CALLS edges against go/types and the SSA call graph.

The oracle (`benchmarks/oracles/go_oracle.py`: go/packages + `typeutil.Callee` per call
expression, `cha` / `vta` for calls through interfaces) writes, per pinned module, its copied
sources and three JSON files under `benchmarks/cache/oracles/go/` (format:
`benchmarks/oracles/README.md`). This script links the same folder with graphrag_code (in
memory, no Neo4j) and compares, on the files the oracle loaded (the host's build tags; tests
included), by location only (`go_match` says how, independent of the graph's names):

- IMPORTS: (file, import path) for every import spec, in-module and external; an in-module
  edge's target file gives its package's import path (module path from `go.mod` + directory).
- CALLS, certain tiers (exact + inferred): precision over judged pairs (unjudged ones — a
  line whose only unexplained call has no static callee — apart), per-tier precision, recall
  against the in-module concrete static callees (funcs and methods; interface methods apart),
  and external calls where the graph names them (import path + receiver + name).
- Dispatch: the graph's edges at calls through an interface method against the targets `cha`
  and `vta` give that call.
- Speed: files linked per second by `link_repository` (parse + link, one worker).

    .venv/bin/python -m benchmarks.accuracy.go_accuracy --set tuning [--md out.md]
        [--json out.json] [--show-errors N]
    .venv/bin/python -m benchmarks.accuracy.go_accuracy cobra logrus

The oracle must have run first (`python -m benchmarks.oracles.go_oracle --set ...`).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.accuracy.go_match import (
    CONCRETE,
    DYNAMIC,
    GraphCall,
    Loc,
    OracleCall,
    OracleIndex,
    Spans,
    Verdicts,
    dispatch_sites,
    import_path_of,
    judge_all,
    judge_dispatch,
    missed,
    oracle_calls,
    oracle_imports,
    recall,
    score_sets,
)
from benchmarks.accuracy.located import cell, line_count, tier_table, timed_link
from benchmarks.accuracy.scorer_cli import Scorer, score_main
from benchmarks.oracles.go_oracle import GO_OUT_DIR, GO_SETS, OracleSetupError, pinned
from graphrag_code.ingest.offline import LinkedRepository
from graphrag_code.model import EdgeKind, Resolution

JsonDict = dict[str, Any]
CERTAIN = (Resolution.EXACT, Resolution.INFERRED)
_MODULE_LINE = re.compile(r"^\s*module\s+(\S+)", re.MULTILINE)


class GraphNodes:
    """Our nodes as locations: node id -> (file, first line); a file's node -> (file, 0).

    Declarations that share a name in one package (one function per build tag, in several
    files) are a node each, the first file's the one calls lead to: that node keeps every
    declaration's location, and the one in a file go/types loaded is preferred."""

    def __init__(self, linked: LinkedRepository, files: set[str]) -> None:
        self.locs: dict[str, list[Loc]] = defaultdict(list)
        self.name: dict[str, str] = {}
        self.files = files
        for path, parsed in sorted(linked.parsed.items()):
            self.locs[linked.ids.of_module(parsed)].append((path, 0))
            for symbol in parsed.symbols:
                node = linked.ids.of_symbol(
                    symbol.qualified_name, ordinal=symbol.ordinal, path=parsed.path
                )
                self.locs[node].append((path, symbol.start_line))
                self.name[node] = symbol.qualified_name
                first = linked.ids.of_symbol(symbol.qualified_name, ordinal=symbol.ordinal)
                if first != node:
                    self.locs[first].append((path, symbol.start_line))

    def loc(self, node: str, path: str | None = None) -> Loc | None:
        """The node's location in `path` if it has one there, else in a loaded file."""
        locs = self.locs.get(node)
        if not locs:
            return None
        for loc in locs:
            if loc[0] == path:
                return loc
        return next((loc for loc in locs if loc[0] in self.files), locs[0])


def graph_calls(
    linked: LinkedRepository, nodes: GraphNodes, spans: Spans, files: set[str]
) -> list[GraphCall]:
    """Every (line, target) of our CALLS edges from the analysed files, caller mapped (the
    file is the one whose links hold the edge)."""
    out = []
    for path in sorted(set(linked.links) & files):
        for edge in linked.links[path].edges:
            if edge.kind != EdgeKind.CALLS or edge.resolution is None:
                continue
            source = nodes.loc(edge.source, path) or (path, 0)
            caller = spans.caller(path, source[1]) if source[1] else (path, 0)
            callee: Loc | None = None
            external = None
            if edge.external:
                external = edge.target
            else:
                callee = nodes.loc(edge.target) or (f"?{edge.target}", 0)
            name = edge.target if edge.external else nodes.name.get(edge.target, edge.target)
            for line in edge.lines:
                out.append(
                    GraphCall(path, line, caller, edge.resolution.value, callee, external, name)
                )
    return out


def graph_imports(
    linked: LinkedRepository, nodes: GraphNodes, files: set[str], module_path: str
) -> set[tuple[str, str]]:
    """(file, import path) of our IMPORTS edges from the analysed files."""
    out = set()
    for path in sorted(set(linked.links) & files):
        for edge in linked.links[path].edges:
            if edge.kind != EdgeKind.IMPORTS:
                continue
            if edge.external:
                out.add((path, edge.target))
                continue
            target = nodes.loc(edge.target)
            if target is not None:
                out.add((path, import_path_of(posixpath.dirname(target[0]), module_path)))
    return out


def module_path_of(root: Path) -> str:
    """The module path `go.mod` declares."""
    match = _MODULE_LINE.search((root / "go.mod").read_text(encoding="utf-8"))
    if match is None:
        raise OracleSetupError(f"{root / 'go.mod'} declares no module")
    return match.group(1).strip('"')


def _tier_pairs(pairs: Iterable[GraphCall], tiers: Iterable[str]) -> list[GraphCall]:
    wanted = set(tiers)
    return [p for p in pairs if p.tier in wanted]


def _dedupe(pairs: Iterable[GraphCall]) -> list[GraphCall]:
    """One pair per (file, line, caller, target): two tiers of one edge count once."""
    seen: dict[tuple[Any, ...], GraphCall] = {}
    for p in pairs:
        seen.setdefault((p.file, p.line, p.caller, p.callee, p.external), p)
    return list(seen.values())


def compare(
    root: Path,
    calls_json: JsonDict,
    imports_json: JsonDict,
    dispatch_json: JsonDict,
    repeat: int = 1,
) -> tuple[JsonDict, JsonDict]:
    """Scores for one module, and the material for error listings."""
    linked, link_s = timed_link(root, repeat, frozenset({"go"}))
    files = set(calls_json["files"])
    module_path = module_path_of(root)
    nodes = GraphNodes(linked, files)
    spans = Spans(calls_json["decls"])
    ocalls = oracle_calls(calls_json["calls"])
    index = OracleIndex(ocalls, calls_json.get("conversions", ()), files)
    pairs = graph_calls(linked, nodes, spans, files)
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
    oracle_ext = [c for c in ocalls if c.external and c.kind != "builtin"]
    builtins_named = sum(1 for p in external if p.external and "." not in p.external)
    ours_imports = graph_imports(linked, nodes, files, module_path)
    wanted_imports = oracle_imports(imports_json["imports"], files)
    in_module = {i for i in wanted_imports if _under(i[1], module_path)}
    dsites = dispatch_sites(dispatch_json.get("sites") or [], ocalls, calls_json["calls"])
    possible = [p for p in internal if p.tier not in certain_tiers]
    go_files = sum(1 for path in linked.parsed if path.endswith(".go"))
    result: JsonDict = {
        "module": f"{calls_json['module']}@{root.name.rsplit('-', 1)[-1]}",
        "files": len(files),
        "files_linked": len(files & set(linked.parsed)),
        "imports": score_sets(ours_imports, wanted_imports),
        "imports_in_module": score_sets(
            {i for i in ours_imports if _under(i[1], module_path)}, in_module
        ),
        "imports_external": score_sets(
            {i for i in ours_imports if not _under(i[1], module_path)}, wanted_imports - in_module
        ),
        "calls_certain": certain.as_dict(),
        "calls_certain_recall": recall(certain.found, _with_callee(ocalls, CONCRETE)),
        "calls_certain_recall_with_interface": recall(
            certain.found, _with_callee(ocalls, CONCRETE | DYNAMIC)
        ),
        "calls_any_tier_recall": recall(any_tier.found, _with_callee(ocalls, CONCRETE)),
        "calls_by_tier": {tier: v.as_dict() for tier, v in per_tier.items()},
        "external_calls": {
            **ext.as_dict(),
            **recall(ext.found, oracle_ext),
            "graph_names_builtins": builtins_named,
        },
        "dispatch": judge_dispatch(dsites, possible),
        "dispatch_sites": len(dsites),
        "link_s": round(link_s, 2),
        "go_files_linked": go_files,
        "files_per_s": round(go_files / link_s, 1) if link_s else None,
        "lines_per_s": round(line_count(root, linked.parsed) / link_s) if link_s else None,
    }
    return result, {"certain": certain, "external": ext, "index": index, "root": root}


def _under(path: str, module_path: str) -> bool:
    return path == module_path or path.startswith(module_path + "/")


def _with_callee(calls: Sequence[OracleCall], kinds: frozenset[str]) -> list[OracleCall]:
    return [c for c in calls if c.kind in kinds and c.callee is not None]


def _source(root: Path, file: str, line: int) -> str:
    try:
        lines = (root / file).read_text(encoding="utf-8").splitlines()
        return lines[line - 1].strip()[:120] if 0 < line <= len(lines) else ""
    except OSError:
        return ""


def error_examples(material: JsonDict, count: int) -> JsonDict:
    """Per wrong class of the certain tiers, and per missed call kind: `count` examples with
    what the graph said and what go/types said on that line."""
    certain: Verdicts = material["certain"]
    index: OracleIndex = material["index"]
    root: Path = material["root"]
    by_class: dict[str, list[str]] = defaultdict(list)
    sizes: dict[str, int] = defaultdict(int)
    external: Verdicts = material["external"]
    wrong = certain.wrong + [(pair, f"external: {cls}") for pair, cls in external.wrong]
    for pair, cls in wrong:
        sizes[cls] += 1
        if len(by_class[cls]) < count:
            said = [
                f"{c.kind} {c.name or c.text}" for c in index.at.get((pair.file, pair.line), [])
            ]
            by_class[cls].append(
                f"{pair.file}:{pair.line} [{pair.tier}] graph: {pair.callee_name} "
                f"(caller line {pair.caller[1]}); go/types: {'; '.join(said) or 'no call'} "
                f"| {_source(root, pair.file, pair.line)}"
            )
    misses: dict[str, list[str]] = defaultdict(list)
    miss_sizes: dict[str, int] = defaultdict(int)
    for call in missed(index, certain.found, CONCRETE):
        key = f"missed {call.kind}"
        miss_sizes[key] += 1
        if len(misses[key]) < count:
            misses[key].append(
                f"{call.file}:{call.line} go/types: {call.name} via `{call.text}` "
                f"| {_source(root, call.file, call.line)}"
            )
    return {
        "wrong": {f"{cls} ({sizes[cls]})": ex for cls, ex in by_class.items()},
        "missed": {f"{kind} ({miss_sizes[kind]})": ex for kind, ex in misses.items()},
    }


def evaluate(name: str, show_errors: int = 0, repeat: int = 1) -> JsonDict:
    """Compare with the oracle output for the module folder `name` (`cobra-v1.8.1`)."""
    root = GO_OUT_DIR / name
    loaded = {
        kind: json.loads((GO_OUT_DIR / f"{name}.{kind}.json").read_text(encoding="utf-8"))
        for kind in ("calls", "imports", "dispatch")
    }
    result, material = compare(root, loaded["calls"], loaded["imports"], loaded["dispatch"], repeat)
    if show_errors:
        result["errors"] = error_examples(material, show_errors)
    return result


def markdown(results: Sequence[JsonDict]) -> str:
    """The summary table and the per-tier table."""
    lines = [
        "| set | module | files | imports P | imports R | calls P (exact+inferred) "
        "| unjudged | calls R (concrete) | R (+ interface methods) | R (any tier) "
        "| external P | external R | dispatch P cha / vta (pairs) | dispatch R cha / vta "
        "| link s | files/s | lines/s |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|",
    ]
    for r in results:
        d = r["dispatch"]
        pairs = sum(d.get("cha", {}).get(k, 0) for k in ("right", "wrong"))
        lines.append(
            f"| {r.get('set') or '–'} | {r['module']} | {r['files']} "
            f"| {cell(r['imports']['precision'])} | {cell(r['imports']['recall'])} "
            f"| {cell(r['calls_certain']['precision'])} | {r['calls_certain']['unjudged']} "
            f"| {cell(r['calls_certain_recall']['recall'])} "
            f"| {cell(r['calls_certain_recall_with_interface']['recall'])} "
            f"| {cell(r['calls_any_tier_recall']['recall'])} "
            f"| {cell(r['external_calls']['precision'])} | {cell(r['external_calls']['recall'])} "
            f"| {cell(d.get('cha', {}).get('precision'))} / "
            f"{cell(d.get('vta', {}).get('precision'))} ({pairs}) "
            f"| {cell(d.get('cha', {}).get('recall'))} / {cell(d.get('vta', {}).get('recall'))} "
            f"| {r['link_s']} | {r['files_per_s']} | {r['lines_per_s']} |"
        )
    lines += ["", *tier_table(results, "module", "module")]
    return "\n".join(lines)


SCORER = Scorer(
    language='go', title='Go', unit='module', example='cobra',
    sets=GO_SETS, out_dir=GO_OUT_DIR, output_suffix='.dispatch.json',
    oracle_module="benchmarks.oracles.go_oracle", pinned=pinned,
    setup_error=OracleSetupError, evaluate=evaluate, markdown=markdown, name_key='module',
)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module's docstring)."""
    return score_main(SCORER, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    raise SystemExit(main())
