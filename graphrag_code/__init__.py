"""graphrag_code: code repositories as a Neo4j graph, searched by vectors, full-text and edges.

    from graphrag_code import CodeGraph

    with CodeGraph() as graph:
        graph.index("path/to/repo")
        graph.search("where are orders saved?")
        graph.callers("OrderRepository.add")

The front door, `CodeGraph`, does what a user does; this package exports it, the records it
returns and the root of its errors. The parts stay importable from their modules: embedders
from `graphrag_code.embedding`, chat models from `graphrag_code.llm`, the Neo4j client from
`graphrag_code.graph.client`, rank fusion from `graphrag_code.retrieval.fusion`, the
LlamaIndex retriever from `graphrag_code.integrations.llamaindex` (imported on demand).
"""

from .codegraph import CodeGraph
from .errors import GraphRAGCodeError
from .ingest.embed_stage import EmbedReport
from .ingest.report import IngestReport
from .location import Location
from .retrieval.answer import Answer
from .retrieval.context import Context
from .retrieval.relations import RelationsResult
from .retrieval.search import Hit, SearchOptions, SearchResult
from .settings import Settings, load_settings

__all__ = [
    "Answer",
    "CodeGraph",
    "Context",
    "EmbedReport",
    "GraphRAGCodeError",
    "Hit",
    "IngestReport",
    "Location",
    "RelationsResult",
    "SearchOptions",
    "SearchResult",
    "Settings",
    "load_settings",
]

__version__ = "0.1.0"
