"""Matching a graph's Java edges against javac's answers, by location only.

Pure functions over plain records (no linking, no javac): `java_accuracy` turns a linked graph
and the oracle's JSON (`benchmarks/oracles/java_oracle.py`) into these records;
`tests/test_java_accuracy.py` feeds them by hand.

A declaration is a location `(file, line)`, never a name, so the comparison does not depend on
how the graph names Java symbols (plain `Cart.add` or `Cart.add(Item)` for an overload): the
line is the line of its name in javac's tree, and any line the graph gives for a node is first
mapped to the innermost declaration javac lists whose span holds it (`Decls.callee`). A call
is `(file, line, caller, callee)`:

- `line`: the line of the method's name (after the dot of `a.b()`), of `new`, of `this` /
  `super`, of an enum constant's name, of the name after `::`.
- `caller`: the named member (method, constructor, field, initializer of a top-level or member
  class) whose span holds the call; code in lambdas, anonymous and local classes belongs to
  the member around it. A graph caller is mapped to that member the same way
  (`Decls.caller`), so a graph that names a lambda or an anonymous class's method still
  compares with its member; a field's or an initializer's calls may also be the class's.
- `callee`: the declaration in the sources (a default constructor is its class), or the
  external's qualified name (`java.util.List.add`; a graph may name the receiver's type
  instead of the declaring one, and a constructor by its class).

A graph pair is `right` when javac has it, `unjudged` when its target is no declaration javac
lists (a file it did not compile), otherwise `wrong` with a class saying why. Unjudged pairs
are reported apart and never count as right.
"""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Loc = tuple[str, int]  # (file, line of a declaration's name); (file, 0): the file itself
JsonDict = dict[str, Any]

MEMBER_KINDS = frozenset({"method", "constructor", "field", "initializer", "static_initializer"})
LOCAL_KINDS = frozenset({"local_class", "local_method"})
"""Anonymous and local classes and their methods: targets, never callers or imports."""
CLASS_LEVEL = frozenset({"field", "initializer", "static_initializer"})
"""Members whose calls a graph may also give to their class."""
CALL_KINDS = frozenset({"method", "static", "new", "this", "super"})
"""Oracle call kinds recall is measured on (enum constants and method references apart)."""
DYNAMIC = frozenset({"interface", "abstract"})
"""`virtual` values of a call whose static callee has no body or may not be the one run."""


@dataclass(frozen=True)
class Decl:
    file: str
    kind: str
    line: int
    start: int
    end: int
    name: str  # `m(int,String)` for a method, the binary name for a class
    owner: str  # the binary name of its class ("" for a top-level class)
    owner_line: int
    qualified: str = ""  # a class's dotted qualified name (`$` may be part of a name)

    @property
    def simple(self) -> str:
        """A method's or constructor's name without parameters."""
        return self.name.split("(", 1)[0]


