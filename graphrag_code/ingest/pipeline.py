"""`build_graph`: walk -> parse -> link -> write -> rank, full or incremental.

An incremental run parses only changed files, links again only the files whose resolution
consulted a module whose interface changed (or a short name whose uniqueness changed), and
writes only what differs. It converges to the same graph as a clean run; a test proves it.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import IngestError
from ..graph.client import Neo4jClient
from ..graph.writer import GraphWriter
from ..linking.centrality import centrality
from ..linking.index import RepositoryIndex, interface_hash
from ..linking.linker import FileLinks, NodeIds, link_file
from ..model import NodeRow, ParsedFile, SkippedFile, SourceFile, SymbolKind
from ..parsing import (
    LANGUAGES,
    ModuleName,
    ParseJob,
    imported_prefixes,
    module_names,
    parse_files,
    walk_repository,
)
from ..parsing.walker import DEFAULT_MAX_BYTES, walk_changes
from ..progress import SILENT, ProgressReporter
from .report import IngestReport
from .rows import file_rows
from .state import IndexState, StateStore, compact, packed, paused_gc, unpacked, with_calls

__all__ = ["IndexOptions", "build_graph", "valid_repo_name"]

_REPO_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


@dataclass(frozen=True)
class IndexOptions:
    max_file_bytes: int = DEFAULT_MAX_BYTES
    workers: int = field(default_factory=lambda: max(1, min(4, os.cpu_count() or 1)))
    full: bool = False  # ignore the incremental state and rebuild this repository's graph
    # paths a file watcher reported: with a warm state, only these are looked at (no walk)
    changed_paths: frozenset[str] | None = None


def valid_repo_name(name: str) -> str:
    if not _REPO_NAME.match(name):
        raise IngestError(
            f"repository name {name!r} must be 1-100 letters, digits, '.', '_' or '-' "
            "and start with a letter or digit"
        )
    return name


@dataclass
class _Run:
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


@contextmanager
def _timed(report: IngestReport, stage: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        report.seconds[stage] = report.seconds.get(stage, 0.0) + time.perf_counter() - started


# A run creates hundreds of thousands of small objects next to a state of millions; each
# automatic collection would traverse them all again (building the node statistics of Django
# took 0.5 s with the collector on, 0.03 s off). Cycles are collected after the run.
@paused_gc()
def build_graph(
    path: str | Path,
    client: Neo4jClient,
    *,
    repo: str | None = None,
    state_dir: Path | None = None,
    store: StateStore | None = None,
    options: IndexOptions | None = None,
    progress: ProgressReporter | None = None,
) -> IngestReport:
    """Index (or incrementally re-index) the repository at `path` into the graph.

    The incremental state lives in `store` (or a store over `state_dir`); a long-lived store
    keeps it in memory between runs and saves it in the background.
    """
    options = options or IndexOptions()
    progress = progress or SILENT
    root = Path(path).resolve()
    if not root.is_dir():
        raise IngestError(f"{root} is not a directory")
    name = valid_repo_name(repo or root.name)
    report = IngestReport(repo=name, root=str(root))
    writer = GraphWriter(client, name)
    background = store is not None  # a caller-held store outlives this call
    if store is None:
        if state_dir is None:
            raise IngestError("build_graph needs a state_dir or a store")
        store = StateStore(state_dir)

    with _timed(report, "state"):
        state = None if options.full else _usable_state(store, client, writer, name)
    with _timed(report, "walk"):
        progress.stage("walking", None)
        walked = None
        if state is not None and options.changed_paths is not None:
            walked = walk_changes(
                root,
                languages=LANGUAGES,
                known=state.file_stats,
                changed=options.changed_paths,
                max_bytes=options.max_file_bytes,
            )
            if walked is not None:  # files skipped before stay skipped unless they changed
                seen = {s.path for s in walked.skipped} | {s.path for s in walked.files}
                walked.skipped.extend(
                    SkippedFile(path, reason)
                    for path, (_sha, reason) in state.skipped.items()
                    if path not in seen and (root / path).exists()
                )
        if walked is None:
            walked = walk_repository(
                root,
                languages=LANGUAGES,
                max_bytes=options.max_file_bytes,
                known=state.file_stats if state is not None else None,
            )
    report.skipped.extend(walked.skipped)
    report.skipped_dirs.extend(walked.skipped_dirs)
    skipped_sha = {f.path: f.sha256 for f in walked.files}
    run = _Run(
        root=root,
        repo=name,
        sources={f.path: f for f in walked.files},
        state=state,
        report=report,
    )
    report.mode = "incremental" if state is not None else "full"
    with _timed(report, "parse"):
        _parse(run, _changed(run), options, progress)
    removed = set(state.files) - set(run.parsed) if state is not None else set()
    with _timed(report, "link"):
        index = _index_for(run, removed)
        ids = NodeIds(name, index)
        if state is not None and _ids_shift(run, index, removed):
            # A module appeared or vanished with the name of an existing symbol: that symbol's
            # id changes. Rare enough that a full run is the simple, exact answer.
            return build_graph(
                root, client, repo=name, store=store,
                options=IndexOptions(options.max_file_bytes, options.workers, full=True),
                progress=progress,
            )  # fmt: skip
        relink = _files_to_relink(run, index, removed)
        progress.stage("linking", len(relink))
        links = dict(state.links) if state is not None else {}
        for path_ in removed:
            links.pop(path_, None)
        for path_ in sorted(relink):
            parsed = run.parsed[path_]
            if path_ not in run.fresh and state is not None:
                parsed = with_calls(parsed, state.calls[path_])
            links[path_] = link_file(parsed, index, ids)
            progress.advance()
    report.files_relinked = len(relink)
    token = uuid.uuid4().hex
    with _timed(report, "write"):
        node_ids, stats = _write(run, writer, index, ids, links, relink, removed, token, progress)
    _summarise(run, index, links)
    compacted = {p: compact(f) for p, f in run.fresh.items()}
    new_state = IndexState(
        repo=name,
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
        file_stats={
            p: (s.size, s.mtime_ns, s.sha256) for p, s in run.sources.items() if p in run.parsed
        },
        shadowed=frozenset(index.shadowed_paths),
        index=index,
        encoded=state.encoded if state is not None else {},
        import_prefixes=run.import_prefixes,
        imported=frozenset().union(*run.import_prefixes.values()),
        skipped={
            s.path: (skipped_sha[s.path], s.reason) for s in report.skipped if s.path in skipped_sha
        },
    )
    with _timed(report, "state"):
        store.save(client.endpoint.uri, client.database, new_state, background=background)
    writer.finish_run(token, head=_git_head(root), files=len(run.parsed), symbols=report.symbols)
    return report


def _usable_state(
    store: StateStore, client: Neo4jClient, writer: GraphWriter, repo: str
) -> IndexState | None:
    state = store.load(client.endpoint.uri, client.database, repo)
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


def _changed(run: _Run) -> set[str]:
    """Paths to parse: new or changed since the last run (files skipped last time for their
    content stay skipped until they change)."""
    if run.state is None:
        return set(run.sources)
    previous = run.state.files
    changed = set()
    for path, source in run.sources.items():
        if previous.get(path) == source.sha256:
            continue
        skipped = run.state.skipped.get(path)
        if skipped is not None and skipped[0] == source.sha256:
            run.report.skipped.append(SkippedFile(path, skipped[1]))
            continue
        changed.add(path)
    for skip in run.report.skipped:
        run.sources.pop(skip.path, None)
    return changed


def _index_for(run: _Run, removed: set[str]) -> RepositoryIndex:
    """The lookup tables for this run: the previous run's, updated in place for the changed
    files when it is still in memory (watch mode), else built from every parsed file."""
    state = run.state
    cached = state.index if state is not None else None
    if state is not None:
        state.index = None  # detached: a failed run must not leave a half-updated index behind
    if cached is not None and state is not None:
        old = [state.parsed[p] for p in sorted(set(run.fresh) | removed) if p in state.parsed]
        new = [run.parsed[p] for p in sorted(run.fresh)]
        if cached.update(old, new):
            return cached
    return RepositoryIndex(run.parsed.values())


def _ids_shift(run: _Run, index: RepositoryIndex, removed: set[str]) -> bool:
    state = run.state
    assert state is not None
    before = {state.parsed[p].module for p in set(run.fresh) | removed if p in state.parsed}
    after = {run.parsed[p].module for p in run.fresh}
    appeared_or_gone = before ^ after
    if not appeared_or_gone:
        return False
    old_symbols = {s.qualified_name for f in state.parsed.values() for s in f.symbols}
    return bool(appeared_or_gone & (old_symbols | set(index.symbols)))


def _import_prefixes(parsed: ParsedFile) -> frozenset[str]:
    return imported_prefixes(
        statement.module
        for statement in parsed.imports
        if statement.level == 0 and statement.module
    )


def _parse(run: _Run, changed: set[str], options: IndexOptions, progress: ProgressReporter) -> None:
    """Parse changed files; keep cached parses of the others (re-parse if their name moved)."""
    state = run.state
    if state is not None:
        run.parsed = {
            p: f for p, f in state.parsed.items() if p in run.sources and p not in changed
        }
    # Evidence for namespace packages: the import prefixes of every file; a changed file counts
    # with its old imports until it is parsed again (so an edit that keeps its imports reuses
    # the previous run's module names without recomputing them).
    prefixes: dict[str, frozenset[str]] = {
        p: prefix for p, prefix in (state.import_prefixes if state else {}).items()
        if p in run.sources
    }  # fmt: skip
    # Module names depend on evidence from the parsed imports (namespace packages), so parse,
    # rename, and parse again what moved, until the names are stable.
    for _attempt in range(4):
        for path in run.parsed.keys() - prefixes.keys():
            prefixes[path] = _import_prefixes(run.parsed[path])
        imported = frozenset().union(*prefixes.values())
        if (
            state is not None
            and imported == state.imported
            and run.sources.keys() == state.modules.keys()
        ):
            run.modules = dict(state.modules)
        else:
            run.modules = module_names(run.sources, imported, root_name=run.root.name)
        moved = {p for p, f in run.parsed.items() if run.modules[p].module != f.module}
        todo = sorted((changed - set(run.fresh)) | moved)
        todo = [p for p in todo if p in run.sources]
        if not todo:
            break
        progress.stage("parsing", len(todo))
        jobs = [ParseJob(run.sources[p], run.modules[p]) for p in todo]
        parsed, skipped = parse_files(
            jobs, workers=options.workers, on_done=lambda _p: progress.advance()
        )
        run.report.skipped.extend(skipped)
        for file in parsed:
            run.parsed[file.path] = file
            run.fresh[file.path] = file
            prefixes[file.path] = _import_prefixes(file)
        for skip in skipped:
            run.sources.pop(skip.path, None)
            run.parsed.pop(skip.path, None)
            prefixes.pop(skip.path, None)
            changed.discard(skip.path)
    run.import_prefixes = {p: prefixes[p] for p in run.parsed}
    run.report.files_parsed = len(run.fresh)
    run.report.files_unchanged = len(run.parsed) - len(run.fresh)


def _files_to_relink(run: _Run, index: RepositoryIndex, removed: set[str]) -> set[str]:
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
        old_names = Counter(_callable_names(old))
        new_names = Counter(_callable_names(new))
        dirty_names |= {
            n for n in old_names.keys() | new_names.keys() if old_names[n] != new_names[n]
        }
    run.report.files_removed = len(removed)
    relink = set(run.fresh)
    for path, links in state.links.items():
        if path not in run.parsed or path in relink:
            continue
        if links.modules_consulted & dirty_modules or links.names_consulted & dirty_names:
            relink.add(path)
    return relink


def _callable_names(parsed: ParsedFile | None) -> list[str]:
    if parsed is None:
        return []
    return [s.name for s in parsed.symbols if s.ordinal == 1]


def _write(
    run: _Run,
    writer: GraphWriter,
    index: RepositoryIndex,
    ids: NodeIds,
    links: dict[str, FileLinks],
    relink: set[str],
    removed: set[str],
    token: str,
    progress: ProgressReporter,
) -> tuple[dict[str, list[str]], dict[str, bytes]]:
    state = run.state
    writer.start_run(str(run.root), token)
    rows: list[NodeRow] = []
    node_ids: dict[str, list[str]] = (
        {}
        if state is None
        else {
            p: ids_ for p, ids_ in state.node_ids.items() if p in run.parsed and p not in run.fresh
        }
    )
    for path, parsed in sorted(run.fresh.items()):
        file_node_rows = file_rows(run.repo, parsed, ids)
        rows.extend(file_node_rows)
        node_ids[path] = [row.id for row in file_node_rows]
    all_ids = {node for ids_ in node_ids.values() for node in ids_}
    if state is None:
        existing = writer.existing_node_ids()
    else:
        existing = {
            node for path in set(run.fresh) | removed for node in state.node_ids.get(path, [])
        }
    deleted = existing - all_ids
    writer.delete_nodes(deleted)
    progress.stage("writing nodes", len(rows))
    writer.write_nodes(rows, progress.advance)
    relinked_sources = {node for path in relink for node in node_ids.get(path, [])}
    if state is None:
        relinked_sources |= existing
    writer.delete_outgoing_edges(relinked_sources)
    edges = [edge for path in sorted(relink) for edge in links[path].edges]
    progress.stage("writing edges", len(edges))
    writer.write_edges(edges, progress.advance)
    changed_stats, stats = _statistics(state, node_ids, links, relink, nodes_deleted=bool(deleted))
    writer.write_node_stats(changed_stats)
    if state is None:
        writer.delete_orphan_externals()
    else:
        # only externals that lost a reference can have become orphans
        before = {
            name
            for path in relink | removed
            if path in state.links
            for name in state.links[path].external_targets
        }
        after = {name for path in relink for name in links[path].external_targets}
        writer.delete_orphan_externals(sorted(before - after))
    run.report.nodes_written = len(rows)
    run.report.nodes_deleted = len(deleted)
    return node_ids, stats


def _statistics(
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


def _summarise(run: _Run, index: RepositoryIndex, links: dict[str, FileLinks]) -> None:
    report = run.report
    report.files_total = len(run.parsed)
    report.modules = len(index.modules)
    report.symbols = sum(
        1 for f in run.parsed.values() for s in f.symbols if s.kind != SymbolKind.MODULE
    )
    for file_links in links.values():
        report.edges.update(file_links.edge_counts)
        report.unresolved_calls += sum(file_links.unresolved_calls.values())
    report.parse_issues = {p: list(f.issues) for p, f in run.fresh.items() if f.issues}


def _git_head(root: Path) -> str | None:
    try:
        result = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True, text=True, timeout=5, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.strip() or None if result.returncode == 0 else None
