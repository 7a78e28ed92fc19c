"""Write graph rows to Neo4j: batched `UNWIND … MERGE`, one managed transaction per batch.

Everything is idempotent (MERGE on stable ids), so a run interrupted by a Neo4j restart is
completed by running it again, with no duplicates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..model import Edge, EdgeKind, NodeRow, SymbolKind
from .client import Neo4jClient
from .crossedges import CrossEdgeChange, binding_changes
from .crossrepo import CrossRepoLinker
from .queries import load_query
from .scoping import repo_label

__all__ = ["GraphWriter"]

_NODE_QUERIES = {
    SymbolKind.MODULE: "ingest/write_nodes_module",
    SymbolKind.CLASS: "ingest/write_nodes_class",
    SymbolKind.FUNCTION: "ingest/write_nodes_function",
    SymbolKind.METHOD: "ingest/write_nodes_method",
}
# labels of each kind on a fresh repository's CREATE path (the MERGE queries set the same)
_KIND_LABELS = {
    SymbolKind.MODULE: ["Module"],
    SymbolKind.CLASS: ["Symbol", "Class"],
    SymbolKind.FUNCTION: ["Symbol", "Function"],
    SymbolKind.METHOD: ["Symbol", "Method"],
}
# rows per transaction on the CREATE path: nothing to merge, so larger batches pay (issue 20)
BULK_BATCH = 10_000
# node batches also stop at this much text (code, search text, a module's whole file)
NODE_BATCH_CHARS = 4_000_000
_EDGE_QUERIES = {
    EdgeKind.CALLS: "ingest/write_edges_calls",
    EdgeKind.IMPORTS: "ingest/write_edges_imports",
    EdgeKind.INHERITS: "ingest/write_edges_inherits",
    EdgeKind.USES_TYPE: "ingest/write_edges_uses_type",
}
_CREATE_EDGES = ((False, "bulk/create_edges"), (True, "bulk/create_edges_external"))
Progress = Callable[[int], None]


def _edge_props(edge: Edge) -> dict[str, Any]:
    props: dict[str, Any] = {"lines": list(edge.lines), "count": len(edge.lines)}
    if edge.resolution is not None:
        props["resolution"] = edge.resolution.value
    if edge.index is not None:
        props["index"] = edge.index
    if edge.names:
        props["names"] = list(edge.names)
    if edge.via is not None:
        props["via"] = edge.via
    if edge.implements:
        props["implements"] = True
    return props


def _edge_row(edge: Edge) -> dict[str, Any]:
    row: dict[str, Any] = {"source": edge.source, "target": edge.target, "props": _edge_props(edge)}
    if edge.external:
        row["name"] = edge.target.rsplit(".", 1)[-1]
        row["package"] = edge.target.split(".", 1)[0]
    return row


def _by_kind(edges: Iterable[Edge]) -> dict[tuple[EdgeKind, bool], list[Edge]]:
    """Edges by (kind, external), in their order: the writers build one group's rows at a
    time (building homeassistant's 279k edge rows at once raised the indexer's peak by 64 MB)."""
    groups: dict[tuple[EdgeKind, bool], list[Edge]] = defaultdict(list)
    for edge in edges:
        groups[(edge.kind, edge.external)].append(edge)
    return groups


def _folded(edges: Iterable[Edge]) -> list[dict[str, Any]]:
    """Rows of edges of one kind and side, those with the same ends folded into one (as
    MERGE then `SET r += props` would)."""
    folded: dict[tuple[str, str], dict[str, Any]] = {}
    for edge in edges:
        row = _edge_row(edge)
        key = (edge.source, edge.target)
        if key in folded:
            folded[key]["props"].update(row["props"])
        else:
            folded[key] = row
    return list(folded.values())


class GraphWriter:
    """Writes one repository's rows; knows Cypher files, not parsing."""

    def __init__(self, client: Neo4jClient, repo: str, *, batch_size: int = 2000) -> None:
        self.client = client
        self.repo = repo
        self.batch_size = batch_size
        # every node of the repository made by this writer (`create_nodes`: it had none), so
        # it has no REACHES edge to delete before its reach graph is written
        self.created = False

    def start_run(self, root: str, run: str) -> None:
        self.client.write(*self.start_statement(root, run))

    def start_statement(self, root: str, run: str) -> tuple[str, dict[str, Any]]:
        """The statement `start_run` sends, to send with others in one transaction."""
        return load_query("ingest/write_repository"), {"repo": self.repo, "root": root, "run": run}

    def finish_run(self, run: str, *, head: str | None, files: int, symbols: int) -> None:
        """Mark the run done, once the full-text indexes hold what it wrote (the wait and
        the mark in one transaction)."""
        done = {"repo": self.repo, "run": run, "head": head, "files": files, "symbols": symbols}
        self.client.write_statements(
            [
                (load_query("ingest/await_text_indexes"), {}),
                (load_query("ingest/write_repository_done"), done),
            ]
        )

    def touch_run(self, root: str, run: str, *, head: str | None) -> None:
        """Record that a run found the repository as the complete run `run` left it."""
        self.client.write(
            load_query("ingest/write_repository_checked"),
            {"repo": self.repo, "run": run, "root": root, "head": head},
        )

    def repository_state(self) -> dict[str, Any] | None:
        rows = self.client.read(load_query("ingest/read_repository"), {"repo": self.repo})
        return rows[0] if rows else None

    def existing_node_ids(self) -> set[str]:
        rows = self.client.read(load_query("ingest/repository_node_ids"), {"repo": self.repo})
        return {row["id"] for row in rows}

    def _batches(
        self,
        query: str,
        rows: Sequence[dict[str, Any]],
        progress: Progress | None,
        extra: dict[str, Any] | None = None,
        *,
        batch_size: int | None = None,
        max_chars: int | None = None,
    ) -> None:
        self.client.write_batches(
            query,
            rows,
            batch_size=batch_size or self.batch_size,
            max_chars=max_chars,
            extra={"repo": self.repo, **(extra or {})},
            progress=progress,
        )

    def write_nodes(self, rows: Iterable[NodeRow], progress: Progress | None = None) -> None:
        by_kind: dict[SymbolKind, list[dict[str, Any]]] = defaultdict(list)
        ordered = list(rows)
        for row in ordered:
            by_kind[row.kind].append(row.as_parameters())
        # the repository's own label: its full-text index covers it (scoping.py)
        label = {"repo_label": repo_label(self.repo)}
        for kind in (SymbolKind.MODULE, SymbolKind.CLASS, SymbolKind.FUNCTION, SymbolKind.METHOD):
            self._batches(
                load_query(_NODE_QUERIES[kind]),
                by_kind.get(kind, []),
                progress,
                label,
                max_chars=NODE_BATCH_CHARS,
            )
        modules = [{"id": r.id} for r in ordered if r.kind == SymbolKind.MODULE]
        self._batches(load_query("ingest/write_contains"), modules, None)
        defines = [{"id": r.id, "parent": r.parent} for r in ordered if r.parent is not None]
        self._batches(load_query("ingest/write_defines"), defines, None)

    def create_nodes(
        self,
        rows: Sequence[NodeRow],
        stats: Mapping[str, Mapping[str, Any]],
        progress: Progress | None = None,
    ) -> None:
        """`write_nodes` for a repository with no node yet: CREATE in large batches, each
        node's link statistics (`stats`) set with it rather than in a second pass."""
        label = repo_label(self.repo)
        query = load_query("bulk/create_nodes")
        modules = [{"id": r.id} for r in rows if r.kind == SymbolKind.MODULE]
        defines = [{"id": r.id, "parent": r.parent} for r in rows if r.parent is not None]
        self.created = True
        if len(rows) + len(modules) + len(defines) <= BULK_BATCH:
            # a small repository (flask: 433 nodes): every kind, CONTAINS and DEFINES in one
            # transaction when its text allows (`write_together`)
            repo = {"repo": self.repo}
            groups: list[tuple[str, Sequence[Any], Mapping[str, Any]]] = [
                (
                    query,
                    [
                        {"id": r.id, "props": {**r.properties, **stats.get(r.id, {})}}
                        for r in rows
                        if r.kind == kind
                    ],
                    {**repo, "labels": [*labels, label]},
                )
                for kind, labels in _KIND_LABELS.items()
            ]
            groups.append((load_query("bulk/create_contains"), modules, repo))
            groups.append((load_query("bulk/create_defines"), defines, repo))
            # progress counts nodes, not the CONTAINS and DEFINES rows sent with them
            self.client.write_together(groups, batch_size=BULK_BATCH, max_chars=NODE_BATCH_CHARS)
            if progress is not None and rows:
                progress(len(rows))
            return
        for kind, labels in _KIND_LABELS.items():
            of_kind = [r for r in rows if r.kind == kind]
            # the merged properties of one batch at a time, not of every node of the kind
            for start in range(0, len(of_kind), BULK_BATCH):
                batch = [
                    {"id": r.id, "props": {**r.properties, **stats.get(r.id, {})}}
                    for r in of_kind[start : start + BULK_BATCH]
                ]
                self._batches(
                    query,
                    batch,
                    progress,
                    {"labels": [*labels, label]},
                    batch_size=BULK_BATCH,
                    max_chars=NODE_BATCH_CHARS,
                )
        self._batches(load_query("bulk/create_contains"), modules, None, batch_size=BULK_BATCH)
        self._batches(load_query("bulk/create_defines"), defines, None, batch_size=BULK_BATCH)

    def create_edges(self, edges: Iterable[Edge], progress: Progress | None = None) -> None:
        """`write_edges` for a repository with no edge yet: rows with the same ends and kind
        folded into one (as MERGE then `SET r += props` would), then CREATE."""
        groups = _by_kind(edges)
        if sum(len(group) for group in groups.values()) <= BULK_BATCH:
            # a small repository: every kind and side in one transaction (`write_together`)
            together: list[tuple[str, Sequence[Any], Mapping[str, Any]]] = [
                (
                    load_query(query),
                    _folded(groups.pop((kind, external), [])),
                    {"repo": self.repo, "kind": kind.value},
                )
                for kind in _EDGE_QUERIES
                for external, query in _CREATE_EDGES
            ]
            self.client.write_together(together, batch_size=BULK_BATCH, progress=progress)
            return
        for kind in _EDGE_QUERIES:
            for external, query in _CREATE_EDGES:
                rows = _folded(groups.pop((kind, external), []))
                self._batches(
                    load_query(query), rows, progress, {"kind": kind.value}, batch_size=BULK_BATCH
                )

    def delete_nodes(self, ids: Iterable[str]) -> None:
        """Delete these nodes; edges other repositories had linked to them fall back to
        their `:External` target first (graph/crossrepo.py)."""
        ids = sorted(set(ids))
        if ids:
            CrossRepoLinker(self.client).release(ids=ids)
        self._id_batches(load_query("ingest/delete_nodes"), ids)

    def delete_outgoing_edges(self, ids: Iterable[str]) -> None:
        self._id_batches(load_query("ingest/delete_outgoing_edges"), ids)

    def delete_edges(self, keys: Iterable[tuple[str, str, str, bool]]) -> None:
        """Delete edges by identity: (kind, source id, target id or external name, external)."""
        rows = [
            {"kind": kind, "source": source, "target": target, "external": external}
            for kind, source, target, external in sorted(set(keys))
        ]
        self._batches(load_query("ingest/delete_edges"), rows, None)

    def _id_batches(self, query: str, ids: Iterable[str]) -> None:
        self.client.write_batches(query, sorted(set(ids)), batch_size=self.batch_size)

    def write_edges(self, edges: Iterable[Edge], progress: Progress | None = None) -> None:
        groups = _by_kind(edges)
        for kind, query in _EDGE_QUERIES.items():
            rows = [_edge_row(edge) for edge in groups.pop((kind, False), [])]
            self._batches(load_query(query), rows, progress)
            if kind != EdgeKind.USES_TYPE:
                rows = [_edge_row(edge) for edge in groups.pop((kind, True), [])]
                self._batches(load_query(f"{query}_external"), rows, progress)

    def write_node_stats(self, stats: dict[str, dict[str, Any]]) -> None:
        rows = [{"id": node_id, "props": props} for node_id, props in sorted(stats.items())]
        self._batches(load_query("ingest/write_link_stats"), rows, None)

    # -- test roles and the reach graph (issue 16) ----------------------------------------------
    def write_roles(self, rows: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Set (or, with None values, remove) the role properties of nodes: (id, props)."""
        self._batches(
            load_query("ingest/write_roles"), [{"id": i, "props": p} for i, p in rows], None
        )

    def write_roles_and_reach(
        self,
        roles: Sequence[tuple[str, dict[str, Any]]],
        reach: Sequence[dict[str, Any]],
        progress: Progress | None = None,
    ) -> None:
        """`write_roles` then `write_reach_edges`, in one transaction when together they fit
        one batch (a small repository's tests stage: one commit, not two)."""
        if len(roles) + len(reach) > self.batch_size:
            self.write_roles(roles)
            self.write_reach_edges(reach, progress)
            return
        repo = {"repo": self.repo}
        rows = [{"id": i, "props": p} for i, p in roles]
        self.client.write_together(
            [
                (load_query("ingest/write_roles"), rows, repo),
                (load_query("ingest/write_edges_reach"), reach, repo),
            ],
            batch_size=self.batch_size,
        )
        if progress is not None and reach:
            progress(len(reach))

    def delete_reach_edges(self, sources: Iterable[str]) -> None:
        """Drop the REACHES edges leaving these nodes."""
        self.client.write_batches(
            load_query("ingest/delete_reach_edges"), sorted(set(sources)), batch_size=1_000
        )

    def delete_all_reach_edges(self, batch: int = 50_000) -> None:
        """Drop every REACHES edge of this repository (and TESTS edges an older version
        wrote), one bounded transaction at a time; nothing to send when this writer created
        the repository's nodes (a query over them, and a commit, saved)."""
        if self.created:
            return
        query = load_query("ingest/delete_repository_reach")
        while self.client.write(query, {"repo": self.repo, "limit": batch})[0]["deleted"]:
            pass

    def write_reach_edges(
        self, rows: Sequence[dict[str, Any]], progress: Progress | None = None
    ) -> None:
        """REACHES edges: rows of {source, target, props: {resolution, via}}."""
        self._batches(load_query("ingest/write_edges_reach"), rows, progress)

    def delete_repository(self, batch: int = 10_000) -> list[CrossEdgeChange]:
        """Remove every node of this repository, its :Repository node, its own full-text index
        and orphaned externals. Other repositories' edges into it fall back to `:External`
        (or to another repository providing the same package, now the only one): what
        changed comes back."""
        self.created = False
        cross = CrossRepoLinker(self.client)
        packages = next((p.packages for p in cross.providers() if p.repo == self.repo), None)
        before = cross.bindings(self.repo, packages or ())
        cross.forget(self.repo)
        self.delete_all_reach_edges()
        query = load_query("ingest/delete_repository")
        while self.client.write(query, {"repo": self.repo, "limit": batch})[0]["deleted"]:
            pass
        self.client.write(load_query("ingest/delete_repository_node"), {"repo": self.repo})
        label = {"label": repo_label(self.repo)}
        for row in self.client.read(load_query("ingest/repository_indexes"), label):
            self.client.write(load_query("schema/drop_index"), {"name": row["name"]})
        if packages:
            cross.relink(packages, bound=before)
        self.delete_orphan_externals()
        self.await_text_indexes()
        return binding_changes(before, cross.bindings(self.repo, packages or ()), besides=self.repo)

    def await_text_indexes(self) -> None:
        """Wait until the full-text indexes, which the server updates after a write commits
        (`fulltext.eventually_consistent`, schema/create.cypher), have caught up."""
        self.client.write(load_query("ingest/await_text_indexes"))

    def delete_orphan_externals(self, candidates: Sequence[str] | None = None) -> None:
        """Delete :External nodes nothing points at: all of them, or only `candidates`."""
        if candidates is None:
            self.client.write(load_query("ingest/delete_orphan_externals"))
        elif candidates:
            self.client.write(
                load_query("ingest/delete_orphan_externals_named"), {"names": list(candidates)}
            )
