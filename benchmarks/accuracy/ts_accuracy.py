"""Accuracy of our TypeScript / JavaScript IMPORTS and CALLS edges against the TypeScript checker.

The oracle (`benchmarks/oracles/ts_oracle.py`, the `typescript` package's checker run under
node with `allowJs` + `checkJs`) writes, per pinned code base, its unpacked sources and two JSON
files under `benchmarks/cache/oracles/ts/` (format: `benchmarks/oracles/README.md`). This script
links the same sources with graphrag_code (in memory, no Neo4j) and compares, on the files the
oracle analysed:

- IMPORTS, file level: (importing file, file the specifier resolves to) for specifiers that
  resolve inside the code base. Re-export edges (`via`), self-imports and JSON targets (a code
  graph has no JSON modules; counted apart) are left out. External imports are scored apart as
  (file, package).
- CALLS, call-site level: (file, line of the call, target declaration) for every call the
  checker resolves to a function, method, constructor or class inside the code base (its
  `kind` "other" targets, variables holding a function, are not callable declarations).
  A target is matched to our node by file, name and the line of its name (inside the node's
  span). `new C()` of a class without a constructor: the checker names the class, we name the
  inherited constructor that runs, when there is one; both count as the same target.
  Precision and recall are reported for exact + inferred edges (the certain tiers), with the
  name tier apart. "judged" precision counts only our edges at sites where the checker gave
  an answer of any kind (inside, outside, or a non-callable declaration); at sites it left
  unresolved (`any`, unions, or an export it names by the `Object.defineProperty` call that
  defines it) our edges can be neither confirmed nor refuted. Sites are lines,
  so an edge the checker does not confirm is unjudged too where it left a call of the target's
  name on that line unresolved (`this.set('views', resolve('views'))`: answering `resolve`
  says nothing of `this.set`), as the Python oracles judge by a call of the target's name.
- Every tier (issue 50: each must earn its place): its CALLS edges (graph edges, internal, from
  the analysed files), its call sites, its precision over all its sites and judged, and the
  ratio of possible (name, dispatch, many, signature, partial) to certain graph edges.

    .venv/bin/python -m benchmarks.accuracy.ts_accuracy [mobx-6.13.7 ...] [--json out.json]
        [--show-errors N]
    .venv/bin/python -m benchmarks.accuracy.ts_accuracy --set heldout [--json out.json]
        [--md out.md]

Without names: the first five code bases (`TS_CODEBASES`) whose oracle output exists.
`--set tuning|heldout|all` scores the code bases of a set of `benchmarks.oracles.ts_oracle`
(the oracle must have been built for them); `--tiers` prints the per-tier table too.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.accuracy.tier_precision import score
from benchmarks.oracles.packages import ORACLE_OUT_DIR
from benchmarks.oracles.ts_oracle import TS_CODEBASES, TS_SETS
from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.languages.ecmascript.linker import EcmaContext
from graphrag_code.languages.ecmascript.modules import EcmaProject
from graphrag_code.languages.ecmascript.resolver import EcmaResolver
from graphrag_code.linking.index import Lookups
from graphrag_code.linking.targets import SymbolRef
from graphrag_code.model import EdgeKind, Resolution, Symbol, SymbolKind

ORACLE_DIR = ORACLE_OUT_DIR / "ts"
CERTAIN = frozenset({Resolution.EXACT, Resolution.INFERRED})
POSSIBLE = tuple(tier for tier in Resolution if tier not in CERTAIN)
Site = tuple[str, int]  # (file, line)
Call = tuple[str, int, str]  # (file, line, target key)
NamedSite = tuple[str, int, str]  # (file, line, final name of a callee)

_FINAL_NAME = re.compile(r"([A-Za-z_$][\w$]*)\s*$")


class Nodes:
    """Our nodes by file and name, to match the checker's declarations (file, name, line)."""

    def __init__(self, linked: LinkedRepository) -> None:
        self.linked = linked
        self.by_name: dict[tuple[str, str], list[tuple[int, int, str]]] = defaultdict(list)
        self.path_of: dict[str, str] = {}
        self.symbol_of: dict[str, Symbol] = {}
        for path, parsed in linked.parsed.items():
            self.path_of[linked.ids.of_module(parsed)] = path
            for symbol in parsed.symbols:
                node = linked.ids.of_symbol(
                    symbol.qualified_name, ordinal=symbol.ordinal, path=parsed.path
                )
                self.path_of[node] = path
                self.symbol_of[node] = symbol
                self.by_name[(path, symbol.name)].append((symbol.start_line, symbol.end_line, node))
        context = linked.contexts.get("typescript")
        project = context.project if isinstance(context, EcmaContext) else None
        self._resolver = EcmaResolver(Lookups(linked.index), project or EcmaProject())

    def called_as(self, node: str, name: str) -> bool:
        """Whether a call of `name` reaches our node `node`: its own name, or another its owner
        gives it (`res.set = res.header = function header …`: `this.set()` is `header`)."""
        symbol = self.symbol_of.get(node)
        if symbol is None:
            return False
        if symbol.name == name:
            return True
        owner = self.linked.index.symbols.get(symbol.parent)
        if owner is None or owner.kind != SymbolKind.CLASS:
            return False
        found = self._resolver.attribute(SymbolRef(owner.qualified_name), name)
        return isinstance(found, SymbolRef) and found.qualified_name == symbol.qualified_name

    def match(self, target: dict[str, Any]) -> str:
        """Our node for a checker declaration, or a key no node of ours has."""
        name = target["name"]
        if name == "module.exports":
            name = "default"
        spans = [
            (end - start, node)
            for start, end, node in self.by_name.get((target["file"], name), [])
            if start <= target["line"] <= end
        ]
        if not spans:
            return f"missing:{target['file']}:{target['line']}:{name}"
        node = min(spans)[1]
        if target.get("kind") == "class":
            symbol = self.symbol_of[node]
            if symbol.kind == SymbolKind.CLASS:
                runs = self._resolver.constructor(symbol.qualified_name)
                if runs is not None:
                    return self.linked.ids.of_target(runs)
        return node


