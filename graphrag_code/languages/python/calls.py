"""CALLS edges of one Python file: by names and types (`Resolver`), then through values
(`ValueFlowAnalysis`), then by a unique name.

A call whose callee is a variable, an element, a result or a parameter takes every function
its value may be (tier `inferred`, with the reason in `Edge.via`) when that set is complete
and at most `MAX_CALLEES` large; otherwise the site stays unresolved and counted, by kind, and
where its values are known but too many, each becomes a *possible* target (tier `many`).
The resolver's answer comes first: value flow only adds to it where the resolver's target is
among the values (a variable assigned in two branches), and answers where it has none.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...model import (
    Attribute,
    Call,
    CallArguments,
    CallSite,
    Const,
    Edge,
    EdgeKind,
    Expr,
    ImplicitCall,
    Name,
    ParsedFile,
    Resolution,
    Str,
    SymbolKind,
)
from . import implicit
from .dispatch import AbsentMember, Constructed, Receiver
from .dispatch_receivers import receiver_of
from .implicit import FALLBACKS, IMPLICIT, ITERATION
from .receivers import outside_receiver
from .resolver import External, Instance, Resolver, SymbolRef, Target
from .signatures import MAX_FITTING, SignatureMatcher, is_test_module
from .values import declared
from .values.attributes import declared_field_only
from .values.engine import (
    ARGUMENT_CALLERS,
    DYNAMIC,
    MAX_CALLEES,
    MAX_POSSIBLE_CALLEES,
    SPECIAL_CALLERS,
    ValueFlowAnalysis,
    Values,
)
from .values.records import STREAM_WRAPPERS, Generator, Inert, Lambda

if TYPE_CHECKING:
    from ...linking.edges import NodeIds

__all__ = ["IMPLICIT", "RUNS_NOTHING", "CallLinker"]

# Method names of builtin types: a unique repository method with one of these names is not
# evidence enough that `x.append()` calls it.
_PYTHON = frozenset({"python"})  # a name-matched callee: only a Python definition
_BUILTIN_METHODS = frozenset(
    name
    for kind in (list, dict, set, str, bytes, tuple, frozenset, int, float, object)
    for name in dir(kind)
) | frozenset({"close", "read", "write", "readline", "flush", "seek", "send", "run", "start"})


# an unresolved site whose values are all known, none of them a function of ours or `None`:
# no namesake runs there either (`linker.py` does not record its name)
RUNS_NOTHING = "values:none:known"

# unresolved sites whose values a wide evaluation may find (a parameter of the function or of
# one enclosing it, as in a decorator's wrapper); `self.x` and expressions are not tried: on
# Django they found no more edges (BENCHMARKS §2)
_WIDENED = frozenset({"values:many", "values:unknown:parameter", "values:unknown:variable",
                      "values:unknown:name"})  # fmt: skip

# unresolved sites whose callee may be declared as a callable type (a parameter, `self.x`)
_DECLARED = frozenset({"values:unknown:parameter", "values:unknown:self",
                       "values:unknown:variable", "values:unknown:name", "values:many",
                       "values:none", RUNS_NOTHING})  # fmt: skip

# built-ins that iterate their first argument to its end: its class's `__iter__` runs, or
# the body of the generator it is
_CONSUMERS = frozenset(
    f"<builtin>.{name}"
    for name in ("list", "tuple", "set", "frozenset", "sorted", "sum", "any", "all")
)
# built-ins that read an attribute named by a string: `getattr(x, "name")` runs a property
_ATTRIBUTE_READERS = frozenset({"<builtin>.getattr", "<builtin>.hasattr"})


class CallLinker:
    """Links the call sites and implicit calls of one file; `add` collects the edges."""

    def __init__(
        self,
        parsed: ParsedFile,
        resolver: Resolver,
        flow: ValueFlowAnalysis,
        ids: NodeIds,
        add: Callable[[Edge], None],
    ) -> None:
        self.parsed = parsed
        self.resolver = resolver
        self.flow = flow
        self.ids = ids
        self.add = add
        self.passes: dict[tuple[int, Expr], CallArguments] = {
            (p.at, p.callee): p for p in parsed.passes
        }
        self.signatures = SignatureMatcher(resolver, parsed.module)
        # caller id -> lines of its calls that name the method they run, `super().m()` and
        # `Base.m(self)`: no dispatch to overrides from them
        self.static_lines: dict[str, set[int]] = defaultdict(set)
        # uses of members the receiver's class lacks, for dispatch to its subclasses' ones
        self.absent: list[AbsentMember] = []
        # (scope, name) of operands whose following to callers ran out of steps
        self.operands_cut: set[tuple[str, object]] = set()
        # classes constructed through values, for dispatch to their subclasses' `__init__`
        self.constructed: list[Constructed] = []
        # each caller's call sites by line, whose receivers dispatch to overrides may ask for
        self._sites: dict[tuple[str, int], list[CallSite]] = defaultdict(list)
        self._receivers: dict[tuple[str, int], list[Receiver]] = {}

    # -- call sites ----------------------------------------------------------------------------
    def link(self, site: CallSite) -> str | None:
        """Add the CALLS edges of one call site; None when resolved, else the kind of
        unresolved site it is ("dynamic:eval", "values:many", "values:unknown:parameter", ...)."""
        source = self.ids.of_scope(self.parsed, site.scope)
        if self._names_its_method(site):
            self.static_lines[source].add(site.line)
        self._sites[(source, site.line)].append(site)
        if _joins_text(site):  # `", ".join(parts)` iterates `parts`
            arguments = self.passes.get((site.at, self._callee_expr(site)))
            if arguments is not None:
                self._special(source, External(("<builtin>", "join")), "__iter__", arguments, site)
        typed = self._typed_target(site)
        values: Values | None = None
        runs: dict[Target, str] = {}
        complete = False
        if typed is None or self._by_value(site):
            values = self._callee_values(site)
            runs, complete = self._no_protocol_stubs(*self.flow.callables(values, site.scope))
            if typed is not None and not (complete and _same_in(typed, runs)):
                if not complete and len(site.callee) == 1:
                    self._partial_besides(source, site, typed)
                runs, complete = {}, False  # the resolver's answer stands alone
        if typed is not None:
            tier = Resolution.INFERRED if typed.inferred else Resolution.EXACT
            why = next((r for t, r in runs.items() if _same(t, typed)), "") if complete else ""
            self._edge(source, typed, tier, site.line, why or None)
            if runs and complete and len(runs) <= MAX_CALLEES:
                for target, why in runs.items():
                    if not _same(target, typed):
                        self._edge(source, target, Resolution.INFERRED, site.line, why or None)
            if isinstance(typed, External):
                self._note_absent(source, site, external=True)
            self._note_constructed(source, site, [typed, *(runs if complete else ())])
            return self._extras(source, typed, site)
        if complete and 0 < len(runs) <= MAX_CALLEES:
            if declared_field_only(runs.values()):
                self.static_lines[source].add(site.line)
            for target, why in runs.items():
                self._edge(source, target, Resolution.INFERRED, site.line, why or None)
                if isinstance(target, External):  # `super().__init__(stream)`
                    self._wrapped_stream(source, target, site)
            self._note_constructed(source, site, list(runs))
            # the callers value flow followed a parameter to are the ones it could resolve: an
            # unknown `cls(app=...)` may construct the class too
            self._by_signature(source, site, runs)
            return None
        if not (len(site.callee) == 1 and self._is_variable(site)):
            # a bare name bound as a variable is that variable, not some function elsewhere
            unique = self._by_unique_name(site)
            if unique is not None:
                self._edge(source, SymbolRef(unique), Resolution.NAME, site.line, None)
                # the values known to reach the callee run there too (`self.lifespan_context`
                # assigned `_DefaultLifespan(self)`), whatever else the name may mean
                others = {t: w for t, w in runs.items() if _name(t) != unique}
                if others:
                    self._partial(source, site, others, MAX_CALLEES)
                return None
        kind = self._unresolved_kind(site, values, runs, complete)
        many = None
        partly, limit = runs, MAX_CALLEES
        if kind in _WIDENED:
            many, wide = self._many(source, site, runs if kind == "values:many" else None)
            if many is not None:
                kind = many
            if wide:  # what callers past the certain edges' reach add (`_many`)
                partly, limit = {**runs, **wide}, MAX_POSSIBLE_CALLEES
        known = {} if complete or many is not None else self._partial(source, site, partly, limit)
        if kind in _DECLARED:
            # a pair with a `many` or `partial` edge keeps it (first)
            self._by_signature(source, site, known)
        if not runs:
            self._note_absent(source, site)
        return kind

    def receivers(self, source: str, line: int, name: str) -> list[Receiver]:
        """What the receivers of a caller's calls of the method `name` on `line` are known to
        be (`dispatch_receivers.py`): worked out for the lines dispatch asks about, those
        with a certain call of a method that has overrides."""
        key = (source, line)
        found = self._receivers.get(key)
        if found is None:
            module = self.parsed.module
            found = self._receivers[key] = [
                receiver
                for site in self._sites.get(key, ())
                if (receiver := receiver_of(self.resolver, site, module, source)) is not None
            ]
        return [receiver for receiver in found if receiver.name == name]

    def _note_absent(self, source: str, site: CallSite, *, external: bool = False) -> None:
        """`x.m(...)` where x is an instance (or `cls`, a class) of ours whose class neither
        defines nor sets `m`, nor inherits it from a class of ours: a mixin's `self.m()` of
        what the classes it is mixed into define, a method its subclasses add. `external`:
        the call resolved to the method of an external base (`MutableMapping.get`), which a
        subclass of ours may override."""
        if site.value is not None or site.receiver_call is not None or len(site.callee) < 2:
            return
        name = site.callee[-1]
        if site.callee[0] in ("super()", "<expr>") or not self._defined(name):
            return  # (no class of ours defines `name`: nothing to dispatch to)
        head = self.resolver.resolve_dotted(
            site.scope, site.callee[:-1], self.parsed.module, site.line
        )
        if isinstance(head, Instance):
            owner = head.class_name
        elif isinstance(head, SymbolRef) and site.callee[:-1] == ("cls",):
            owner = head.qualified_name
        else:
            return
        if self._is_class(owner) and self._lacks(owner, name, attributes=True, external=external):
            self.absent.append(AbsentMember(source, owner, name, site.line, "call"))

    def _note_constructed(self, source: str, site: CallSite, targets: list[Target]) -> None:
        """Classes a call constructs through a value that may hold a subclass: `cls(...)`, a
        parameter (of the function or of one enclosing it), an attribute of `self` / `cls`,
        `type(self)(...)`; not a class called by its own name."""
        classes = [
            t.qualified_name
            for t in targets
            if isinstance(t, SymbolRef) and self._is_class(t.qualified_name)
        ]
        if not classes or site.receiver_call is not None:
            return
        if site.value is not None:
            through = isinstance(site.value, Call) and site.value.callee == Name(("type",))
        else:
            operand: Expr = Name(site.callee)
            through = site.callee == ("cls",) or implicit._names_a_parameter(
                self, operand, site.scope, aliases=False
            )
        if through:
            self.constructed += [Constructed(source, c, site.line) for c in classes]

    def _lacks(
        self, class_name: str, name: str, *, attributes: bool, external: bool = False
    ) -> bool:
        """Whether no class of the MRO defines `name` (nor, with `attributes`, assigns or
        declares it) and, unless `external`, the resolver finds it nowhere else (an external
        base)."""
        resolver, lookups = self.resolver, self.resolver.lookups
        for cls in resolver.mro(class_name):
            if lookups.members(cls, name):
                return False
            if attributes and (
                lookups.attribute_flows(cls, name) or lookups.declared_attribute(cls, name)
            ):
                return False
        return external or resolver.class_member(class_name, name, instance=True) is None

    def _names_its_method(self, site: CallSite) -> bool:
        """Whether a call runs the very method it names whatever the instance: through
        `super()` or through a class (`BaseDatabaseWrapper._rollback(self)`)."""
        if site.callee[0] == "super()":
            return True
        if site.value is not None or len(site.callee) < 2:
            return False
        method = self.resolver.lookups.signature(site.scope)
        if method is not None and method.parameters[:1] == (site.callee[0],):
            return False  # `cls.m()` in a classmethod: `cls` may be a subclass
        head = self.resolver.resolve_dotted(
            site.scope, site.callee[:-1], self.parsed.module, site.line
        )
        return isinstance(head, SymbolRef) and self._is_class(head.qualified_name)

    def _many(
        self, source: str, site: CallSite, runs: dict[Target, str] | None
    ) -> tuple[str | None, dict[Target, str]]:
        """Possible edges (tier `many`) for a site left unresolved whose values are known but
        too many for certain edges: `runs` when the set itself was too large, else what a wide
        evaluation finds (parameters followed through more callers). "values:many" when it
        added them: the site still has no certain callee. Else the values the wide
        evaluation did find, where it found some but not all (for `_partial`)."""
        if runs is None:
            runs, complete = self.flow.wide_callables(
                self._callee_expr(site), site.scope, self.parsed.module, site.at, site.block
            )
            if not complete:
                return None, runs
        found = {
            t: why
            for t, why in runs.items()
            if isinstance(t, SymbolRef) and not self._protocol_stub(t.qualified_name)
        }
        if not found or len(found) > MAX_POSSIBLE_CALLEES:
            return None, {}
        for target, why in found.items():
            reason = f"one of {len(found)} values" + (f": {why}" if why else "")
            self._edge(source, target, Resolution.MANY, site.line, reason)
        return "values:many", {}

    def _partial_besides(self, source: str, site: CallSite, typed: Target) -> None:
        """A variable called whose value the resolver names (`auth = HTTPBasicAuth(*auth)`
        before `auth(self)`) but which may hold others it cannot name (a parameter's): the
        functions a wide evaluation finds besides, as `partial` edges."""
        wide, _ = self.flow.wide_callables(
            self._callee_expr(site), site.scope, self.parsed.module, site.at, site.block
        )
        others = {t: why for t, why in wide.items() if not _same(t, typed)}
        if others:
            self._partial(source, site, others, MAX_POSSIBLE_CALLEES)

    def _partial(
        self, source: str, site: CallSite, runs: dict[Target, str], limit: int
    ) -> dict[Target, str]:
        """Possible edges (tier `partial`) to the functions among the values known to reach a
        callee whose values are not all known (a parameter some of whose callers pass what the
        linking cannot follow): each does run there, when those callers call. None above
        `limit`."""
        known: dict[Target, str] = {
            t: w
            for t, w in runs.items()
            if isinstance(t, SymbolRef) and not self._protocol_stub(t.qualified_name)
        }
        if len(known) > limit and not self.signatures.in_tests:
            # library code reaches a test suite's functions only through what the tests pass
            # it (hundreds of endpoints and apps): its own functions among them still run
            known = {t: w for t, w in known.items() if not self._in_tests(t)}
        if not known or len(known) > limit:
            return {}
        for target, why in known.items():
            reason = "one of the values known here, others unknown" + (f": {why}" if why else "")
            self._edge(source, target, Resolution.PARTIAL, site.line, reason)
        return known

    def _in_tests(self, target: Target) -> bool:
        module = self.resolver.lookups.index.symbol_module.get(_name(target) or "")
        return module is not None and is_test_module(module)

    def _by_signature(self, source: str, site: CallSite, known: dict[Target, str]) -> None:
        """Possible edges (tier `signature`) for a site whose callee is declared as a callable
        type (a parameter, or `self.x` assigned one): each indexed function of that signature
        that is not among the `known` values (value flow's callees, certain or partial). None
        where more than `MAX_FITTING` fit: an interface, which says nothing of the callee."""
        declared = self.signatures.declared(site)
        if declared is None:
            return
        fitting = self.signatures.fitting(declared)
        if not fitting or len(fitting) > MAX_FITTING:
            return
        reason = f"declared {declared.label}: one of {len(fitting)} functions of that signature"
        certain = {_name(target) for target in known}
        for name in fitting:
            if name not in certain:
                self._edge(source, SymbolRef(name), Resolution.SIGNATURE, site.line, reason)

    def _typed_target(self, site: CallSite) -> Target | None:
        """The resolver's callee: a function, a class, an external, or an instance whose
        class defines `__call__` (that method)."""
        resolver, module = self.resolver, self.parsed.module
        if site.receiver_call is None:
            target = resolver.resolve_dotted(site.scope, site.callee, module, site.line)
        else:
            inner = resolver.resolve_dotted(site.scope, site.receiver_call, module, site.line)
            target = resolver._call_result(inner)
            for attribute in site.callee:
                if target is None:
                    return None
                target = resolver.attribute(target, attribute)
            if isinstance(target, SymbolRef):
                target = SymbolRef(target.qualified_name, True)
            elif isinstance(target, External):
                target = External(target.dotted, True)
        if isinstance(target, Instance):
            dunder = resolver.class_member(target.class_name, "__call__", instance=True)
            if not isinstance(dunder, SymbolRef):
                return None
            target = SymbolRef(dunder.qualified_name, True)
        if isinstance(target, SymbolRef):
            symbol = resolver.lookups.symbol(target.qualified_name)
            if symbol is None:
                return None
            if self._protocol_stub(target.qualified_name):
                # declared "something callable so" (or a class implementing a protocol): the
                # protocol's stub never runs; what reaches the value is value flow's to say
                return None
            return target
        return target if isinstance(target, External) else None

    def _no_protocol_stubs(
        self, runs: dict[Target, str], complete: bool
    ) -> tuple[dict[Target, str], bool]:
        """`runs` less what a `Protocol` declares and never runs: the protocol class itself
        (`cls(...)` where `cls` is declared `type[BindableLogger]`: a class implementing
        it is built) and a protocol's stub `__call__` (structlog's `ColumnFormatter`,
        aiostream's `SourcesOperator`); incomplete when it held any."""
        kept: dict[Target, str] = {}
        for target, why in runs.items():
            if isinstance(target, SymbolRef) and self._protocol_stub(target.qualified_name):
                complete = False
            else:
                kept[target] = why
        return kept, complete

    def _protocol_stub(self, qualified_name: str) -> bool:
        symbol = self.resolver.lookups.symbol(qualified_name)
        if symbol is None:
            return False
        if symbol.kind == SymbolKind.CLASS:
            return declared._is_protocol(self.flow, qualified_name)
        # any Protocol's `__call__` (aiostream's `SourcesOperator` declares `raw` and `pipe`
        # too): calling a value declared so runs its implementation's, never the stub
        return symbol.name == "__call__" and declared._is_protocol(self.flow, symbol.parent)

    def _callee_expr(self, site: CallSite) -> Expr:
        return site.value if site.value is not None else Name(site.callee)

    def _callee_values(self, site: CallSite) -> Values:
        if site.callee[0] == "super()" and site.value is None:
            return Values.unknown()
        return self.flow.evaluate(
            self._callee_expr(site), site.scope, self.parsed.module, site.at, site.block
        )

    def _by_value(self, site: CallSite) -> bool:
        """Whether the callee's head is assigned somewhere (a variable, which value flow
        follows through every assignment), or is not a name at all."""
        if site.value is not None:
            return True
        head = site.callee[0]
        if head in ("self", "super()", "<expr>"):
            return False
        lookups, index = self.resolver.lookups, self.resolver.lookups.index
        current: str | None = site.scope
        while current is not None and current != self.parsed.module:
            symbol = index.symbols.get(current)
            if symbol is None:
                break
            if lookups.flows(current, (head,)):
                return True
            names = index.scope_names.get(current)
            if names is not None and head in names.names:
                return False
            current = symbol.parent
        return bool(lookups.flows(self.parsed.module, (head,)))

    def _is_variable(self, site: CallSite) -> bool:
        return self.resolver.is_bound(site.scope, site.callee[0], self.parsed.module)

    def _extras(self, source: str, target: Target, site: CallSite) -> str | None:
        """Edges a call implies besides its callee: the wrapper a decorator put in place of a
        definition, the function a built-in like `map` calls; and the kind of a dynamic call
        (`eval`, `importlib.import_module`: counted as unresolved, though the call resolves)."""
        if isinstance(target, SymbolRef):
            decorated = self.flow.decorator_values(target.qualified_name)
            if decorated is not None:
                # the decorator's declared result may be a protocol: its stub never runs
                runs, complete = self._no_protocol_stubs(
                    *self.flow.callables(decorated, site.scope)
                )
                if complete and len(runs) <= MAX_CALLEES:
                    for wrapper, why in runs.items():
                        if not _same(wrapper, target):
                            self._edge(source, wrapper, Resolution.INFERRED, site.line, why or None)
            return None
        if not isinstance(target, External):
            return None
        keys = ARGUMENT_CALLERS.get(target.name)
        arguments = self.passes.get((site.at, self._callee_expr(site)))
        if target.name in _ATTRIBUTE_READERS and arguments is not None:
            self._read_by_name(source, target, arguments, site)
        special = SPECIAL_CALLERS.get(target.name) or (
            "__iter__" if target.name in _CONSUMERS else None
        )
        if (
            special is not None
            and arguments is not None
            and (self._defined(special) or special in ITERATION)
        ):
            self._special(source, target, special, arguments, site)
        self._wrapped_stream(source, target, site)
        if keys is not None and arguments is not None:
            passed = self.flow.argument(arguments, keys, self.parsed.module)
            if passed is not None:
                runs, complete = self.flow.callables(passed, site.scope)
                if complete and len(runs) <= MAX_CALLEES:
                    short = target.name.removeprefix("<builtin>.")
                    for callee, why in runs.items():
                        reason = f"`{short}` calls it" + (f", {why}" if why else "")
                        self._edge(source, callee, Resolution.INFERRED, site.line, reason)
        kind = DYNAMIC.get(target.name)
        return f"dynamic:{kind}" if kind is not None else None

    def _special(
        self, source: str, target: External, method: str, arguments: CallArguments, site: CallSite
    ) -> None:
        """`iter(x)`, `next(x)`, `len(x)`, `list(x)`: the special method of x's class runs;
        stepping a generator object runs its body."""
        first = next((value for key, value in arguments.arguments if key == 0), None)
        if first is None:
            return
        short = target.name.removeprefix("<builtin>.")
        for value, tier in implicit._values(
            self, first, arguments.scope, site.line, site.at, site.block
        ):
            if isinstance(value, Generator):
                if method in ITERATION:
                    why = f"{IMPLICIT}`{short}` runs the generator"
                    self._edge(source, SymbolRef(value.function), tier, site.line, why)
                continue
            for candidate in (method, *FALLBACKS.get(method, ())):
                found = self.flow.special_method(value, candidate)
                if found is not None:
                    why = f"{IMPLICIT}`{short}` runs `{candidate}`"
                    self._edge(source, SymbolRef(found), tier, site.line, why)
                    break

    def _wrapped_stream(self, source: str, target: External, site: CallSite) -> None:
        """`io.TextIOWrapper(stream)` (or a subclass's `super().__init__(stream)`) calls
        `stream.readable()`, `.writable()`, ... (`STREAM_WRAPPERS`): each method the
        stream's class defines runs, and its `__getattr__` for one it lacks; a method called
        only when the stream says so (`tell`, when it is seekable) is a possible callee (tier
        `partial`). The stream is what runs, seen through a `cast` (`runtime_view`)."""
        wrapper = target.name.removesuffix(".__init__")
        methods = STREAM_WRAPPERS.get(wrapper)
        arguments = self.passes.get((site.at, self._callee_expr(site)))
        if methods is None or arguments is None:
            return
        # `io.TextIOWrapper.__init__(self, stream)` passes the instance first
        explicit = target.name.endswith(".__init__") and site.callee[0] != "super()"
        stream = next((v for k, v in arguments.arguments if k == int(explicit)), None)
        if stream is None:
            return
        with self.flow.runtime_view():
            values = implicit._values(self, stream, arguments.scope, site.line, site.at, site.block)
        always, sometimes = methods
        for value, tier in values:
            if not isinstance(value, Instance):
                continue
            lacking: list[Resolution] = []  # the tiers of the calls it lacks a method for
            for method in always + sometimes:
                runs = tier if method in always else Resolution.PARTIAL
                found = self.flow.special_method(value, method)
                if found is not None:
                    why = f"{IMPLICIT}`{wrapper}` calls `{method}` of the stream it wraps"
                    self._edge(source, SymbolRef(found), runs, site.line, why)
                elif self.resolver.class_member(value.class_name, method, instance=False) is None:
                    lacking.append(runs)
            fallback = self.flow.special_method(value, "__getattr__") if lacking else None
            if fallback is not None:
                gets = tier if tier in lacking else Resolution.PARTIAL
                why = f"{IMPLICIT}`{wrapper}` looks up what the stream it wraps lacks"
                self._edge(source, SymbolRef(fallback), gets, site.line, why)

    def _read_by_name(
        self, source: str, target: External, arguments: CallArguments, site: CallSite
    ) -> None:
        """`getattr(x, "name")` / `hasattr(x, "name")` read `x.name`: the property's getter
        runs, as for the attribute written out."""
        passed = dict(arguments.arguments)
        first, named = passed.get(0), passed.get(1)
        if first is None or not isinstance(named, Str):
            return
        name = named.text
        if not implicit._is_property_name(self, name):
            return
        short = target.name.removeprefix("<builtin>.")
        for value, tier in implicit._values(
            self, first, arguments.scope, site.line, site.at, site.block
        ):
            if not isinstance(value, Instance):
                continue
            getter = implicit._property(self, value.class_name, name)
            if getter is not None:
                why = f"{IMPLICIT}`{short}` reads the property `{name}`"
                self._edge(source, SymbolRef(getter), tier, site.line, why)
            elif self._lacks(value.class_name, name, attributes=False):
                self.absent.append(AbsentMember(source, value.class_name, name, site.line, "get"))

    def _unresolved_kind(
        self, site: CallSite, values: Values | None, runs: dict[Target, str], complete: bool
    ) -> str:
        if values is not None and values.dynamic:
            return f"dynamic:{values.dynamic}"
        if complete and len(runs) > MAX_CALLEES:
            return "values:many"
        if complete:
            # every value known, and none a `None` or literal (a stub's result, a default) nor
            # a lambda (whose body is read only when it is a call): `chunks.read()` where
            # `chunks` is a list runs no `read` at all
            if (
                values is not None
                and values.found
                and not any(isinstance(value, (Inert, Lambda)) for value in values.found)
            ):
                return RUNS_NOTHING
            return "values:none"
        head = site.callee[0]
        if site.value is not None or head == "<expr>":
            what = "expression"
        elif head == "super()" or (head in ("self", "cls") and self._is_self(site)):
            what = "self"
        elif self.resolver.is_parameter(site.scope, head):
            what = "parameter"
        elif len(site.callee) == 1 and self._is_variable(site):
            what = "variable"
        else:
            what = "name"
        return f"values:unknown:{what}"

    def _is_self(self, site: CallSite) -> bool:
        """Whether the callee's head `self` / `cls` is a method's receiver (its own or an
        enclosing method's), not a variable of that name (`for cls, ... in middleware`)."""
        symbol = self.resolver.lookups.index.symbols.get(site.scope)
        receiver = (
            symbol is not None
            and symbol.kind == SymbolKind.METHOD
            and symbol.parameters[:1] == (site.callee[0],)
        )
        return receiver or not self._is_variable(site)

    def _by_unique_name(self, site: CallSite) -> str | None:
        name = site.callee[-1]
        if name.startswith("__") or name in ("<expr>", "super()"):
            return None
        # `x.m()`, `f().m()`, `x[0].m()`: a method, of the receiver's class
        method = len(site.callee) > 1 or site.receiver_call is not None or site.value is not None
        if method and (
            name in _BUILTIN_METHODS
            or outside_receiver(self.resolver, site, self.parsed.module)
            or self._has_attribute(site)
        ):
            return None
        return self.resolver.lookups.unique_callable(name, _PYTHON)

    def _has_attribute(self, site: CallSite) -> bool:
        """`x.m()` where x is an instance of ours whose class assigns or declares `m`: the
        callee is what that attribute holds (value flow's answer), not some method named `m`
        elsewhere (rich: `self.get_time()` of a `Progress` is no `Task.get_time`)."""
        if site.value is not None or site.receiver_call is not None:
            return False
        head = self.resolver.resolve_dotted(
            site.scope, site.callee[:-1], self.parsed.module, site.line
        )
        return isinstance(head, Instance) and not self._lacks(
            head.class_name, site.callee[-1], attributes=True, external=True
        )

    # -- implicit calls ------------------------------------------------------------------------
    def _defined(self, method: str) -> bool:
        """Whether some class of the repository defines `method`."""
        lookups = self.resolver.lookups
        lookups.names_consulted.add(method)  # a class that starts defining it relinks us
        return bool(lookups.index.short_names.get(method))

    def _is_class(self, qualified_name: str) -> bool:
        symbol = self.resolver.lookups.symbol(qualified_name)
        return symbol is not None and symbol.kind == SymbolKind.CLASS

    def link_implicit(self, call: ImplicitCall) -> None:
        """Link one implicit call (`implicit.py`: operators, `with`, `for`, properties)."""
        implicit.link_implicit(self, call)

    # -- edges ---------------------------------------------------------------------------------
    def _edge(
        self, source: str, target: Target, tier: Resolution, line: int, via: str | None
    ) -> None:
        if isinstance(target, External):
            self.add(
                Edge(
                    EdgeKind.CALLS,
                    source,
                    target.name,
                    external=True,
                    resolution=tier,
                    lines=(line,),
                    via=via,
                )
            )
            return
        if not isinstance(target, SymbolRef):
            return
        callee = self._callable(target.qualified_name, source, line)
        if callee is not None:
            self.add(
                Edge(
                    EdgeKind.CALLS,
                    source,
                    self.ids.of_target(callee),
                    resolution=tier,
                    lines=(line,),
                    via=via,
                )
            )
        allocator = self._allocator(target.qualified_name)
        if allocator is not None:  # no call expression names it: left out of the oracles'
            why = f"{IMPLICIT}constructing `{target.qualified_name}` runs `__new__`"
            self.add(
                Edge(
                    EdgeKind.CALLS, source, self.ids.of_target(allocator), resolution=tier,
                    lines=(line,), via=why,
                )
            )  # fmt: skip

    def _allocator(self, qualified_name: str) -> str | None:
        """The `__new__` a call of a class runs before its `__init__`, when a class of its
        MRO defines one (None for anything but such a class)."""
        if not self._is_class(qualified_name):
            return None
        lookups = self.resolver.lookups
        for cls in self.resolver.mro(qualified_name):
            found = lookups.members(cls, "__new__")
            if found:
                return found[0]
        return None

    def _callable(self, qualified_name: str, source: str, line: int) -> str | None:
        """What a call to `qualified_name` runs: a function, or a class's `__init__` (a class
        call also uses the class as a type)."""
        symbol = self.resolver.lookups.symbol(qualified_name)
        if symbol is None:
            return None
        if symbol.kind != SymbolKind.CLASS:
            return qualified_name
        self.add(
            Edge(EdgeKind.USES_TYPE, source, self.ids.of_target(qualified_name), lines=(line,))
        )
        return self.resolver.constructor(qualified_name) or qualified_name


def _joins_text(site: CallSite) -> bool:
    """`", ".join(...)` or `b"".join(...)`: a string's `join`, which iterates its argument."""
    value = site.value
    return (
        isinstance(value, Attribute)
        and value.name == "join"
        and isinstance(value.value, Str | Const)
    )


def _name(target: Target) -> str | None:
    if isinstance(target, SymbolRef):
        return target.qualified_name
    if isinstance(target, External):
        return target.name
    return None


def _same(a: Target, b: Target) -> bool:
    return _name(a) is not None and _name(a) == _name(b)


def _same_in(target: Target, runs: dict[Target, str]) -> bool:
    return any(_same(target, run) for run in runs)