class Decls:
    """javac's declarations per file, to map any line to a declaration or a caller."""

    def __init__(self, records: Iterable[Mapping[str, Any]]) -> None:
        self.by_file: dict[str, list[Decl]] = defaultdict(list)
        self.at: dict[Loc, Decl] = {}
        for r in records:
            decl = Decl(
                r["file"],
                r["kind"],
                r["line"],
                r.get("start_line", r["line"]),
                r.get("end_line", r["line"]),
                r.get("name", ""),
                r.get("class", ""),
                r.get("class_line", 0),
                r.get("qualified", ""),
            )
            self.by_file[decl.file].append(decl)
            self.at.setdefault((decl.file, decl.line), decl)
        self.classes = {
            (d.qualified or d.name.replace("$", ".")): d.file
            for decls in self.by_file.values()
            for d in decls
            if d.kind not in MEMBER_KINDS | LOCAL_KINDS
        }
        """Dotted qualified name of each class in the sources -> its file."""
        self.packages = {posixpath.dirname(path) for path in self.by_file}

    def _innermost(
        self, file: str, line: int, kinds: frozenset[str] | None, skip: frozenset[str] = frozenset()
    ) -> Decl | None:
        best = None
        for decl in self.by_file.get(file, ()):
            wanted = (kinds is None or decl.kind in kinds) and decl.kind not in skip
            inside = wanted and decl.start <= line <= decl.end
            if inside and (best is None or decl.end - decl.start < best.end - best.start):
                best = decl
        return best

    def callee(self, loc: Loc) -> Loc | None:
        """The declaration whose span holds `loc` (the innermost), or None."""
        decl = self._innermost(loc[0], loc[1], None) if loc[1] else None
        return None if decl is None else (decl.file, decl.line)

    def caller(self, loc: Loc) -> Loc:
        """The named member holding `loc`, else the innermost class, else the file."""
        if not loc[1]:
            return (loc[0], 0)
        decl = self._innermost(loc[0], loc[1], MEMBER_KINDS)
        if decl is None:
            decl = self._innermost(loc[0], loc[1], None, skip=LOCAL_KINDS)
        return (loc[0], 0) if decl is None else (decl.file, decl.line)

    def class_at(self, loc: Loc | None) -> str:
        """The dotted name of the class declared at `loc`, or ""."""
        decl = None if loc is None else self.at.get(loc)
        if decl is None or decl.kind in MEMBER_KINDS | LOCAL_KINDS:
            return ""
        return decl.qualified or decl.name.replace("$", ".")

    def name_at(self, loc: Loc | None) -> str:
        decl = None if loc is None else self.at.get(loc)
        return "" if decl is None else decl.simple


@dataclass(frozen=True)
class OracleCall:
    """One call as javac attributed it."""

    id: int
    file: str
    line: int
    kind: str  # method | static | new | this | super | enum_constant | reference
    callers: frozenset[Loc]  # the member; a field's / initializer's class too
    callee: Loc | None  # in the sources (a default constructor: its class)
    external: frozenset[str]  # names an external callee may go by (empty when in the sources)
    name: str  # callee name for listings: `pkg.Cls.m(params)`
    simple: str  # the method's simple name (`<init>` for a constructor)
    overloads: int = 1  # declarations of that name in its class, when in the sources
    virtual: str | None = None  # interface | abstract | class (an overridable method)
    anonymous_of: str = ""  # `new I() {...}` of an interface I: I's dotted name (Object() runs)


def _external_names(callee: Mapping[str, Any], member_of: Iterable[str]) -> frozenset[str]:
    """The names an external callee may go by: its declaring class's, or that of any type
    between the receiver (the class around an unqualified call) and the declaring class, as
    the method is a member of each (`IllegalArgumentException.getStackTrace`)."""
    cls = callee["qualified_class"]
    name = callee["name"]
    if name == "<init>":
        return frozenset({cls, f"{cls}.<init>", f"{cls}.{cls.rsplit('.', 1)[-1]}"})
    return frozenset({f"{cls}.{name}"} | {f"{other}.{name}" for other in member_of})


def oracle_calls(records: Iterable[Mapping[str, Any]], decls: Decls) -> list[OracleCall]:
    """The oracle's call records as `OracleCall`s; javac's implicit `super()` only where it
    runs a constructor in the sources (the graph draws no edge to `Object()`, `Enum(…)` …)."""
    out: list[OracleCall] = []
    for r in records:
        callee = r.get("callee")
        caller = r.get("caller")
        if r.get("implicit") and not (callee and "file" in callee):
            continue
        callers: set[Loc] = set()
        if caller:
            loc = (caller["file"], caller["line"])
            callers.add(loc)
            decl = decls.at.get(loc)
            if decl is not None and decl.kind in CLASS_LEVEL:
                callers.add((decl.file, decl.owner_line))
        else:
            callers.add((r["file"], 0))
        in_sources = bool(callee and "file" in callee)
        loc_callee = None
        if callee and in_sources:
            loc_callee = decls.callee((callee["file"], callee["line"])) or (
                callee["file"],
                callee["line"],
            )
        out.append(
            OracleCall(
                id=r.get("id", len(out)),
                file=r["file"],
                line=r["line"],
                kind=r["kind"],
                callers=frozenset(callers),
                callee=loc_callee,
                external=frozenset()
                if in_sources or not callee
                else _external_names(callee, r.get("member_of", ())),
                name=""
                if not callee
                else f"{callee['class']}.{callee['name']}({callee.get('params', '')})",
                simple="" if not callee else callee["name"],
                overloads=(callee or {}).get("overloads", 1),
                virtual=r.get("virtual"),
                anonymous_of=r.get("interface", ""),
            )
        )
    return out


