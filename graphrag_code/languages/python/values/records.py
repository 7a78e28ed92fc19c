"""The abstract values Python value flow computes (`values.ValueFlowAnalysis`), and the
tables of built-ins and decorators it knows.

A value is what a name, an attribute, an element or a result may hold: an internal function
or class (`SymbolRef`), a module, an external, an instance (`Instance`), or one of the kinds
below; `Values` is a set of them with the reason each was found and whether the set is
complete (every source followed to something known).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set
from dataclasses import dataclass, field

from ....model import Arguments, Block, Expr
from ..resolver import External, Instance, ModuleRef, SymbolRef, Target

__all__ = [
    "ARGUMENT_CALLERS",
    "ATTRIBUTE_HOME",
    "DYNAMIC",
    "EMPTY_CONTAINERS",
    "IDENTITY",
    "IDENTITY_FACTORIES",
    "ITERATING",
    "SPECIAL_CALLERS",
    "STREAM_WRAPPERS",
    "Bound",
    "Container",
    "Generator",
    "Inert",
    "Lambda",
    "Partial",
    "SharedValues",
    "Super",
    "Value",
    "Values",
    "View",
    "chain",
    "container_why",
    "externals",
    "externals_only",
    "homed",
    "of_target",
    "union",
]  # fmt: skip

# Decorators (and wrapper factories) that return the function they are given, as far as
# calls are concerned: `@functools.wraps(f)` over a wrapper is the wrapper.
IDENTITY = frozenset(
    {
        "<builtin>.staticmethod", "<builtin>.classmethod", "<builtin>.property",
        "functools.cache", "functools.lru_cache", "functools.cached_property",
        "functools.total_ordering", "functools.singledispatch", "contextlib.contextmanager",
        "contextlib.asynccontextmanager", "abc.abstractmethod", "typing.overload",
        "typing.final", "typing_extensions.final", "typing_extensions.overload",
        "dataclasses.dataclass", "typing.no_type_check", "typing.runtime_checkable",
        "functools.update_wrapper",
    }
)  # fmt: skip
IDENTITY_FACTORIES = frozenset(
    {"functools.wraps", "functools.lru_cache", "dataclasses.dataclass", "functools.partial"}
)
# external callables that call a callable argument: name -> positions / keywords of it
ARGUMENT_CALLERS: dict[str, tuple[int | str, ...]] = {
    "<builtin>.map": (0,), "<builtin>.filter": (0,), "<builtin>.sorted": ("key",),
    "<builtin>.min": ("key",), "<builtin>.max": ("key",), "functools.reduce": (0,),
    "threading.Thread": ("target",), "threading.Timer": (1, "function"),
    "atexit.register": (0,), "signal.signal": (1,), "itertools.starmap": (0,),
    "itertools.filterfalse": (0,), "itertools.takewhile": (0,), "itertools.dropwhile": (0,),
    "itertools.groupby": ("key",), "itertools.accumulate": (1, "func"),
    "heapq.nsmallest": ("key",), "heapq.nlargest": ("key",), "multiprocessing.Process": ("target",),
}  # fmt: skip
EMPTY_CONTAINERS = {
    "<builtin>.dict": "dict", "<builtin>.list": "list", "<builtin>.set": "set",
    "collections.OrderedDict": "dict", "collections.defaultdict": "dict",
    "collections.deque": "list", "<builtin>.frozenset": "set", "<builtin>.tuple": "tuple",
    "weakref.WeakKeyDictionary": "dict", "weakref.WeakValueDictionary": "dict",
}  # fmt: skip
ITERATING = frozenset(
    {"list", "tuple", "set", "frozenset", "sorted", "reversed", "iter", "enumerate"}
)
# built-ins that call a special method of their argument's class
SPECIAL_CALLERS = {
    f"<builtin>.{name}": f"__{name}__"
    for name in (
        "iter", "next", "len", "reversed", "repr", "str", "hash", "bool", "abs", "format",
        "bytes", "aiter", "anext",
    )
}  # fmt: skip
# external constructors that call methods of the stream they wrap (measured on CPython 3.11):
# those always called, then those called only when the stream says so (`tell` once it says
# it is seekable); a name the stream's class lacks is looked up through its `__getattr__`
STREAM_WRAPPERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "io.TextIOWrapper": (("readable", "writable", "seekable"), ("tell",)),
    "io.BufferedReader": (("readable",), ("tell",)),
    "io.BufferedWriter": (("writable",), ("tell",)),
}
DYNAMIC = {
    "<builtin>.eval": "eval", "<builtin>.exec": "exec", "<builtin>.__import__": "importlib",
    "importlib.import_module": "importlib", "importlib.__import__": "importlib",
    "<builtin>.compile": "eval",
}  # fmt: skip
"""Calls whose effect no static analysis follows: counted as unresolved, by kind."""


# -- values --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Inert:
    """A literal (None, a number, a string): never callable, never an instance of ours."""


@dataclass(frozen=True, slots=True)
class Bound:
    """A method reached through an instance (or a classmethod through its class); `receiver`:
    that instance's class, which a method returning `Self` returns an instance of."""

    qualified_name: str
    receiver: str | None = None


