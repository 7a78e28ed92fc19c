"""Link a snippet or a fixture folder offline and assert on its edges, in the spirit of
pyflakes' `flakes(snippet, *expected)`: `ingest.offline.link_repository` parses and links
without Neo4j (the records the indexer writes), so a linking rule is a few lines that run in
milliseconds, and only what needs Cypher reaches a server.

    assert_calls({"m.py": "def g():\n    pass\n\ndef f():\n    g()\n"}, ("m.f", "m.g", "exact"))

Edges are named by the qualified names of their ends, as the graph's nodes are (an external
target by its own name). An edge whose end is no node is left out, as the writer's `MATCH`
leaves it out of the graph.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.model import Edge, EdgeKind

Snippet = Mapping[str, str]  # path relative to the repository root -> source
Pair = tuple[str, str]  # (source, target) by qualified names
Calls = dict[Pair, tuple[str | None, str | None]]  # (caller, callee) -> (tier, via)
# (source, target), optionally with the tier and a phrase of `via` (None: either not checked)
Expected = tuple[str, str] | tuple[str, str, str | None] | tuple[str, str, str | None, str | None]


# an edge with every property the graph stores: kind, source, target, external, tier, via,
# lines, names, index, implements
Stored = tuple[str, str, str, bool, str | None, str | None, tuple[int, ...], tuple[str, ...],
               int | None, bool]  # fmt: skip


@dataclass(frozen=True)
class Link:
    """One edge by the qualified names of its ends; the linker's record in `edge`."""

    source: str
    target: str
    ordinal: int  # of the target's definition: 2, 3 for a property's setter, deleter
    edge: Edge

    @property
    def tier(self) -> str | None:
        return self.edge.resolution.value if self.edge.resolution else None

    def stored(self) -> Stored:
        edge = self.edge
        return (edge.kind.value, self.source, self.target, edge.external, self.tier, edge.via,
                edge.lines, edge.names, edge.index, edge.implements)  # fmt: skip


class Linked:
    """A repository linked offline, its edges and unresolved call sites by qualified names.
    `strip` is a prefix taken off every name (the fixtures' package, `vf.`)."""

    def __init__(self, repository: LinkedRepository, *, strip: str = "") -> None:
        self.repository = repository
        self._strip = strip
        self._nodes: dict[str, tuple[str, int]] = {}  # node id -> (qualified name, ordinal)
        ids = repository.ids
        for path, parsed in repository.parsed.items():
            self._nodes[ids.of_module(parsed)] = (parsed.module, 1)
            for symbol in parsed.symbols:
                node = ids.of_symbol(symbol.qualified_name, ordinal=symbol.ordinal, path=path)
                self._nodes[node] = (symbol.qualified_name, symbol.ordinal)
        self.links = tuple(link for edge in repository.edges() if (link := self._named(edge)))

    def name(self, qualified_name: str) -> str:
        """A node's qualified name as the edges spell it (`strip` taken off)."""
        return qualified_name.removeprefix(self._strip)

    def _named(self, edge: Edge) -> Link | None:
        source = self._nodes.get(edge.source)
        target = (edge.target, 1) if edge.external else self._nodes.get(edge.target)
        if source is None or target is None:
            return None
        return Link(self.name(source[0]), self.name(target[0]), target[1], edge)

    def of(self, kind: EdgeKind = EdgeKind.CALLS, *, external: bool = True) -> dict[Pair, Link]:
        """The edges of `kind` by (source, target); `external=False` leaves externals out. Of
        two edges to one name (a property's getter and setter) the first definition's stands:
        `links` holds both."""
        found: dict[Pair, Link] = {}
        for link in sorted(self.links, key=lambda link: -link.ordinal):
            if link.edge.kind == kind and (external or not link.edge.external):
                found[(link.source, link.target)] = link
        return found

    def calls(self, *, external: bool = True) -> Calls:
        """Every CALLS edge: (caller, callee) -> (tier, via)."""
        return {
            pair: (link.tier, link.edge.via) for pair, link in self.of(external=external).items()
        }

    def _nodes_named(self, name: str) -> list[str]:
        nodes = self._nodes.items()
        return sorted(node for node, (qualified, _) in nodes if self.name(qualified) == name)

    def unresolved_calls(self, name: str) -> list[int]:
        """The unresolved call sites of each node of this qualified name (as stored on it)."""
        counts: Counter[str] = Counter()
        for links in self.repository.links.values():
            counts.update(links.unresolved_calls)
        return [counts[node] for node in self._nodes_named(name)]

    def unresolved_names(self, name: str) -> list[tuple[str, ...]]:
        """The names of the unresolved calls of each node of this qualified name."""
        names: dict[str, tuple[str, ...]] = {}
        for links in self.repository.links.values():
            names.update(links.unresolved_names)
        return [names.get(node, ()) for node in self._nodes_named(name)]

    def unresolved_kinds(self) -> Counter[str]:
        """Why call sites stayed unresolved, over the repository (as the ingest report sums)."""
        kinds: Counter[str] = Counter()
        for links in self.repository.links.values():
            kinds.update(links.unresolved_kinds)
        return kinds


