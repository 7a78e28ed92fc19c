"""Indexing runs: walk, parse, link, write and rank one repository (full or incremental)."""
