"""The names of the search legs, apart from `search.py` so that the CLI can offer them in its
`--help` without loading the Neo4j driver (issue 55)."""

from __future__ import annotations

__all__ = ["FILE_TEXT", "LEGS", "UNIT_LEGS"]

LEGS = ("vector", "text", "graph")
FILE_TEXT = "file_text"
"""The whole-file leg: module nodes' `file_text`, one document per file, in an index of its
own. Only file- and package-level search runs it (a file is not a symbol answer)."""
UNIT_LEGS = (*LEGS, FILE_TEXT)