def _oracle_imports(oracle: dict[str, Any], files: set[str]) -> tuple[set[Any], set[Any], int]:
    internal, external, json_targets = set(), set(), 0
    for record in oracle["imports"]:
        if record["file"] not in files:
            continue
        resolved = record.get("resolved")
        if resolved is not None and resolved != record["file"]:
            if resolved.endswith(".json"):
                json_targets += 1
                continue
            internal.add((record["file"], resolved))
        elif record.get("external"):
            external.add((record["file"], record["external"]))
    return internal, external, json_targets


def _our_imports(
    linked: LinkedRepository, nodes: Nodes, files: set[str]
) -> tuple[set[Any], set[Any]]:
    internal, external = set(), set()
    for edge in linked.edges():
        if edge.kind != EdgeKind.IMPORTS or edge.via is not None:
            continue
        source = nodes.path_of.get(edge.source)
        if source is None or source not in files:
            continue
        if edge.external:
            external.add((source, edge.target))
        else:
            target = nodes.path_of.get(edge.target)
            if target is not None and target != source:
                internal.add((source, target))
    return internal, external


def checker_calls(
    oracle: dict[str, Any], nodes: Nodes, files: set[str]
) -> tuple[set[Call], set[Site], set[NamedSite]]:
    """(file, line, target) of the calls the checker resolved to a callable declaration
    inside the code base, every site where it gave any answer at all, and (file, line, final
    name) of the calls it left unresolved."""
    calls: set[Call] = set()
    judged: set[Site] = set()
    unanswered: set[NamedSite] = set()
    for site in oracle["calls"]:
        if site["file"] not in files:
            continue
        target = site.get("target")
        if target is not None and target.get("declaration_kind") == "CallExpression":
            # `errors_1.CLIError` of tsc's `Object.defineProperty(exports, "CLIError", { get:
            # … })`: the checker names the call that defines the export, not what it exports
            target = None
        if target is not None or site.get("external"):
            judged.add((site["file"], site["line"]))
        else:
            final = _FINAL_NAME.search(site.get("callee_text") or "")
            if final is not None:
                unanswered.add((site["file"], site["line"], final.group(1)))
        if target is not None and target.get("kind") != "other":
            calls.add((site["file"], site["line"], nodes.match(target)))
    return calls, judged, unanswered


def _unjudged(
    ours: set[Call], nodes: Nodes, oracle_calls: set[Call], unanswered: set[NamedSite]
) -> set[Call]:
    """Our edges the checker does not confirm whose line holds an unresolved call of the
    target's name (or an alias of it): the answer that makes the line judged was about another
    call."""
    names: dict[Site, set[str]] = defaultdict(set)
    for file, line, name in unanswered:
        names[(file, line)].add(name)
    return {
        call
        for call in ours - oracle_calls
        if any(nodes.called_as(call[2], name) for name in names.get(call[:2], ()))
    }