@dataclass(frozen=True, slots=True)
class Lambda:
    scope: str
    module: str
    line: int
    params: tuple[str, ...]
    body: Expr  # an `At`: where the body stands


@dataclass(frozen=True, slots=True)
class Partial:
    """`functools.partial(f, ...)`: calling it calls `f` (its values)."""

    function: Expr
    scope: str
    module: str
    at: int
    block: Block
    keywords_only: bool = False
    """It binds only keywords: a call's own arguments keep their places (`partial(attrs,
    auto_attribs=True)(cls)` passes `cls` first)."""


# the tag of an attribute's home: no scope is named so (`attr` may be a module's name)
ATTRIBUTE_HOME = "<attribute>"


@dataclass(frozen=True, slots=True)
class Container:
    """A list, tuple, set or dict display (or a comprehension) and where it is stored.

    `elements` are unevaluated: list/tuple/set -> (Expr, ...), dict -> ((key, value), ...);
    `home` names the variable or attribute it was bound to, so elements added there
    (`x.append(f)`, `x[k] = f`) count too: `(scope, name)`, or `(ATTRIBUTE_HOME, class,
    name)` for an attribute.
    """

    kind: str
    elements: tuple[object, ...]
    scope: str
    module: str
    at: int
    block: Block
    home: tuple[str, ...] | None = None
    name: str = ""
    declared: tuple[str, ...] = ()  # classes its elements are declared as (`list[Foo]`)
    sliced: bool = False  # a slice of the display: its items, at positions no index names


@dataclass(frozen=True, slots=True)
class View:
    """`d.items()` / `d.values()` / `d.keys()` / `(k, v)` pairs of a container, or a
    container's method (`d.get`) waiting to be called."""

    kind: str  # "items", "values", "keys", "pair", "method:<name>"
    container: Container


@dataclass(frozen=True, slots=True)
class Generator:
    """What calling a generator function gives: iterating it runs its yields."""

    function: str


@dataclass(frozen=True, slots=True)
class Super:
    """`super()` inside a method of `class_name`."""

    class_name: str


Value = (
    SymbolRef | ModuleRef | External | Instance | Inert | Bound | Lambda | Partial | Container
    | View | Generator | Super
)  # fmt: skip
"""Every abstract value: the resolver's targets and the kinds above."""


SharedValues = dict[object, tuple["Values", Set[str], Set[str], int, int]]
"""Results of one linking run shared by its files, with what computing each consulted, the
steps it took and its height (how deep the computations below it went)."""


