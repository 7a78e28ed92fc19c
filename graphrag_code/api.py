"""What `CodeGraph.index`, `embed`, `watch` and `delete` run (and the CLI's one-shot `index`,
which keeps no incremental state in memory): users call `CodeGraph`, not these."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .embedding import Embedder, make_embedder
from .errors import RepositoryNotFoundError
from .graph.client import Neo4jClient
from .graph.completeness import embed_command
from .graph.crossedges import CrossEdgeChange
from .graph.repositories import repository_statuses
from .graph.schema import SchemaConfig, ensure_schema
from .graph.writer import GraphWriter
from .ingest import embed_stage
from .ingest.binding import bound_root
from .ingest.embed_stage import EmbedReport
from .ingest.repo_lock import repository_lock
from .progress import SILENT, ProgressReporter
from .runtime.server.endpoints import resolve_endpoint
from .settings import Settings, load_settings

# The indexer (parsers, linkers, the language plug-ins), its state and the file watcher are
# imported by the functions that run them: `connect` and the questions need none of them
# (issue 56: a command's start-up).
if TYPE_CHECKING:
    from .ingest.report import IngestReport
    from .ingest.state import StateStore

__all__ = [
    "connect",
    "delete_repository",
    "embed_repository",
    "index_repository",
    "schema_config",
    "watch_repository",
]


GRAPH_READY = "embedding (the graph answers already)"
"""The embedding stage's name during `index`: callers, paths and text search work meanwhile."""


def connect(settings: Settings | None = None, *, start_local: bool = True) -> Neo4jClient:
    """A client for the server `settings` name: NEO4J_URI when set, else the managed local
    server (started unless `start_local` is False). Nothing is sent until the first query."""
    settings = settings or load_settings()
    return Neo4jClient(resolve_endpoint(settings, start_local=start_local))


def schema_config(settings: Settings, *, dimensions: int, model: str) -> SchemaConfig:
    return SchemaConfig(
        vector_index=settings.vector_index,
        fulltext_index=settings.fulltext_index,
        dimensions=dimensions,
        model=model,
    )


def _ensure_schema_for(
    client: Neo4jClient,
    settings: Settings,
    embedder: Embedder,
    *,
    reembed: bool,
    repo: str | None = None,
) -> None:
    """The schema, with the vector index recorded for `embedder` and `repo`'s own full-text
    index (and vector index, on a server that cannot filter inside the shared one): a model
    switch raises `EmbeddingMismatchError` (naming both models) unless
    `reembed` drops the old vectors."""
    config = schema_config(settings, dimensions=embedder.dimensions, model=embedder.name)
    ensure_schema(client, config, reembed=reembed, repo=repo)


def index_repository(
    path: str | Path,
    repo: str | None = None,
    *,
    client: Neo4jClient | None = None,
    settings: Settings | None = None,
    full: bool = False,
    progress: ProgressReporter | None = None,
    embed: bool = True,
    embedder: Embedder | None = None,
    reembed: bool = False,
    store: StateStore | None = None,
    changed_paths: frozenset[str] | None = None,
    on_wait: Callable[[str], None] | None = None,
    languages: frozenset[str] | None = None,
    include_generated: bool = False,
    keep_choices: bool = False,
    move: bool = False,
) -> IngestReport:
    """Index the repository at `path` (incrementally when it was indexed before), then embed
    the nodes whose text changed.

    The graph and its full-text indexes are written, and the repository marked complete,
    before the embedding stage starts: while it runs, other processes already answer
    relationship and text questions without an `incomplete` warning, and vector search warns
    `vectors_partial` until every vector is stored.

    Without `client`, connects as `settings` say (NEO4J_URI, else the local server); without
    `embedder`, uses the one `settings.embedder` names. `embed=False` (`index --embed later`)
    builds the graph and the full-text index only; the report then counts the nodes still
    without a vector and names the command that fills them in (`CodeGraph.embed`,
    `graphrag-code embed --repo NAME`).
    `reembed` allows switching the embedding model (the old model's vectors are dropped) and
    recomputes this repository's vectors even where the text did not change. A long-lived
    `store` keeps the incremental state in memory between calls (what `CodeGraph` does);
    `changed_paths` (from a file watcher) lets such a run skip walking the whole tree.

    One run per repository at a time: while another process indexes the same repository into
    the same database, this one calls `on_wait` with a message (else reports it as a progress
    stage) and waits for it. `languages` ({"py", "ts"}, names or aliases) restricts the run to
    those languages' files. Generated files (a `Code generated … DO NOT EDIT` or protoc
    header) and bundles beside their sources (`index.umd.js`, `.d.ts` beside its `.js`) are
    skipped, each with its reason in the report, unless `include_generated`. `keep_choices`
    reads what the repository's last run read (its languages, generated files or not) in
    place of those two: a refresh keeps what the user chose.

    A repository name is bound to the folder it was indexed from: from another folder the
    run is refused (`RepositoryRootError`) before anything is written, unless `move` rebinds
    the name to `path` on purpose (`ingest/binding.py`).
    """
    from .ingest.pipeline import IndexOptions, build_graph, repository_root, valid_repo_name

    settings = settings or load_settings()
    embedder = embedder or make_embedder(settings)
    # every check before anything is written (a refused run used to leave the repository's
    # full-text indexes behind)
    name = valid_repo_name(repo or repository_root(path).name)
    progress = progress or SILENT
    own_client = client is None
    client = client or connect(settings)
    try:
        with repository_lock(
            settings.cache_dir / "graphs", client, name, on_wait=on_wait or progress.stage
        ):
            # refused before the schema step, which may drop vectors (`reembed`)
            moved_from = bound_root(client, name, repository_root(path), move=move)
            _ensure_schema_for(client, settings, embedder, reembed=reembed, repo=name)
            report = build_graph(
                path,
                client,
                repo=name,
                state_dir=None if store is not None else settings.cache_dir / "graphs",
                store=store,
                options=IndexOptions(
                    full=full,
                    changed_paths=changed_paths,
                    languages=languages,
                    include_generated=include_generated,
                    keep_choices=keep_choices,
                    move=move,
                    root_checked=True,
                    moved_from=moved_from,
                ),
                progress=progress,
            )
            if reembed:
                embed_stage.forget_embeddings(client, report.repo)
            if embed:
                # the repository is complete already: say that it answers meanwhile
                embedded = embed_stage.embed_pending(
                    client, report.repo, embedder, progress=progress, stage=GRAPH_READY
                )
                report.embedded = embedded.embedded
                report.embedding_cache_hits = embedded.cache_hits
                report.seconds["embed"] = embedded.seconds
            else:
                _embedding_left(client, report, embedder)
        return report
    finally:
        if own_client:
            client.close()


