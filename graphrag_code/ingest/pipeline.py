"""`build_graph`: walk -> parse -> link -> write -> rank, full or incremental.

An incremental run parses only changed files, links again only the files whose resolution
consulted a module whose interface changed (or a short name whose uniqueness changed), and
writes only what differs. It converges to the same graph as a clean run; a test proves it.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import IngestError
from ..graph.client import Neo4jClient
from ..graph.crossedges import Bindings
from ..graph.crossrepo import CrossRepoLinker
from ..graph.writer import GraphWriter
from ..languages import language_named, module_names
from ..linking.edges import FileLinks, NodeIds
from ..linking.index import RepositoryIndex
from ..linking.shared_budget import DEFAULT_CEILING_MB, DEFAULT_SHARED_MB
from ..model import NodeRow, ParsedFile, SkippedFile, SourceFile, SymbolKind
from ..parsing import ParseJob, ReadStamp, imported_prefixes, parse_files, walk_repository
from ..parsing.walker import DEFAULT_MAX_BYTES, WalkResult, shown_path, walk_changes
from ..progress import SILENT, ProgressReporter
from .binding import bound_root, git_head
from .dependencies import project_names, provided_packages
from .edge_diff import edge_changes
from .generated import without_generated
from .incremental import (
    IngestRun,
    files_to_parse,
    files_to_relink,
    ids_shift,
    lookup_tables,
    next_state,
    node_statistics,
    nothing_changed,
    still_skipped,
    usable_state,
)
from .languages import LanguageRun, per_language, read_project
from .link_pool import link_in_processes, link_weight
from .report import IngestReport, RepositorySummary
from .rows import file_node_ids, file_rows
from .state import EarlySave, IndexState, StateStore, paused_gc, with_calls
from .tests_stage import update_tests
from .write_behind import WriteBehind

__all__ = ["IndexOptions", "build_graph", "repository_root", "valid_repo_name"]

# matched whole (`fullmatch`): with `match`, `$` also matches before a final newline, and
# "victim\n" became a repository that listings broke on and `--repo` could not name
_REPO_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
# Node rows are built and handed to the writer this many at a time (whole files), and at
# most this many parts are queued.
NODE_PART = 10_000
NODE_PARTS_QUEUED = 2


@dataclass(frozen=True)
class IndexOptions:
    max_file_bytes: int = DEFAULT_MAX_BYTES
    workers: int = field(default_factory=lambda: max(1, min(4, os.cpu_count() or 1)))
    # Processes that link (`link_pool.py`; a repository under 600 files stays on one). A
    # file links the same whichever files a process linked before it (value flow charges a
    # reused result what computing it cost), so the split changes nothing (BENCHMARKS §2).
    link_workers: int = field(default_factory=lambda: max(1, min(2, os.cpu_count() or 1)))
    # MiB the value-flow results a link process shares may grow it by before they are
    # dropped and computed again as needed (links unchanged; None: no limit)
    link_shared_mb: int | None = DEFAULT_SHARED_MB
    # ...or by less where that would take a link process past this many MiB resident (its
    # start counts: a forked process begins with the indexer's pages; None: no ceiling)
    link_ceiling_mb: int | None = DEFAULT_CEILING_MB
    full: bool = False  # ignore the incremental state and rebuild this repository's graph
    # paths a file watcher reported: with a warm state, only these are looked at (no walk)
    changed_paths: frozenset[str] | None = None
    # the languages to read ("python", "py", "typescript", "ts", …); None: every language.
    # Files of the others are left out of the graph (removed if an earlier run indexed them).
    languages: frozenset[str] | None = None
    # index generated files and bundles too (`generated.py`); by default they are skipped,
    # each with its reason in the report
    include_generated: bool = False
    # read what the repository's last run read (its `languages`, `include_generated`), which
    # its state records, in place of the two above: a refresh (`diff`, MCP, a watcher's runs)
    # keeps the user's choices. A repository without a state takes the two above.
    keep_choices: bool = False
    # index a repository from another folder than the one the graph records, rebinding its
    # name there (`binding.py`); without it that is refused before anything is written
    move: bool = False
    # the caller checked the folder against the name's binding already (`bound_root`, which
    # returned `moved_from`; `index_repository` checks before the schema step): not read again
    root_checked: bool = False
    moved_from: str | None = None


def repository_root(path: str | Path) -> Path:
    """The resolved folder to index, or `IngestError`: checked before anything is written."""
    root = Path(path).resolve()
    if not root.is_dir():
        raise IngestError(f"{shown_path(str(root))} is not a directory")
    if shown_path(str(root)) != str(root):  # no Neo4j string can hold it (PEP 383 surrogates)
        raise IngestError(
            f"the folder's path {shown_path(str(root))} is not valid UTF-8: rename it"
        )
    return root


def valid_repo_name(name: str) -> str:
    if not _REPO_NAME.fullmatch(name):
        raise IngestError(
            f"repository name {name!r} must be 1-100 letters, digits, '.', '_' or '-' "
            "and start with a letter or digit"
        )
    return name


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
    root = repository_root(path)
    name = valid_repo_name(repo or root.name)
    report = IngestReport(repo=name, root=str(root))
    report.moved_from = (
        options.moved_from
        if options.root_checked
        else bound_root(client, name, root, move=options.move)
    )
    writer = GraphWriter(client, name)
    background = store is not None  # a caller-held store outlives this call
    if store is None:
        if state_dir is None:
            raise IngestError("build_graph needs a state_dir or a store")
        store = StateStore(state_dir)

    with _timed(report, "state"):
        state = None if options.full else usable_state(store, client, writer, name)
        if options.keep_choices:
            options = _kept_choices(options, state or _saved(store, client, name))
        langs = LanguageRun.of(options.languages)
        if state is not None and state.languages != langs.names:
            state = None  # another choice of languages: a full run
    with _timed(report, "walk"):
        walked, partial = _walk(root, state, options, progress, langs)
        if partial and state is not None:  # a watcher's walk: no project file changed
            project = dict(state.project)
        else:
            project = read_project(walked.project, state.project if state is not None else {})
        book = None
        if not options.include_generated:
            verdicts = state.generated if state is not None else None
            walked, book = without_generated(
                walked, langs.derived_for(walked.files), project, verdicts
            )
    report.skipped.extend(walked.skipped)
    report.skipped_dirs.extend(walked.skipped_dirs)
    if (
        state is not None
        and state.summary is not None
        and not partial
        and _shas(project) == _shas(state.project)
        and nothing_changed(state, walked.files)
    ):
        # The per-file objects stay unread, a caller-held store's too: its first run with a
        # change reads them. Reading them here cost `diff`, which runs a one-shot
        # `CodeGraph`, 4.5-6.0 s a command instead of 1.8-3.1 s.
        return _unchanged(root, client, writer, state, state.summary, walked.files, report)
    with _timed(report, "state"):
        state = store.read_files(state) if state is not None else None
    run = IngestRun(
        root=root,
        repo=name,
        sources={f.path: f for f in walked.files},
        state=state,
        report=report,
        skip_sha={f.path: f.sha256 for f in walked.files},
    )
    report.mode = "incremental" if state is not None else "full"
    with _timed(report, "parse"):
        _parse(run, files_to_parse(run), options, progress)
    project_changed = state is not None and _shas(project) != _shas(state.project)
    removed = set(state.files) - set(run.parsed) if state is not None else set()
    with _timed(report, "link"):
        index = lookup_tables(run, removed)
        ids = NodeIds(name, index)
        if state is not None and ids_shift(run, index, removed):
            # A module appeared or vanished with the name of an existing symbol: that symbol's
            # id changes. Rare enough that a full run is the simple, exact answer.
            return build_graph(
                root, client, repo=name, store=store,
                options=replace(options, full=True, changed_paths=None), progress=progress,
            )  # fmt: skip
        report.project_issues = langs.prepare(
            index, project, options.link_shared_mb, options.link_ceiling_mb
        )
        relink = files_to_relink(run, index, removed)
        if project_changed:  # tsconfig.json paths, a workspace's packages: all may resolve anew
            sensitive = langs.project_sensitive()
            relink |= {p for p, f in run.parsed.items() if f.language in sensitive}
        links = _link(run, index, ids, relink, removed, progress, langs, options.link_workers)
        langs.finish_linking()
    report.files_relinked = len(relink)
    token = uuid.uuid4().hex
    cross = CrossRepoLinker(client)
    with _timed(report, "cross"):
        previous, bindings = _publish(cross, writer, run, root, token)
    # The server writes while the run goes on: the tests stage's reach graph and the next
    # state are built, and the state written to disk, as the nodes and edges go in
    # (write_behind.py); the state is put in place once the graph holds what it describes.
    early: EarlySave | None = None
    try:
        with WriteBehind() as writes:
            with _timed(report, "write"):
                node_ids, stats = _write(
                    run, writer, writes, index, ids, links, relink, removed, token, progress
                )
            with _timed(report, "tests"):
                writes.submit(progress.stage, "writing tests", None)
                tests, tests_report = update_tests(
                    parsed=run.parsed, links=links, relink=relink, fresh=set(run.fresh),
                    ids=ids, langs=langs, writer=writer, writes=writes,
                    previous=state.tests if state is not None else None,
                    all_nodes=[node for nodes in node_ids.values() for node in nodes],
                    project_changed=project_changed,
                )  # fmt: skip
            report.tests, report.tests_reached = tests_report.tests, tests_report.reached
            _summarise(run, index, links)
            new_state = next_state(run, index, links, relink, node_ids, stats, token)
            new_state.project, new_state.languages, new_state.tests = project, langs.names, tests
            new_state.include_generated = options.include_generated
            new_state.generated = book.restamped(run.sources) if book is not None else None
            new_state.summary = report.summary()
            if not background:  # a long-lived store saves in the background after the run
                with _timed(report, "state"):
                    early = _save_early(store, client, new_state, report)
            with _timed(report, "write"):  # what the server has still to write
                writes.drain()
        report.write_seconds = dict(writes.seconds)
        report.tests_edges = tests_report.edges_written
        with _timed(report, "cross"):
            progress.stage("linking across repositories", None)
            crossed = cross.link(name, previous_packages=previous, before=bindings)
        report.cross_repo_edges, report.cross_repo_ambiguous = crossed.edges, crossed.ambiguous
        report.cross_repo_changes, report.cross_repo_kept = (
            list(crossed.changes),
            list(crossed.kept),
        )
        with _timed(report, "state"):
            if early is not None:
                _commit(early, report)
            elif background:
                earlier = store.wait()  # the last background save's disk error, if any
                if earlier is not None:
                    report.warnings.append(state_unsaved(earlier, earlier=True))
                store.save(client.endpoint.uri, client.database, new_state, background=True)
    finally:
        if early is not None:
            early.discard()  # nothing once committed
    writer.finish_run(token, head=git_head(root), files=len(run.parsed), symbols=report.symbols)
    return report


def _saved(store: StateStore, client: Neo4jClient, repo: str) -> IndexState | None:
    """The repository's saved state, whether or not the graph still matches it (a full run
    keeps the choices it records)."""
    return store.load(client.endpoint.uri, client.database, repo, files=False)


def _kept_choices(options: IndexOptions, state: IndexState | None) -> IndexOptions:
    """`options` with the languages and generated files `state`'s run read (unchanged without
    a state)."""
    if state is None:
        return replace(options, keep_choices=False)
    return replace(
        options,
        languages=frozenset(state.languages) or None,
        include_generated=state.include_generated,
        keep_choices=False,
    )


def _save_early(
    store: StateStore, client: Neo4jClient, state: IndexState, report: IngestReport
) -> EarlySave | None:
    try:
        return store.save_early(client.endpoint.uri, client.database, state)
    except OSError as exc:
        report.warnings.append(state_unsaved(exc))
        return None


def _commit(early: EarlySave, report: IngestReport) -> None:
    try:
        early.commit()
    except OSError as exc:
        report.warnings.append(state_unsaved(exc))


def state_unsaved(exc: OSError, *, earlier: bool = False) -> str:
    """What a run says when its incremental state could not be written (a full disk, a
    read-only or forbidden folder: issue 57). The state is a cache: the graph is complete
    without it, and the state file left on disk no longer matches the graph's token, so the
    next run of the repository is a full one, not one that trusts a stale state. `earlier`:
    the last run's state, saved in the background by a long-lived store (which keeps it in
    memory: only a new process indexes in full)."""
    where = f" to {exc.filename}" if exc.filename else ""
    if earlier:
        return (
            f"the last run's incremental state could not be written{where}: "
            f"{exc.strerror or exc}; the graph is complete, and a new process will index this "
            "repository in full"
        )
    return (
        f"the incremental state could not be written{where}: {exc.strerror or exc}; the graph "
        "is complete, and the next run of this repository will index it in full"
    )


def _unchanged(
    root: Path,
    client: Neo4jClient,
    writer: GraphWriter,
    state: IndexState,
    summary: RepositorySummary,
    walked: Sequence[SourceFile],
    report: IngestReport,
) -> IngestReport:
    """The report of a run that found every file as the last run left it: nothing to parse,
    link or write, so the parses and links are not even read (Django: 1.9 s -> 0.2 s). The
    repository's node records the check: its root, git head and time, as a run would."""
    report.unchanged(summary)
    report.skipped.extend(
        SkippedFile(f.path, reason)
        for f in walked
        if f.path not in state.files and (reason := still_skipped(state, f)) is not None
    )
    cross = CrossRepoLinker(client)
    if any(provider.repo != report.repo for provider in cross.providers()):
        report.cross_repo_edges = cross.edges(report.repo)
    writer.touch_run(str(root), state.token, head=git_head(root))
    return report


