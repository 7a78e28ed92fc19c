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

The exports are loaded on first use (PEP 562 `__getattr__`): importing a submodule, as
`graphrag-code --help` does, must not pay for the Neo4j driver and every language's parser
(1.3 s; issue 55).
"""

import importlib
import typing

if typing.TYPE_CHECKING:
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

# export -> the module that defines it
_HOMES = {
    "Answer": ".retrieval.answer",
    "CodeGraph": ".codegraph",
    "Context": ".retrieval.context",
    "EmbedReport": ".ingest.embed_stage",
    "GraphRAGCodeError": ".errors",
    "Hit": ".retrieval.search",
    "IngestReport": ".ingest.report",
    "Location": ".location",
    "RelationsResult": ".retrieval.relations",
    "SearchOptions": ".retrieval.search",
    "SearchResult": ".retrieval.search",
    "Settings": ".settings",
    "load_settings": ".settings",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value  # once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
