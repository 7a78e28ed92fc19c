"""Incremental bookkeeping of one indexing run: what the last run left behind, what changed
since, which files must be parsed and linked again, and the state the next run starts from.

`pipeline.build_graph` orchestrates the stages; everything here decides how little they can do
while still converging to the graph a clean run would write (tests prove the equality).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..graph.client import Neo4jClient
from ..graph.writer import GraphWriter
from ..languages import index_rules
from ..linking.consulted import key_hashes
from ..linking.edges import FileLinks
from ..linking.flowkeys import call_names, flow_keys, store_names, value_names
from ..linking.index import RepositoryIndex, interface_hash
from ..model import ParsedFile, SkippedFile, SourceFile
from ..parsing import ModuleName
from .centrality import centrality
from .report import IngestReport
from .state import IndexState, StateStore, compact, packed, unpacked

__all__ = [
    "IngestRun",
    "files_to_parse",
    "files_to_relink",
    "ids_shift",
    "lookup_tables",
    "next_state",
    "node_statistics",
    "nothing_changed",
    "still_skipped",
    "usable_state",
]


@dataclass
class IngestRun:
    """Working data of one run."""

    root: Path
    repo: str
    sources: dict[str, SourceFile]
    state: IndexState | None
    report: IngestReport
    parsed: dict[str, ParsedFile] = field(default_factory=dict)
    fresh: dict[str, ParsedFile] = field(default_factory=dict)  # parsed in this run, with code
    modules: dict[str, ModuleName] = field(default_factory=dict)
    import_prefixes: dict[str, frozenset[str]] = field(default_factory=dict)
    edge_digests: dict[str, bytes] = field(default_factory=dict)  # see `edge_diff`
    # path -> the sha256 of the bytes its skip was decided on: the walk's for a file skipped
    # before, the parse stage's for one it read (none for a file it could not read)
    skip_sha: dict[str, str] = field(default_factory=dict)


def usable_state(
    store: StateStore, client: Neo4jClient, writer: GraphWriter, repo: str
) -> IndexState | None:
    """The saved state of `repo` if the graph is the one it describes, its per-file objects
    not read yet (`StateStore.read_files`)."""
    state = store.load(client.endpoint.uri, client.database, repo, files=False)
    if state is None:
        return None
    stored = writer.repository_state()
    # An interrupted run leaves status "indexing": its partial writes are not described by
    # any state, so the next run is a full one.
    if stored is None or stored.get("status") != "complete":
        return None
    if stored.get("state_token") != state.token:
        return None
    return state


def nothing_changed(state: IndexState, files: Iterable[SourceFile]) -> bool:
    """Whether the walked `files` are those `state` describes, each with the same content
    (a file skipped for its content, unchanged, stays skipped): then a run has nothing to
    parse, link or write."""
    seen = 0
    for source in files:
        if state.files.get(source.path) == source.sha256:
            seen += 1
        elif still_skipped(state, source) is None:
            return False
    return seen == len(state.files)


def still_skipped(state: IndexState, source: SourceFile) -> str | None:
    """Why `source` stays skipped: the reason it was skipped for last time, if its content
    is the same (None: it was not skipped, or it changed)."""
    skipped = state.skipped.get(source.path)
    return skipped[1] if skipped is not None and skipped[0] == source.sha256 else None


def files_to_parse(run: IngestRun) -> set[str]:
    """Paths to parse: new or changed since the last run (files skipped last time for their
    content stay skipped until they change)."""
    if run.state is None:
        return set(run.sources)
    previous = run.state.files
    changed = set()
    for path, source in run.sources.items():
        if previous.get(path) == source.sha256:
            continue
        reason = still_skipped(run.state, source)
        if reason is not None:
            run.report.skipped.append(SkippedFile(path, reason))
            continue
        changed.add(path)
    for skip in run.report.skipped:
        run.sources.pop(skip.path, None)
    return changed


def lookup_tables(run: IngestRun, removed: set[str]) -> RepositoryIndex:
    """The lookup tables for this run: the previous run's, updated in place for the changed
    files when it is still in memory (watch mode), else built from every parsed file."""
    state = run.state
    cached = state.index if state is not None else None
    if state is not None:
        state.index = None  # detached: a failed run must not leave a half-updated index behind
    if cached is not None and state is not None:
        old = [state.parsed[p] for p in sorted(set(run.fresh) | removed) if p in state.parsed]
        new = [run.parsed[p] for p in sorted(run.fresh)]
        # the tables hold the rules of the languages they were built with (`index_rules`):
        # a file of another one makes them anew
        if {f.language for f in new} <= cached.rules.keys() and cached.update(old, new):
            return cached
    rules = index_rules(f.language for f in run.parsed.values())
    return RepositoryIndex(run.parsed.values(), rules)


def ids_shift(run: IngestRun, index: RepositoryIndex, removed: set[str]) -> bool:
    state = run.state
    assert state is not None
    before = {state.parsed[p].module for p in set(run.fresh) | removed if p in state.parsed}
    after = {run.parsed[p].module for p in run.fresh}
    appeared_or_gone = before ^ after
    if not appeared_or_gone:
        return False
    old_symbols = {s.qualified_name for f in state.parsed.values() for s in f.symbols}
    return bool(appeared_or_gone & (old_symbols | set(index.symbols)))


def files_to_relink(run: IngestRun, index: RepositoryIndex, removed: set[str]) -> set[str]:
    state = run.state
    if state is None or index.shadowed_paths != state.shadowed:
        run.report.files_removed = len(removed)
        return set(run.parsed)
    dirty_modules: set[str] = set()
    dirty_names: set[str] = set()
    touched = set(run.fresh) | removed
    for path in touched:
        old = state.parsed.get(path)
        new = run.parsed.get(path)
        old_interface = state.interfaces.get(path)
        new_interface = interface_hash(new) if new is not None else None
        if old_interface != new_interface:
            for file in (old, new):
                if file is not None:
                    dirty_modules.add(file.module)
        # the parts of its value flow that changed (other files may have followed them)
        old_flows, new_flows = _flows(old), _flows(new)
        dirty_modules |= {
            key
            for key in old_flows.keys() | new_flows.keys()
            if old_flows.get(key) != new_flows.get(key)
        }
        old_names = Counter(_callable_names(old, index))
        new_names = Counter(_callable_names(new, index))
        dirty_names |= {
            n for n in old_names.keys() | new_names.keys() if old_names[n] != new_names[n]
        }
    run.report.files_removed = len(removed)
    relink = set(run.fresh)
    dirty_keys = key_hashes(dirty_modules)
    for path, links in state.links.items():
        if path not in run.parsed or path in relink:
            continue
        if links.modules_consulted.meets(dirty_keys) or links.names_consulted & dirty_names:
            relink.add(path)
    return relink


def _callable_names(parsed: ParsedFile | None, index: RepositoryIndex) -> list[str]:
    """Short names of its definitions, `CALL_KEY + name` for its calls passing values, the
    keys its language's rules offer (`IndexRules.offered_names`: Python's properties,
    descriptors and signature buckets), `STORE_KEY + attribute` for its stores into
    attributes through variables, `VALUE_KEY + name` for the names it uses as values."""
    if parsed is None:
        return []
    names = [s.name for s in parsed.symbols if s.ordinal == 1]
    offered = index.language_rules(parsed.language).offered_names(parsed)
    return names + call_names(parsed) + offered + store_names(parsed) + value_names(parsed)


def _flows(parsed: ParsedFile | None) -> dict[str, str]:
    return flow_keys(parsed) if parsed is not None else {}


def node_statistics(
    state: IndexState | None,
    node_ids: dict[str, list[str]],
    links: dict[str, FileLinks],
    relink: set[str],
    *,
    nodes_deleted: bool,
) -> tuple[dict[str, dict[str, Any]], dict[str, bytes]]:
    """The node statistics that changed (to write) and every file's statistics (to keep).

    PageRank runs again only when nodes or ranked edges changed. Otherwise only the relinked
    files' nodes can differ, in their unresolved calls (a node's unresolved calls are call
    sites in its own body, so they come from its own file's links), and the other files keep
    their pickled statistics untouched.
    """
    before: dict[str, bytes] = state.node_stats if state is not None else {}

    def old_stats(path: str) -> dict[str, dict[str, Any]]:
        blob = before.get(path)
        return unpacked(blob) if blob is not None else {}

    def old_ranked(path: str) -> frozenset[tuple[str, str]] | None:
        blob = state.rank_edges.get(path) if state is not None else None
        return unpacked(blob) if blob is not None else None

    def new_here(path: str) -> bool:  # a node this file did not have before
        old = set(state.node_ids.get(path, ())) if state is not None else set()
        return any(node not in old for node in node_ids.get(path, []))

    rank_changed = (
        state is None
        or nodes_deleted
        or any(new_here(path) for path in relink)
        or any(links[path].rank_edges != old_ranked(path) for path in relink)
    )
    changed: dict[str, dict[str, Any]] = {}
    kept: dict[str, bytes] = {}
    if rank_changed:
        everything = _node_stats(
            node_ids,
            links,
            [
                links[path].rank_edges if path in relink else old_ranked(path) or frozenset()
                for path in links
            ],
        )
        for path, ids_ in node_ids.items():
            stats = {node: everything[node] for node in ids_}
            previous = old_stats(path)
            changed.update((n, props) for n, props in stats.items() if previous.get(n) != props)
            blob = before.get(path)
            kept[path] = blob if blob is not None and stats == previous else packed(stats)
        return changed, kept
    kept = {path: before[path] for path in node_ids if path not in relink}
    for path in relink:
        file_links, previous = links[path], old_stats(path)
        stats = {
            node: {
                **previous[node],
                "unresolved_calls": file_links.unresolved_calls.get(node, 0),
                "unresolved_names": list(file_links.unresolved_names.get(node, ())),
            }
            for node in node_ids.get(path, [])
        }
        changed.update((n, props) for n, props in stats.items() if previous.get(n) != props)
        kept[path] = packed(stats)
    return changed, kept


def _node_stats(
    node_ids: dict[str, list[str]],
    links: dict[str, FileLinks],
    rank_edges: list[frozenset[tuple[str, str]]],
) -> dict[str, dict[str, Any]]:
    """Rank and unresolved-call counts of every node; `rank_edges`: each file's rank pairs."""
    nodes = {node for ids_ in node_ids.values() for node in ids_}
    scores = centrality(nodes, [pair for pairs in rank_edges for pair in pairs])
    unresolved: Counter[str] = Counter()
    unresolved_names: dict[str, tuple[str, ...]] = {}
    for file_links in links.values():
        unresolved.update(file_links.unresolved_calls)
        unresolved_names.update(file_links.unresolved_names)
    return {
        node: {
            "pagerank": scores[node][0],
            "in_degree": scores[node][1],
            "out_degree": scores[node][2],
            "unresolved_calls": unresolved.get(node, 0),
            "unresolved_names": list(unresolved_names.get(node, ())),
        }
        for node in nodes
    }


