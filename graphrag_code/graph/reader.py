"""`GraphReader`: every read that retrieval, the CLI and the integrations run, typed.

Each method runs one shipped `.cypher` file in a read transaction and returns frozen records
(`records.py`). Two return plain rows instead, each consumed at once by one caller that builds
its own records from it, so a record in between would only copy fields: `hybrid_search` (the
three ranked legs, fused by the searcher on the hot path of every question) and
`VectorStore.read_pending` (in `vectors.py`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from functools import cache
from typing import Any, Literal

from ..location import Location
from ..model import Resolution
from ..text import indented_code
from .capabilities import VectorSearchForm
from .client import Neo4jClient
from .completeness import Completeness
from .queries import load_query, paste_identifier, replace_block
from .records import (
    CallEdge,
    ContextNode,
    CoverageState,
    DeadCandidate,
    Definition,
    EntryPoint,
    FileNode,
    ImpactStep,
    ImportedModule,
    KeptCode,
    Neighbour,
    Neighbourhood,
    PathStep,
    ProcessTests,
    ProgramCall,
    RanInto,
    ReachBack,
    RepositoryInfo,
    RepositorySize,
    SymbolMatch,
    SymbolRef,
    TestEdge,
    UntestedSymbol,
)

__all__ = ["Direction", "GraphReader"]

Direction = Literal["in", "out"]
_REACH_BATCH = 5_000  # node ids per step of `reach_back`


def _location(row: Mapping[str, Any]) -> Location:
    return Location(row.get("path") or "", row.get("start_line"), row.get("end_line"))


def _symbol(row: Mapping[str, Any]) -> SymbolRef:
    return SymbolRef(
        id=row["id"],
        qualified_name=row["qualified_name"],
        kind=row["kind"],
        repo=row["repo"],
        location=_location(row),
    )


def _repo(node_id: str) -> str:
    return node_id.split(":", 1)[0]


def _context_node(node: Mapping[str, Any]) -> ContextNode:
    return ContextNode(
        id=node["id"],
        qualified_name=node.get("qualified_name") or "",
        kind=node.get("kind") or "",
        location=_location(node),
        signature=node.get("signature"),
        docstring=node.get("docstring"),
        code=indented_code(node.get("code"), node.get("first_line")),
        language=node.get("language"),
    )


def _context_nodes(nodes: Sequence[Mapping[str, Any] | None]) -> tuple[ContextNode, ...]:
    return tuple(_context_node(node) for node in nodes if node and node.get("id"))


@cache
def hybrid_search_query(form: VectorSearchForm, *, in_repo: bool, vector_index: str) -> str:
    """The text of the hybrid query in `form`: `search/hybrid_search.cypher` as it is, or with
    its vector leg replaced by the Cypher 25 `SEARCH` of `search/vector_search_repo.cypher`
    (`in_repo`) or `vector_search_all.cypher`, naming `vector_index` (validated and quoted: the
    clause takes no parameter for it). One text per form and scope, so each has one plan."""
    text = load_query("search/hybrid_search")
    if form is VectorSearchForm.PROCEDURE:
        return text
    leg = load_query("search/vector_search_repo" if in_repo else "search/vector_search_all")
    spliced = replace_block(text, "vector leg", leg)
    return "CYPHER 25\n" + paste_identifier(spliced, "code_embedding", vector_index)


class GraphReader:
    """Typed reads of the code graph on one database (each in a read transaction)."""

    def __init__(self, client: Neo4jClient) -> None:
        self.client = client

    # -- search --------------------------------------------------------------------------------
    def hybrid_search(
        self,
        parameters: Mapping[str, Any],
        *,
        form: VectorSearchForm = VectorSearchForm.PROCEDURE,
    ) -> dict[str, Any]:
        """The ONE hybrid query (`search/hybrid_search.cypher`, its vector leg in `form`): a row
        with the ranked `vector`, `text`, `file_text` (file-level search) and `graph` legs
        (lists of maps: id, score, node properties; graph entries also `via` and `possible`)
        and the `seeds` the question named. A plain row: the searcher fuses it at once.
        `parameters` are those `Searcher.parameters` builds (their `repo` and `vector_index`
        pick the text)."""
        query = hybrid_search_query(
            form, in_repo=parameters["repo"] is not None, vector_index=parameters["vector_index"]
        )
        rows = self.client.read(query, parameters)
        empty: dict[str, Any] = {"vector": [], "text": [], "file_text": [], "graph": []}
        return rows[0] if rows else {**empty, "seeds": []}

    def modules_at(self, locations: Sequence[tuple[str, str]]) -> dict[tuple[str, str], SymbolRef]:
        """The module node at each (repository, path) that has one (file-level search)."""
        if not locations:
            return {}
        rows = self.client.read(
            load_query("search/modules_at"),
            {"locations": [{"repo": repo, "path": path} for repo, path in locations]},
        )
        return {
            (str(row["repo"]), str(row["path"])): SymbolRef(
                id=row["id"],
                qualified_name=row["qualified_name"] or row["path"],
                kind="Module",
                repo=row["repo"],
                location=Location(row["path"]),
            )
            for row in rows
        }

    def repository_sizes(self) -> dict[str, RepositorySize]:
        """Nodes, vectors and test nodes per repository (the searcher over-fetches by a
        repository's share of the indexes, and by its share of test code when it leaves that
        out)."""
        rows = self.client.read(load_query("search/repository_sizes"))
        return {
            row["repo"]: RepositorySize(row["nodes"], row["vectors"], row["tests"]) for row in rows
        }

    def completeness(self, repos: Sequence[str]) -> list[Completeness]:
        """Each of `repos` the graph holds: its last run's status, folder, nodes and vectors
        (one read over the repositories' own nodes, for the warnings of an answer)."""
        rows = self.client.read(
            load_query("relations/completeness"), {"lists": {"repos": list(repos)}}
        )
        return [
            Completeness(row["repo"], row["status"], row["nodes"], row["vectors"], row["root"])
            for row in rows
        ]

    # -- relations -----------------------------------------------------------------------------
    def resolve_symbol(
        self, name: str, *, repo: str | None = None, limit: int = 50
    ) -> list[SymbolMatch]:
        """The nodes `name` may refer to, best match first (see `SymbolMatch.rank`)."""
        rows = self.client.read(
            load_query("relations/resolve_symbol"), {"name": name, "repo": repo, "limit": limit}
        )
        return [SymbolMatch(_symbol(row), int(row["rank"])) for row in rows]

    def neighbours(
        self,
        ids: Sequence[str],
        *,
        types: Sequence[str],
        direction: Direction,
        limit_per_node: int,
        within: str | None = None,
        tiers: Sequence[str] | None = None,
    ) -> list[Neighbour]:
        """One breadth-first step: up to `limit_per_node` neighbours of each of `ids` along
        `types`, certain edges and central nodes first; with `within`, only neighbours in
        that repository (and external targets); with `tiers`, only edges of those
        resolutions (and edges without one: imports, definitions)."""
        rows = self.client.read(
            load_query("relations/step"),
            {
                "ids": list(ids),
                "types": list(types),
                "direction": direction,
                "limit_per_node": limit_per_node,
                "within": within,
                "tiers": None if tiers is None else list(tiers),
            },
        )
        return [
            Neighbour(
                from_id=row["from_id"],
                id=row["id"],
                qualified_name=row["qualified_name"],
                kind=row["kind"],
                location=None if row["external"] else _location(row),
                external=bool(row["external"]),
                edge=row["type"],
                resolution=row["resolution"],
                lines=tuple(row["lines"] or ()),
                via=row["via"] if row["type"] == "CALLS" else None,
                repo=row["repo"],
            )
            for row in rows
        ]

    def call_edge(self, source_id: str, target: str) -> CallEdge | None:
        """The CALLS edge from `source_id` to the node `target` (or the external target of
        that qualified name), None when it calls nothing of the kind."""
        rows = self.client.read(
            load_query("relations/call_edge"), {"source": source_id, "target": target}
        )
        if not rows:
            return None
        row = rows[0]
        return CallEdge(
            target=row["target"],
            qualified_name=row["qualified_name"],
            external=bool(row["external"]),
            resolution=row["resolution"],
            lines=tuple(row["lines"] or ()),
            via=row["via"],
        )

    def overridden_methods(self, node_id: str, *, stored: Sequence[str]) -> list[SymbolRef]:
        """The methods the method `node_id` overrides, nearest base class first; none for a
        method of the `stored` languages (their dispatch is stored as CALLS edges)."""
        rows = self.client.read(
            load_query("relations/overridden_methods"), {"id": node_id, "stored": list(stored)}
        )
        return [_symbol(row) for row in rows]

    def overriding_methods(self, ids: Sequence[str], *, limit: int) -> dict[str, list[SymbolRef]]:
        """The overrides of each method of `ids` in subclasses (nearest first, `limit` each),
        by the method's id."""
        rows = self.client.read(
            load_query("relations/overriding_methods"), {"ids": list(ids), "limit": limit}
        )
        found: dict[str, list[SymbolRef]] = {}
        for row in rows:
            found.setdefault(row["from_id"], []).append(_symbol(row))
        return found

    def unresolved_callers(self, name: str, *, repo: str) -> list[SymbolRef]:
        """Code of `repo` with an unresolved call site named `name` (at most 100)."""
        rows = self.client.read(
            load_query("relations/unresolved_callers"), {"name": name, "repo": repo}
        )
        return [_symbol(row) for row in rows]

    def unresolved_call_count(self, node_id: str) -> int:
        """How many call sites inside `node_id` could not be resolved."""
        rows = self.client.read(load_query("relations/node_unresolved_calls"), {"id": node_id})
        return int(rows[0]["n"]) if rows else 0

    def descendants(self, node_id: str) -> list[str]:
        """`node_id` and the ids of everything it defines, transitively."""
        rows = self.client.read(load_query("relations/descendants"), {"id": node_id})
        return list(rows[0]["ids"]) if rows else []

    def shortest_path(
        self,
        source_id: str,
        target_id: str,
        *,
        tiers: Sequence[str] | None = None,
        within: str | None = None,
    ) -> list[PathStep]:
        """The shortest CALLS/IMPORTS/DEFINES chain from one node to another whose calls all
        have a resolution in `tiers` (None: any); with `within`, a chain inside that
        repository; [] if none."""
        tiers = [tier.value for tier in Resolution] if tiers is None else list(tiers)
        rows = self.client.read(
            load_query("relations/shortest_path"),
            {"source": source_id, "target": target_id, "tiers": tiers, "within": within},
        )
        if not rows:
            return []
        edges: list[Mapping[str, Any] | None] = [None, *rows[0]["relationships"]]
        return [
            PathStep(
                id=node["id"],
                qualified_name=node["qualified_name"],
                kind=node["kind"],
                location=_location(node),
                edge=edge["type"] if edge else None,
                resolution=edge["resolution"] if edge else None,
                lines=tuple((edge["lines"] if edge else None) or ()),
                why=edge.get("via") if edge else None,
                repo=node["repo"],
            )
            for node, edge in zip(rows[0]["nodes"], edges, strict=True)
        ]

    def entry_points(self, repo: str, *, limit: int) -> tuple[list[EntryPoint], list[EntryPoint]]:
        """`(roots, central)` of `repo`: public functions and methods nothing calls but that
        call others, and the symbols with the highest PageRank (`limit` of each)."""
        rows = self.client.read(
            load_query("relations/entry_points"), {"repo": repo, "limit": limit}
        )
        points: dict[str, list[EntryPoint]] = {"root": [], "central": []}
        for row in rows:
            points[row["role"]].append(
                EntryPoint(
                    id=row["id"],
                    qualified_name=row["qualified_name"],
                    kind=row["kind"],
                    location=_location(row),
                    pagerank=float(row["pagerank"] or 0.0),
                    in_degree=int(row["in_degree"] or 0),
                    out_degree=int(row["out_degree"] or 0),
                )
            )
        return points["root"], points["central"]

    def describe(self, ids: Sequence[str]) -> dict[str, Definition]:
        """Signature, docstring, code, language and degrees of each node of `ids`, by id."""
        rows = self.client.read(load_query("relations/describe_nodes"), {"ids": list(ids)})
        return {
            row["id"]: Definition(
                symbol=_symbol(row),
                signature=row["signature"],
                docstring=row["docstring"],
                code=indented_code(row["code"], row["first_line"]),
                language=row["language"],
                in_degree=int(row["in_degree"]),
                out_degree=int(row["out_degree"]),
                pagerank=float(row["pagerank"]),
            )
            for row in rows
        }

    def repositories(self, *, only: str | None = None) -> list[RepositoryInfo]:
        """Every repository in the graph (or the one named `only`), by name: its last run,
        size and languages."""
        rows = self.client.read(load_query("relations/repositories"), {"repo": only})
        return [
            RepositoryInfo(
                name=row["name"],
                root=row["root"],
                status=row["status"],
                head=row["head"],
                indexed_at=(
                    None
                    if row["indexed_ms"] is None
                    else datetime.fromtimestamp(row["indexed_ms"] / 1000, tz=timezone.utc)
                ),
                files=int(row["files"] or 0),
                symbols=int(row["symbols"] or 0),
                nodes={
                    (count["language"] or "unknown", count["kind"] or "unknown"): count["nodes"]
                    for count in row["counts"]
                },
                vectors=sum(int(count["vectors"] or 0) for count in row["counts"]),
            )
            for row in rows
        ]

    def module_ids(self, repo: str) -> dict[str, str]:
        """Path -> id of every module (one per indexed file) of `repo`."""
        rows = self.client.read(load_query("relations/repository_modules"), {"repo": repo})
        return {str(row["path"]): str(row["id"]) for row in rows}

    def call_graph(self, repo: str, *, certain: bool = False) -> dict[str, list[str]]:
        """Caller -> sorted callee qualified names (internal and external) of `repo`;
        `certain`: exact and inferred edges only."""
        rows = self.client.read(
            load_query("relations/export_callgraph"), {"repo": repo, "certain": certain}
        )
        return {row["caller"]: sorted(row["callees"]) for row in rows}

    # -- context -------------------------------------------------------------------------------
    def neighbourhoods(self, ids: Sequence[str], *, limit: int) -> dict[str, Neighbourhood]:
        """Each node of `ids` with its code, and up to `limit` certain callees, used types and
        siblings (signature and docstring only), by node id."""
        rows = self.client.read(
            load_query("context/neighbours"), {"ids": list(ids), "limit": limit}
        )
        return {
            row["id"]: Neighbourhood(
                node=_context_node(row["node"]),
                callees=_context_nodes(row["callees"]),
                types=_context_nodes(row["types"]),
                siblings=_context_nodes(row["siblings"]),
            )
            for row in rows
        }

    def code(self, ids: Sequence[str]) -> dict[str, str]:
        """The source code stored on each of `ids` ('' when none is stored), by node id."""
        rows = self.client.read(load_query("context/node_code"), {"ids": list(ids)})
        return {row["id"]: row["code"] or "" for row in rows}

    # -- change impact, tests, dead code (issue 16) --------------------------------------------
    def repository(self, repo: str) -> RepositoryInfo | None:
        """Where, from which commit and how completely `repo` was last indexed; None if it is
        not in the graph."""
        found = self.repositories(only=repo)
        return found[0] if found else None

    def indexed_from(self, repo: str) -> tuple[str | None, str | None] | None:
        """(root, head) of `repo`'s last indexing run; None if it is not in the graph. One
        node read where `repository` also counts the nodes (0.5 s on Django), in the text
        the indexer reads its state with, so both share one cached plan."""
        rows = self.client.read(load_query("ingest/read_repository"), {"repo": repo})
        return (rows[0]["root"], rows[0]["head"]) if rows else None

    def file_nodes(self, repo: str, paths: Sequence[str]) -> list[FileNode]:
        """Every node (module and symbols) of the given files, in file and line order."""
        rows = self.client.read(
            load_query("impact/file_nodes"), {"repo": repo, "lists": {"paths": list(paths)}}
        )
        return [
            FileNode(
                _symbol(row),
                row["name"] or "",
                bool(row["test_code"]),
                row["test_role"],
                float(row["pagerank"] or 0.0),
            )
            for row in rows
        ]

    def folder_modules(self, repo: str, folders: Sequence[str]) -> dict[str, dict[str, str]]:
        """Folder ("" the root, else ending in "/") -> path -> module name of the modules
        directly in it."""
        rows = self.client.read(
            load_query("impact/folder_modules"),
            {"repo": repo, "lists": {"folders": list(folders)}},
        )
        found: dict[str, dict[str, str]] = {}
        for row in rows:
            found.setdefault(row["folder"], {})[row["path"]] = row["qualified_name"]
        return found

    def _steps(self, rows: Sequence[Mapping[str, Any]]) -> list[ImpactStep]:
        return [
            ImpactStep(
                from_id=row["from_id"],
                symbol=SymbolRef(
                    row["id"],
                    row["qualified_name"],
                    row["kind"],
                    _repo(row["id"]),
                    _location(row),
                ),
                edge=row["type"],
                resolution=row["resolution"],
                lines=tuple(row["lines"] or ()),
                pagerank=float(row["pagerank"] or 0.0),
                test_code=bool(row["test_code"]),
            )
            for row in rows
        ]

    def affected_step(self, ids: Sequence[str], *, limit_per_node: int) -> list[ImpactStep]:
        """The code with an edge (CALLS, IMPORTS, INHERITS, USES_TYPE) into each of `ids`."""
        rows = self.client.read(
            load_query("impact/affected_step"),
            {"lists": {"ids": list(ids)}, "limit_per_node": limit_per_node},
        )
        return self._steps(rows)

    def name_importers(self, symbols: Sequence[tuple[str, str, str]]) -> list[ImpactStep]:
        """Modules importing module-level symbols by name: (symbol id, module id, name)."""
        rows = self.client.read(
            load_query("impact/name_importers"),
            {"lists": {"rows": [{"id": i, "module": m, "name": n} for i, m, n in symbols]}},
        )
        return self._steps(rows)

    def reach_back(
        self, ids: Sequence[str], *, resolutions: Sequence[str] | None = None, limit: int
    ) -> ReachBack:
        """The reach graph backwards from `ids` along edges of the given tiers (None: every
        tier), one step (one read) at a time, nearest first, until no new node appears; a
        step that would bring the nodes held past `limit` is left out (`truncated`): what
        `tests_for` walks."""
        callers: dict[str, list[tuple[str, str, str | None]]] = defaultdict(list)
        tests: set[str] = set()
        seen = set(ids)
        frontier = sorted(seen)
        query = load_query("impact/reach_back")
        tiers = list(resolutions) if resolutions is not None else None
        while frontier:
            batches = [
                frontier[at : at + _REACH_BATCH] for at in range(0, len(frontier), _REACH_BATCH)
            ]
            rows = [
                row
                for batch in batches
                for row in self.client.read(query, {"lists": {"ids": batch, "resolutions": tiers}})
            ]
            step = sorted({row["source"] for row in rows} - seen)
            if len(seen) + len(step) > limit:
                return ReachBack(dict(callers), frozenset(tests), True)
            for row in rows:
                callers[row["target"]].append((row["source"], row["resolution"], row["via"]))
                if row["test"]:
                    tests.add(row["source"])
            seen.update(step)
            frontier = step
        return ReachBack(dict(callers), frozenset(tests), False)

    def test_nodes(
        self, ids: Sequence[str]
    ) -> dict[str, tuple[SymbolRef, str | None, str | None, tuple[str, ...]]]:
        """Test id -> (the test, the module that defines it, its stored runner id, the ids of
        the cases it runs as where a class inherits it)."""
        rows = self.client.read(load_query("impact/test_nodes"), {"lists": {"ids": list(ids)}})
        return {
            row["id"]: (_symbol(row), row["module"], row["runner"], tuple(row["cases"] or ()))
            for row in rows
        }

    def tests_inside(self, ids: Sequence[str]) -> list[TestEdge]:
        """The tests defined in (or equal to) each of `ids`: a changed test runs itself."""
        rows = self.client.read(load_query("impact/changed_tests"), {"lists": {"ids": list(ids)}})
        return [
            TestEdge(
                row["target"],
                _symbol(row),
                0,
                None,
                None,
                row["module"],
                row["runner"],
                tuple(row["cases"] or ()),
            )
            for row in rows
        ]

    def ran_into(self, ids: Sequence[str]) -> list[RanInto]:
        """The tests that ran each of `ids` under imported coverage, with its hashes."""
        rows = self.client.read(load_query("coverage/ran_into"), {"lists": {"ids": list(ids)}})
        return [
            RanInto(
                r["id"],
                tuple(sorted(r["tests"])),
                r["content_hash"],
                r["coverage_hash"],
                bool(r["outside"]),
                {c["test"]: tuple(c["cases"]) for c in r["cases"]},
            )
            for r in rows
        ]

    def kept_state_code(self, ids: Sequence[str], *, certain: Sequence[str]) -> list[KeptCode]:
        """The code of the modules that may read what each of `ids` kept when it ran outside
        every test, with the tests that ran it: its own module, and those calling it (or its
        class) at module level or in a class body through edges of `certain` tiers."""
        rows = self.client.read(
            load_query("coverage/kept_state_readers"),
            {"ids": list(ids), "resolutions": list(certain)},
        )
        return [
            KeptCode(
                tuple(row["ids"]), row["module"], tuple(row["tests"]), bool(row["outside"]),
                int(row["suite"] or 0),
            )
            for row in rows
        ]  # fmt: skip

    def module_imports(self, ids: Sequence[str]) -> list[ImportedModule]:
        """Every module of the repositories of `ids`, with the modules of its repository it
        imports, its tests, which of `ids` it defines, and whether the test runner runs it."""
        rows = self.client.read(load_query("coverage/module_imports"), {"ids": list(ids)})
        return [
            ImportedModule(
                r["id"], r["module"], bool(r["package"]), tuple(sorted(r["imports"])),
                tuple(sorted(r["tests"])), tuple(sorted(r["asked"])), bool(r["runner"]),
            )
            for r in rows
        ]  # fmt: skip

    def process_tests(self, ids: Sequence[str], starters: Sequence[str]) -> list[ProcessTests]:
        """The tests of the repositories of `ids` that start a child process: from which a
        few REACHES steps through test code lead to a call of one of `starters`, per test
        module."""
        rows = self.client.read(
            load_query("coverage/process_tests"),
            {"lists": {"ids": list(ids), "starters": list(starters)}},
        )
        return [
            ProcessTests(
                row["repo"], row["module"], row["text"] or "", tuple(sorted(row["tests"])),
                tuple(c for c in row["codes"] if c),
            )
            for row in rows
        ]  # fmt: skip

    def program_entries(
        self, repo: str, *, scripts: Sequence[str], markers: Sequence[str]
    ) -> list[ProgramCall]:
        """The code `repo`'s programs start with: the code an entry point names a script
        (its reason starts with one of `scripts`), and the callees of the top level of
        modules that can run as a program (named, or whose text holds, one of `markers`)."""
        rows = self.client.read(
            load_query("coverage/program_entries"),
            {"repo": repo, "scripts": list(scripts), "markers": list(markers)},
        )
        return [
            ProgramCall(
                tuple(row["ids"]), tuple(row["scripts"]), row["module"], row["path"],
                row["text"], tuple(tuple(int(n) for n in lines) for lines in row["lines"]),
            )
            for row in rows
        ]  # fmt: skip

    def reached_from(
        self, ids: Sequence[str], entries: Sequence[str], *, resolutions: Sequence[str]
    ) -> dict[str, tuple[str, ...]]:
        """Node of `ids` -> the `entries` from which a REACHES chain of `resolutions` leads
        to it (a node that is an entry itself is not asked)."""
        rows = self.client.read(
            load_query("coverage/reached_from"),
            {
                "lists": {
                    "ids": list(ids),
                    "entries": list(entries),
                    "resolutions": list(resolutions),
                }
            },
        )
        return {row["id"]: tuple(sorted(row["entries"])) for row in rows}

    def shared_members(self, ids: Sequence[str]) -> list[tuple[str, str, str, str, str]]:
        """(method, its name, another method of its class, that one's code, the method's
        language) for each method of `ids` whose class has a member that ran outside every
        test (an instance made at import, which every later test shares)."""
        rows = self.client.read(load_query("coverage/shared_members"), {"ids": list(ids)})
        return [
            (r["id"], r["name"] or "", r["member"], r["code"], r["language"] or "") for r in rows
        ]

    def class_members(
        self, ids: Sequence[str]
    ) -> dict[str, tuple[str, list[tuple[str, str, str]]]]:
        """Method of `ids` -> (its class's language, (id, name, code) of each method of its
        class, itself included)."""
        rows = self.client.read(load_query("coverage/class_members"), {"ids": list(ids)})
        found: dict[str, tuple[str, list[tuple[str, str, str]]]] = {}
        for r in rows:
            _, members = found.setdefault(r["id"], (r["language"] or "", []))
            members.append((r["member"], r["name"] or "", r["code"]))
        return found

    def coverage_state(self, repo: str) -> CoverageState | None:
        """The last coverage import of `repo`, or None when it has none."""
        rows = self.client.read(load_query("coverage/read_state"), {"repo": repo})
        if not rows or rows[0]["imported_at"] is None:
            return None
        row = rows[0]
        return CoverageState(
            row["commit"], row["recorded_at"], row["imported_at"], int(row["tests"] or 0),
            int(row["edges"] or 0), row["file"],
        )  # fmt: skip

    def untested(self, repo: str, *, limit: int) -> list[UntestedSymbol]:
        """Public code outside tests that no test reaches, most central first."""
        rows = self.client.read(load_query("impact/untested"), {"repo": repo, "limit": limit})
        return [
            UntestedSymbol(_symbol(row), float(row["pagerank"]), int(row["callers"]))
            for row in rows
        ]

    def dead_code_candidates(self, repo: str) -> list[DeadCandidate]:
        """Symbols outside test code that no edge reaches (see the Cypher file's rules)."""
        rows = self.client.read(load_query("impact/dead_code_candidates"), {"repo": repo})
        return [
            DeadCandidate(
                symbol=_symbol(row),
                name=row["name"] or "",
                language=row["language"],
                entry_points=tuple(row["entry_points"]),
                decorators=tuple(row["decorators"]),
                parent_kind=row["parent_kind"],
                parent_name=row["parent_name"],
                overrides_used=tuple(row["overrides_used"]),
                test_reach=row["test_reach"],
            )
            for row in rows
        ]

    def module_code(self, repo: str) -> dict[str, tuple[str, bool]]:
        """Path -> (stored source, is test code) of every module of `repo`."""
        rows = self.client.read(load_query("impact/module_code"), {"repo": repo})
        return {row["path"]: (row["code"] or "", bool(row["test_code"])) for row in rows}

    def symbol_name_counts(self, repo: str) -> dict[str, int]:
        """Name -> how many symbols of `repo` are defined with it."""
        rows = self.client.read(load_query("impact/symbol_names"), {"repo": repo})
        return {row["name"]: int(row["definitions"]) for row in rows if row["name"]}
