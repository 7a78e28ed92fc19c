"""`CodeGraphRetriever`: the hybrid code search as a LlamaIndex retriever.

    from llama_index.core.query_engine import RetrieverQueryEngine
    retriever = CodeGraphRetriever(CodeGraph(), repo="shop", k=5)
    engine = RetrieverQueryEngine.from_args(retriever, llm=...)

Each result is a `TextNode` holding the symbol's code, with metadata (path, lines, qualified
name, kind, per-leg ranks, the graph path that found it) and the fused score.
"""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from ..codegraph import CodeGraph
from ..impact import looks_like_diff
from ..retrieval.search import Hit, SearchOptions

__all__ = ["CodeGraphRetriever"]


class CodeGraphRetriever(BaseRetriever):
    """Retrieve code from a `CodeGraph` (vector + full-text + graph, fused with RRF)."""

    def __init__(
        self,
        graph: CodeGraph,
        *,
        repo: str | None = None,
        k: int = 5,
        options: SearchOptions | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._graph = graph
        self._repo = repo
        self._options = options or SearchOptions(k=k)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if looks_like_diff(query_bundle.query_str):  # "review this change"
            return self._review(query_bundle.query_str)
        result = self._graph.search(query_bundle.query_str, repo=self._repo, options=self._options)
        code = self._graph.reader.code([hit.id for hit in result.hits])
        return [
            NodeWithScore(node=self._node(hit, code.get(hit.id, "")), score=hit.score)
            for hit in result.hits
        ]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        # the Neo4j driver used here is synchronous: run it off the event loop
        return await asyncio.to_thread(self._retrieve, query_bundle)

    def _review(self, diff: str) -> list[NodeWithScore]:
        """The changed code, then the code depending on it and the tests exercising it, each
        scored by its place in that order."""
        context = self._graph.review_context(diff, repo=self._repo)
        nodes = []
        for rank, item in enumerate(context.items, start=1):
            metadata: dict[str, Any] = {
                "path": item.location.path,
                "start_line": item.location.start_line,
                "end_line": item.location.end_line,
                "qualified_name": item.qualified_name,
                "kind": item.kind,
                "role": item.role,
                "citation": item.citation,
            }
            node = TextNode(
                id_=item.id, text=item.text, metadata=metadata,
                excluded_embed_metadata_keys=list(metadata),
                excluded_llm_metadata_keys=["kind", "role"],
            )  # fmt: skip
            nodes.append(NodeWithScore(node=node, score=1.0 / rank))
        return nodes

    @staticmethod
    def _node(hit: Hit, code: str) -> TextNode:
        metadata: dict[str, Any] = {
            "path": hit.location.path,
            "start_line": hit.location.start_line,
            "end_line": hit.location.end_line,
            "qualified_name": hit.qualified_name,
            "kind": hit.kind,
            "repo": hit.repo,
            "ranks": dict(hit.ranks),
            "explain": hit.explain,
            "citation": str(hit.location),
        }
        return TextNode(
            id_=hit.id,
            text=code or hit.signature or hit.qualified_name,
            metadata=metadata,
            # the code is the content; the metadata is for citations, not for embedding
            excluded_embed_metadata_keys=list(metadata),
            excluded_llm_metadata_keys=["ranks", "explain", "repo", "kind"],
        )
