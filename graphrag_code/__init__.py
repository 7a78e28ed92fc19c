"""graphrag_code: code repositories as a Neo4j graph, searched by vectors, full-text and edges.

    from graphrag_code import CodeGraph

    with CodeGraph() as graph:
        graph.index("path/to/repo")
        graph.search("where are orders saved?")
        graph.callers("OrderRepository.add")

The LlamaIndex retriever lives in `graphrag_code.integrations.llamaindex` (imported on demand).
"""

from .api import delete_repository, embed_repository, index_repository
from .codegraph import CodeGraph
from .embedding import (
    Embedder,
    HashingEmbedder,
    LlamaIndexEmbedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
    make_embedder,
)
from .errors import GraphRAGCodeError
from .graph.client import Neo4jClient
from .graph.schema import SchemaConfig, ensure_schema
from .ingest.report import IngestReport
from .llm import ChatModel, OpenAIChat
from .location import Location
from .retrieval.answer import Answer
from .retrieval.context import Context
from .retrieval.fusion import rrf
from .retrieval.relations import RelationsResult
from .retrieval.search import Hit, Reranker, SearchOptions, SearchResult
from .runtime.endpoint import Neo4jEndpoint
from .runtime.server.endpoints import resolve_endpoint
from .settings import Settings, load_settings

__all__ = [
    "Answer",
    "ChatModel",
    "CodeGraph",
    "Context",
    "Embedder",
    "GraphRAGCodeError",
    "HashingEmbedder",
    "Hit",
    "IngestReport",
    "LlamaIndexEmbedder",
    "Location",
    "MiniLMEmbedder",
    "Neo4jClient",
    "Neo4jEndpoint",
    "OpenAIChat",
    "OpenAIEmbedder",
    "RelationsResult",
    "Reranker",
    "SchemaConfig",
    "SearchOptions",
    "SearchResult",
    "Settings",
    "delete_repository",
    "embed_repository",
    "ensure_schema",
    "index_repository",
    "load_settings",
    "make_embedder",
    "resolve_endpoint",
    "rrf",
]

__version__ = "0.1.0"