@dataclass(frozen=True)
class GraphCall:
    """One (line, target) of a graph CALLS edge, caller and callee already mapped."""

    file: str
    line: int
    caller: Loc
    tier: str
    callee: Loc | None = None  # mapped by `Decls.callee`; ("?node", 0) when javac has none
    external: str | None = None
    callee_name: str = ""  # the graph's name of the target, for listings


@dataclass
class Verdicts:
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


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _external_name(name: str) -> str:
    """A graph's external name without a parameter list (`a.B.m(int)` -> `a.B.m`)."""
    return name.split("(", 1)[0]


class OracleIndex:
    """Oracle calls by (file, line), with the CHA targets of each virtual call."""

    def __init__(
        self,
        calls: Sequence[OracleCall],
        decls: Decls,
        dispatch: Mapping[int, frozenset[Loc]] | None = None,
    ) -> None:
        self.calls = list(calls)
        self.decls = decls
        self.dispatch = dict(dispatch or {})
        self.at: dict[Loc, list[OracleCall]] = defaultdict(list)
        for call in self.calls:
            self.at[(call.file, call.line)].append(call)

    def same_target(self, call: OracleCall, pair: GraphCall) -> bool:
        if pair.callee is not None:
            return call.callee == pair.callee
        return pair.external is not None and _external_name(pair.external) in call.external

    def judge(self, pair: GraphCall) -> tuple[str, list[OracleCall]]:
        """`right` (with the oracle calls the pair stands for), `unjudged`, or a wrong class."""
        if pair.callee is not None and pair.callee[0].startswith("?"):
            return "unjudged", []
        here = self.at.get((pair.file, pair.line), [])
        same = [call for call in here if self.same_target(call, pair)]
        confirmed = [call for call in same if pair.caller in call.callers]
        if confirmed:
            return "right", confirmed
        if same:
            return "wrong caller", []
        if not here:
            return "no call on the line", []
        if any(c.anonymous_of and self._names_type(pair, c.anonymous_of) for c in here):
            return "new I() {...} of an interface named I", []
        if pair.external is not None:
            if any(call.callee is not None for call in here):
                return "in-sources call named external", []
            return "other external", []
        if all(call.callee is None for call in here):
            return "external call named in-sources", []
        name = self.decls.name_at(pair.callee)
        if any(self.pair_in_dispatch(call, pair) for call in here):
            return "virtual call named an override", []
        named = [c for c in here if c.callee is not None and self.decls.name_at(c.callee) == name]
        if named:
            overloaded = [c for c in named if c.overloads > 1]
            same_class = any(self._owner(c.callee) == self._owner(pair.callee) for c in named)
            if overloaded and same_class:
                return "other overload", []
            return "same name, other class", []
        if any(call.kind in ("new", "this", "super") for call in here):
            return "other in-sources target (constructor on the line)", []
        return "other in-sources target", []

    def _names_type(self, pair: GraphCall, dotted: str) -> bool:
        if pair.external is not None:
            return _external_name(pair.external) == dotted
        return (
            self.decls.classes.get(dotted) is not None
            and self.decls.class_at(pair.callee) == dotted
        )

    def _owner(self, loc: Loc | None) -> str | None:
        decl = None if loc is None else self.decls.at.get(loc)
        return None if decl is None else decl.owner

    def pair_in_dispatch(self, call: OracleCall, pair: GraphCall) -> bool:
        return pair.callee is not None and pair.callee in self.dispatch.get(call.id, frozenset())


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


