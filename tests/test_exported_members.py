"""The public API is exactly what `__all__` says, and every name in it exists."""

from __future__ import annotations

import graphrag_code

# `Location`: the type of every result's `location` (hits, related symbols, path steps, entry
# points, context items); exported so that users can annotate and build the values they compare.
EXPECTED = {
    "Answer", "ChatModel", "CodeGraph", "Context", "Embedder", "GraphRAGCodeError",
    "HashingEmbedder", "Hit", "IngestReport", "LlamaIndexEmbedder", "Location", "MiniLMEmbedder",
    "Neo4jClient", "Neo4jEndpoint", "OpenAIChat", "OpenAIEmbedder", "RelationsResult",
    "Reranker", "SchemaConfig", "SearchOptions", "SearchResult", "Settings",
    "delete_repository", "embed_repository", "ensure_schema", "index_repository",
    "load_settings", "make_embedder", "resolve_endpoint", "rrf",
}  # fmt: skip


def test_exported_names_are_exactly_the_intended_ones() -> None:
    assert set(graphrag_code.__all__) == EXPECTED
    for name in graphrag_code.__all__:
        assert getattr(graphrag_code, name) is not None


def test_public_names_do_not_leak() -> None:
    import types

    public = {
        name
        for name, value in vars(graphrag_code).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert public == EXPECTED
