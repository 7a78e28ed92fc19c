"""Retrieval: question analysis, the hybrid Cypher query, fusion, relationships, context."""