def in_sources(
    calls: Iterable[OracleCall], kinds: frozenset[str], *, dynamic: bool
) -> list[OracleCall]:
    """Oracle calls of `kinds` with a callee in the sources; calls through an interface or
    abstract method only when `dynamic`."""
    return [
        c
        for c in calls
        if c.kind in kinds and c.callee is not None and (dynamic or c.virtual not in DYNAMIC)
    ]


def missed(calls: Iterable[OracleCall], found: set[OracleCall]) -> list[OracleCall]:
    """In-sources calls (not through an interface or abstract method) nobody matched."""
    return [c for c in in_sources(calls, CALL_KINDS, dynamic=False) if c not in found]


# ------------------------------------------------------------------------------------------
# overloads
# ------------------------------------------------------------------------------------------


def overload_choice(
    index: OracleIndex, pairs: Sequence[GraphCall], certain: Iterable[str]
) -> JsonDict:
    """At calls whose callee has overloads in its class: how often the graph's certain edge to
    a declaration of that name is the one javac chose; sites with only possible edges to that
    name, and sites with no edge to it, are counted apart."""
    certain_tiers = set(certain)
    by_line: dict[Loc, list[GraphCall]] = defaultdict(list)
    for pair in pairs:
        if pair.callee is not None:
            by_line[(pair.file, pair.line)].append(pair)
    right = wrong = possible_only = possible_has_right = unanswered = 0
    sites = [c for c in index.calls if c.callee is not None and c.overloads > 1]
    for call in sites:
        named = [
            p
            for p in by_line.get((call.file, call.line), [])
            if index.decls.name_at(p.callee) == _simple_of(index, call)
        ]
        sure = {p.callee for p in named if p.tier in certain_tiers}
        if sure:
            if call.callee in sure and len(sure) == 1:
                right += 1
            else:
                wrong += 1
        elif named:
            possible_only += 1
            possible_has_right += any(p.callee == call.callee for p in named)
        else:
            unanswered += 1
    answered = right + wrong
    return {
        "sites": len(sites),
        "accuracy": _round(right / answered if answered else None),
        "right": right,
        "wrong": wrong,
        "possible_only": possible_only,
        "possible_only_holding_javac_choice": possible_has_right,
        "no_edge": unanswered,
    }


def _simple_of(index: OracleIndex, call: OracleCall) -> str:
    """The simple name of the callee's declaration as the decls name it (a constructor by its
    class's simple name)."""
    return index.decls.name_at(call.callee) or call.simple


# ------------------------------------------------------------------------------------------
# dispatch (calls through an overridable method) against CHA
# ------------------------------------------------------------------------------------------


def judge_dispatch(index: OracleIndex, pairs: Iterable[GraphCall]) -> JsonDict:
    """The graph's edges (possible tiers) at virtual call sites against the sources' overrides
    of the callee (CHA over the receiver's static type): precision, and recall of the (site,
    target) pairs; pairs on lines without a virtual call are counted apart."""
    right = wrong = 0
    hit: set[tuple[int, Loc]] = set()
    off_site = 0
    for pair in pairs:
        if pair.callee is None:
            continue
        here = [c for c in index.at.get((pair.file, pair.line), []) if c.id in index.dispatch]
        if not here:
            off_site += 1
            continue
        matches = [c for c in here if pair.callee in index.dispatch[c.id]]
        if matches:
            right += 1
            hit.update((c.id, pair.callee) for c in matches if pair.callee is not None)
        else:
            wrong += 1
    wanted = {(site, target) for site, targets in index.dispatch.items() for target in targets}
    return {
        "precision": _round(right / (right + wrong) if right + wrong else None),
        "right": right,
        "wrong": wrong,
        "recall": _round(len(hit) / len(wanted) if wanted else None),
        "oracle_pairs": len(wanted),
        "pairs_off_virtual_sites": off_site,
    }


