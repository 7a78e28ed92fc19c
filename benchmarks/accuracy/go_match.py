"""Matching a graph's Go edges against the Go oracle's answers, by location only.

Pure functions over plain records (no linking, no Go): `go_accuracy` turns a linked graph and
the oracle's JSON into these records; `tests/test_go_accuracy.py` feeds them by hand.

Every declaration is a location, never a name, so the comparison does not depend on how the
graph names Go symbols: a declaration is `(file, line)` — the line of its name in the oracle,
the symbol's first line in the graph (`func` and the name share a line). A call is
`(file, line, caller, callee)`:

- `line`: the oracle knows three lines of a call (its start, the callee's final name, the
  `(`); a graph edge's line may be any of them (a chain split over lines).
- `caller`: the named top-level declaration whose span holds the call (a func or method, or a
  package-level `var f = func() {...}`); calls in closures belong to it, and `(file, 0)` is
  package level. A graph caller is mapped to the oracle span holding its first line, so a
  graph that names a closure still compares with its enclosing declaration.
- `callee`: the in-module declaration, or the external's qualified name
  (`import/path.Recv.Name`, a builtin's bare name; the receiver may differ, see
  `_same_target`).

A graph pair is `right` when the oracle has it; `unjudged` when the oracle has no static
callee for a call on that line (a function value, a field of function type) and nothing
else on the line explains it; otherwise `wrong`, with a class saying why. Unjudged pairs are
reported apart and never count as right.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Loc = tuple[str, int]  # (file, line) of a declaration; (file, 0): package level
JsonDict = dict[str, Any]

CONCRETE = frozenset({"func", "method"})
"""Oracle call kinds with a concrete static callee (recall is measured on these)."""
DYNAMIC = frozenset({"interface", "typeparam"})
"""Oracle call kinds whose static callee is an interface method: the runtime picks the body."""


@dataclass(frozen=True)
class OracleCall:
    """One call expression as the oracle saw it."""

    file: str
    lines: frozenset[int]  # start, final name, "("
    line: int  # start
    col: int  # start (two calls may share every line)
    caller: Loc
    kind: str  # func | method | interface | typeparam | builtin | value
    callee: Loc | None  # in-module declaration
    external: str | None  # qualified name outside the module
    text: str = ""  # the callee expression
    name: str = ""  # go/types' name of the callee, for error listings
    external_pkg: str = ""  # the external's import path and member name, for a loose match
    external_member: str = ""


@dataclass(frozen=True)
class GraphCall:
    """One (line, target) of a graph CALLS edge; `caller` is already mapped (`Spans.caller`)."""

    file: str
    line: int
    caller: Loc
    tier: str
    callee: Loc | None = None
    external: str | None = None
    callee_name: str = ""  # the graph's name of the target, for error listings


@dataclass
class Verdicts:
    """Graph pairs judged against the oracle."""

    right: list[GraphCall] = field(default_factory=list)
    wrong: list[tuple[GraphCall, str]] = field(default_factory=list)  # (pair, class)
    unjudged: list[GraphCall] = field(default_factory=list)
    found: set[OracleCall] = field(default_factory=set)  # oracle calls some right pair matched

    @property
    def precision(self) -> float | None:
        judged = len(self.right) + len(self.wrong)
        return len(self.right) / judged if judged else None

    def as_dict(self) -> JsonDict:
        return {
            "precision": _round(self.precision),
            "right": len(self.right),
            "wrong": len(self.wrong),
            "unjudged": len(self.unjudged),
            "wrong_by_class": dict(Counter(cls for _, cls in self.wrong).most_common()),
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def recall(found: Iterable[OracleCall], wanted: Iterable[OracleCall]) -> JsonDict:
    """Share of `wanted` oracle calls that some graph pair matched."""
    wanted_set = set(wanted)
    hit = len(wanted_set & set(found))
    return {
        "recall": _round(hit / len(wanted_set) if wanted_set else None),
        "found": hit,
        "oracle": len(wanted_set),
    }


class Spans:
    """The oracle's caller declarations per file, to map any line to its top-level caller."""

    def __init__(self, decls: Iterable[Mapping[str, Any]]) -> None:
        per_file: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        for decl in decls:
            per_file[decl["file"]].append((decl["start_line"], decl["end_line"], decl["line"]))
        self._spans = {path: sorted(spans) for path, spans in per_file.items()}
        self._starts = {path: [s[0] for s in spans] for path, spans in self._spans.items()}

    def caller(self, file: str, line: int) -> Loc:
        """The declaration whose span holds `line` (its name's line), else package level."""
        spans = self._spans.get(file, [])
        index = bisect_right(self._starts.get(file, []), line) - 1
        if index >= 0 and spans[index][0] <= line <= spans[index][1]:
            return (file, spans[index][2])
        return (file, 0)


