"""The public API is exactly what `__all__` says, and every name in it exists."""

from __future__ import annotations

import graphrag_code

# The front door, the records it returns and the error root; everything else is imported from
# its module. `Location`: the type of every result's `location` (hits, related symbols, path
# steps, entry points, context items), exported so that users can annotate the values they get.
EXPECTED = {
    "Answer", "CodeGraph", "Context", "EmbedReport", "GraphRAGCodeError", "Hit",
    "IngestReport", "Location", "RelationsResult", "SearchOptions", "SearchResult", "Settings",
    "load_settings",
}  # fmt: skip


def test_the_public_api_is_small() -> None:
    assert len(EXPECTED) <= 15


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
