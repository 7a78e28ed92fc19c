"""Tracing a request end to end (issue 19), indexed into the real Neo4j: the type patterns the
Python linker follows (one fixture module each, `tests/fixtures/trace/tr/`), with the CALLS
edges each must produce and those it must not; then dispatch to overrides as *possible*
edges, used by `path`, `callees`, `callers`, `impact` and the trace intent of search."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.settings import Settings

from .conftest import wipe

TRACE = Path(__file__).parent / "fixtures" / "trace"
REPO = "tr"

Calls = dict[tuple[str, str], tuple[str, str | None]]


@pytest.fixture(scope="module")
def graph(session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory) -> CodeGraph:
    wipe(session_client)
    build_graph(TRACE, session_client, repo=REPO, state_dir=tmp_path_factory.mktemp("state"))
    return CodeGraph(Settings(embedder="hashing"), client=session_client)


@pytest.fixture(scope="module")
def calls(graph: CodeGraph) -> Calls:
    """(caller, callee) -> (tier, via) of every CALLS edge, names without the `tr.` prefix."""
    rows = graph.client.read(
        "MATCH (a:Code {repo: $repo})-[r:CALLS]->(b) "
        "RETURN a.qualified_name AS a, b.qualified_name AS b, r.resolution AS tier, r.via AS via",
        {"repo": REPO},
    )
    return {
        (row["a"].removeprefix("tr."), row["b"].removeprefix("tr.")): (row["tier"], row["via"])
        for row in rows
    }


def _check(calls: Calls, expected: list[tuple[str, str, str, str | None]]) -> None:
    """Each (caller, callee, tier, a phrase of the reason or None) is an edge of the graph."""
    for caller, callee, tier, reason in expected:
        assert (caller, callee) in calls, f"missing {caller} -> {callee}"
        found_tier, via = calls[(caller, callee)]
        assert found_tier == tier, f"{caller} -> {callee}: {found_tier}"
        if reason is not None:
            assert reason in (via or ""), f"{caller} -> {callee}: {via!r}"


def _callees(calls: Calls, caller: str) -> set[str]:
    return {callee for source, callee in calls if source == caller}


def test_self_typed_returns(calls: Calls) -> None:
    _check(
        calls,
        [
            ("selftype.use_self", "selftype.Builder.build", "inferred", "(`Self`)"),
            ("selftype.use_extensions_self", "selftype.Builder.build", "inferred", "`Self`"),
            ("selftype.use_bound", "selftype.Builder.build", "inferred", None),
            ("selftype.use_constrained", "selftype.Builder.build", "inferred", None),
            ("selftype.use_plain", "selftype.Builder.build", "inferred", None),
            # the receiver's class, not the class that defines the method
            ("selftype.use_subclass", "selftype.Special.finish", "inferred", "`Self`"),
        ],
    )
    # `Self` is a type, never a callee: no edge to an external `typing.Self.build`
    externals = {b for a, b in calls if a.startswith("selftype.") and "Self" in b}
    assert externals == set()


def test_forward_references_and_optional(calls: Calls) -> None:
    _check(
        calls,
        [
            ("forward.use_return", "target.Widget.ping", "inferred", None),
            ("forward.use_parameter", "target.Widget.ping", "inferred", None),
            ("forward.use_variable", "target.Widget.ping", "inferred", None),
            ("forward.use_method_string", "target.Widget.ping", "inferred", None),
            ("optional.use_optional", "target.Widget.ping", "inferred", None),
            ("optional.use_union", "target.Widget.ping", "inferred", None),
            ("optional.use_typing_union", "target.Widget.ping", "inferred", None),
            ("optional.use_optional_parameter", "target.Widget.ping", "inferred", None),
            ("optional.use_string_union_parameter", "target.Gadget.ping", "inferred", None),
        ],
    )


def test_casts_and_narrowing(calls: Calls) -> None:
    _check(
        calls,
        [
            ("casts.use_cast", "target.Widget.ping", "inferred", "`cast(Widget, ...)`"),
            ("casts.use_cast_variable", "target.Widget.ping", "inferred", "the variable"),
            ("casts.use_string_cast", "target.Gadget.ping", "inferred", "`cast('Gadget'"),
            ("narrowing.use_assert", "target.Widget.ping", "inferred", "isinstance"),
            ("narrowing.use_if", "target.Gadget.ping", "inferred", "isinstance"),
        ],
    )
    # after the `if` the value may be anything: no edge
    assert not {c for c in _callees(calls, "narrowing.use_if_outside") if c.endswith("ping")}


def test_constructors_and_properties(calls: Calls) -> None:
    _check(
        calls,
        [
            ("classmethods.use_create", "classmethods.Config.validate", "inferred", None),
            ("classmethods.use_load", "classmethods.Config.validate", "inferred", "`Self`"),
            ("classmethods.use_parse", "classmethods.Config.validate", "inferred", None),
            ("properties.use_property", "target.Widget.ping", "inferred", None),
            ("properties.use_cached", "target.Gadget.ping", "inferred", None),
            ("properties.use_cached_plain", "target.Widget.ping", "inferred", None),
        ],
    )


def test_element_types_in_for_loops(calls: Calls) -> None:
    _check(
        calls,
        [
            ("loops.over_list", "target.Widget.ping", "inferred", "the parameter `items`"),
            ("loops.over_typing_list", "target.Gadget.ping", "inferred", None),
            ("loops.over_items", "target.Widget.ping", "inferred", "the parameter `table`"),
            ("loops.over_values", "target.Gadget.ping", "inferred", None),
            ("loops.over_keys", "target.Widget.ping", "inferred", None),
            ("loops.over_iterable", "target.Widget.ping", "inferred", None),
            ("loops.over_iterator", "target.Gadget.ping", "inferred", None),
            ("loops.over_returned_list", "target.Widget.ping", "inferred", "`tr.loops.widgets`"),
            ("loops.over_returned_iterator", "target.Gadget.ping", "inferred", None),
        ],
    )
    # `dict[str, Widget]` keys are strings: only the values' method is reached
    assert _callees(calls, "loops.over_items") & {"target.Gadget.ping"} == set()


def test_context_managers_and_await(calls: Calls) -> None:
    _check(
        calls,
        [
            ("managers.use_typevar_enter", "managers.Session.send", "inferred", None),
            ("managers.use_self_enter", "managers.Pool.take", "inferred", None),
            ("managers.use_other_enter", "managers.Connection.query", "inferred", None),
            ("managers.use_async_with", "managers.AsyncSession.fetch", "inferred", None),
            ("managers.use_inherited_typevar_enter", "managers.SubSession.only_here",
             "inferred", "returns `Self`"),
            ("managers.use_inherited_self_enter", "managers.SubPool.only_here",
             "inferred", "returns `Self`"),
            ("awaits.use_await", "target.Widget.ping", "inferred", None),
            ("awaits.use_await_inline", "target.Widget.ping", "inferred", None),
        ],
    )  # fmt: skip


def test_transport_chain_resolves_through_the_with_block(calls: Calls) -> None:
    _check(
        calls,
        [
            ("http._api.get", "http._client.Client.request", "inferred",
             "__enter__` returns `Self`"),
            ("http._client.Client.request", "http._transports.BaseTransport.handle_request",
             "inferred", None),
        ],
    )  # fmt: skip
