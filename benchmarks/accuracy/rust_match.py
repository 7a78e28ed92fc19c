"""Matching a graph's Rust edges against the Rust oracle's answers, by location only.

Pure functions over plain records (no linking, no Rust): `rust_accuracy` turns a linked graph
and the oracle's JSON (`benchmarks/oracles/rust_oracle.py`) into these records;
`tests/test_rust_accuracy.py` feeds them by hand.

A declaration is `(file, line)`: the line of its name in the oracle. A graph node is mapped to
the oracle declaration whose item span holds its first line (`Decls.at`), so the comparison does
not depend on how the graph names Rust items, nor on whether its first line is an attribute,
`pub` or `fn`. A call is `(file, line, caller, callee)`:

- `line`: the line of the called name (`x.len()`, `Type::new(`); a graph pair on an earlier line
  of the same caller counts when no call on its own line explains it and the same target is
  called at most `CHAIN_LINES` lines below, every line between opening with a `.name(` call (a
  method chain split over lines, which a graph may place on the chain's first line).
- `caller`: the innermost named `fn` whose span holds the call; calls in closures belong to it,
  `(file, 0)` is outside any fn (a `const` initialiser).
- `callee`: the in-crate declaration, or the external's crate and final name (`std`, `core` and
  `alloc` count as one crate: rust-analyzer names the defining crate, a graph may name the
  re-export).

A graph pair is `right` when the oracle has it; `unjudged` when the oracle has no static callee
on that line but a call of a value (closure, fn pointer, field) or the line is inside a
`macro_rules!` body; otherwise `wrong`, with a class saying why. Unjudged pairs are reported
apart and never count as right.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Loc = tuple[str, int]  # (file, line) of a declaration; (file, 0): outside any fn
Target = tuple[str, str, int]  # ("decl", file, line) | ("ext", crate, 0) | ("file", file, 0)
JsonDict = dict[str, Any]

CHAIN_LINES = 4
"""How far below a graph pair's line the called name of a split method chain may be."""
STD_CRATES = frozenset({"std", "core", "alloc"})
CONCRETE = frozenset({"fn", "impl"})
"""Oracle call kinds with one body that runs (recall is measured on these)."""


def crate_family(crate: str) -> str:
    """`std`, `core` and `alloc` as one; a package's `-` as the `_` code names it with
    (rust-analyzer's `allocator-api2` is `use allocator_api2::…`)."""
    return "std" if crate in STD_CRATES else crate.replace("-", "_")


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


class Decls:
    """The oracle's declarations per file: map any line to the innermost one holding it."""

    def __init__(self, decls: Iterable[Mapping[str, Any]]) -> None:
        per_file: dict[str, list[tuple[int, int, int, bool]]] = defaultdict(list)
        for decl in decls:
            is_fn = str(decl.get("symbol", "")).endswith("().")
            per_file[decl["file"]].append(
                (decl["start_line"], decl["end_line"], decl["line"], is_fn)
            )
        self._spans = {path: sorted(spans) for path, spans in per_file.items()}

    def _innermost(self, file: str, line: int, fns_only: bool) -> int | None:
        best: tuple[int, int, int, bool] | None = None
        for span in self._spans.get(file, ()):
            if span[0] > line:
                break
            if (
                span[1] >= line
                and (span[3] or not fns_only)
                and (best is None or span[0] >= best[0])
            ):
                best = span
        return None if best is None else best[2]

    def caller(self, loc: Loc) -> Loc:
        """The fn holding `loc` (its name's line), else `(file, 0)`."""
        line = self._innermost(loc[0], loc[1], fns_only=True) if loc[1] else None
        return (loc[0], line or 0)

    def at(self, loc: Loc) -> Loc | None:
        """The declaration holding `loc`, or starting just below it (a doc comment's line)."""
        found = self._innermost(loc[0], loc[1], fns_only=False)
        if found is not None:
            return (loc[0], found)
        starts = [span[0] for span in self._spans.get(loc[0], ())]
        index = bisect_right(starts, loc[1])
        spans = self._spans.get(loc[0], [])
        if index < len(spans) and spans[index][0] - loc[1] <= 20:
            return (loc[0], spans[index][2])
        return None


@dataclass(frozen=True)
class OracleCall:
    """One call as the oracle saw it."""

    file: str
    line: int
    col: int
    caller: Loc
    kind: str  # fn | impl | trait
    callee: Loc | None
    external: tuple[str, str] | None  # (crate family, final name)
    name: str = ""
    chained: bool = False  # `.name(` opens its line


