"""The one place that talks to Neo4j: the client, the schema, the writer and the reader.

client    `Neo4jClient`: reads in read transactions, writes in managed write transactions
queries   the shipped `.cypher` files and the only helpers that paste identifiers into Cypher
schema    constraints, vector and full-text indexes, and the embedding model they serve
writer    `GraphWriter`: batched `UNWIND … MERGE` of one repository's rows
"""

from .client import Neo4jClient
from .schema import SchemaConfig, ensure_schema
from .writer import GraphWriter

__all__ = ["GraphWriter", "Neo4jClient", "SchemaConfig", "ensure_schema"]
