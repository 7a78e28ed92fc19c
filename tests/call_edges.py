"""The CALLS edges of one indexed fixture, by qualified names, and checks over them (the
value-flow and trace tests read them alike)."""

from __future__ import annotations

from graphrag_code.graph.client import Neo4jClient

Calls = dict[tuple[str, str], tuple[str, str | None]]  # (caller, callee) -> (tier, via)


def read_calls(client: Neo4jClient, repo: str) -> Calls:
    """Every CALLS edge of `repo`, names without the `repo.` prefix the fixtures share."""
    rows = client.read(
        "MATCH (a:Code {repo: $repo})-[r:CALLS]->(b) "
        "RETURN a.qualified_name AS a, b.qualified_name AS b, r.resolution AS tier, r.via AS via",
        {"repo": repo},
    )
    prefix = f"{repo}."
    return {
        (row["a"].removeprefix(prefix), row["b"].removeprefix(prefix)): (row["tier"], row["via"])
        for row in rows
    }


def check_calls(calls: Calls, expected: list[tuple[str, str, str, str | None]]) -> None:
    """Each (caller, callee, tier, a phrase of the reason or None) is an edge of the graph."""
    for caller, callee, tier, reason in expected:
        assert (caller, callee) in calls, f"missing {caller} -> {callee}"
        found_tier, via = calls[(caller, callee)]
        assert found_tier == tier, f"{caller} -> {callee}: {found_tier}"
        if reason is not None:
            assert reason in (via or ""), f"{caller} -> {callee}: {via!r}"


def callees_of(calls: Calls, caller: str) -> set[str]:
    return {callee for source, callee in calls if source == caller}