def dispatch_targets(sites: Iterable[Mapping[str, Any]], decls: Decls) -> dict[int, frozenset[Loc]]:
    """Call id -> the CHA targets of that virtual call, as declarations."""
    out = {}
    for site in sites:
        targets = set()
        for t in site["targets"]:
            targets.add(decls.callee((t["file"], t["line"])) or (t["file"], t["line"]))
        out[site["call"]] = frozenset(targets)
    return out


# ------------------------------------------------------------------------------------------
# imports
# ------------------------------------------------------------------------------------------

Target = tuple[str, str]  # ("file", path) | ("dir", package folder) | ("ext", qualified name)


def import_targets(record: Mapping[str, Any], decls: Decls) -> frozenset[Target]:
    """What an import may be linked to: the file declaring an imported type in the sources (a
    static import: its class's file), a package's folder for `pkg.*`, else the external's
    name (the class of a static member; the member's full name too)."""
    name: str = record["name"]
    if record.get("static"):
        cls = name if record.get("on_demand") else name.rsplit(".", 1)[0]
        if cls in decls.classes:
            return frozenset({("file", decls.classes[cls])})
        return frozenset({("ext", cls), ("ext", name)})
    if record.get("on_demand"):
        folder = name.replace(".", "/")
        if folder in decls.packages:
            return frozenset({("dir", folder)})
        if name in decls.classes:
            return frozenset({("file", decls.classes[name])})
        return frozenset({("ext", name)})
    if name in decls.classes:
        return frozenset({("file", decls.classes[name])})
    return frozenset({("ext", name)})


def oracle_imports(
    records: Iterable[Mapping[str, Any]], decls: Decls, files: set[str]
) -> dict[Loc, frozenset[Target]]:
    """(file, line) of each import in the compiled files -> its targets; an import of the
    file's own nested type or member (`import static a.B.Inner.*` in B.java) is left out: an
    edge from a file to itself says nothing."""
    out = {}
    for r in records:
        if r["file"] not in files:
            continue
        targets = import_targets(r, decls)
        if targets != {("file", r["file"])}:
            out[(r["file"], r["line"])] = targets
    return out


def score_imports(
    oracle: Mapping[Loc, frozenset[Target]], graph: Iterable[tuple[Loc, Target]]
) -> JsonDict:
    """Graph imports `((file, line), target)` against the oracle's; a file target also stands
    for its folder (an on-demand import linked to a file of the package)."""
    right = wrong = 0
    found: set[Loc] = set()
    wrong_by_class: Counter[str] = Counter()
    for loc, target in graph:
        wanted = oracle.get(loc)
        ok = wanted is not None and (
            target in wanted
            or (target[0] == "file" and ("dir", posixpath.dirname(target[1])) in wanted)
        )
        if ok:
            right += 1
            found.add(loc)
        else:
            wrong += 1
            if wanted is None:
                wrong_by_class["no import on the line"] += 1
            elif target[0] == "ext" and any(t[0] != "ext" for t in wanted):
                wrong_by_class["in-sources import named external"] += 1
            elif target[0] != "ext" and all(t[0] == "ext" for t in wanted):
                wrong_by_class["external import named in-sources"] += 1
            else:
                wrong_by_class["other target"] += 1
    ours = right + wrong
    return {
        "precision": _round(right / ours if ours else None),
        "recall": _round(len(found) / len(oracle) if oracle else None),
        "right": right,
        "ours": ours,
        "oracle": len(oracle),
        "wrong_by_class": dict(wrong_by_class.most_common()),
    }