@dataclass(frozen=True)
class GraphCall:
    """One (line, target) of a graph CALLS edge, caller already mapped (`Decls.caller`)."""

    file: str
    line: int
    caller: Loc
    tier: str
    callee: Loc | None = None
    external: tuple[str, str] | None = None  # (crate family, final name)
    callee_name: str = ""


def oracle_calls(records: Iterable[Mapping[str, Any]]) -> list[OracleCall]:
    """The oracle's `calls` as `OracleCall`s."""
    out = []
    for r in records:
        caller, callee, external = r.get("caller"), r.get("callee"), r.get("external")
        out.append(
            OracleCall(
                file=r["file"],
                line=r["line"],
                col=r.get("col", 0),
                caller=(r["file"], caller["line"]) if caller else (r["file"], 0),
                kind=r["kind"],
                callee=(callee["file"], callee["line"]) if callee else None,
                external=(crate_family(external["crate"]), external["name"]) if external else None,
                name=r.get("name", ""),
                chained=bool(r.get("chained")),
            )
        )
    return out


def external_of(name: str) -> tuple[str, str]:
    """A graph's external name (`std::mem::swap`, `core.str.len`) as (crate family, name)."""
    parts = [p for p in name.replace(".", "::").split("::") if p]
    if not parts:
        return ("", "")
    return (crate_family(parts[0]), parts[-1])


@dataclass
class Verdicts:
    """Graph pairs judged against the oracle."""

    right: list[GraphCall] = field(default_factory=list)
    wrong: list[tuple[GraphCall, str]] = field(default_factory=list)
    unjudged: list[GraphCall] = field(default_factory=list)
    found: set[OracleCall] = field(default_factory=set)

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


def _same_target(call: OracleCall, pair: GraphCall) -> bool:
    if pair.callee is not None:
        return call.callee == pair.callee
    return call.external is not None and call.external == pair.external


