"""graphrag_code: code repositories as a Neo4j graph, searched by vectors, full-text and edges."""

from .connection import Neo4jClient, Neo4jEndpoint, resolve_endpoint
from .errors import GraphRAGCodeError
from .schema import SchemaConfig, ensure_schema
from .settings import Settings, load_settings

__all__ = [
    "GraphRAGCodeError",
    "Neo4jClient",
    "Neo4jEndpoint",
    "SchemaConfig",
    "Settings",
    "ensure_schema",
    "load_settings",
    "resolve_endpoint",
]

__version__ = "0.1.0"
