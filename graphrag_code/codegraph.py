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
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from .api import connect, index_repository
from .embedding import Embedder, make_embedder
from .graph import GraphReader, Neo4jClient
from .ingest.report import IngestReport
from .ingest.state import StateStore
from .llm import ChatModel, OpenAIChat
from .progress import ProgressReporter
from .retrieval.answer import Answer, answer_question
from .retrieval.context import Context, assemble_context
from .retrieval.relations import EntryPoints, PathResult, Relations, RelationsResult
from .retrieval.rerank import LinearReranker
from .retrieval.search import Reranker, Searcher, SearchOptions, SearchResult
from .retrieval.units import FileRanking, Unit
from .settings import Settings, load_settings

__all__ = ["CodeGraph"]


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
        self.settings = settings or load_settings()
        self._client = client
        self._owns_client = client is None
        self.embedder = embedder or make_embedder(self.settings)
        if reranker is None and self.settings.rerank:
            reranker = LinearReranker.fitted()
        self.reranker = reranker
        self.chat = chat
        self._searcher: Searcher | None = None
        # threads sharing one CodeGraph: connect once, not once per thread
        self._connecting = threading.Lock()
        # incremental state stays in memory between index() calls of this object
        self._store = StateStore(self.settings.cache_dir / "graphs")

    # -- lifecycle ----------------------------------------------------------------------------
    @property
    def client(self) -> Neo4jClient:
        if self._client is None:
            with self._connecting:
                if self._client is None:
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
    ) -> IngestReport:
        """Index (incrementally after the first time) the repository at `path`, then embed
        what changed (`embed=False`: graph and full-text only). `languages` (`["py", "ts"]`)
        restricts the run to those languages; by default every supported one is read."""
        self._searcher = None  # repository sizes (candidate over-fetch) change with indexing
        return index_repository(
            path,
            repo,
            client=self.client,
            settings=self.settings,
            full=full,
            progress=progress,
            embed=embed,
            embedder=self.embedder,
            store=self._store,
            languages=frozenset(languages) if languages is not None else None,
        )

    # -- retrieval ----------------------------------------------------------------------------
    @property
    def searcher(self) -> Searcher:
        if self._searcher is None:
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
        return Relations(self.client)

    @property
    def reader(self) -> GraphReader:
        """Typed reads of the graph beyond search and relations (node code, call graphs)."""
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
    ) -> SearchResult:
        """Hybrid search: vector + full-text + graph legs in one query, fused with RRF.

        `unit="file"` ranks files by the evidence of all their hits in every leg (`"package"`:
        their folders); `files` tunes how (`FileRanking`)."""
        options = options or SearchOptions(k=k)
        return self.searcher.search(question, repo=repo, options=options, unit=unit, files=files)

    def callers(self, symbol: str, *, depth: int = 1, repo: str | None = None) -> RelationsResult:
        return self.relations.callers(symbol, depth=depth, repo=repo)

    def callees(self, symbol: str, *, depth: int = 1, repo: str | None = None) -> RelationsResult:
        return self.relations.callees(symbol, depth=depth, repo=repo)

    def importers(self, module: str, *, depth: int = 1, repo: str | None = None) -> RelationsResult:
        return self.relations.importers(module, depth=depth, repo=repo)

    def dependencies(
        self, module: str, *, depth: int = 1, repo: str | None = None
    ) -> RelationsResult:
        return self.relations.dependencies(module, depth=depth, repo=repo)

    def impact(
        self, path_or_symbol: str, *, depth: int = 3, repo: str | None = None
    ) -> RelationsResult:
        return self.relations.impact(path_or_symbol, depth=depth, repo=repo)

    def path(self, source: str, target: str, *, repo: str | None = None) -> PathResult:
        return self.relations.path(source, target, repo=repo)

    def entry_points(self, repo: str, *, limit: int = 20) -> EntryPoints:
        return self.relations.entry_points(repo, limit=limit)

    def build_context(
        self,
        question: str,
        *,
        max_tokens: int = 4000,
        repo: str | None = None,
        max_hits: int = 5,
    ) -> Context:
        """The code that answers `question`, with its neighbours, within `max_tokens`."""
        result = self.search(question, repo=repo, k=max(max_hits, 10))
        return assemble_context(self.client, result, max_tokens=max_tokens, max_hits=max_hits)

    def ask(
        self,
        question: str,
        *,
        repo: str | None = None,
        max_tokens: int = 4000,
        chat: ChatModel | None = None,
    ) -> Answer:
        """A grounded answer with `path:line` citations (needs a chat model: OPENAI_API_KEY)."""
        model = chat or self.chat or OpenAIChat(self.settings.openai_chat_model)
        context = self.build_context(question, max_tokens=max_tokens, repo=repo)
        return answer_question(question, context, model)