def _loc(decl: Mapping[str, Any] | None) -> Loc | None:
    return None if decl is None else (decl["file"], decl["line"])


def oracle_calls(calls: Iterable[Mapping[str, Any]]) -> list[OracleCall]:
    """The oracle's call records (calls.json `calls`) as `OracleCall`s."""
    out = []
    for record in calls:
        caller = record.get("caller")
        external = record.get("external")
        out.append(
            OracleCall(
                file=record["file"],
                lines=frozenset(
                    {record["line"], record.get("name_line", 0), record.get("lparen_line", 0)} - {0}
                ),
                line=record["line"],
                col=record.get("col", 0),
                caller=(record["file"], caller["line"]) if caller else (record["file"], 0),
                kind=record["kind"],
                callee=_loc(record.get("callee")),
                external=external["qualified"] if external else None,
                text=record.get("callee_text", ""),
                name=(record.get("callee") or {}).get("name")
                or (external or {}).get("qualified")
                or "",
                external_pkg=(external or {}).get("pkg", ""),
                external_member=(external or {}).get("name", ""),
            )
        )
    return out


class OracleIndex:
    """Oracle calls and conversions by (file, line), every line of a call counting."""

    def __init__(
        self,
        calls: Sequence[OracleCall],
        conversions: Iterable[Mapping[str, Any]] = (),
        files: Iterable[str] = (),
    ) -> None:
        self.calls = list(calls)
        self.files = frozenset(files)  # the files go/types loaded (empty: not known)
        self.at: dict[Loc, list[OracleCall]] = defaultdict(list)
        for call in self.calls:
            for line in call.lines:
                self.at[(call.file, line)].append(call)
        self.conversions: dict[Loc, set[Any]] = defaultdict(set)
        for conv in conversions:  # the type converted to: its name, its declaration
            types = self.conversions[(conv["file"], conv["line"])]
            types.add(conv.get("type"))
            types.add(_loc(conv.get("decl")))

    def judge(self, pair: GraphCall) -> tuple[str, list[OracleCall]]:
        """`right` (with the oracle calls it stands for: `c.Name() < d.Name()` is two calls of
        one target on one line, one graph pair), `unjudged`, or a wrong class."""
        here = self.at.get((pair.file, pair.line), [])
        same_target = [call for call in here if _same_target(call, pair)]
        confirmed = [call for call in same_target if call.caller == pair.caller]
        if confirmed:
            return "right", confirmed
        if same_target:
            return "wrong caller", []
        converted = self.conversions.get((pair.file, pair.line), set())
        if (pair.external or pair.callee) in converted:
            return "conversion", []
        if self.files and pair.callee is not None and pair.callee[0] not in self.files:
            # e.g. one of several files declaring a function under different build tags
            return "target in a file outside the build", []
        if not here:
            return ("conversion" if converted else "no call"), []
        if any(call.kind == "value" for call in here):
            return "unjudged", []
        if pair.external is not None:
            return "other external", []
        if any(call.callee is not None for call in here):
            if any(call.kind in DYNAMIC for call in here):
                return "interface call named concrete", []
            return "other in-module target", []
        if all(call.kind == "builtin" for call in here):
            return "builtin named in-module", []
        return "external call named in-module", []


def _same_target(call: OracleCall, pair: GraphCall) -> bool:
    """Same declaration; an external one by its name, where the receiver may differ: go/types
    names the type that declares a promoted method (`testing.common.Fatal`), a graph may name
    the type it was called on (`testing.T.Fatal`)."""
    if pair.callee is not None:
        return call.callee == pair.callee
    if call.external is None or pair.external is None:
        return False
    if call.external == pair.external:
        return True
    return bool(call.external_pkg) and (
        pair.external.startswith(call.external_pkg + ".")
        and pair.external.endswith("." + call.external_member)
    )