def _publish(
    cross: CrossRepoLinker, writer: GraphWriter, run: IngestRun, root: Path, token: str
) -> tuple[frozenset[str], Bindings | None]:
    """Start the run (the repository's node is made here and only here, once every check
    has passed: a refused run wrote a phantom node, null status, that `search` and MCP then
    listed) and record what the repository provides and depends on (before its nodes are
    written: a concurrent run on another repository sees it as a provider), the two in one
    transaction; the packages it provided before come back, for the cross stage to relink,
    with the cross edges those packages and the repository's own have now (None when no
    other repository is indexed), which the writes are about to change."""
    providers = cross.providers()
    previous = next((p.packages for p in providers if p.repo == run.repo), frozenset())
    names = project_names(root)
    packages = provided_packages(run.parsed)
    published = cross.publish_statement(
        run.repo,
        packages=packages,
        distributions=names.distributions,
        dependencies=names.dependencies,
    )
    writer.client.write_statements([writer.start_statement(str(run.root), token), published])
    if all(p.repo == run.repo for p in providers):
        return previous, None
    return previous, cross.bindings(run.repo, previous | set(packages))


def _shas(project: dict[str, tuple[str, str]]) -> dict[str, str]:
    return {path: sha for path, (sha, _text) in project.items()}


def _walk(
    root: Path,
    state: IndexState | None,
    options: IndexOptions,
    progress: ProgressReporter,
    langs: LanguageRun,
) -> tuple[WalkResult, bool]:
    """The source files of the repository: with a warm state and the paths a watcher
    reported, only those paths are looked at (True: a partial walk, without project files);
    otherwise the whole tree is walked."""
    progress.stage("walking", None)
    # every file the last walk found, the generated ones too: a watcher's walk then gives the
    # rules for files built from others every path a full walk would
    known = None
    if state is not None:
        known = state.generated.stats() if state.generated is not None else state.file_stats
    if state is not None and known is not None and options.changed_paths is not None:
        walked = walk_changes(
            root,
            languages=langs.suffixes,
            known=known,
            changed=options.changed_paths,
            max_bytes=options.max_file_bytes,
            interpreters=langs.interpreters,
            project_files=langs.project_files,
        )
        if walked is not None:  # files skipped before stay skipped unless they changed
            seen = {s.path for s in walked.skipped} | {s.path for s in walked.files}
            walked.skipped.extend(
                SkippedFile(path, reason)
                for path, (_sha, reason) in state.skipped.items()
                if path not in seen and (root / path).exists()
            )
            return walked, True
    full = walk_repository(
        root,
        languages=langs.suffixes,
        max_bytes=options.max_file_bytes,
        known=known,
        interpreters=langs.interpreters,
        project_files=langs.project_files,
        # a full run parses every file: the parse stage reads each once, and hashes it
        read_sources=state is not None,
    )
    return full, False


