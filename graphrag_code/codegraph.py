"""`CodeGraph`: one object for indexing, searching and asking about code in Neo4j.

    from graphrag_code import CodeGraph

    with CodeGraph() as graph:                 # NEO4J_URI, else the local server
        graph.index("path/to/repo")
        for hit in graph.search("where are orders saved?").hits:
            print(hit.location, hit.qualified_name, hit.ranks)
        print(graph.callers("OrderRepository.add").certain)

Nothing connects in the constructor; the first call that needs Neo4j does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from .errors import InvalidArgumentError, RepositoryNotFoundError
from .retrieval.relation_kinds import RelationName
from .retrieval.relations import RelationMethod
from .retrieval.units import FileRanking, Unit

# The engine's parts are imported where a method needs them: a question (`callers`) must not
# pay for the indexer, the language plug-ins, the embedders and the file watcher (issue 56:
# start-up <= 0.5 CPU s for any command; tests/test_cli_startup.py checks what they import).
if TYPE_CHECKING:
    from .embedding import Embedder
    from .graph import AnswerWarning, Completeness, GraphReader, Neo4jClient, RepositoryInfo
    from .graph.crossedges import CrossEdgeChange
    from .impact import CoverageImport, DeadSymbol, DiffImpact, TestsFor, UntestedSymbol
    from .ingest.embed_stage import EmbedReport
    from .ingest.report import IngestReport
    from .ingest.state import StateStore
    from .llm import ChatModel
    from .progress import ProgressReporter
    from .retrieval.answer import Answer
    from .retrieval.context import Context, Role
    from .retrieval.lookup import SymbolLookup
    from .retrieval.relations import (
        CallExplanation,
        EntryPoints,
        PathResult,
        Relations,
        RelationsResult,
    )
    from .retrieval.search import Reranker, Searcher, SearchOptions, SearchResult
    from .settings import Settings

__all__ = ["COMPLETENESS_TTL_S", "CodeGraph"]

COMPLETENESS_TTL_S = 10.0
"""How long `CodeGraph.warnings` reuses a repository's completeness reading (as the MCP
server's freshness readings, a burst of questions reads it once)."""