def our_calls(
    linked: LinkedRepository, nodes: Nodes, files: set[str]
) -> tuple[dict[Resolution, set[Call]], dict[Resolution, int]]:
    """Our call sites by tier, and our CALLS graph edges (source, target) counted by tier."""
    by_tier: dict[Resolution, set[Call]] = defaultdict(set)
    edges: dict[Resolution, int] = defaultdict(int)
    for edge in linked.edges():
        if edge.kind != EdgeKind.CALLS or edge.external or edge.resolution is None:
            continue
        source = nodes.path_of.get(edge.source)
        if source is None or source not in files:
            continue
        edges[edge.resolution] += 1
        for line in edge.lines:
            by_tier[edge.resolution].add((source, line, edge.target))
    return by_tier, edges


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def tier_figures(
    tiers: dict[Resolution, set[Call]],
    edges: dict[Resolution, int],
    oracle_calls: set[Call],
    judged: set[Site],
    unjudged: frozenset[Call] | set[Call] = frozenset(),
) -> dict[str, Any]:
    """Per tier: graph edges, call sites, precision over all sites and over judged ones (None
    where the tier has no site the checker answered; `unjudged`: edges at answered lines that
    still are not judged), and possible against certain edges."""
    figures: dict[str, Any] = {}
    for tier in Resolution:
        sites = tiers.get(tier, set())
        at_judged = {call for call in sites if call[:2] in judged and call not in unjudged}
        figures[tier.value] = {
            "edges": edges.get(tier, 0),
            "sites": len(sites),
            "precision": _ratio(len(sites & oracle_calls), len(sites)),
            "judged_sites": len(at_judged),
            "judged_precision": _ratio(len(at_judged & oracle_calls), len(at_judged)),
        }
    certain = sum(edges.get(tier, 0) for tier in CERTAIN)
    possible = sum(edges.get(tier, 0) for tier in POSSIBLE)
    return {
        "tiers": figures,
        "certain_edges": certain,
        "possible_edges": possible,
        "possible_per_certain": _ratio(possible, certain),
    }


def compare(
    root: Path, imports_oracle: dict[str, Any], calls_oracle: dict[str, Any], show_errors: int = 0
) -> dict[str, Any]:
    """Our graph of the code base at `root` against the checker's answers."""
    linked = link_repository(root, repo="ts")
    files = set(calls_oracle.get("files") or imports_oracle.get("files") or linked.parsed)
    nodes = Nodes(linked)
    oracle_imports, oracle_external, json_targets = _oracle_imports(imports_oracle, files)
    ours_imports, ours_external = _our_imports(linked, nodes, files)
    oracle_calls, judged, unanswered = checker_calls(calls_oracle, nodes, files)
    tiers, edge_counts = our_calls(linked, nodes, files)
    unjudged = _unjudged(set().union(*tiers.values()), nodes, oracle_calls, unanswered)
    certain = tiers[Resolution.EXACT] | tiers[Resolution.INFERRED]
    at_judged = {call for call in certain if call[:2] in judged and call not in unjudged}
    named = tiers[Resolution.NAME]
    result: dict[str, Any] = {
        "package": f"{calls_oracle.get('package')}@{calls_oracle.get('version')}",
        "files": len(files),
        "files_linked": len(files & set(linked.parsed)),
        "imports": score(ours_imports, oracle_imports).as_dict(),
        "imports_json_targets_left_out": json_targets,
        "imports_external": score(ours_external, oracle_external).as_dict(),
        "calls_certain": score(certain, oracle_calls).as_dict(),
        "calls_certain_judged": score(at_judged, oracle_calls).as_dict(),
        "calls_with_name_tier": score(certain | named, oracle_calls).as_dict(),
        "calls_name_tier_judged": score(
            {c for c in named if c[:2] in judged and c not in unjudged}, oracle_calls
        ).as_dict(),
        "calls_by_tier": {
            tier.value: score(tiers[tier], oracle_calls).as_dict() for tier in Resolution
        },
        "oracle_targets_without_a_node": sum(
            1 for c in oracle_calls if c[2].startswith("missing:")
        ),
        "calls_tiers": tier_figures(tiers, edge_counts, oracle_calls, judged, unjudged),
    }
    if show_errors:
        result["errors"] = {
            "imports_missing": sorted(oracle_imports - ours_imports)[:show_errors],
            "imports_extra": sorted(ours_imports - oracle_imports)[:show_errors],
            "calls_missing": sorted(oracle_calls - certain - named)[:show_errors],
            "calls_extra_judged": sorted(at_judged - oracle_calls)[:show_errors],
        }
    return result


