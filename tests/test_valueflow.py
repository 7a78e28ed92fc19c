"""Calls through values (issue 15): one fixture module per idiom (`tests/fixtures/valueflow/vf/`),
the CALLS edges each must produce with their tier and the reason on the edge, and the sites
that must stay unresolved and be counted, linked offline; indexed into the real Neo4j: the
counts the report and the graph keep, `explain` in the API and the CLI, and incremental runs
equal to a clean one when a value crosses files."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from graphrag_code.cli.main import main as cli_main
from graphrag_code.codegraph import CodeGraph
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.pipeline import IndexOptions, build_graph
from graphrag_code.ingest.report import IngestReport
from graphrag_code.ingest.state import StateStore
from graphrag_code.languages.python.parser import PythonParser
from graphrag_code.languages.python.values.reaching import is_join, reaching
from graphrag_code.linking.flowkeys import (
    CALL_KEY,
    STORE_KEY,
    VALUE_CALLS,
    call_names,
    flow_keys,
    store_names,
    value_calls,
)
from graphrag_code.model import Expr, Int, Iterated, Name, ParsedFile
from graphrag_code.settings import Settings

from .conftest import wipe
from .linking_helpers import (
    Calls,
    Linked,
    assert_stored_as_linked,
    callees_of,
    check_calls,
    link_folder,
)
from .relinking import assert_same_as_clean_index, write_file

VALUEFLOW = Path(__file__).parent / "fixtures" / "valueflow"
REPO = "vf"


@pytest.fixture(scope="module")
def indexed(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[CodeGraph, IngestReport]]:
    wipe(session_client)
    report = build_graph(
        VALUEFLOW, session_client, repo=REPO, state_dir=tmp_path_factory.mktemp("state")
    )
    return CodeGraph(Settings(embedder="hashing"), client=session_client), report


@pytest.fixture(scope="module")
def linked() -> Linked:
    """The fixture linked offline, names without the `vf.` prefix."""
    return link_folder(VALUEFLOW, repo=REPO, strip=f"{REPO}.")


@pytest.fixture(scope="module")
def calls(linked: Linked) -> Calls:
    return linked.calls()


def test_aliases(calls: Calls) -> None:
    check_calls(
        calls,
        [
            ("aliases.plain_alias", "helpers.alpha", "inferred", "the variable `a`"),
            ("aliases.chain_of_aliases", "helpers.beta", "inferred", "the variable `c`"),
            ("aliases.tuple_unpacking", "helpers.gamma", "inferred", "the variable `second`"),
            ("aliases.branches", "helpers.alpha", "inferred", "the variable `chosen`"),
            ("aliases.branches", "helpers.beta", "inferred", "the variable `chosen`"),
            ("aliases.rebinding", "helpers.gamma", "inferred", "the variable `f`"),
            ("aliases.augmented", "helpers.alpha", "inferred", "the list `handlers`"),
            ("aliases.augmented", "helpers.beta", "inferred", "the list `handlers`"),
            ("aliases.module_attribute", "helpers.alpha", "inferred", None),
        ],
    )
    # the other element of the tuple, and the value a later assignment replaced, are not called
    assert "helpers.alpha" not in callees_of(calls, "aliases.tuple_unpacking")
    assert "helpers.alpha" not in callees_of(calls, "aliases.rebinding")


def test_returned_callables(calls: Calls) -> None:
    check_calls(
        calls,
        [
            ("returns.call_result", "returns.factory", "exact", None),
            ("returns.call_result", "helpers.alpha", "inferred",
             "the return value of `vf.returns.factory`"),
            ("returns.closure", "returns.make_counter.counter", "inferred",
             "the return value of `vf.returns.make_counter`"),
            ("returns.method_returned", "returns.Picker.run", "inferred",
             "the return value of `vf.returns.Picker.pick`"),
        ],
    )  # fmt: skip


def test_callables_passed_as_arguments(calls: Calls) -> None:
    check_calls(
        calls,
        [
            ("arguments.run", "helpers.alpha", "inferred", "the parameter `callback`"),
            ("arguments.call_with", "helpers.beta", "inferred", "the parameter `fn`"),
            ("arguments.by_keyword", "helpers.gamma", "inferred", "the parameter `on_done`"),
            ("arguments.with_default", "helpers.delta", "inferred", "the parameter `hook`"),
            # forwarded through `*args` and `**kwargs` of a function in between
            ("arguments.inner", "helpers.alpha", "inferred", "the parameter `args`"),
            ("arguments.inner", "helpers.gamma", "inferred", "the parameter `kwargs`"),
        ],
    )
    _, via = calls[("arguments.run", "helpers.alpha")]
    assert via is not None
    assert "passed by `vf.arguments.passes_a_callback`" in via


def test_decorators(calls: Calls) -> None:
    check_calls(
        calls,
        [
            # caller -> wrapper -> original, and the call by name is kept
            ("decorators.calls_decorated", "decorators.work", "exact", None),
            ("decorators.calls_decorated", "decorators.logged.wrapper", "inferred", "`logged`"),
            ("decorators.logged.wrapper", "decorators.work", "inferred", "parameter `func`"),
            # a decorator with arguments
            ("decorators.calls_decorated_with_arguments", "decorators.chore", "exact", None),
            ("decorators.calls_decorated_with_arguments", "decorators.repeat.decorate.repeated",
             "inferred", "`repeat(…)`"),
            ("decorators.repeat.decorate.repeated", "decorators.chore", "inferred", "`func`"),
            # a class decorator that returns the class; classes read back from its registry
            ("decorators.builds_registered", "decorators.Plugin.__init__", "exact", None),
            # @property returning a function, @staticmethod and @classmethod constructors
            ("decorators.uses_property_and_constructors", "helpers.alpha", "inferred",
             "the property `vf.decorators.Service.handler`"),
            ("decorators.Service.make", "decorators.Service.__init__", "exact", None),
            ("decorators.Service.create", "decorators.Service.__init__", "exact", None),
            # typed `(f: F) -> F` with `cast(F, update_wrapper(wrapper, f))`, F a TypeVar
            ("decorators.Registry.route", "decorators.typed_setup.typed_wrapper", "inferred",
             "`typed_setup`"),
            ("decorators.typed_setup.typed_wrapper", "decorators.Registry.add_rule",
             "inferred", "parameter `f`"),
            # `cast(Type[CmdType], Command)`, CmdType a TypeVar: Command's own value stands
            ("decorators.command.decorator", "decorators.Command.__init__", "inferred",
             "the variable `cls`"),
            # `cast(type[Command], v)`: the class, so calling it constructs a Command
            ("decorators.class_from_a_cast", "decorators.Command.__init__", "inferred",
             "from `cast("),
        ],
    )  # fmt: skip
    # a type variable is no callable: nothing calls `typing.TypeVar` but the line defining F
    assert {a for a, b in calls if b == "typing.TypeVar"} <= {"decorators"}


def test_containers_and_dispatch_tables(calls: Calls) -> None:
    table = "the dict `HANDLERS`"
    check_calls(
        calls,
        [
            ("containers.dispatch", "helpers.alpha", "inferred", table),
            ("containers.dispatch", "helpers.beta", "inferred", table),
            ("containers.dispatch", "helpers.gamma", "inferred", table),  # HANDLERS["g"] = …
            ("containers.dispatch_constant", "helpers.beta", "inferred", table),
            ("containers.get_with_default", "helpers.delta", "inferred", None),
            ("containers.get_with_default", "helpers.alpha", "inferred", table),
            ("containers.iterate_list", "helpers.alpha", "inferred", "the variable `step`"),
            ("containers.iterate_list", "helpers.beta", "inferred", "the variable `step`"),
            ("containers.iterate_tuple_and_set", "helpers.gamma", "inferred", None),
            ("containers.iterate_tuple_and_set", "helpers.delta", "inferred", None),
            ("containers.dict_values", "helpers.gamma", "inferred", table),
            ("containers.built_by_appends", "helpers.alpha", "inferred", "the list `jobs`"),
            ("containers.built_by_appends", "helpers.delta", "inferred", "the list `jobs`"),
            ("containers.Registry.run", "helpers.alpha", "inferred", "the dict `handlers`"),
            ("containers.concatenated", "helpers.alpha", "inferred", "the list `FIRST`"),
            ("containers.concatenated", "helpers.beta", "inferred", "the variable `step`"),
            ("containers.concatenated", "helpers.gamma", "inferred", "the variable `step`"),
            ("containers.unpack_pair", "containers.Pair.__iter__", "inferred", "unpacking"),
            ("containers.unpack_pair", "helpers.alpha", "inferred", "the variable `first`"),
            ("containers.unpack_pair", "helpers.delta", "inferred", "the variable `second`"),
            # lists held in a dict grow: `setdefault(k, []).append(f)`, `d[k].append(f)` on a
            # defaultdict, and on a dict attribute from a mixin's method
            ("containers.fire", "containers.saved_handler", "inferred", "the dict `EVENTS`"),
            ("containers.notify", "helpers.gamma", "inferred", "the dict `LISTENERS`"),
            ("containers.Hooked.run_hooks", "helpers.beta", "inferred", "the dict `hooks`"),
        ],
    )
    assert callees_of(calls, "containers.Hooked.run_hooks") == {"helpers.beta"}
    # each name unpacked from `Pair` holds its own position only
    unpacked = {c for c in callees_of(calls, "containers.unpack_pair") if c.startswith("helpers")}
    assert unpacked == {"helpers.alpha", "helpers.delta"}
    # what `pop(key)` takes out of the dict it puts back is nothing new: one certain callee
    assert callees_of(calls, "containers.Registry.run") == {"helpers.alpha"}
    # a constant key selects its entry only
    assert callees_of(calls, "containers.dispatch_constant") == {"helpers.beta"}
    # nine targets are too many for certain edges: each is a possible one (tier `many`), and
    # the site is still counted as unresolved
    too_many = {
        callee: calls[("containers.too_many", callee)]
        for callee in callees_of(calls, "containers.too_many")
    }
    assert len(too_many) == 9
    assert {tier for tier, _ in too_many.values()} == {"many"}
    assert all("one of 9 values" in (via or "") for _, via in too_many.values())


def test_a_wrapper_of_many_decorated_functions_may_call_each(calls: Calls) -> None:
    # 42 decorations: past the 40 callers a parameter is followed through for certain edges
    wrapped = {f"many_decorated.task_{i:02d}" for i in range(42)}
    assert callees_of(calls, "many_decorated.setup.wrapper") == wrapped
    for callee in wrapped:
        tier, via = calls[("many_decorated.setup.wrapper", callee)]
        assert tier == "many"
        assert via is not None
        assert "one of 42 values" in via
        assert "parameter `f`" in via
    # the caller of one decorated function: it by name, certainly, and the wrapper in its place
    check_calls(
        calls,
        [
            ("many_decorated.calls_one", "many_decorated.task_03", "exact", None),
            ("many_decorated.calls_one", "many_decorated.setup.wrapper", "inferred", "`setup`"),
        ],
    )


def test_values_known_where_others_are_not_are_possible_callees(
    linked: Linked, calls: Calls
) -> None:
    """`handle(callback, response)` is called with known values and with values the linking
    cannot follow: what is known is called there (tier `partial`), calls and implicit calls
    (on a parameter, a variable assigned from one, or an attribute of `self` that a parameter
    set) alike, and no edge is
    certain; the two call sites stay counted as unresolved."""
    known = "one of the values known here, others unknown"
    check_calls(
        calls,
        [
            ("partial.handle", "helpers.alpha", "partial", known),
            ("partial.handle", "partial.Response.close", "partial", known),
            ("partial.handle", "partial.Response.content", "partial", "reads the property"),
            ("partial.handle", "partial.Response.__len__", "partial", "runs `__len__`"),
            # an attribute of `self` that `__init__` was passed: followed to its callers too
            ("partial.Holder.empty", "partial.Response.__len__", "partial", "runs `__len__`"),
            # a variable assigned from a parameter (`headers = message.headers`)
            ("partial.has_headers", "partial.Response.__len__", "partial", "runs `__len__`"),
        ],
    )
    assert {
        calls[("partial.handle", callee)][0] for callee in callees_of(calls, "partial.handle")
    } == {"partial"}
    assert linked.unresolved_calls("partial.handle") == [2]


def test_a_value_of_a_callable_type_may_call_each_function_that_fits(calls: Calls) -> None:
    """A parameter annotated with an imported alias (`Send`), `self.app` assigned a parameter
    of type `App`, an inline `Callable[[Request], Response]`: each function whose annotated
    signature fits is a possible callee (tier `signature`), one that value flow finds stays
    certain, and a function of another arity, result, type or awaitability is not one, nor
    one that fits but no code uses as a value (`send_direct`, only ever called), nor one only
    passed to a function that value flow follows (`send_to_socket`, given to `forward` alone:
    `Endpoint`'s `send` never holds it)."""
    senders = {"signatures.send_to_socket", "signatures.send_to_queue"}
    assert callees_of(calls, "signatures.forward") == senders
    assert callees_of(calls, "signatures.Endpoint.__call__") == {"signatures.send_to_queue"}
    check_calls(
        calls,
        [
            ("signatures.forward", "signatures.send_to_socket", "inferred", "parameter `send`"),
            ("signatures.forward", "signatures.send_to_queue", "signature",
             "declared `Send`: one of 1 functions of that signature"),
            ("signatures.Endpoint.__call__", "signatures.send_to_queue", "signature",
             "declared `Send`"),
            ("signatures.handle", "signatures.render", "signature",
             "declared the annotation of `callback`: one of 1 functions"),
        ],
    )  # fmt: skip
    apps = {"signatures.forward", "signatures.Middleware.__call__", "signatures.Endpoint.__call__"}
    assert callees_of(calls, "signatures.Middleware.__call__") == apps
    for callee in apps:
        tier, via = calls[("signatures.Middleware.__call__", callee)]
        assert (tier, via) == ("signature", "declared `App`: one of 3 functions of that signature")
    assert callees_of(calls, "signatures.handle") == {"signatures.render"}
    assert callees_of(calls, "signatures.loose") == set()


def test_classes_kept_for_later_are_built_where_the_callers_say(calls: Calls) -> None:
    """A parameter declared as a callback protocol holds what its callers pass (classes
    here), not an instance of the protocol."""
    check_calls(
        calls,
        [
            ("factories.build", "factories.Wrapper.__init__", "inferred",
             "the parameter `cls` of `vf.factories.Layer.__init__`"),
            ("factories.build", "factories.Logger.__init__", "inferred", None),
            # 45 calls build a Stage, more than parameters are followed through for certain
            # edges, and one passes what is not known: each class known is a possible callee
            ("factories.run_stages", "factories.Wrapper.__init__", "partial", "others unknown"),
            ("factories.run_stages", "factories.Logger.__init__", "partial", None),
        ],
    )  # fmt: skip
    built = callees_of(calls, "factories.build") | callees_of(calls, "factories.run_stages")
    assert "factories._Factory.__call__" not in built


def test_an_instance_called_by_its_variable_runs_its_call_method(calls: Calls) -> None:
    check_calls(
        calls,
        [
            ("callables.run_alpha", "callables.Runner.__call__", "inferred", "`runner`"),
            ("callables.Runner.__call__", "helpers.alpha", "inferred",
             "passed by `vf.callables.run_alpha`"),
        ],
    )  # fmt: skip


def test_a_helper_that_hands_back_an_argument_returns_what_each_call_passed(
    calls: Calls,
) -> None:
    """`first_set(alpha, None)()` calls alpha, certainly, and not what other calls of
    `first_set` pass (before: every caller's arguments, each a possible callee)."""
    check_calls(
        calls,
        [
            ("stores.run_preferred", "helpers.alpha", "inferred", "the argument `preferred`"),
            ("stores.run_fallback", "helpers.beta", "inferred", "the argument `fallback`"),
        ],
    )
    assert callees_of(calls, "stores.run_preferred") == {"stores.first_set", "helpers.alpha"}
    assert callees_of(calls, "stores.run_fallback") == {"stores.first_set", "helpers.beta"}
    # through a call of itself: the call met again while evaluated is unknown, the rest known
    check_calls(calls, [("stores.run_recursive", "helpers.gamma", "partial", "`value`")])


def test_an_attribute_set_from_outside_its_class_is_a_possible_value(calls: Calls) -> None:
    """`session.auth = TokenAuth()` in a function: what `auth(None)` may call besides the
    `BasicAuth` the resolver names, where the auth comes partly from callers the linking
    cannot follow (tier `partial`). The certain edges keep to what the class assigns."""
    check_calls(
        calls,
        [
            ("stores.apply_auth", "stores.BasicAuth.__call__", "inferred", None),
            ("stores.apply_auth", "stores.TokenAuth.__call__", "partial", "others unknown"),
        ],
    )


def test_a_module_is_an_attribute_of_its_package(calls: Calls) -> None:
    """`import vf.plugins.tools` makes `tools` an attribute of `vf.plugins`, whose
    `__init__` does not import it: a value read through it is followed."""
    check_calls(calls, [("stores.run_tools", "plugins.tools.sharpen", "inferred", "TOOLS")])


def test_any_str_is_a_type_variable(calls: Calls) -> None:
    """`Iterator[AnyStr]` says nothing of the class of its items: no `typing.AnyStr.strip`."""
    callees = callees_of(calls, "stores.strip_all")
    assert "stores.lines" in callees
    assert not any(callee.startswith("typing.AnyStr") for callee in callees)


def test_a_generator_object_passed_as_a_declared_protocol_runs_where_it_is_stepped(
    calls: Calls,
) -> None:
    """`FormParser(self.stream())` with `stream: AsyncGenerator[bytes, None]`: the annotation
    says only "some async generator"; the caller passes `Request.stream`'s object, whose body
    runs where `async for` steps it. A mapping of ours passed as a declared `Mapping` (the
    parameter's default) runs its `__getitem__` where it is subscripted."""
    check_calls(
        calls,
        [
            ("streams.FormParser.parse", "streams.Request.stream", "inferred", "the generator"),
            ("streams.Config.get", "streams.Environ.__getitem__", "inferred", "`__getitem__`"),
        ],
    )  # fmt: skip


def test_a_placeholder_that_never_returns_fits_any_callable_type(calls: Calls) -> None:
    """`async def empty_receive() -> NoReturn` (and `closed_receive`) are among the
    functions `self._receive()` may call, with `receive: Receive` passed by callers not all
    known; a method that never returns is not (it ends its object's work, it stands in for
    no callback)."""
    check_calls(
        calls,
        [
            ("streams.Request.stream", "streams.empty_receive", "signature", "`Receive`"),
            ("streams.Request.stream", "streams.closed_receive", "signature", "`Receive`"),
        ],
    )
    assert "streams.Channel.fail" not in callees_of(calls, "streams.Request.stream")


def test_getattr_with_a_default_may_give_the_default(calls: Calls) -> None:
    """`getattr(self, name, self.not_allowed)()`: the name is not known, the default is one
    of the values (tier `partial`)."""
    check_calls(
        calls, [("streams.Endpoint.dispatch", "streams.Endpoint.not_allowed", "partial", None)]
    )


def test_values_known_run_but_not_a_function_of_the_attributes_name(calls: Calls) -> None:
    """`self.lifespan_context(app)`: the values value flow knows run there; a function
    elsewhere that happens to have the attribute's name does not (issue 50: no `name` edge
    for an attribute the receiver's class assigns)."""
    check_calls(
        calls,
        [("streams.Router.lifespan", "streams.DefaultLifespan.__call__", "partial", None)],
    )
    assert ("streams.Router.lifespan", "streams.lifespan_context") not in calls


def test_a_callable_handed_to_a_task_group_is_called_with_the_arguments_after_it(
    calls: Calls,
) -> None:
    """`group.start_soon(wrap, partial(self.send_body, ...))` calls `wrap` with the partial,
    as `await wrap(self.wait_closed)` calls it with the method: `func()` calls both."""
    wrap = "streams.StreamingResponse.__call__.wrap"
    check_calls(
        calls,
        [
            (wrap, "streams.StreamingResponse.send_body", "inferred", None),
            (wrap, "streams.StreamingResponse.wait_closed", "inferred", None),
        ],
    )


def test_library_code_keeps_its_own_callees_among_too_many_from_tests(calls: Calls) -> None:
    """`Route.handle`'s `self.app(scope)` may be any of 12 endpoints the tests pass, more
    than a site's possible callees: the library's own `session.session_app` among them stays."""
    check_calls(calls, [("routes.Route.handle", "routes.session.session_app", "partial", None)])
    assert not any(c.startswith("test_routes.") for c in callees_of(calls, "routes.Route.handle"))


def test_lambdas_and_partial(calls: Calls) -> None:
    check_calls(
        calls,
        [
            ("lambdas.lambda_as_value", "helpers.alpha", "exact", None),
            ("lambdas.lambda_as_argument", "helpers.beta", "exact", None),
            ("lambdas.partial_call", "helpers.gamma", "inferred", "`functools.partial`"),
        ],
    )
    # the lambda's call is its holder's edge: `apply`, which only calls it, calls no `beta`
    assert ("lambdas.apply", "helpers.beta") not in calls


def test_class_objects_as_values(calls: Calls) -> None:
    check_calls(
        calls,
        [
            ("classes.class_alias", "classes.Handler.__init__", "inferred", "the variable `cls`"),
            ("classes.builds_from_factory", "classes.Handler.__init__", "inferred",
             "the return value of `vf.classes.class_factory`"),
            ("classes.builds_from_factory", "classes.Other.__init__", "inferred", None),
            ("classes.Node.clone", "classes.Node.__init__", "inferred", "`type(self)`"),
            ("classes.Owner.go", "classes.Handler.run", "inferred", None),
        ],
    )  # fmt: skip


def test_generators_iteration_and_special_methods(calls: Calls) -> None:
    check_calls(
        calls,
        [
            ("protocols.iterate_generator", "protocols.numbers", "exact", None),
            ("protocols.with_statement", "protocols.Resource.__enter__", "inferred",
             "implicit: `with` runs `__enter__`"),
            ("protocols.with_statement", "protocols.Resource.__exit__", "inferred", "`with`"),
            ("protocols.with_statement", "protocols.Resource.use", "inferred",
             "the return value of `vf.protocols.Resource.__enter__`"),
            ("protocols.protocol_calls", "protocols.Bag.__iter__", "inferred", "`iter` runs"),
            ("protocols.protocol_calls", "protocols.Bag.__next__", "inferred", "`next` runs"),
            ("protocols.protocol_calls", "protocols.Bag.__add__", "inferred", "`+` runs"),
            ("protocols.protocol_calls", "protocols.Bag.__call__", "inferred", "variable `bag`"),
            ("protocols.raises", "protocols.Failure.__init__", "exact", None),
            # a generator object made in another function runs where it is stepped
            ("protocols.loop_over", "protocols.chunks.stream", "inferred",
             "implicit: `for` runs the generator"),
            ("protocols.loop_over", "protocols.numbers", "inferred", "`for` runs the generator"),
            ("protocols.comprehend", "protocols.chunks.stream", "inferred", "`for` runs"),
            ("protocols.step_once", "protocols.chunks.stream", "inferred", "`next` runs"),
            ("protocols.collect", "protocols.chunks.stream", "inferred", "`list` runs"),
            ("protocols.join_parts", "protocols.chunks.stream", "inferred", "`join` runs"),
            # the built-ins that iterate to the end run an instance's `__iter__`
            ("protocols.consume_a_bag", "protocols.Bag.__iter__", "inferred", "`sorted` runs"),
            # unpacking iterates: `a, b = spec` runs `Spec.__iter__` (in a `for` target too)
            ("protocols.unpack_specs", "protocols.Spec.__iter__", "inferred",
             "`unpacking` runs `__iter__`"),
            ("protocols.unpack_specs", "helpers.alpha", "inferred",
             "the return value of `vf.protocols.Spec.__iter__`"),
        ],
    )  # fmt: skip


def test_builtins_that_call_their_arguments(calls: Calls) -> None:
    caller = "builtins_.uses_builtins"
    check_calls(
        calls,
        [
            (caller, "builtins_.square", "inferred", "`map` calls it"),
            (caller, "builtins_.keep", "inferred", "`filter` calls it"),
            (caller, "builtins_.by_length", "inferred", "`sorted` calls it"),
            (caller, "helpers.alpha", "inferred", "`min` calls it"),
            (caller, "helpers.beta", "inferred", "`max` calls it"),
            (caller, "builtins_.add", "inferred", "`functools.reduce` calls it"),
            (caller, "helpers.gamma", "inferred", "`threading.Thread` calls it"),
            (caller, "helpers.delta", "inferred", "`atexit.register` calls it"),
            (caller, "<builtin>.map", "exact", None),  # the built-in itself, an external
            # `zip` pairs the elements of its iterables, unpacked by position
            ("builtins_.zipped", "helpers.alpha", "inferred", "the variable `step`"),
            ("builtins_.zipped", "helpers.beta", "inferred", "the variable `step`"),
        ],
    )
    assert {c for c in callees_of(calls, "builtins_.zipped") if "<" not in c} == {
        "helpers.alpha",
        "helpers.beta",
    }


def test_dynamic_calls_stay_unresolved_and_are_counted(linked: Linked, calls: Calls) -> None:
    # getattr with a constant name is an attribute like any other
    assert ("dynamic.dynamic", "helpers.alpha") in calls
    # getattr(x, name)(), eval, exec, import_module(name) and its .run()
    assert linked.unresolved_calls("dynamic.dynamic") == [5]
    assert linked.unresolved_calls("containers.too_many") == [1]
    kinds = linked.unresolved_kinds()
    # and `streams.Endpoint.dispatch`'s, whose default is a possible callee all the same
    assert kinds["dynamic:getattr"] == 2
    assert kinds["dynamic:eval"] == 1
    assert kinds["dynamic:exec"] == 1
    assert kinds["dynamic:importlib"] == 2
    # `too_many`'s table, and the wrapper of 42 decorated functions: possible edges only
    assert kinds["values:many"] == 2


def test_the_index_stores_the_edges_linked_offline(
    indexed: tuple[CodeGraph, IngestReport], linked: Linked
) -> None:
    assert_stored_as_linked(indexed[0].client, linked)


def test_the_report_and_the_graph_keep_the_unresolved_counts(
    indexed: tuple[CodeGraph, IngestReport], linked: Linked
) -> None:
    """What the linking counted, as the index run reports it and stores it on the nodes."""
    graph, report = indexed
    assert report.unresolved_kinds == linked.unresolved_kinds()
    names = ["dynamic.dynamic", "containers.too_many", "partial.handle"]
    rows = graph.client.read(
        "MATCH (n:Code {repo: $repo}) WHERE n.qualified_name IN $names "
        "RETURN n.qualified_name AS name, n.unresolved_calls AS unresolved",
        {"repo": REPO, "names": [f"{REPO}.{name}" for name in names]},
    )
    stored = {row["name"].removeprefix(f"{REPO}."): row["unresolved"] for row in rows}
    assert stored == {name: linked.unresolved_calls(name)[0] for name in names}


def test_explain_says_why_an_edge_exists(indexed: tuple[CodeGraph, IngestReport]) -> None:
    graph = indexed[0]
    through_return = graph.explain("vf.returns.call_result", "vf.helpers.alpha")
    assert through_return.found
    assert through_return.resolution == "inferred"
    assert through_return.reasons == ("via the return value of `vf.returns.factory`",)
    assert "`vf.returns.call_result` calls `vf.helpers.alpha` (inferred, line 9)" in (
        through_return.text
    )
    table = graph.explain("vf.containers.dispatch_constant", "vf.helpers.beta")
    assert "via `vf.containers.HANDLERS`, from the dict `HANDLERS`" in table.text
    direct = graph.explain("vf.returns.call_result", "vf.returns.factory")
    assert direct.reasons == ("by its name (scopes and imports)",)
    implicit = graph.explain("vf.protocols.with_statement", "vf.protocols.Resource.__enter__")
    assert implicit.reasons == ("implicitly, `with` runs `__enter__`",)
    external = graph.explain("vf.builtins_.uses_builtins", "<builtin>.map")
    assert external.found
    assert external.target == "<builtin>.map"
    missing = graph.explain("vf.helpers.alpha", "vf.helpers.beta")
    assert not missing.found
    assert "has no recorded call" in missing.text
    # callers show the reason of each step
    callers = graph.callers("vf.helpers.gamma")
    why = {r.qualified_name: r.why for r in callers.certain}
    assert why["vf.lambdas.partial_call"] == "the variable `bound`, from `functools.partial`"


@pytest.mark.usefixtures("indexed", "cli_env")
def test_explain_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert cli_main(["explain", "vf.arguments.run", "vf.helpers.alpha", "--repo", REPO]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "via the parameter `callback` of `vf.arguments.run`" in out
    assert cli_main(["explain", "vf.helpers.alpha", "vf.helpers.beta", "--json"]) == 1
    assert '"found": false' in capsys.readouterr().out


def _indexer(
    neo4j: Neo4jClient, work: Path, tmp_path: Path, mode: str
) -> tuple[Callable[[frozenset[str] | None], IngestReport], StateStore]:
    """How the incremental tests index `work` as repository "inc": "cold" reads the state
    from disk in each run, "watch" keeps it in a long-lived store and is told which files
    changed."""
    store = StateStore(tmp_path / "state")

    def index(hints: frozenset[str] | None = None) -> IngestReport:
        if mode == "cold":
            return build_graph(work, neo4j, repo="inc", state_dir=tmp_path / "state")
        return build_graph(
            work, neo4j, repo="inc", store=store, options=IndexOptions(changed_paths=hints)
        )

    return index, store


def _add_module(
    index: Callable[[frozenset[str] | None], IngestReport], work: Path, path: str, text: str
) -> None:
    """Write a new module under `work` and index it as an incremental run of its own."""
    write_file(work, path, text)
    assert index(frozenset({str(work / path)})).mode == "incremental"


def _callee_tiers(neo4j: Neo4jClient, caller: str) -> dict[str, str]:
    """The callees of `caller` in repository "inc", with the tier of each edge."""
    rows = neo4j.read(
        "MATCH (:Code {repo: 'inc', qualified_name: $caller})-[r:CALLS]->(b) "
        "RETURN b.qualified_name AS b, r.resolution AS tier",
        {"caller": caller},
    )
    return {row["b"]: row["tier"] for row in rows}


@pytest.mark.parametrize("mode", ["cold", "watch"])
def test_incremental_equals_clean_when_a_value_crosses_files(
    neo4j: Neo4jClient, tmp_path: Path, mode: str
) -> None:
    """A body edit in one module changes what another module's calls reach (a returned
    function, a dict of handlers, a callback's callers): the incremental run must relink the
    files that followed those values, and end equal to a clean index; "cold" reads the state
    from disk, "watch" keeps it in memory and updates the lookup tables in place."""
    work = tmp_path / "work"
    write_file(work, "app/__init__.py", "")
    write_file(work, "app/impl.py", "def one():\n    pass\n\n\ndef two():\n    pass\n")
    write_file(
        work,
        "app/tables.py",
        "from .impl import one, two\n\nTABLE = {'a': one}\n\n\n"
        "def pick():\n    chosen = two\n    chosen = one\n    return chosen\n",
    )
    write_file(work, "app/runner.py", "def run(callback):\n    callback()\n")
    write_file(
        work, "app/runners.py", "class Runner:\n    def __call__(self, job):\n        job()\n"
    )
    write_file(work, "app/caller.py", "from .runner import run\nfrom .runners import Runner\n"
           "from .impl import one\n\n\ndef go():\n    run(one)\n    runner = Runner()\n"
           "    runner(one)\n")  # fmt: skip
    write_file(
        work,
        "app/user.py",
        "from .tables import TABLE, pick\n\n\ndef use_pick():\n    pick()()\n\n\n"
        "def use_table(key):\n    TABLE[key]()\n",
    )
    index, store = _indexer(neo4j, work, tmp_path, mode)

    index(None)

    def targets(caller: str) -> set[str]:
        rows = neo4j.read(
            "MATCH (a:Code {repo: 'inc', qualified_name: $a})-[:CALLS]->(b) "
            "RETURN b.qualified_name AS b",
            {"a": caller},
        )
        return {row["b"] for row in rows}

    assert targets("app.user.use_pick") == {"app.tables.pick", "app.impl.one"}
    assert targets("app.user.use_table") == {"app.impl.one"}
    assert targets("app.runner.run") == {"app.impl.one"}
    assert targets("app.runners.Runner.__call__") == {"app.impl.one"}  # `runner(one)`
    # body edits only: no definition or import changes; in `pick` only the order of two
    # assignments changes, which decides the value returned
    write_file(
        work,
        "app/tables.py",
        "from .impl import one, two\n\nTABLE = {'a': one, 'b': two}\n\n\n"
        "def pick():\n    chosen = one\n    chosen = two\n    return chosen\n",
    )
    write_file(work, "app/caller.py", "from .runner import run\nfrom .runners import Runner\n"
           "from .impl import one, two\n\n\ndef go():\n    run(two)\n    runner = Runner()\n"
           "    runner(one)\n")  # fmt: skip
    # a new module calls an instance by a variable no earlier call named
    write_file(work, "app/later.py", "from .runners import Runner\nfrom .impl import two\n\n\n"
           "def again():\n    other = Runner()\n    other(two)\n")  # fmt: skip
    changed = ("app/tables.py", "app/caller.py", "app/later.py")
    report = index(frozenset(str(work / p) for p in changed))
    assert report.mode == "incremental"
    assert report.files_relinked < 7  # not every file (8)
    assert targets("app.user.use_pick") == {"app.tables.pick", "app.impl.two"}
    assert targets("app.user.use_table") == {"app.impl.one", "app.impl.two"}
    assert targets("app.runner.run") == {"app.impl.two"}
    assert targets("app.runners.Runner.__call__") == {"app.impl.one", "app.impl.two"}
    store.wait()
    assert_same_as_clean_index(neo4j, work, tmp_path, "inc")


@pytest.mark.parametrize("mode", ["cold", "watch"])
def test_incremental_equals_clean_when_a_store_from_outside_appears(
    neo4j: Neo4jClient, tmp_path: Path, mode: str
) -> None:
    """A new module stores a value into an attribute (`session.auth = Token()`): the files
    whose possible callees read that attribute's stores are relinked, and the graph ends
    equal to a clean index."""
    work = tmp_path / "work"
    write_file(work, "app/__init__.py", "")
    write_file(work, "app/auth.py", "import json\n\n\nclass Basic:\n    def __call__(self, r):\n"
           "        return r\n\n\nclass Session:\n    def __init__(self):\n        self.auth = None"
           "\n\n    def prepare(self, auth):\n        return apply(auth or self.auth)\n\n\n"
           "def apply(auth):\n    if isinstance(auth, tuple):\n        auth = Basic()\n"
           "    return auth(None)\n\n\ndef send(text):\n"
           "    return Session().prepare(json.loads(text))\n")  # fmt: skip
    write_file(work, "app/token.py", "class Token:\n    def __call__(self, r):\n        return r\n")
    index, store = _indexer(neo4j, work, tmp_path, mode)

    index(None)
    assert "app.token.Token.__call__" not in _callee_tiers(neo4j, "app.auth.apply")
    _add_module(index, work, "app/setup.py", "from .auth import Session\n"
                "from .token import Token\n\n\ndef configured():\n    session = Session()\n"
                "    session.auth = Token()\n    return session\n")  # fmt: skip
    tiers = _callee_tiers(neo4j, "app.auth.apply")
    assert tiers["app.token.Token.__call__"] == "partial"
    assert tiers["app.auth.Basic.__call__"] == "inferred"
    store.wait()
    assert_same_as_clean_index(neo4j, work, tmp_path, "inc")


@pytest.mark.parametrize("mode", ["cold", "watch"])
def test_incremental_equals_clean_when_a_function_becomes_a_value(
    neo4j: Neo4jClient, tmp_path: Path, mode: str
) -> None:
    """A function that fits a callable type is no possible callee while code only calls it;
    a new module that registers it as a value makes it one (tier `signature`) in the files
    already linked, and the graph ends equal to a clean index."""
    work = tmp_path / "work"
    write_file(work, "app/__init__.py", "")
    write_file(work, "app/types.py", "from collections.abc import Awaitable, Callable\n\n"
           "Message = dict[str, object]\n"
           "Send = Callable[[Message], Awaitable[None]]\n")  # fmt: skip
    write_file(work, "app/relay.py", "from .types import Message, Send\n\n\n"
           "async def forward(message: Message, send: Send) -> None:\n"
           "    await send(message)\n")  # fmt: skip
    write_file(work, "app/sinks.py", "from .types import Message\n\n\n"
           "async def to_log(message: Message) -> None:\n    pass\n\n\n"
           "async def flush() -> None:\n    await to_log({})\n")  # fmt: skip
    index, store = _indexer(neo4j, work, tmp_path, mode)

    index(None)
    assert "app.sinks.to_log" not in _callee_tiers(neo4j, "app.relay.forward")
    _add_module(index, work, "app/registry.py", "from .sinks import to_log\n\nSINKS = [to_log]\n")
    assert _callee_tiers(neo4j, "app.relay.forward")["app.sinks.to_log"] == "signature"
    store.wait()
    assert_same_as_clean_index(neo4j, work, tmp_path, "inc")


def _parsed(text: str) -> ParsedFile:
    """Module `m` with this source, parsed."""
    return PythonParser().parse(path="m.py", module="m", is_package=False,
                                source=text.encode(), sha256="x")  # fmt: skip


def test_stores_through_variables_are_filed_by_attribute() -> None:
    """`session.auth = v` in a function or a module, and `self.x = v` in a function nested in
    a method, are stores into an attribute through a variable; `self.x = v` in a method and
    a class body's names are the class's own, and elements added are not stores."""
    text = (
        "session.auth = make()\n\n\nclass C:\n    name = 1\n\n    def m(self):\n"
        "        self.x = 1\n\n        def inner():\n            self.y = 2\n\n\n"
        "def f(s):\n    s.hook = g\n    s.items.append(g)\n"
    )
    parsed = _parsed(text)
    assert sorted(store_names(parsed)) == [STORE_KEY + n for n in ("auth", "hook", "y")]


def test_flow_keys_change_only_for_what_an_edit_touches() -> None:
    """An edit above a function changes none of its keys (byte offsets are left out); a new
    statement changes the keys of the names it mentions; reordering two assignments changes
    the key of their name (which one reaches a use depends on it)."""
    parser = PythonParser()

    def keys(text: str) -> dict[str, str]:
        parsed = parser.parse(path="m.py", module="m", is_package=False, source=text.encode(),
                              sha256="x")  # fmt: skip
        return flow_keys(parsed)

    body = "def pick():\n    chosen = a\n    chosen = b\n    return chosen\n"
    base = keys(body)
    assert keys("import os\n\n\n" + body) == base
    added = keys(body.replace("    return", "    unrelated = 1\n    return"))
    assert {k for k in added.keys() | base.keys() if added.get(k) != base.get(k)} == {
        "flows:m.pick/unrelated"
    }
    swapped = keys(body.replace("chosen = a\n    chosen = b", "chosen = b\n    chosen = a"))
    changed = {k for k in swapped if swapped[k] != base.get(k)}
    assert "flows:m.pick/chosen" in changed


def test_calls_of_variables_are_filed_for_the_callers_of_call_methods() -> None:
    """A call whose callee is a parameter or an assigned variable (of its function, or of
    the module) may call an instance's `__call__`: such calls are filed under one name, so
    a file that adds one relinks the files that read the callers of a `__call__`."""
    text = (
        "def helper(x):\n    return x\n\n\nconfig = make()\n\n\n"
        "def use(cb, job):\n    runner = make()\n    runner(job)\n    cb(job)\n"
        "    helper(job)\n\n\nconfig(helper)\nhelper(config)\n"
    )
    parsed = _parsed(text)
    callees = [call.callee for call in value_calls(parsed)]
    assert sorted(c.dotted[0] for c in callees if isinstance(c, Name)) == ["cb", "config", "runner"]
    assert len(callees) == 3
    assert call_names(parsed).count(CALL_KEY + VALUE_CALLS) == 3
    assert f"flows:m.use/{CALL_KEY}{VALUE_CALLS}" in flow_keys(parsed)


def test_a_spawning_call_is_also_filed_as_the_call_it_makes_later() -> None:
    """`group.start_soon(run, job, retries)` is also `run(job, retries)`, filed under `run`
    for its callers; `loop.run_in_executor(None, run, job)` takes the callable second; a
    call that names none, or passes it nothing, adds no call."""
    text = (
        "def use(group, loop, job):\n    group.start_soon(run, job, 3)\n"
        "    loop.run_in_executor(None, run, job)\n    group.start_soon(run)\n"
        "    group.start_soon(make(), job)\n"
    )
    spawned = [call for call in _parsed(text).passes if call.callee == Name(("run",))]
    assert [call.arguments for call in spawned] == [
        ((0, Name(("job",))), (1, Int(3))),
        ((0, Name(("job",))),),
    ]


def test_a_parameter_declared_as_an_abstract_protocol_is_marked_so() -> None:
    """`AsyncGenerator[bytes, None]` and `typing.Mapping[str, str]` are protocols a class
    of ours may implement (`("<protocol>", name)` beside the shape); `list[bytes]` and
    `Sequence[Foo]` are not. `X | None` is read as X in a type (`Mapping[str, str] | None`,
    a `union_type` there) as in an expression; a union of two others is no shape."""
    text = (
        "def f(a: AsyncGenerator[bytes, None], b: typing.Mapping[str, str],\n"
        "      c: list[bytes], d: Sequence[Foo], e: Mapping[str, str] | None,\n"
        "      g: None | list[Foo], h: list[Foo] | set[Foo]):\n    pass\n"
    )
    parsed = _parsed(text)
    shapes = {flow.target for flow in parsed.flows if flow.target[0] == "<shape>"}
    marked = {flow.target for flow in parsed.flows if flow.target[0] == "<protocol>"}
    assert shapes == {("<shape>", name) for name in "abcdeg"}
    assert marked == {("<protocol>", "a"), ("<protocol>", "b"), ("<protocol>", "e")}


def _reaching_calls_of_x(text: str) -> list[list[str]]:
    """For each call `x()` in `text`, the values of the assignments of `x` that reach it."""
    parsed = _parsed(text)
    flows = [flow for flow in parsed.flows if flow.target == ("x",)]
    sites = [site for site in parsed.calls if site.callee == ("x",)]
    return [sorted(_text(f.value) for f in reaching(flows, (s.at, s.block))[0]) for s in sites]


def _text(expr: Expr) -> str:
    match expr:
        case Name(dotted):
            return ".".join(dotted)
        case Iterated(iterable):
            return f"iter {_text(iterable)}"
    return repr(expr)


def test_reaching_assignments_follow_branches() -> None:
    """Which assignments of `x` reach each call of it: the latest enclosing one, and those in
    branches after it; the other arm of an `if` never does; a comprehension's stay inside."""
    text = (
        "def f(c, items):\n    x = a\n    if c:\n        x = b\n        x()\n    else:\n"
        "        x()\n    x()\n    [x() for x in items]\n    x()\n"
    )
    reached = _reaching_calls_of_x(text)
    assert reached == [
        ["b"],
        ["a"],
        ["a", "b"],
        ["iter items"],  # the comprehension's own x
        ["a", "b"],  # not the comprehension's
    ]


def test_a_deep_nest_of_if_else_parses_and_joins() -> None:
    """Which arms end in `return` and which names every arm binds are worked out without
    recursion: a 400-deep `if`/`else` nest (deeper than Python's recursion limit allows for
    a recursive walk) parses, and its outermost `if` joins `x`."""
    depth = 400
    lines = ["def f(x, c):"]
    for level in range(depth):
        lines += ["\t" * (level + 1) + f"if c == {level}:", "\t" * (level + 2) + f"x = {level}"]
        lines.append("\t" * (level + 1) + "else:")
    lines += ["\t" * (depth + 1) + "x = -1", "\treturn x"]
    parsed = _parsed("\n".join(lines))
    joins = [flow for flow in parsed.flows if flow.target == ("x",) and is_join(flow)]
    assert len(joins) == depth
    outermost = min(joins, key=lambda flow: len(flow.block))
    assert outermost.block == ()


def test_reaching_skips_arms_that_return_or_raise() -> None:
    """An assignment in an `if` / `elif` arm that always ends in `return` or `raise` (also
    through an `if`/`else` whose arms all do) reaches nothing after that arm; one in an arm a
    `break` can leave, or in a `try` body (an exception leaves it midway), still does."""
    text = (
        "def f(c, d, items):\n    x = a\n"
        "    if c:\n        x = b\n        return x()\n"
        "    elif d:\n        x = e\n        raise Error(x())\n"
        "    if c:\n        x = g\n        if d:\n            return 1\n        else:\n"
        "            raise Error()\n"
        "    for i in items:\n        if d:\n            x = k\n            if c:\n"
        "                break\n            return 2\n"
        "    try:\n        x = m\n        return 3\n    except Error:\n        x()\n"
        "    x()\n"
    )
    reached = _reaching_calls_of_x(text)
    assert reached == [["b"], ["e"], ["a", "k", "m"], ["a", "k", "m"]]
