"""The one place that talks to Neo4j: the client, the schema, the writer and the readers.

client    `Neo4jClient`: reads in read transactions, writes in managed write transactions
queries   the shipped `.cypher` files and the only helpers that paste identifiers into Cypher
schema    constraints, vector and full-text indexes, and the embedding model they serve
writer    `GraphWriter`: batched `UNWIND … MERGE` of one repository's rows
reader    `GraphReader`: every read of retrieval, the CLI and the integrations, typed
vectors   `VectorStore`: the reads and writes of the embedding stage
records   the frozen records the readers return

Only this package imports `queries` (an import-linter contract, `.importlinter`): everything
else runs Cypher through the objects below. `hop_bound` is exported for the depth settings
users pass to searches and relationship walks.
"""

from .client import Neo4jClient
from .queries import hop_bound
from .reader import Direction, GraphReader
from .records import (
    CallEdge,
    ContextNode,
    Definition,
    EntryPoint,
    Neighbour,
    Neighbourhood,
    PathStep,
    RepositoryInfo,
    RepositorySize,
    SymbolMatch,
    SymbolRef,
)
from .schema import SchemaConfig, check_vector_index, ensure_schema
from .vectors import VectorStore
from .writer import GraphWriter

__all__ = [
    "CallEdge",
    "ContextNode",
    "Definition",
    "Direction",
    "EntryPoint",
    "GraphReader",
    "GraphWriter",
    "Neighbour",
    "Neighbourhood",
    "Neo4jClient",
    "PathStep",
    "RepositoryInfo",
    "RepositorySize",
    "SchemaConfig",
    "SymbolMatch",
    "SymbolRef",
    "VectorStore",
    "check_vector_index",
    "ensure_schema",
    "hop_bound",
]