class CodeGraph:
    """Index repositories and answer questions about them."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        client: Neo4jClient | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        chat: ChatModel | None = None,
    ) -> None:
        from .embedding import make_embedder
        from .settings import load_settings

        self.settings = settings or load_settings()
        self._client = client
        self._owns_client = client is None
        self.embedder = embedder or make_embedder(self.settings)
        if reranker is None and self.settings.rerank:
            from .retrieval.rerank import LinearReranker

            reranker = LinearReranker.fitted()
        self.reranker = reranker
        self.chat = chat
        self._searcher: Searcher | None = None
        # repository -> (when read, its completeness; None: not in the graph), for `warnings`
        self._completeness: dict[str, tuple[float, Completeness | None]] = {}
        # threads sharing one CodeGraph: connect once, not once per thread
        self._connecting = threading.Lock()
        # incremental state stays in memory between index() calls of this object (made by
        # the first call that needs it: `_state`)
        self._store: StateStore | None = None

    # -- lifecycle ----------------------------------------------------------------------------
    @property
    def _state(self) -> StateStore:
        if self._store is None:
            from .ingest.state import StateStore

            self._store = StateStore(self.settings.cache_dir / "graphs")
        return self._store

    @property
    def client(self) -> Neo4jClient:
        if self._client is None:
            with self._connecting:
                if self._client is None:
                    from .api import connect

                    client = connect(self.settings)
                    try:
                        client.verify()
                    except BaseException:
                        client.close()
                        raise
                    self._client = client
        return self._client

    def close(self) -> None:
        if self._client is not None and self._owns_client:
            self._client.close()
            self._client = None

    def __enter__(self) -> CodeGraph:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    # -- indexing -----------------------------------------------------------------------------
    def index(
        self,
        path: str | Path,
        repo: str | None = None,
        *,
        full: bool = False,
        embed: bool = True,
        progress: ProgressReporter | None = None,
        languages: Iterable[str] | None = None,
        include_generated: bool = False,
        keep_choices: bool = False,
        move: bool = False,
    ) -> IngestReport:
        """Index (incrementally after the first time) the repository at `path`, then embed
        what changed (`embed=False`: graph and full-text only). `languages` (`["py", "ts"]`)
        restricts the run to those languages; by default every supported one is read.
        Generated files and bundles are skipped (the report says why) unless
        `include_generated`. `keep_choices` reads what the last run of the repository read
        (its languages, generated files or not) in place of those two, as a refresh wants.
        A name indexed from another folder is refused (`RepositoryRootError`) unless `move`
        rebinds it to `path` (the report's `moved_from` says where it was)."""
        from .api import index_repository

        self._searcher = None  # repository sizes (candidate over-fetch) change with indexing
        self._completeness.clear()
        return index_repository(
            path,
            repo,
            client=self.client,
            settings=self.settings,
            full=full,
            progress=progress,
            embed=embed,
            embedder=self.embedder,
            store=self._state,
            languages=frozenset(languages) if languages is not None else None,
            include_generated=include_generated,
            keep_choices=keep_choices,
            move=move,
        )

    def embed(
        self,
        repo: str | None = None,
        *,
        reembed: bool = False,
        progress: ProgressReporter | None = None,
        cancel: threading.Event | None = None,
    ) -> EmbedReport:
        """Fill the missing or out-of-date vectors of `repo` (every repository when None):
        after `index(embed=False)`, or to resume an interrupted run. `reembed` recomputes them
        all, as switching the embedding model needs (the old model's vectors are dropped)."""
        from .api import embed_repository

        self._searcher = None  # a model switch changes what the vector leg can ask
        self._completeness.clear()
        return embed_repository(
            repo,
            client=self.client,
            settings=self.settings,
            embedder=self.embedder,
            reembed=reembed,
            progress=progress,
            cancel=cancel,
        )

    def watch(
        self,
        path: str | Path,
        repo: str | None = None,
        *,
        on_report: Callable[[IngestReport], None] = lambda _report: None,
        embed: bool = True,
        languages: Iterable[str] | None = None,
        include_generated: bool | None = None,
        debounce_ms: int = 500,
        stop_event: threading.Event | None = None,
        stop_after: int | None = None,
        move: bool = False,
    ) -> None:
        """Block, re-indexing `path` after each debounced batch of changes and handing each
        run's report to `on_report`, until `stop_event` is set (or `stop_after` runs). Call
        `index` first: it catches up with the edits made while nothing watched. With neither
        `languages` nor `include_generated` given, each run reads what the last one read.
        From another folder than the one the repository is indexed from it refuses unless
        `move` (`RepositoryRootError`)."""
        from .api import watch_repository

        def indexed(report: IngestReport) -> None:
            self._searcher = None  # as after `index`
            self._completeness.clear()
            on_report(report)

        watch_repository(
            path,
            repo or Path(path).resolve().name,
            client=self.client,
            settings=self.settings,
            on_report=indexed,
            debounce_ms=debounce_ms,
            stop_after=stop_after,
            embed=embed,
            embedder=self.embedder,
            stop_event=stop_event,
            languages=frozenset(languages) if languages is not None else None,
            store=self._state,
            include_generated=include_generated,
            move=move,
        )

    def delete(
        self, repo: str, *, on_wait: Callable[[str], None] | None = None
    ) -> list[CrossEdgeChange]:
        """Remove a repository's nodes, edges and incremental state (`RepositoryNotFoundError`
        when the graph holds none of that name); waits for a run indexing it, calling
        `on_wait` with a message. Returns what became of other repositories' edges into it."""
        from .api import delete_repository

        self._searcher = None
        self._completeness.clear()
        return delete_repository(
            repo, client=self.client, settings=self.settings, on_wait=on_wait, store=self._state
        )

    # -- retrieval ----------------------------------------------------------------------------
    @property
    def searcher(self) -> Searcher:
        if self._searcher is None:
            from .retrieval.search import Searcher

            self._searcher = Searcher(
                self.client,
                self.embedder,
                vector_index=self.settings.vector_index,
                fulltext_index=self.settings.fulltext_index,
                reranker=self.reranker,
            )
        return self._searcher

    @property
    def relations(self) -> Relations:
        from .retrieval.relations import Relations

        return Relations(self.client)

    @property
    def reader(self) -> GraphReader:
        """Typed reads of the graph beyond search and relations (node code, call graphs)."""
        from .graph import GraphReader

        return GraphReader(self.client)

    def search(
        self,
        question: str,
        *,
        repo: str | None = None,
        k: int = 10,
        options: SearchOptions | None = None,
        unit: Unit | str = Unit.SYMBOL,
        files: FileRanking | None = None,
        tests: bool | None = None,
    ) -> SearchResult:
        """Hybrid search: vector + full-text + graph legs in one query, fused with RRF.

        `unit="file"` ranks files by the evidence of all their hits in every leg (`"package"`:
        their folders); `files` tunes how (`FileRanking`). `tests` keeps (True) or leaves out
        (False) test code; by default a concept question leaves it out unless it mentions
        tests (`SearchOptions.tests`)."""
        from .retrieval.search import SearchOptions

        options = options or SearchOptions(k=k)
        if tests is not None:
            options = replace(options, tests=tests)
        result = self.searcher.search(question, repo=repo, options=options, unit=unit, files=files)
        repos = [repo] if repo is not None else [hit.repo for hit in result.hits]
        found = self.warnings(repos, vectors=result.vectors_used)
        return replace(result, warnings=result.warnings + found) if found else result

    def warnings(self, repos: Iterable[str], *, vectors: bool = False) -> tuple[AnswerWarning, ...]:
        """Why an answer drawn from `repos` may be incomplete: an interrupted indexing run,
        and (`vectors`: for answers that used them) nodes without a vector. Every answer of
        the CLI, the API and MCP carries these. At most one read per question: a reading is
        reused for `COMPLETENESS_TTL_S` seconds (counting a large repository's vectors costs
        more than a search), and dropped when this object indexes, embeds or deletes."""
        from .graph import answer_warnings

        names = list(dict.fromkeys(name for name in repos if name))
        now = time.monotonic()
        stale = [
            name
            for name in names
            if name not in self._completeness
            or now - self._completeness[name][0] > COMPLETENESS_TTL_S
        ]
        if stale:
            read = {state.repo: state for state in self.reader.completeness(stale)}
            for name in stale:
                self._completeness[name] = (now, read.get(name))
        states = [self._completeness[name][1] for name in names]
        return answer_warnings([s for s in states if s is not None], vectors=vectors)

    def related(
        self,
        relation: RelationName,
        name: str,
        *,
        depth: int | None = None,
        repo: str | None = None,
        within: bool = False,
        possible: bool = False,
    ) -> RelationsResult:
        """One relation of the family (`"callers"`, `"callees"`, `"importers"`,
        `"dependencies"`, `"impact"`) of `name`, across repositories: `repo` filters the
        answers, `within` keeps the walk in the symbol's repository. Along certain edges
        unless `possible` (or unless nothing certain is found: `leaned_on="fallback"`)."""
        result = self.relations.related(
            relation, name, depth=depth, repo=repo, within=within, possible=possible
        )
        return replace(result, warnings=self.warnings(result.repos))

    callers = RelationMethod("callers")
    callees = RelationMethod("callees")
    importers = RelationMethod("importers")
    dependencies = RelationMethod("dependencies")
    impact = RelationMethod("impact")

    def path(
        self, source: str, target: str, *, repo: str | None = None, within: bool = False
    ) -> PathResult:
        result = self.relations.path(source, target, repo=repo, within=within)
        repos = [result.source.repo, result.target.repo] + [s.repo or "" for s in result.steps]
        return replace(result, warnings=self.warnings(repos))

    def explain(self, source: str, target: str, *, repo: str | None = None) -> CallExplanation:
        """Why `source` calls `target` (`.text` says it in words): by name, by a type, or
        through a value ("via the return value of `factory`", "via the dict `HANDLERS`")."""
        result = self.relations.explain(source, target, repo=repo)
        return replace(result, warnings=self.warnings([result.source.repo]))

    def entry_points(self, repo: str, *, limit: int = 20) -> EntryPoints:
        points = self.relations.entry_points(repo, limit=limit)
        return replace(points, warnings=self.warnings([repo]))

    def symbol(self, name: str, *, repo: str | None = None, candidates: int = 10) -> SymbolLookup:
        """The definition `name` refers to (signature, docstring, code, location), or the
        candidates when several nodes match it equally well."""
        from .retrieval.lookup import lookup_symbol

        return lookup_symbol(self.reader, name, repo=repo, limit=candidates)

    def repositories(self) -> list[RepositoryInfo]:
        """What the graph holds: each repository's last run (commit, time), size, languages."""
        return self.reader.repositories()

    def build_context(
        self,
        question: str,
        *,
        max_tokens: int = 4000,
        repo: str | None = None,
        max_hits: int = 5,
    ) -> Context:
        """The code that answers `question`, with its neighbours, within `max_tokens`.

        A unified diff as the question ("review this change") gets the changed code, then
        the code that depends on it and the tests that exercise it (`review_context`)."""
        from .impact import looks_like_diff
        from .retrieval.context import assemble_context

        if looks_like_diff(question):
            return self.review_context(question, max_tokens=max_tokens, repo=repo)
        result = self.search(question, repo=repo, k=max(max_hits, 10))
        context = assemble_context(self.client, result, max_tokens=max_tokens, max_hits=max_hits)
        return replace(context, warnings=result.warnings)

    def ask(
        self,
        question: str,
        *,
        repo: str | None = None,
        max_tokens: int = 4000,
        chat: ChatModel | None = None,
    ) -> Answer:
        """A grounded answer with `path:line` citations (needs a chat model: OPENAI_API_KEY)."""
        from .llm import OpenAIChat
        from .retrieval.answer import answer_question

        model = chat or self.chat or OpenAIChat(self.settings.openai_chat_model)
        context = self.build_context(question, max_tokens=max_tokens, repo=repo)
        return answer_question(question, context, model)

    # -- change impact, tests, dead code ------------------------------------------------------
    def diff(
        self,
        revisions: str | None = None,
        *,
        path: str | Path = ".",
        repo: str | None = None,
        worktree: bool = False,
        staged: bool = False,
        patch: str | None = None,
        update: bool = True,
        depth: int = 2,
        limit: int = 200,
        possible: bool = False,
        move: bool = False,
    ) -> DiffImpact:
        """What a change touches, what may break and which tests to run.

        The change: `revisions` (`"main..HEAD"`, `"A...B"`, or one revision against the
        working tree), `worktree` (HEAD against the working tree, the default), `staged`
        (HEAD against the index) or `patch` (a unified diff whose new side is on disk).
        `path` is the repository (its git working tree). With `update` the graph is first
        brought up to date from the working tree, incrementally and without embeddings;
        otherwise the result says which commit the graph was built from. What only possible
        edges (name matches, dispatch, ...) reach is listed after the certain, and the walk
        goes on from it only with `possible`. A repository indexed from another folder than
        `path` (a copy, another checkout) is refused before anything is written
        (`RepositoryRootError`) unless `move` rebinds it to `path` (which needs `update`)."""
        from .graph.repositories import repository_statuses
        from .impact import (
            DiffSpec,
            GraphSide,
            ImpactOptions,
            analyse_changes,
            git_root,
            read_changes,
        )
        from .ingest.binding import bound_root
        from .ingest.report import cross_repo_warnings

        if depth < 1 or limit < 1:
            raise InvalidArgumentError("depth and limit must be at least 1")
        spec = DiffSpec(
            revisions=revisions,
            worktree=worktree or (revisions is None and not staged and patch is None),
            staged=staged,
            patch=patch,
        )
        root = Path(path).resolve()
        if patch is None:
            root = git_root(root) or root
        name = repo or root.name
        files_parsed = 0
        said: list[str] = []  # what the update did beyond this repository
        if update:
            report = self.index(root, name, embed=False, keep_choices=True, move=move)
            files_parsed = report.files_parsed
            said = cross_repo_warnings(report)
        elif move:
            raise InvalidArgumentError("moving a repository indexes it: leave out --no-update")
        else:  # the stored root's changes would be read: not the folder asked about
            bound_root(self.client, name, root, move=False)
        indexed = self.reader.indexed_from(name)
        if indexed is None:
            raise RepositoryNotFoundError(name, known=list(repository_statuses(self.client)))
        stored_root, head = indexed
        changes = read_changes(Path(stored_root) if stored_root else root, spec)
        side = GraphSide(
            repo=name, root=stored_root, head=head, updated=update, files_parsed=files_parsed
        )
        impact = analyse_changes(
            self.reader, name, changes, source=spec.label, graph=side,
            options=ImpactOptions(depth=depth, limit=limit, possible=possible),
        )  # fmt: skip
        found = [*said, *(str(warning) for warning in self.warnings([name]))]
        return replace(impact, warnings=[*impact.warnings, *found]) if found else impact

    def tests_for(self, symbol_or_path: str, *, repo: str | None = None) -> TestsFor:
        """The tests that exercise a symbol (a class: any of its methods) or the code of a
        file, nearest and surest first."""
        from .impact import TestsFor, coverage_use, exercising_tests

        subject = self.relations.resolve(symbol_or_path, repo=repo)
        targets = (
            self.reader.descendants(subject.id) if subject.kind != "Function" else [subject.id]
        )
        by_target = dict.fromkeys(targets, (subject.qualified_name,))
        tests, truncated, stale = exercising_tests(
            self.reader,
            by_target,
            inside=[subject.id],
            paths={subject.qualified_name: subject.location.path},
        )
        return TestsFor(
            subject=subject.qualified_name, targets=len(targets), tests=tests, truncated=truncated,
            coverage=coverage_use(self.reader, subject.repo, by_target, stale),
            warnings=self.warnings([subject.repo]),
        )  # fmt: skip

    def import_coverage(
        self, file: str | Path, *, repo: str | None = None, commit: str | None = None
    ) -> CoverageImport:
        """Store which test ran which code, from a coverage.py data file recorded with
        per-test contexts (`pytest --cov --cov-context=test`), or a directory of JS/TS
        coverage with a folder per test file (`impact/coverage_js.py`), replacing the last import:
        `diff` and `tests_for` then list the tests that ran the changed code first, and
        `untested` and `dead_code` count code a test ran as tested and alive. `commit`: the
        commit it was recorded at (default: the one the graph was indexed from)."""
        from .graph.repositories import repository_statuses
        from .impact import import_coverage

        name = repo or self._only_repository()
        info = self.reader.repository(name)
        if info is None:
            raise RepositoryNotFoundError(name, known=list(repository_statuses(self.client)))
        return import_coverage(self.client, name, file, root=info.root, commit=commit or info.head)

    def untested(self, repo: str, *, limit: int = 200) -> list[UntestedSymbol]:
        """Public functions, methods and classes outside test code that no test reaches."""
        from .graph.repositories import require_repository
        from .impact import untested_symbols

        require_repository(self.client, repo)
        return untested_symbols(self.reader, repo, limit=limit)

    def dead_code(self, repo: str, *, min_confidence: float = 0.0) -> list[DeadSymbol]:
        """Code nothing reaches and no convention runs, surest first, with reasons."""
        from .graph.repositories import require_repository
        from .impact import dead_code

        require_repository(self.client, repo)
        return dead_code(self.reader, repo, min_confidence=min_confidence)

    def review_context(
        self,
        change: str | DiffImpact,
        *,
        max_tokens: int = 4000,
        repo: str | None = None,
        affected: int = 10,
        tests: int = 5,
    ) -> Context:
        """The context to review a change (a unified diff whose new side is on disk in the
        indexed repository, or a `DiffImpact`): the changed code, the nearest affected code
        and the first tests to run, within `max_tokens`. The code shown is the graph's: index
        the working tree first (`diff` does) for the change's own lines."""
        from .graph.repositories import repository_statuses
        from .impact import DiffImpact
        from .retrieval.context import assemble_node_context

        if isinstance(change, DiffImpact):
            impact, question = change, f"review the change {change.source}"
        else:
            name = repo or self._only_repository()
            info = self.reader.repository(name)
            if info is None or not info.root:
                raise RepositoryNotFoundError(name, known=list(repository_statuses(self.client)))
            impact = self.diff(patch=change, path=info.root, repo=name, update=False)
            question = change
        picks: list[tuple[str, Role]] = [
            (c.id, "changed") for c in impact.changes if c.id is not None and c.kind != "Module"
        ]
        picks += [(a.id, "affected") for a in impact.affected[:affected]]
        picks += [(t.id, "test") for t in impact.tests[:tests]]
        return assemble_node_context(self.client, question, picks, max_tokens=max_tokens)

    def _only_repository(self) -> str:
        from .graph.repositories import repository_statuses

        known = list(repository_statuses(self.client))
        if len(known) != 1:
            raise InvalidArgumentError(
                "name the repository the change is to (repo=...): the graph holds "
                + (", ".join(sorted(known)) or "none")
            )
        return known[0]