class OracleIndex:
    """Oracle calls by (file, line), with the lines where no static callee can be judged."""

    def __init__(
        self,
        calls: Sequence[OracleCall],
        value_calls: Iterable[Mapping[str, Any]] = (),
        macro_rules: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        self.calls = list(calls)
        self.at: dict[Loc, list[OracleCall]] = defaultdict(list)
        for call in self.calls:
            self.at[(call.file, call.line)].append(call)
        self.values = {(v["file"], v["line"]) for v in value_calls}
        self.macro_lines = {
            (m["file"], line)
            for m in macro_rules
            for line in range(m["start_line"], m["end_line"] + 1)
        }

    def judge(self, pair: GraphCall) -> tuple[str, list[OracleCall]]:
        """`right` with the oracle calls it stands for, `unjudged`, or a wrong class."""
        here = self.at.get((pair.file, pair.line), [])
        same = [c for c in here if _same_target(c, pair)]
        confirmed = [c for c in same if c.caller == pair.caller]
        if confirmed:
            return "right", confirmed
        if same:
            return "wrong caller", []
        for offset in range(1, CHAIN_LINES + 1):  # down a chain of `.name(` lines
            chained = [c for c in self.at.get((pair.file, pair.line + offset), []) if c.chained]
            below = [c for c in chained if _same_target(c, pair) and c.caller == pair.caller]
            if below:
                return "right", below[:1]
            if not chained:
                break
        key = (pair.file, pair.line)
        if key in self.macro_lines:
            return "unjudged", []
        if not here:
            return ("unjudged" if key in self.values else "no call"), []
        if pair.callee is None:
            if any(c.callee is not None for c in here):
                return "in-crate call named external", []
            return "other external", []
        if any(c.kind == "trait" and c.callee is not None for c in here):
            return "trait call named an impl", []
        if any(c.callee is not None for c in here):
            return "other in-crate target", []
        return "external call named in-crate", []


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


def recall(found: Iterable[OracleCall], wanted: Iterable[OracleCall]) -> JsonDict:
    """Share of `wanted` oracle calls that some graph pair matched."""
    wanted_set = set(wanted)
    hit = len(wanted_set & set(found))
    return {
        "recall": _round(hit / len(wanted_set) if wanted_set else None),
        "found": hit,
        "oracle": len(wanted_set),
    }


def in_crate(calls: Iterable[OracleCall], kinds: frozenset[str] = CONCRETE) -> list[OracleCall]:
    """Oracle calls of `kinds` whose callee is declared in the crate."""
    return [c for c in calls if c.kind in kinds and c.callee is not None]


def external(calls: Iterable[OracleCall]) -> list[OracleCall]:
    """Oracle calls of something outside the crate."""
    return [c for c in calls if c.external is not None]


# ------------------------------------------------------------------------------------------
# imports
# ------------------------------------------------------------------------------------------


class UseLines:
    """Each oracle `use` item's lines, to map any line of a multi-line tree to its first."""

    def __init__(self, records: Iterable[Mapping[str, Any]]) -> None:
        self._first: dict[Loc, int] = {}
        for r in records:
            first = r.get("use_line", r["line"])
            for line in range(first, r["line"] + 1):
                self._first.setdefault((r["file"], line), first)

    def first(self, loc: Loc) -> int:
        return self._first.get(loc, loc[1])


def oracle_import_target(record: Mapping[str, Any]) -> Target:
    """("file", declaring file, 0) in the crate, else ("ext", crate family, 0)."""
    if record.get("target"):
        return ("file", record["target"]["file"], 0)
    return ("ext", crate_family((record.get("external") or {}).get("crate", "?")), 0)


def own_macro_items(
    records: Iterable[Mapping[str, Any]], crate: str, files: Iterable[str]
) -> list[Mapping[str, Any]]:
    """The `use` leaves, those naming an item of the crate itself with no definition site
    (rust-analyzer gives none to an item a macro invocation declares: petgraph's
    `trait_template! { pub trait IntoNeighbors … }`, so its record says "another crate",
    named as the crate itself) given the file of the module its path names (`petgraph::visit::
    IntoNeighbors`: `src/visit/mod.rs` or `src/visit.rs`), where that file is measured."""
    measured = set(files)
    own = crate.replace("-", "_")
    out: list[Mapping[str, Any]] = []
    for record in records:
        outside = record.get("external") or {}
        parts = str(outside.get("path", "")).replace("-", "_").split("::")
        if record.get("target") or outside.get("crate", "").replace("-", "_") != own:
            out.append(record)
            continue
        module = "/".join(parts[1:-1])
        candidates = [f"src/{module}.rs", f"src/{module}/mod.rs"] if module else ["src/lib.rs"]
        file = next((c for c in candidates if c in measured), None)
        out.append({**record, "target": {"file": file}} if file else record)
    return out


def oracle_imports(
    records: Iterable[Mapping[str, Any]], lines: UseLines
) -> set[tuple[str, int, Target]]:
    """(file, first line of the `use`, target) of every use-tree leaf."""
    return {
        (r["file"], lines.first((r["file"], r["line"])), oracle_import_target(r)) for r in records
    }


def score_sets(ours: set[Any], oracle: set[Any]) -> JsonDict:
    """Precision and recall of two sets."""
    right = len(ours & oracle)
    return {
        "precision": _round(right / len(ours) if ours else None),
        "recall": _round(right / len(oracle) if oracle else None),
        "right": right,
        "ours": len(ours),
        "oracle": len(oracle),
    }


# ------------------------------------------------------------------------------------------
# trait dispatch
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class DispatchSite:
    """A call of a trait's own method with the crate's bodies that may run (by identity)."""

    file: str
    line: int
    targets: frozenset[Loc]


OUTSIDE = "?outside:"
"""How a graph pair's callee in a file that is not measured (`benches/`) is named."""


def dispatch_sites(
    records: Iterable[Mapping[str, Any]], files: Collection[str] | None = None
) -> list[DispatchSite]:
    """The oracle's `dispatch` records; with the measured `files`, only the bodies in them (a
    bench's impl of the crate's trait has no declaration the graph's edges map to)."""
    return [
        DispatchSite(r["file"], r["line"], frozenset(
            (t["file"], t["line"]) for t in r["targets"] if files is None or t["file"] in files
        ))
        for r in records
    ]  # fmt: skip


def judge_dispatch(sites: Sequence[DispatchSite], pairs: Iterable[GraphCall]) -> JsonDict:
    """Graph pairs with an in-crate target on a trait call's line: right when the target is
    one of the site's bodies; recall of the (site, body) pairs."""
    at: dict[Loc, list[DispatchSite]] = defaultdict(list)
    for site in sites:
        at[(site.file, site.line)].append(site)
    right = wrong = 0
    hit: set[tuple[int, Loc]] = set()
    for pair in pairs:
        here = at.get((pair.file, pair.line), [])
        if pair.callee is None or pair.callee[0].startswith(OUTSIDE) or not here:
            continue  # a body outside the measured files (`benches/`): unjudged
        matches = [s for s in here if pair.callee in s.targets]
        if matches:
            right += 1
            hit.update((id(s), pair.callee) for s in matches)
        else:
            wrong += 1
    wanted = {(id(s), t) for s in sites for t in s.targets}
    return {
        "precision": _round(right / (right + wrong) if right + wrong else None),
        "right": right,
        "wrong": wrong,
        "recall": _round(len(hit & wanted) / len(wanted) if wanted else None),
        "oracle_pairs": len(wanted),
        "sites": len(sites),
    }