def _link(
    run: IngestRun,
    index: RepositoryIndex,
    ids: NodeIds,
    relink: set[str],
    removed: set[str],
    progress: ProgressReporter,
    langs: LanguageRun,
    workers: int,
) -> dict[str, FileLinks]:
    """Every file's links: the previous run's for files that need no new link, fresh ones
    for `relink` (whose call sites come back from the state when the file was not parsed),
    linked on up to `workers` processes."""
    state = run.state
    progress.stage("linking", len(relink))
    links = dict(state.links) if state is not None else {}
    for path in removed:
        links.pop(path, None)

    def link_one(path: str) -> FileLinks:
        parsed = run.parsed[path]
        if path not in run.fresh and state is not None:
            parsed = with_calls(parsed, state.calls[path])
        return langs.link(parsed, index, ids)

    todo = sorted(relink)
    weights = [link_weight(run.parsed[path]) for path in todo]
    links.update(
        link_in_processes(todo, weights, link_one, workers=workers, advance=progress.advance)
    )
    return links


def _import_prefixes(parsed: ParsedFile) -> frozenset[str]:
    return imported_prefixes(
        statement.module
        for statement in parsed.imports
        if statement.level == 0 and statement.module
    )


def _parse(
    run: IngestRun, changed: set[str], options: IndexOptions, progress: ProgressReporter
) -> None:
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
        jobs = [
            ParseJob(
                run.sources[p],
                run.modules[p],
                language_named(run.sources[p].language).parser,
                options.max_file_bytes,
            )
            for p in todo
        ]
        batch = parse_files(jobs, workers=options.workers, on_done=lambda _p: progress.advance())
        run.report.skipped.extend(batch.skipped)
        _stamp(run, todo, batch.read)
        for file in batch.parsed:
            run.parsed[file.path] = file
            run.fresh[file.path] = file
            prefixes[file.path] = _import_prefixes(file)
        for skip in batch.skipped:
            run.sources.pop(skip.path, None)
            run.parsed.pop(skip.path, None)
            prefixes.pop(skip.path, None)
            changed.discard(skip.path)
    run.import_prefixes = {p: prefixes[p] for p in run.parsed}
    run.report.files_parsed = len(run.fresh)
    run.report.files_unchanged = len(run.parsed) - len(run.fresh)