def _embedding_left(client: Neo4jClient, report: IngestReport, embedder: Embedder) -> None:
    """Record in `report` what a run without its embedding stage left to embed, and how."""
    report.vectors_pending = embed_stage.count_pending(client, report.repo, embedder)
    if report.vectors_pending:
        report.embed_command = embed_command(report.repo)


def watch_repository(
    path: str | Path,
    repo: str,
    *,
    client: Neo4jClient,
    settings: Settings,
    on_report: Callable[[IngestReport], None],
    debounce_ms: int = 500,
    stop_after: int | None = None,
    embed: bool = True,
    embedder: Embedder | None = None,
    stop_event: threading.Event | None = None,
    languages: frozenset[str] | None = None,
    store: StateStore | None = None,
    include_generated: bool | None = None,
    move: bool = False,
) -> None:
    """Block, re-indexing `path` after each debounced batch of relevant changes (and
    embedding what changed, unless `embed` is False). Run one `index_repository` first: it
    catches up with changes made while no watcher ran. The incremental state stays in memory
    between runs (in `store`, when the caller holds one), so each re-index after a one-file
    edit takes well under a second. With neither `languages` nor `include_generated` given,
    each run reads what the last run read (the `index` run's choices). From another folder
    than the one `repo` is indexed from it refuses at once (`RepositoryRootError`) unless
    `move`, which lets its first run rebind the name."""
    from .ingest.pipeline import repository_root, valid_repo_name
    from .ingest.state import StateStore
    from .ingest.watch import watch_changes

    bound_root(client, valid_repo_name(repo), repository_root(path), move=move)
    store = store or StateStore(settings.cache_dir / "graphs")
    embedder = embedder or make_embedder(settings)
    keep_choices = languages is None and include_generated is None

    def reindex(changed: frozenset[str]) -> None:
        on_report(
            index_repository(
                path,
                repo,
                client=client,
                settings=settings,
                embed=embed,
                embedder=embedder,
                store=store,
                changed_paths=changed,
                languages=languages,
                include_generated=bool(include_generated),
                keep_choices=keep_choices,
                move=move,
            )
        )

    watch_changes(
        path, reindex, debounce_ms=debounce_ms, stop_after=stop_after, stop_event=stop_event
    )


def embed_repository(
    repo: str | None = None,
    *,
    client: Neo4jClient | None = None,
    settings: Settings | None = None,
    embedder: Embedder | None = None,
    reembed: bool = False,
    progress: ProgressReporter | None = None,
    cancel: threading.Event | None = None,
) -> EmbedReport:
    """Fill the missing or out-of-date vectors of `repo` (every repository when None).

    For graphs indexed with `embed=False`, or to resume an interrupted embedding run.
    `reembed` allows switching the embedding model (the old model's vectors are dropped) and
    recomputes every vector of `repo` even where the text did not change.
    """
    settings = settings or load_settings()
    embedder = embedder or make_embedder(settings)
    own_client = client is None
    client = client or connect(settings)
    try:
        if repo is not None and GraphWriter(client, repo).repository_state() is None:
            raise RepositoryNotFoundError(repo, known=list(repository_statuses(client)))
        _ensure_schema_for(client, settings, embedder, reembed=reembed)
        if reembed:
            embed_stage.forget_embeddings(client, repo)
        return embed_stage.embed_pending(client, repo, embedder, progress=progress, cancel=cancel)
    finally:
        if own_client:
            client.close()


def delete_repository(
    repo: str,
    *,
    client: Neo4jClient,
    settings: Settings | None = None,
    on_wait: Callable[[str], None] | None = None,
    store: StateStore | None = None,
) -> list[CrossEdgeChange]:
    """Remove a repository's nodes and edges from the graph, and its local incremental state
    (from `store` too, where the caller holds one). Returns what became of other
    repositories' edges into it (back to `:External`, or moved to another provider).

    Raises `RepositoryNotFoundError` when the graph holds no repository of that name; waits
    for a run indexing it to finish (calling `on_wait` with a message) before deleting.
    """
    from .ingest.state import StateStore

    settings = settings or load_settings()
    writer = GraphWriter(client, repo)
    if writer.repository_state() is None:
        raise RepositoryNotFoundError(repo, known=list(repository_statuses(client)))
    folder = settings.cache_dir / "graphs"
    with repository_lock(folder, client, repo, on_wait=on_wait or (lambda _message: None)):
        changes = writer.delete_repository()
        (store or StateStore(folder)).delete(client.endpoint.uri, client.database, repo)
    return changes
