"""Tracing a request end to end (issue 19): the type patterns the Python linker follows (one
fixture module each, `tests/fixtures/trace/tr/`), with the CALLS edges each must produce and
those it must not, and dispatch to overrides as *possible* edges, linked offline; indexed into
the real Neo4j: those edges used by `path`, `callees`, `callers`, `impact` and the trace
intent of search, and incremental runs that add an override."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.ingest.offline import link_repository
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.languages.python.dispatch import MAX_OVERRIDES
from graphrag_code.model import Resolution
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe
from .linking_helpers import (
    Calls,
    Linked,
    assert_stored_as_linked,
    callees_of,
    check_calls,
    link_folder,
)
from .shop_graph import embed_with_hashing

TRACE = Path(__file__).parent / "fixtures" / "trace"
REPO = "tr"


@pytest.fixture(scope="module")
def graph(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[CodeGraph]:
    """The fixture indexed with the search indexes and hashing-embedder vectors."""
    wipe(session_client)
    drop_search_indexes(session_client)
    embedder = HashingEmbedder()
    ensure_schema(session_client, SchemaConfig(dimensions=embedder.dimensions, model=embedder.name))
    build_graph(TRACE, session_client, repo=REPO, state_dir=tmp_path_factory.mktemp("state"))
    embed_with_hashing(session_client, REPO, embedder)
    yield CodeGraph(Settings(embedder="hashing"), client=session_client, embedder=embedder)
    drop_search_indexes(session_client)


@pytest.fixture(scope="module")
def linked() -> Linked:
    """The fixture linked offline, names without the `tr.` prefix."""
    return link_folder(TRACE, repo=REPO, strip=f"{REPO}.")


@pytest.fixture(scope="module")
def calls(linked: Linked) -> Calls:
    return linked.calls()


def test_self_typed_returns(calls: Calls) -> None:
    check_calls(
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
    check_calls(
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
    check_calls(
        calls,
        [
            ("casts.use_cast", "target.Widget.ping", "inferred", "`cast(Widget, ...)`"),
            ("casts.use_cast_variable", "target.Widget.ping", "inferred", "the variable"),
            ("casts.use_string_cast", "target.Gadget.ping", "inferred", "`cast('Gadget'"),
            ("narrowing.use_assert", "target.Widget.ping", "inferred", "isinstance"),
            ("narrowing.use_if", "target.Gadget.ping", "inferred", "isinstance"),
            ("narrowing.use_elif", "target.Widget.ping", "inferred", "isinstance"),
            ("narrowing.use_builtin", "<builtin>.bytes.decode", "inferred", "isinstance"),
        ],
    )
    # the `elif` narrows its own body only
    assert "target.Gadget.ping" not in callees_of(calls, "narrowing.use_elif")
    # after the `if` the value may be anything: no certain edge; a Gadget is one of the values
    # it may be (possible, tier `partial`)
    outside = {
        callee: calls[("narrowing.use_if_outside", callee)][0]
        for callee in callees_of(calls, "narrowing.use_if_outside")
        if callee.endswith("ping")
    }
    assert outside == {"target.Gadget.ping": "partial"}
    # unless the arm returned or raised: then the value is not the class it was narrowed to
    for left in ("narrowing.use_if_returned", "narrowing.use_if_raised"):
        assert not {c for c in callees_of(calls, left) if c.endswith("ping")}, left
    # `if not isinstance(x, C): raise`: past it x is a C, or what its callers pass that is one
    check_calls(
        calls, [("narrowing.use_not_isinstance", "target.Widget.ping", "inferred", "isinstance")]
    )
    special = {c for c in callees_of(calls, "narrowing.keep_special") if c.endswith("ping")}
    assert special == {"narrowing.Special.ping"}
    assert calls[("narrowing.keep_special", "narrowing.Special.ping")][0] == "inferred"
    # `if not isinstance(x, C): x = C()`: a C either way, never the Gadget the caller passes
    converted = {c for c in callees_of(calls, "narrowing.use_converted") if c.endswith("ping")}
    assert "target.Widget.ping" in converted
    assert "target.Gadget.ping" not in converted
    # an `if`/`else` whose arms all go on and bind x: past it x is what the arms left in it
    # (the `else` of an `isinstance` test is not a Gadget), not what it held before
    for joined, wanted in (
        ("narrowing.use_replaced", {"target.Widget.ping"}),
        ("narrowing.use_either", {"target.Widget.ping", "narrowing.Special.ping"}),
    ):
        pings = {
            c
            for c in callees_of(calls, joined)
            if c.endswith("ping") and calls[(joined, c)][0] != "dispatch"  # overrides: possible
        }
        assert pings == wanted, joined
        assert all(calls[(joined, callee)][0] == "inferred" for callee in wanted), joined


def test_constructors_and_properties(calls: Calls) -> None:
    check_calls(
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
    check_calls(
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
            # a generic class subscripted is still that class
            ("loops.generic_parameter", "loops.Box.open", "inferred", None),
            ("loops.generic_element", "loops.Box.open", "inferred", "the parameter `boxes`"),
            # an attribute annotated with a subscripted type alias: the values assigned
            ("loops.Holder.build", "loops.default_box", "inferred", "the attribute `make`"),
        ],
    )
    # `dict[str, Widget]` keys are strings: only the values' method is reached
    assert callees_of(calls, "loops.over_items") & {"target.Gadget.ping"} == set()


def test_a_union_of_our_classes_stands_for_unknown_arguments(calls: Calls) -> None:
    # `Body(unknown)`: the callers do not say which stream; the annotation does
    check_calls(
        calls,
        [
            ("unions.Body.iterate", "unions.SyncStream.__iter__", "inferred", "`for` runs"),
            ("unions.Body.close", "unions.SyncStream.close", "inferred", "declared"),
            # and the overrides the base method dispatches to, as possible
            ("unions.Body.iterate", "unions.BytesStream.__iter__", "dispatch", None),
            ("unions.Body.iterate", "unions.ChunkedStream.__iter__", "dispatch", None),
        ],
    )
    # the async class has no `__iter__`: a `for` cannot run its `__aiter__`
    assert "unions.AsyncStream.__aiter__" not in callees_of(calls, "unions.Body.iterate")
    # a member that is not ours (`bytes`) runs nothing of ours: the others still do
    check_calls(
        calls, [("unions.Opaque.iterate", "unions.SyncStream.__iter__", "inferred", "`for`")]
    )
    # `Any` may be anything, ours included: nothing certain
    assert callees_of(calls, "unions.Anything.iterate") == set()


def test_type_aliases_of_unions(calls: Calls) -> None:
    """`StreamTypes = Union["ChunkedStream", str, "Wrapped"]`, `Optional[SyncStream]`: a
    parameter declared with the alias holds an instance of one of its classes."""
    check_calls(
        calls,
        [
            # ChunkedStream inherits `close`; Wrapped is both a member and built for a `str`
            ("unions.Aliased.close", "unions.SyncStream.close", "inferred", "`StreamTypes`"),
            ("unions.Aliased.close", "unions.Wrapped.close", "inferred", None),
            # a local variable declared as a union, whatever it is assigned
            ("unions.local_union", "unions.SyncStream.close", "inferred", "declared"),
            ("unions.local_union", "unions.Wrapped.close", "inferred", "declared"),
        ],
    )
    assert callees_of(calls, "unions.Aliased.close") == {
        "unions.SyncStream.close",
        "unions.Wrapped.close",
    }


def test_overloads_return_what_the_implementation_returns(calls: Calls) -> None:
    """`command("x")(f)`: the first `@overload` stub says `-> Command`, another says a
    decorator; the implementation returns its nested `decorator`, which the call runs."""
    check_calls(
        calls,
        [
            ("overloads.use_named", "overloads.command.decorator", "inferred",
             "the return value of `tr.overloads.command`"),
            # every definition of `widget` declares a Widget (or None): that type stands
            ("overloads.use_widget", "overloads.Widget.ping", "inferred", None),
        ],
    )  # fmt: skip


def test_what_a_generator_is_sent(calls: Calls) -> None:
    """`reply = yield request` in a function declared `-> Generator[str, Reply, None]` (or
    `AsyncGenerator[str, Reply]`) holds a Reply."""
    check_calls(
        calls,
        [
            ("sent.Flow.steps", "sent.Reply.read", "inferred", "is sent"),
            ("sent.Flow.steps", "sent.Reply.status", "inferred", "reads the property"),
            ("sent.Flow.async_steps", "sent.Reply.read", "inferred", "is sent"),
            ("sent.Flow.qualified", "sent.Reply.read", "inferred", "is sent"),
        ],
    )
    # no annotation, or sent None: nothing is known of `reply`
    assert callees_of(calls, "sent.Flow.untyped") == set()
    assert callees_of(calls, "sent.Flow.sends_nothing") == set()


def test_context_managers_and_await(calls: Calls) -> None:
    check_calls(
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
    check_calls(
        calls,
        [
            ("http._api.get", "http._client.Client.request", "inferred",
             "__enter__` returns `Self`"),
            ("http._client.Client.request", "http._transports.BaseTransport.handle_request",
             "inferred", None),
        ],
    )  # fmt: skip


# -- dispatch to overrides ---------------------------------------------------------------------
def test_dispatch_edges_reach_the_overrides_as_possible(calls: Calls) -> None:
    via = "dispatch via `tr.shapes.Shape.area`"
    check_calls(
        calls,
        [
            # an ABC's abstract method: both concrete subclasses, and a subclass of a subclass
            ("shapes.total", "shapes.Square.area", "dispatch", via),
            ("shapes.total", "shapes.Circle.area", "dispatch", via),
            ("shapes.total", "shapes.Ring.area", "dispatch", via),
            # `self.area()` in the base class (template method)
            ("shapes.Shape.describe", "shapes.Square.area", "dispatch", via),
            # a composite's override calling the base method on its parts may call itself
            ("shapes.Group.area", "shapes.Group.area", "dispatch", via),
            # a Protocol's implementation that names it as its base
            ("protocol.flush", "protocol.FileSink.write", "dispatch", "`tr.protocol.Sink.write`"),
            ("http._client.Client.request", "http._transports.HTTPTransport.handle_request",
             "dispatch", "dispatch via `tr.http._transports.BaseTransport.handle_request`"),
            ("http._client.Client.request", "http._transports.MockTransport.handle_request",
             "dispatch", None),
        ],
    )  # fmt: skip
    # the resolved call itself keeps its certain tier
    assert calls[("shapes.total", "shapes.Shape.area")][0] == "inferred"
    # `super().area()` runs the next class's method, whatever the instance: no override
    ring = {callee for callee in callees_of(calls, "shapes.Ring.area") if "<" not in callee}
    assert ring == {"shapes.Circle.area"}
    # nor does `Circle.area(self)`, through the class
    disc = {callee for callee in callees_of(calls, "shapes.Disc.area") if "<" not in callee}
    assert disc == {"shapes.Circle.area"}
    # a call resolved to `Square.area` reaches no sibling class's override
    assert callees_of(calls, "shapes.only_square") == {"shapes.Square.area"}
    # a name match gets no dispatch edges, and a constructor called by its class's name or
    # through `super()` none either (through a value: `builders.py`)
    assert not [
        k
        for k, (tier, _) in calls.items()
        if tier == "dispatch" and "__init__" in k[1] and not k[0].startswith("builders.")
    ]


def test_members_a_class_lacks_dispatch_to_the_subclasses_that_define_them(calls: Calls) -> None:
    """A mixin's `self.send()` may run the `send` of a class it is mixed into; reading a plain
    class attribute may run a subclass's property of that name; a method of an external base
    may run a subclass's override. A method no subclass defines
    (only an unrelated class) gets no dispatch edge."""
    check_calls(
        calls,
        [
            ("mixins.RedirectMixin.follow", "mixins.Session.send", "dispatch",
             "dispatch via `tr.mixins.RedirectMixin`, which has no `send`"),
            ("mixins.Kind.describe", "mixins.Pair.arity", "dispatch",
             "dispatch via `tr.mixins.Kind`, which has no `arity`"),
            ("mixins.measure", "mixins.Pair.arity", "dispatch", None),
            # `dict.get`, which a subclass of ours overrides
            ("mixins.Flags.enabled", "mixins.CountingFlags.get", "dispatch",
             "dispatch via `tr.mixins.Flags`, which has no `get` of its own"),
        ],
    )  # fmt: skip
    # only the name match any unresolved call gets
    assert calls[("mixins.Plain.run", "mixins.Unrelated.missing")][0] == "name"
    assert callees_of(calls, "mixins.Plain.run") == {"mixins.Unrelated.missing"}


def test_new_runs_before_init_and_getattr_reads_a_property(calls: Calls) -> None:
    check_calls(
        calls,
        [
            ("construction.make", "construction.Path.__init__", "exact", None),
            ("construction.make", "construction.Path.__new__", "exact",
             "implicit: constructing `tr.construction.Path` runs `__new__`"),
            ("construction.read", "construction.Settings.debug", "inferred",
             "implicit: `getattr` reads the property `debug`"),
            ("construction.probe", "construction.Settings.debug", "inferred",
             "implicit: `hasattr` reads the property `debug`"),
        ],
    )  # fmt: skip
    # a name computed at run time names no property
    assert "construction.Settings.debug" not in callees_of(calls, "construction.unnamed")


def test_a_class_constructed_through_a_value_may_be_a_subclass(calls: Calls) -> None:
    """`cls(...)` in a classmethod, `self.command_class(...)`, a parameter holding a class:
    each may construct a subclass, so the `__init__` of each subclass that defines one is a
    possible callee (tier `dispatch`); a class called by its name runs its own alone."""
    via = "dispatch via `tr.builders.Command`, constructed through a value"
    for caller in ("builders.Command.create", "builders.Runner.make", "builders.build"):
        check_calls(calls, [(caller, "builders.Group.__init__", "dispatch", via)])
        assert calls[(caller, "builders.Command.__init__")][0] in ("exact", "inferred"), caller
        # `Alias` defines no `__init__` of its own
        assert {c for c in callees_of(calls, caller) if c.endswith("__init__")} == {
            "builders.Command.__init__",
            "builders.Group.__init__",
        }, caller
    assert callees_of(calls, "builders.by_name") == {"builders.Command.__init__"}


def test_a_wrapped_stream_runs_the_methods_textiowrapper_calls(calls: Calls) -> None:
    """`readable`, `writable` and `seekable` always run; `tell` only on a stream that says it
    is seekable, so the `__getattr__` that `Fixup` answers it with is possible (`partial`),
    while `Echo`, which lacks them all, has its `__getattr__` run for certain."""
    runs = "calls `{}` of the stream it wraps"
    lacks = "looks up what the stream it wraps lacks"
    for caller in ("streams.wrap", "streams.Wrapper.__init__"):
        check_calls(
            calls,
            [(caller, f"streams.Fixup.{m}", "inferred", runs.format(m))
             for m in ("readable", "writable", "seekable")]
            + [(caller, "streams.Fixup.__getattr__", "partial", lacks)],
        )  # fmt: skip
    # the stream a subclass's caller passes, seen through its `cast`
    check_calls(calls, [("streams.Named.__init__", "streams.Echo.__getattr__", "inferred", lacks)])
    # a call written out on the cast value is the checkers' `BinaryIO.fileno`, not ours
    assert "streams.Fixup.fileno" not in callees_of(calls, "streams.Wrapper.__init__")


def test_the_index_stores_the_edges_linked_offline(graph: CodeGraph, linked: Linked) -> None:
    assert_stored_as_linked(graph.client, linked)


def test_path_prefers_certain_chains_and_marks_dispatch_steps(graph: CodeGraph) -> None:
    to_base = graph.path("tr.http._api.get", "tr.http._transports.BaseTransport.handle_request")
    assert [s.qualified_name for s in to_base.steps] == [
        "tr.http._api.get",
        "tr.http._client.Client.request",
        "tr.http._transports.BaseTransport.handle_request",
    ]
    assert to_base.certain
    assert to_base.possible_steps == 0

    to_http = graph.path("tr.http._api.get", "tr.http._transports.HTTPTransport.handle_request")
    assert [s.qualified_name for s in to_http.steps] == [
        "tr.http._api.get",
        "tr.http._client.Client.request",
        "tr.http._transports.HTTPTransport.handle_request",
    ]
    assert not to_http.certain
    assert to_http.possible_steps == 1
    last = to_http.steps[-1]
    assert (last.resolution, last.certain) == ("dispatch", False)
    assert last.why == "dispatch via `tr.http._transports.BaseTransport.handle_request`"
    assert to_http.steps[1].certain

    # `send_directly` calls the concrete transport: a certain chain, no dispatch step in it
    direct = graph.path("tr.http._api.send_directly", "tr.http._transports.send_bytes")
    assert direct.certain
    assert len(direct.steps) == 3

    # a certain chain wins over a shorter one through a dispatch step
    prefer = graph.path("tr.http._api.both", "tr.http._transports.HTTPTransport.handle_request")
    assert [s.qualified_name for s in prefer.steps] == [
        "tr.http._api.both",
        "tr.http._api.relay",
        "tr.http._api.send_directly",
        "tr.http._transports.HTTPTransport.handle_request",
    ]
    assert prefer.certain

    deepest = graph.path("tr.http._api.get", "tr.http._transports.send_bytes")
    assert [s.qualified_name for s in deepest.steps][-2:] == [
        "tr.http._transports.HTTPTransport.handle_request",
        "tr.http._transports.send_bytes",
    ]
    assert deepest.possible_steps == 1


def test_callees_and_callers_list_dispatch_once(graph: CodeGraph) -> None:
    # by default an answer leans on certain edges: the dispatch to overrides is asked for
    default = graph.relations.callees("tr.http._client.Client.request")
    assert not default.possible
    assert default.leaned_on == "certain"
    callees = graph.relations.callees("tr.http._client.Client.request", possible=True)
    possible = {r.qualified_name: r for r in callees.possible}
    assert set(possible) >= {
        "tr.http._transports.HTTPTransport.handle_request",
        "tr.http._transports.MockTransport.handle_request",
    }
    assert possible["tr.http._transports.MockTransport.handle_request"].why == (
        "dispatch via `tr.http._transports.BaseTransport.handle_request`"
    )
    assert "tr.http._transports.BaseTransport.handle_request" in {
        r.qualified_name for r in callees.certain
    }

    callers = graph.relations.callers(
        "tr.http._transports.HTTPTransport.handle_request", possible=True
    )
    names = [r.qualified_name for r in callers.all]
    assert names.count("tr.http._client.Client.request") == 1  # stored edge, not derived again
    by_name = {r.qualified_name: r for r in callers.all}
    assert not by_name["tr.http._client.Client.request"].certain
    assert by_name["tr.http._api.send_directly"].certain


def test_explain_says_a_dispatch_is_possible(graph: CodeGraph) -> None:
    explained = graph.explain(
        "tr.http._client.Client.request", "tr.http._transports.MockTransport.handle_request"
    )
    assert explained.resolution == "dispatch"
    assert explained.reasons == (
        "possibly: it overrides `tr.http._transports.BaseTransport.handle_request`, which the "
        "call reaches (dispatch)",
    )


def test_impact_follows_dispatch_both_ways(graph: CodeGraph) -> None:
    # changing an override affects the callers of the base method
    override = graph.relations.impact("tr.http._transports.MockTransport.handle_request", depth=2)
    possible = {r.qualified_name for r in override.possible}
    assert "tr.http._client.Client.request" in possible
    assert "tr.http._api.get" in possible
    # changing the base method affects the callers of its overrides
    base = graph.relations.impact(
        "tr.http._transports.BaseTransport.handle_request", depth=1, possible=True
    )
    assert "tr.http._client.Client.request" in {r.qualified_name for r in base.certain}
    reached = {r.qualified_name: r for r in base.possible}
    assert "tr.http._api.send_directly" in reached
    assert reached["tr.http._api.send_directly"].via == (
        "tr.http._transports.BaseTransport.handle_request",
        "tr.http._transports.HTTPTransport.handle_request",
        "tr.http._api.send_directly",
    )


def test_trace_intent_follows_dispatch_and_marks_it_possible(graph: CodeGraph) -> None:
    result = graph.search("trace Client.request to send_bytes", repo=REPO)
    by_name = {hit.qualified_name: hit for hit in result.hits}
    sent = by_name["tr.http._transports.send_bytes"]
    assert sent.explain == (
        "tr.http._client.Client.request -CALLS-> "
        "tr.http._transports.HTTPTransport.handle_request -CALLS-> tr.http._transports.send_bytes"
    )
    assert sent.possible  # through the dispatch to the override
    assert not by_name["tr.http._transports.BaseTransport.handle_request"].possible


def test_a_new_override_relinks_the_callers_of_the_base_method(
    session_client: Neo4jClient, tmp_path: Path, graph: CodeGraph
) -> None:
    """Incremental: an override added in another file gives the unchanged caller's file a new
    dispatch edge (the caller recorded the method's name), as a clean index would."""
    tiers = _tiers_after_adding(
        session_client, tmp_path, "tr2", "http/_h2.py",
        "from ._transports import BaseTransport, Request\n\n\n"
        "class H2Transport(BaseTransport):\n"
        "    def handle_request(self, request: Request) -> int:\n"
        "        return 2\n",
        ("tr.http._client.Client.request", "tr.http._h2.H2Transport.handle_request"),
    )  # fmt: skip
    assert tiers == ["dispatch"]


def test_a_new_subclass_relinks_a_mixin_that_lacks_the_method(
    session_client: Neo4jClient, tmp_path: Path, graph: CodeGraph
) -> None:
    """Incremental: a class mixing `RedirectMixin` in, added in another file, gives the
    unchanged mixin's `self.send()` a dispatch edge to its `send`."""
    tiers = _tiers_after_adding(
        session_client, tmp_path, "tr3", "client.py",
        "from .mixins import RedirectMixin\n\n\n"
        "class Client(RedirectMixin):\n"
        "    def send(self, url: str) -> int:\n"
        "        return 0\n",
        ("tr.mixins.RedirectMixin.follow", "tr.client.Client.send"),
    )  # fmt: skip
    assert tiers == ["dispatch"]


def _tiers_after_adding(
    client: Neo4jClient, tmp_path: Path, repo: str, path: str, text: str, pair: tuple[str, str]
) -> list[str]:
    """Index a copy of the fixture as `repo`, add the file `tr/<path>`, index it again
    (incrementally) and return the tiers of the CALLS edges between the two qualified names;
    the repository is deleted afterwards."""
    root = tmp_path / "trace"
    shutil.copytree(TRACE, root)
    state = tmp_path / "state"
    build_graph(root, client, repo=repo, state_dir=state)
    (root / "tr" / path).write_text(text)
    report = build_graph(root, client, repo=repo, state_dir=state)
    assert report.mode == "incremental"
    rows = client.read(
        "MATCH (a:Code {id: $a})-[r:CALLS]->(b:Code {id: $b}) RETURN r.resolution AS tier",
        {"a": f"{repo}:{pair[0]}", "b": f"{repo}:{pair[1]}"},
    )
    client.write("MATCH (n {repo: $repo}) DETACH DELETE n", {"repo": repo})
    return [row["tier"] for row in rows]


def test_a_method_with_too_many_overrides_gets_no_dispatch_edges(tmp_path: Path) -> None:
    """Above `MAX_OVERRIDES` overrides a call keeps its one certain edge and nothing more;
    at the cap every override is reached (offline: the linker alone)."""
    package = tmp_path / "many"
    package.mkdir()
    (package / "__init__.py").write_text("")

    def module(count: int) -> str:
        classes = "".join(
            f"\n\nclass Sub{i}(Base):\n    def run(self) -> int:\n        return {i}\n"
            for i in range(count)
        )
        return (
            "class Base:\n    def run(self) -> int:\n        return 0\n"
            + classes
            + "\n\ndef use(base: Base) -> int:\n    return base.run()\n"
        )

    (package / "at_cap.py").write_text(module(MAX_OVERRIDES))
    (package / "above.py").write_text(module(MAX_OVERRIDES + 1))
    linked = link_repository(tmp_path, repo="m")
    dispatch = [e for e in linked.edges() if e.resolution == Resolution.DISPATCH]
    sources = Counter(e.source for e in dispatch)
    assert sources == {"m:many.at_cap.use": MAX_OVERRIDES}