def next_state(
    run: IngestRun,
    index: RepositoryIndex,
    links: dict[str, FileLinks],
    relink: set[str],
    node_ids: dict[str, list[str]],
    stats: dict[str, bytes],
    token: str,
) -> IndexState:
    """The state the next run of this repository starts from: this run's parses (compacted),
    links, node ids and statistics, reusing the previous state's parts for untouched files.
    Files skipped for their content keep their reason until they change (`IngestRun.skip_sha`:
    the hash each reason was decided on)."""
    state = run.state
    compacted = {p: compact(f) for p, f in run.fresh.items()}
    return IndexState(
        repo=run.repo,
        token=token,
        files={p: s.sha256 for p, s in run.sources.items() if p in run.parsed},
        modules={p: m for p, m in run.modules.items() if p in run.parsed},
        parsed={p: compacted[p][0] if p in compacted else f for p, f in run.parsed.items()},
        calls={
            p: compacted[p][1] if p in compacted else state.calls[p]  # type: ignore[union-attr]
            for p in run.parsed
        },
        interfaces={
            p: state.interfaces[p]
            if state is not None and p not in run.fresh
            else interface_hash(f)
            for p, f in run.parsed.items()
        },
        links={p: file_links.for_state() for p, file_links in links.items()},
        rank_edges={
            p: packed(links[p].rank_edges) if p in relink or state is None else state.rank_edges[p]
            for p in links
        },
        node_ids=node_ids,
        node_stats=stats,
        edge_digests=run.edge_digests,
        file_stats={
            p: (s.size, s.mtime_ns, s.sha256) for p, s in run.sources.items() if p in run.parsed
        },
        shadowed=frozenset(index.shadowed_paths),
        index=index,
        encoded=state.encoded if state is not None else None,
        import_prefixes=run.import_prefixes,
        imported=frozenset().union(*run.import_prefixes.values()),
        skipped={
            s.path: (run.skip_sha[s.path], s.reason)
            for s in run.report.skipped
            if s.path in run.skip_sha
        },
    )