def assert_stored_as_linked(client: Neo4jClient, linked: Linked) -> None:
    """The graph holds the edges of `linked`'s repository exactly as the offline linking makes
    them, every property included: what the offline tests check is what an index stores."""
    rows = client.read(
        "MATCH (a:Code {repo: $repo})-[r:CALLS|IMPORTS|INHERITS|USES_TYPE]->(b) "
        "RETURN type(r) AS kind, a.qualified_name AS a, b.qualified_name AS b, "
        "b:External AS external, properties(r) AS p",
        {"repo": linked.repository.repo},
    )
    strip = linked.name
    stored = Counter(
        (row["kind"], strip(row["a"]), strip(row["b"]), row["external"],
         row["p"].get("resolution"), row["p"].get("via"), tuple(row["p"]["lines"]),
         tuple(row["p"].get("names", ())), row["p"].get("index"),
         row["p"].get("implements", False))
        for row in rows
    )  # fmt: skip
    offline = Counter(link.stored() for link in linked.links)
    only = [f"only stored   {edge}" for edge in sorted(stored - offline, key=str)]
    only += [f"only offline  {edge}" for edge in sorted(offline - stored, key=str)]
    assert not only, "stored and offline edges differ:\n  " + "\n  ".join(only[:40])


def link_folder(root: Path, *, repo: str = "t", strip: str = "") -> Linked:
    """A fixture folder linked offline as repository `repo`."""
    return Linked(link_repository(root, repo=repo), strip=strip)


def link_snippet(files: Snippet, *, repo: str = "t") -> Linked:
    """These files (path -> source), written to a temporary folder named `repo` (module names
    may follow the root's name) and linked offline."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / repo
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        return link_folder(root, repo=repo)


def callees_of(calls: Calls, caller: str) -> set[str]:
    return {callee for source, callee in calls if source == caller}


def _differences(calls: Calls, expected: Iterable[Expected], *, exactly: bool) -> list[str]:
    """Lines saying how `calls` differs from `expected`: a missing edge, another tier, a
    reason without the phrase; with `exactly`, an edge not expected."""
    lines: list[str] = []
    wanted: set[Pair] = set()
    for source, target, *checks in expected:
        tier, phrase = [*checks, None, None][:2]
        wanted.add((source, target))
        if (source, target) not in calls:
            lines.append(f"missing     {source} -> {target}")
            continue
        found_tier, via = calls[(source, target)]
        if tier is not None and found_tier != tier:
            lines.append(f"tier        {source} -> {target}: {found_tier}, not {tier} ({via!r})")
        if phrase is not None and phrase not in (via or ""):
            lines.append(f"via         {source} -> {target}: {via!r} lacks {phrase!r}")
    if exactly:
        for source, target in sorted(set(calls) - wanted):
            lines.append(f"unexpected  {source} -> {target} [{calls[(source, target)][0]}]")
    return lines


def check_calls(calls: Calls, expected: Iterable[Expected], *, exactly: bool = False) -> None:
    """Each expected (caller, callee[, tier[, a phrase of the reason]]) is an edge of `calls`;
    with `exactly`, `calls` holds no other. Fails with every difference at once."""
    differences = _differences(calls, expected, exactly=exactly)
    assert not differences, "CALLS edges differ:\n  " + "\n  ".join(differences)


def assert_calls(
    code: Snippet | Linked, *expected: Expected, exactly: bool = True, repo: str = "t"
) -> Linked:
    """pyflakes' `flakes` for calls: link `code` (a snippet, or what is linked already) and
    check its internal CALLS edges against `expected` (by default: those and no others)."""
    linked = code if isinstance(code, Linked) else link_snippet(code, repo=repo)
    check_calls(linked.calls(external=False), expected, exactly=exactly)
    return linked
