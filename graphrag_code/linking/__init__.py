"""Resolve names into edges: IMPORTS, CALLS, INHERITS, USES_TYPE; rank nodes."""