def _stamp(run: IngestRun, todo: list[str], read: dict[str, ReadStamp]) -> None:
    """File what the parse stage read of `todo` under the hash of those bytes, not the walk's:
    a file edited in between would otherwise keep a stale parse, or a skip for a reason that
    no longer holds, whenever the walk's hash comes back (issue 57). A skip of a file that
    could not be read (gone, grown past the limit) is filed under no hash: the next run tries
    it again."""
    for path in todo:
        stamp = read.get(path)
        if stamp is None:
            run.skip_sha.pop(path, None)
            continue
        source = run.sources.get(path)
        if source is not None:
            run.sources[path] = replace(
                source, sha256=stamp.sha256, size=stamp.size, mtime_ns=stamp.mtime_ns
            )
        run.skip_sha[path] = stamp.sha256


def _write(
    run: IngestRun,
    writer: GraphWriter,
    writes: WriteBehind,
    index: RepositoryIndex,
    ids: NodeIds,
    links: dict[str, FileLinks],
    relink: set[str],
    removed: set[str],
    token: str,
    progress: ProgressReporter,
) -> tuple[dict[str, list[str]], dict[str, bytes]]:
    state = run.state
    node_ids: dict[str, list[str]] = (
        {}
        if state is None
        else {
            p: ids_ for p, ids_ in state.node_ids.items() if p in run.parsed and p not in run.fresh
        }
    )
    fresh = sorted(run.fresh.items())
    for path, parsed in fresh:
        node_ids[path] = file_node_ids(parsed, ids)
    all_ids = {node for ids_ in node_ids.values() for node in ids_}
    if state is None:
        existing = writer.existing_node_ids()
    else:
        existing = {
            node for path in set(run.fresh) | removed for node in state.node_ids.get(path, [])
        }
    deleted = existing - all_ids
    nodes_written = sum(len(node_ids[path]) for path, _parsed in fresh)
    changes = edge_changes(
        links, relink, removed, node_ids, state.edge_digests if state is not None else None
    )
    changed_stats, stats = node_statistics(
        state, node_ids, links, relink, nodes_deleted=bool(deleted)
    )
    creating = state is None and not existing
    if not creating:
        writes.submit(writer.delete_nodes, deleted)
    writes.submit(progress.stage, "writing nodes", nodes_written)
    # Rows are built a part at a time and handed over: the server creates the first part's
    # nodes while the next part's text is split into words. Parts are whole files (a file's
    # rows list parents before children).
    # At most NODE_PARTS_QUEUED parts wait for the server, so the rows' text alive at once
    # stays bounded however large the repository.
    part: list[NodeRow] = []
    queued: deque[Future[None]] = deque()
    for number, (_path, parsed) in enumerate(fresh, 1):
        part.extend(file_rows(run.repo, parsed, ids))
        if len(part) >= NODE_PART or number == len(fresh):
            if len(queued) >= NODE_PARTS_QUEUED:
                queued.popleft().result()
            advance = progress.advance
            if creating:  # nothing of the repository in the graph: CREATE, statistics with it
                done = writes.submit(
                    _write_nodes_then_free, writer.create_nodes, part, changed_stats, advance
                )
            else:
                done = writes.submit(_write_nodes_then_free, writer.write_nodes, part, advance)
            queued.append(done)
            part = []
    if creating:
        writes.submit(progress.stage, "writing edges", len(changes.write))
        writes.submit(writer.create_edges, changes.write, progress.advance)
    else:
        writes.submit(
            writer.delete_outgoing_edges,
            changes.wholesale_sources | (existing if state is None else set()),
        )
        writes.submit(writer.delete_edges, changes.delete)
        writes.submit(progress.stage, "writing edges", len(changes.write))
        writes.submit(writer.write_edges, changes.write, progress.advance)
        writes.submit(writer.write_node_stats, changed_stats)
    run.edge_digests = changes.digests
    run.report.edges_written = len(changes.write)
    run.report.edges_deleted = len(changes.delete)
    if state is None:
        if not creating:  # a run that creates every node deleted no edge: no new orphan
            writes.submit(writer.delete_orphan_externals)  # reads every :External
    else:
        # only externals that lost a reference can have become orphans
        before = {
            name
            for path in relink | removed
            if path in state.links
            for name in state.links[path].external_targets
        }
        after = {name for path in relink for name in links[path].external_targets}
        writes.submit(writer.delete_orphan_externals, sorted(before - after))
    run.report.nodes_written = nodes_written
    run.report.nodes_deleted = len(deleted)
    return node_ids, stats


def _write_nodes_then_free(write: Callable[..., None], rows: list[NodeRow], *args: Any) -> None:
    """`write(rows, *args)`, then the rows let go: their texts need not stay while the rest
    is written."""
    write(rows, *args)
    rows.clear()


def _summarise(run: IngestRun, index: RepositoryIndex, links: dict[str, FileLinks]) -> None:
    report = run.report
    report.files_total = len(run.parsed)
    report.modules = len(index.modules)
    report.symbols = sum(
        1 for f in run.parsed.values() for s in f.symbols if s.kind != SymbolKind.MODULE
    )
    for file_links in links.values():
        report.edges.update(file_links.edge_counts)
        report.unresolved_calls += sum(file_links.unresolved_calls.values())
        report.unresolved_kinds.update(file_links.unresolved_kinds)
    report.parse_issues = {p: list(f.issues) for p, f in run.fresh.items() if f.issues}
    report.parse_issues.update(report.project_issues)
    report.languages = per_language(run.parsed, links)