@dataclass
class Values:
    """Possible values, each with why it was found, and whether the set is complete."""

    found: dict[Value, str] = field(default_factory=dict)
    complete: bool = True
    dynamic: str = ""  # a dynamic construct made it unknown: "getattr", "eval", "importlib"
    callers_of: dict[Value, Callers] = field(default_factory=dict)
    """For a value found only through the arguments that calls of some functions pass to
    their parameters: those calls. One call of such a function is passed its own arguments,
    not every call's (`without_callers_of`)."""

    made_by: dict[Value, Caller] = field(default_factory=dict)
    """For an instance made by one known call of its class (and a method taken off it): that
    call, as the `__init__` it runs. Its attributes hold what that call passed, not what other
    instances were given (`builder = Builder(cls); builder.build()`)."""

    @classmethod
    def unknown(cls, dynamic: str = "") -> Values:
        return cls({}, False, dynamic)

    @classmethod
    def of(cls, value: Value, why: str = "") -> Values:
        return cls({value: why}, True)

    def add(self, other: Values, why: str = "") -> None:
        for value, reason in other.found.items():
            through = other.callers_of.get(value, _NO_CALLERS)
            if value not in self.found:
                self.found[value] = chain(why, reason)
                if through:
                    self.callers_of[value] = through
                if value in other.made_by:
                    self.made_by[value] = other.made_by[value]
                continue
            if self.made_by.get(value) != other.made_by.get(value):
                self.made_by.pop(value, None)  # made in two places, or one not known
            if value in self.callers_of:
                # found both ways: only through the functions both ways pass it to
                both = _both_ways(self.callers_of[value], through)
                if both:
                    self.callers_of[value] = both
                else:
                    del self.callers_of[value]
        self.complete = self.complete and other.complete
        self.dynamic = self.dynamic or other.dynamic

    def otherwise(self, why: str) -> Values:
        """These values, with `why` as the reason of those that have none."""
        return self.copy(found={v: r or why for v, r in self.found.items()})

    def copy(
        self,
        *,
        found: dict[Value, str] | None = None,
        callers_of: dict[Value, Callers] | None = None,
        made_by: dict[Value, Caller] | None = None,
    ) -> Values:
        """These values in dicts of their own (those given in their place): the copy may be
        added to without changing these."""
        return Values(
            found=dict(self.found) if found is None else found,
            complete=self.complete,
            dynamic=self.dynamic,
            callers_of=dict(self.callers_of) if callers_of is None else callers_of,
            made_by=dict(self.made_by) if made_by is None else made_by,
        )

    def __iter__(self) -> Iterator[tuple[Value, str]]:
        return iter(list(self.found.items()))

    def because(self, why: str) -> Values:
        return self.copy(found={v: chain(why, r) for v, r in self.found.items()})

    def passed_to(self, callers: Callers) -> Values:
        """These values as `callers` pass them to functions' parameters (or what calling
        such a value returns)."""
        if not callers:
            return self
        callers_of = {v: self.callers_of.get(v, _NO_CALLERS) | callers for v in self.found}
        return self.copy(callers_of=callers_of)

    def without_callers_of(self, call: Caller) -> Values:
        """These values as one call sees them: not those that only other calls of its
        function passed (`return Builder(cls).build()` returns the class this call passes,
        not every decorated class). Complete as before where what was left out was passed
        from other scopes; a call from this scope with other arguments may be this one, its
        arguments substituted (`results._through`): incomplete then."""
        kept = {
            v: r
            for v, r in self.found.items()
            if not _passed_elsewhere(self.callers_of.get(v, _NO_CALLERS), call)
        }
        if len(kept) == len(self.found):
            return self
        # what this call passed, or calls in its function's body passed on, is its own
        callers_of = {
            v: mine for v, c in self.callers_of.items() if v in kept and (mine := _not_in(c, call))
        }
        here = any(
            other[:2] == call[:2]
            for v in self.found
            if v not in kept
            for other in self.callers_of[v]
        )
        made_by = {v: c for v, c in self.made_by.items() if v in kept}
        return Values(kept, self.complete and not here, self.dynamic, callers_of, made_by)

    def unmade(self) -> Values:
        """These values with no instance known to be made by one call: what a function returns
        (its object may be made by an override the call dispatches to: `self.get_huey()`)."""
        if not self.made_by:
            return self
        return self.copy(made_by={})

    def made(self, call: Caller | None, kind: type[Instance] | type[Bound]) -> Values:
        """These values as made by `call`, those of `kind` (an instance; a method taken off
        it), where the call is known."""
        if call is None:
            return self
        made_by = dict(self.made_by)
        made_by.update((v, call) for v in self.found if isinstance(v, kind))
        return self.copy(made_by=made_by)


Caller = tuple[str, str, Arguments]
"""A call of a function, as (the function, the caller's scope, the call's arguments)."""
Callers = frozenset[Caller]
_NO_CALLERS: Callers = frozenset()


def _both_ways(one: Callers, other: Callers) -> Callers:
    """Of a value found two ways, the pairs of the functions both pass it to (with either
    way's callers): through any other function it also came without."""
    common = {call[0] for call in one} & {call[0] for call in other}
    return frozenset(call for call in one | other if call[0] in common)


def _not_in(callers: Callers, call: Caller) -> Callers:
    """The calls of `callers` other than `call` and those made inside its function."""
    function, inside = call[0], call[0] + "."
    return frozenset(
        other
        for other in callers
        if other[0] != function and other[1] != function and not other[1].startswith(inside)
    )


def _passed_elsewhere(callers: Callers, call: Caller) -> bool:
    """Whether only other calls of the function `call` calls passed a value."""
    return call not in callers and any(other[0] == call[0] for other in callers)


def chain(outer: str, inner: str) -> str:
    if not outer:
        return inner
    if not inner or inner == outer:
        return outer
    return f"{outer}, from {inner}" if ", from " not in outer else outer


def union(parts: Iterable[Values]) -> Values:
    result = Values()
    for part in parts:
        result.add(part)
    return result


def of_target(target: Target | None) -> Values:
    return Values.of(target) if target is not None else Values.unknown()


def externals_only(values: Values) -> bool:
    """Whether every value is an external one (`typing.BinaryIO`, not a class of ours)."""
    return all(isinstance(value, External) for value, _ in values)


def externals(values: Values) -> set[str]:
    return {v.name for v, _ in values if isinstance(v, External)}


def homed(values: Values, home: tuple[str, ...]) -> Values:
    """Containers bound to a variable or attribute learn where they live."""
    if not any(isinstance(v, Container) and v.home is None for v, _ in values):
        return values
    found: dict[Value, str] = {}
    for value, why in values:
        if isinstance(value, Container) and value.home is None:
            value = Container(
                value.kind, value.elements, value.scope, value.module, value.at, value.block,
                home, home[-1],
            )  # fmt: skip
        found[value] = why
    return Values(found, values.complete)


def container_why(container: Container) -> str:
    if not container.name:
        return ""
    return f"the {container.kind} `{container.name}`"
