"""The one place that talks to Neo4j: the client, the schema, the writer and the readers.

client    `Neo4jClient`: reads in read transactions, writes in managed write transactions
capabilities  what the server can do (Cypher 25, filtered vector search), probed once
queries   the shipped `.cypher` files and the only helpers that paste identifiers into Cypher
schema    constraints, vector and full-text indexes, and the embedding model they serve
scoping   each repository's own label and full-text index
writer    `GraphWriter`: batched `UNWIND … MERGE` of one repository's rows
reader    `GraphReader`: every read of retrieval, the CLI and the integrations, typed
vectors   `VectorStore`: the reads and writes of the embedding stage
records   the frozen records the readers return
completeness  how completely a repository is indexed: the warnings answers carry

Only this package imports `queries` (an import-linter contract, `.importlinter`): everything
else runs Cypher through the objects below. `hop_bound` is exported for the depth settings
users pass to searches and relationship walks.
"""

from .capabilities import ServerCapabilities, VectorSearchForm
from .client import Neo4jClient
from .completeness import (
    VECTOR_KINDS,
    AnswerWarning,
    Completeness,
    WarningKind,
    answer_warnings,
)
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
from .schema import (
    SchemaConfig,
    check_fulltext_index,
    check_vector_index,
    ensure_repository_text_index,
    ensure_repository_vector_index,
    ensure_schema,
    fulltext_index_properties,
    vector_index_info,
)
from .scoping import (
    file_text_index,
    repo_label,
    repo_token,
    repository_text_index,
    repository_vector_index,
)
from .vectors import VectorStore
from .writer import GraphWriter

__all__ = [
    "VECTOR_KINDS",
    "AnswerWarning",
    "CallEdge",
    "Completeness",
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
    "ServerCapabilities",
    "SymbolMatch",
    "SymbolRef",
    "VectorSearchForm",
    "VectorStore",
    "WarningKind",
    "answer_warnings",
    "check_fulltext_index",
    "check_vector_index",
    "ensure_repository_text_index",
    "ensure_repository_vector_index",
    "ensure_schema",
    "file_text_index",
    "fulltext_index_properties",
    "hop_bound",
    "repo_label",
    "repo_token",
    "repository_text_index",
    "repository_vector_index",
    "vector_index_info",
]