def judge_all(index: OracleIndex, pairs: Iterable[GraphCall]) -> Verdicts:
    """Each graph pair judged; `found` collects the oracle calls they confirm."""
    verdicts = Verdicts()
    for pair in pairs:
        verdict, calls = index.judge(pair)
        if verdict == "right":
            verdicts.right.append(pair)
            verdicts.found.update(calls)
        elif verdict == "unjudged":
            verdicts.unjudged.append(pair)
        else:
            verdicts.wrong.append((pair, verdict))
    return verdicts


def missed(index: OracleIndex, found: set[OracleCall], kinds: frozenset[str]) -> list[OracleCall]:
    """In-module oracle calls of `kinds` no right pair matched (recall's misses)."""
    return [
        call
        for call in index.calls
        if call.kind in kinds and call.callee is not None and call not in found
    ]


# ------------------------------------------------------------------------------------------
# imports
# ------------------------------------------------------------------------------------------


def score_sets(ours: set[Any], oracle: set[Any]) -> JsonDict:
    """Precision and recall of two sets of pairs."""
    right = len(ours & oracle)
    return {
        "precision": _round(right / len(ours) if ours else None),
        "recall": _round(right / len(oracle) if oracle else None),
        "right": right,
        "ours": len(ours),
        "oracle": len(oracle),
    }


def import_path_of(directory: str, module_path: str) -> str:
    """The import path of the package in `directory` (root-relative, "" at the root)."""
    return module_path if directory in ("", ".") else f"{module_path}/{directory}"


def oracle_imports(records: Iterable[Mapping[str, Any]], files: set[str]) -> set[tuple[str, str]]:
    """(file, import path) of every import spec in the analysed files."""
    return {(r["file"], r["path"]) for r in records if r["file"] in files}


# ------------------------------------------------------------------------------------------
# dispatch (calls through an interface) against the SSA call graph
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class DispatchSite:
    """An interface-method call site with each call graph's in-module targets (hashed by
    identity: one object per site)."""

    file: str
    lines: frozenset[int]
    caller: Loc
    targets: Mapping[str, frozenset[Loc]]  # graph algorithm -> targets


def dispatch_sites(
    sites: Iterable[Mapping[str, Any]], calls: Sequence[OracleCall], raw_calls: Sequence[JsonDict]
) -> list[DispatchSite]:
    """The SSA sites, matched to their call records by the position of "(" (all three lines of
    the call count)."""
    by_paren = {
        (r["file"], r["lparen_line"], r["lparen_col"]): call
        for r, call in zip(raw_calls, calls, strict=True)
    }
    out = []
    for site in sites:
        call = by_paren.get((site["file"], site["line"], site["col"]))
        lines = call.lines if call else frozenset({site["line"]})
        caller = call.caller if call else (site["file"], 0)
        targets = {
            algo: frozenset((t["file"], t["line"]) for t in found)
            for algo, found in site["targets"].items()
        }
        out.append(DispatchSite(site["file"], lines, caller, targets))
    return out


def judge_dispatch(sites: Sequence[DispatchSite], pairs: Iterable[GraphCall]) -> JsonDict:
    """Graph edges at interface call sites against each call graph: precision (a pair is right
    when the graph's target is one of the site's targets), and recall of the (site, target)
    pairs; pairs on lines without an interface call are counted apart."""
    at: dict[Loc, list[DispatchSite]] = defaultdict(list)
    for site in sites:
        for line in site.lines:
            at[(site.file, line)].append(site)
    algos = sorted({algo for site in sites for algo in site.targets})
    result: JsonDict = {}
    pair_list = [p for p in pairs if p.callee is not None]
    off_site = sum(1 for p in pair_list if not at.get((p.file, p.line)))
    for algo in algos:
        right = wrong = 0
        hit: set[tuple[DispatchSite, Loc]] = set()
        for pair in pair_list:
            here = at.get((pair.file, pair.line), [])
            if not here:
                continue
            matches = [s for s in here if pair.callee in s.targets.get(algo, frozenset())]
            if matches:
                right += 1
                hit.update((s, pair.callee) for s in matches if pair.callee is not None)
            else:
                wrong += 1
        wanted = {(s, t) for s in sites for t in s.targets.get(algo, frozenset())}
        result[algo] = {
            "precision": _round(right / (right + wrong) if right + wrong else None),
            "right": right,
            "wrong": wrong,
            "recall": _round(len(hit) / len(wanted) if wanted else None),
            "oracle_pairs": len(wanted),
        }
    result["graph_pairs_off_interface_sites"] = off_site
    return result