def evaluate(name: str, show_errors: int = 0) -> dict[str, Any]:
    """Compare with the oracle output for the code base folder `name` (`mobx-6.13.7`)."""
    root = ORACLE_DIR / name
    imports = json.loads((ORACLE_DIR / f"{name}.imports.json").read_text())
    calls = json.loads((ORACLE_DIR / f"{name}.calls.json").read_text())
    return compare(root, imports, calls, show_errors)


def markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "| code base | files | imports P | imports R | calls P (exact+inferred) | calls P judged "
        "| calls R (exact+inferred) | calls R (+name) | name-tier P judged (edges) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['package']} | {r['files']} | {r['imports']['precision']:.3f} | "
            f"{r['imports']['recall']:.3f} | {r['calls_certain']['precision']:.3f} | "
            f"{r['calls_certain_judged']['precision']:.3f} | {r['calls_certain']['recall']:.3f} | "
            f"{r['calls_with_name_tier']['recall']:.3f} | "
            f"{r['calls_name_tier_judged']['precision']:.2f} "
            f"({r['calls_name_tier_judged']['ours']}) |"
        )
    return "\n".join(lines)


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def tier_markdown(results: list[dict[str, Any]]) -> str:
    """One row per code base: certain P / judged P / R, each tier's edges and judged precision,
    and possible edges per certain edge."""
    head = " | ".join(f"{tier.value} edges (P judged)" for tier in Resolution)
    lines = [
        f"| set | code base | certain P | certain P judged | certain R | {head} "
        "| possible / certain |",
        "|---|---|" + "---:|" * (len(Resolution) + 4),
    ]
    for r in results:
        tiers = r["calls_tiers"]
        per_tier = [tiers["tiers"][t.value] for t in Resolution]
        cells = " | ".join(f"{f['edges']} ({_cell(f['judged_precision'])})" for f in per_tier)
        lines.append(
            f"| {r.get('set') or '–'} | {r['package']} | {r['calls_certain']['precision']:.3f} | "
            f"{r['calls_certain_judged']['precision']:.3f} | {r['calls_certain']['recall']:.3f} "
            f"| {cells} | {_cell(tiers['possible_per_certain'])} |"
        )
    return "\n".join(lines)


def set_of(name: str) -> str | None:
    """`tuning` or `heldout` for a pinned code base folder (`mobx-6.13.7`), else None."""
    for label in ("tuning", "heldout"):
        if any(entry.root_name == name for entry in TS_SETS[label]):
            return label
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("codebases", nargs="*", help="folders under benchmarks/cache/oracles/ts")
    parser.add_argument("--set", choices=sorted(TS_SETS), help="every code base of a set")
    parser.add_argument("--tiers", action="store_true", help="print the per-tier table too")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--md", type=Path, help="write both tables as Markdown")
    parser.add_argument("--show-errors", type=int, default=0)
    args = parser.parse_args()
    names = list(args.codebases) + [entry.root_name for entry in TS_SETS.get(args.set or "", ())]
    # Without names or a set: the first five code bases, as before the sets existed.
    names = names or [
        entry.root_name
        for entry in TS_CODEBASES
        if (ORACLE_DIR / f"{entry.root_name}.calls.json").is_file()
    ]
    if not names:
        raise SystemExit(
            f"no oracle output in {ORACLE_DIR}: run `python -m benchmarks.oracles.ts_oracle`"
        )
    missing = [n for n in names if not (ORACLE_DIR / f"{n}.calls.json").is_file()]
    if missing:
        raise SystemExit(
            f"no oracle output for {', '.join(missing)} in {ORACLE_DIR}: run "
            "`python -m benchmarks.oracles.ts_oracle --set ...` first"
        )
    results = [{"set": set_of(name), **evaluate(name, args.show_errors)} for name in names]
    print(markdown(results))
    if args.tiers or args.set:
        print()
        print(tier_markdown(results))
    if args.md:
        args.md.parent.mkdir(parents=True, exist_ok=True)
        args.md.write_text(markdown(results) + "\n\n" + tier_markdown(results) + "\n")
    if args.show_errors:
        print(json.dumps([{r["package"]: r["errors"]} for r in results], indent=1))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
