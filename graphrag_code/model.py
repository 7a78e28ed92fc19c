"""The small frozen records passed between stages.

They are plain frozen dataclasses without `slots`: the incremental state pickles hundreds of
thousands of them, and slotted dataclasses pickle about ten times slower.

walk -> `SourceFile`; parse -> `ParsedFile` (symbols, imports, call sites, bindings, type uses);
link -> `Edge`s. The parser knows nothing about Neo4j and the writer nothing about tree-sitter:
these records are the only thing they share.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

__all__ = [
    "CERTAIN_TIERS",
    "CONST",
    "OPAQUE",
    "POSSIBLE_TIERS",
    "SLICE",
    "Arguments",
    "ArmEnd",
    "At",
    "Attribute",
    "Awaited",
    "Binding",
    "Block",
    "Call",
    "CallArguments",
    "CallSite",
    "Caught",
    "Comprehension",
    "Const",
    "DeclaredAs",
    "Definition",
    "DictDisplay",
    "Display",
    "Dotted",
    "Edge",
    "EdgeKind",
    "Entered",
    "Expr",
    "ImplicitCall",
    "ImplicitMode",
    "ImportStatement",
    "InstanceOf",
    "Int",
    "Iterated",
    "LambdaExpr",
    "Like",
    "Name",
    "NodeRow",
    "OneOf",
    "Opaque",
    "ParseIssue",
    "ParsedFile",
    "Resolution",
    "ScopeNames",
    "Sent",
    "Signature",
    "SkippedFile",
    "Slice",
    "SourceFile",
    "Star",
    "Str",
    "Subscript",
    "Symbol",
    "SymbolKind",
    "TypeUse",
    "Unlike",
    "ValueFlow",
    "content_hash",
    "subexpressions",
    "symbol_content_hash",
]

Dotted = tuple[str, ...]
"""A dotted expression split into parts: `os.path.join` -> ("os", "path", "join").

Special heads: "super()" for `super().m`; "<expr>" when the head is an expression we do not
follow (`"".join`, `items[0].save`), which only the name-uniqueness fallback can resolve.
"""

Block = tuple[int, ...]
"""Where a statement sits inside its scope: one entry per enclosing branch or loop body,
outermost first, each `(statement start byte << 8) | (arm << 3) | flags`; the flags: 1 the
arms of one `if` / `match`, of which one runs; 2 a comprehension's or lambda's own names; 4
an `if` / `match` arm that always ends in `return` or `raise`. The linker tells from two
blocks whether one assignment dominates a use, whether the two can never both run, and
whether the function returns before the assignment reaches the use."""


class Expr:
    """A Python expression whose value the linker may follow (`languages/python/values`): one
    of the small frozen records below, read with `match` or by type.

    They pickle as their class and fields (the incremental state holds millions of them;
    dataclasses' own slotted pickling is several times slower)."""

    __slots__: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type[Expr], tuple[object, ...]]:
        return (type(self), tuple(getattr(self, name) for name in self.__slots__))


Arguments = tuple[tuple[int | str, Expr], ...]
"""A call's arguments: (key, Expr) pairs, the key an int position, a keyword, "*" (`*xs`) or
"**" (`**kw`)."""


@dataclass(frozen=True, slots=True)
class Name(Expr):
    """A name or a dotted chain of attributes on a name (`os.path`)."""

    dotted: Dotted


@dataclass(frozen=True, slots=True)
class Definition(Expr):
    """A definition itself (what a decorator receives)."""

    qualified_name: str


@dataclass(frozen=True, slots=True)
class Call(Expr):
    """The result of a call."""

    callee: Expr
    arguments: Arguments


@dataclass(frozen=True, slots=True)
class Attribute(Expr):
    """An attribute of any expression other than a name (`f().x`)."""

    value: Expr
    name: str


@dataclass(frozen=True, slots=True)
class Subscript(Expr):
    """A subscript (`table[key]`)."""

    value: Expr
    key: Expr


@dataclass(frozen=True, slots=True)
class Iterated(Expr):
    """One element of an iterable (`for x in iterable`)."""

    iterable: Expr


@dataclass(frozen=True, slots=True)
class Entered(Expr):
    """What `with manager as x` binds."""

    manager: Expr


@dataclass(frozen=True, slots=True)
class Caught(Expr):
    """What `except classes as e` binds."""

    classes: Expr


@dataclass(frozen=True, slots=True)
class InstanceOf(Expr):
    """An instance of the classes an expression names (`isinstance(x, Foo)` narrowing,
    `cast("Foo", v)`, a declared element type)."""

    classes: Expr


@dataclass(frozen=True, slots=True)
class Awaited(Expr):
    """`await value`."""

    value: Expr


@dataclass(frozen=True, slots=True)
class Unlike(Expr):
    """The values of `value` that are not instances of the classes `classes` names (`p if
    not isinstance(p, str) else …`)."""

    value: Expr
    classes: Expr


@dataclass(frozen=True, slots=True)
class Like(Expr):
    """What `if not isinstance(x, K): return` leaves in x (`value`): its values that are Ks,
    and a K for what is not known."""

    value: Expr
    classes: Expr


@dataclass(frozen=True, slots=True)
class Sent(Expr):
    """What `yield v` evaluates to: the value the generator is sent."""


@dataclass(frozen=True, slots=True)
class LambdaExpr(Expr):
    """A lambda: its line, parameter names and body (an `At`)."""

    line: int
    params: tuple[str, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Display(Expr):
    """A list, tuple or set display; `Star` elements for `*xs`."""

    kind: Literal["list", "tuple", "set"]
    elements: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class DictDisplay(Expr):
    """A dict display: (key, value) pairs, a None key for `**other`."""

    pairs: tuple[tuple[Expr | None, Expr], ...]


@dataclass(frozen=True, slots=True)
class Star(Expr):
    """`*value` inside a display: each of its elements."""

    value: Expr


@dataclass(frozen=True, slots=True)
class OneOf(Expr):
    """One of several values (`a if c else b`, `a or b`)."""

    options: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Comprehension(Expr):
    """A comprehension of `kind` and its element (a dict's: (key, value))."""

    kind: Literal["list", "set", "dict"]
    element: Expr | tuple[Expr, Expr]


@dataclass(frozen=True, slots=True)
class At(Expr):
    """An expression evaluated where it stands (a lambda's body, a comprehension's element),
    not where the enclosing one is: its start byte and block."""

    offset: int
    block: Block
    expr: Expr


@dataclass(frozen=True, slots=True)
class ArmEnd(Expr):
    """What `name` holds at the end of one arm (`arm`, its block) of the `if` spanning bytes
    `start`..`end`."""

    start: int
    end: int
    arm: Block
    name: str


@dataclass(frozen=True, slots=True)
class DeclaredAs(Expr):
    """What an annotation the resolver does not read names (`list[Foo]`): the classes values
    reaching it are taken as."""

    classes: tuple[Dotted, ...]


@dataclass(frozen=True, slots=True)
class Str(Expr):
    """A string literal (keys, attribute names)."""

    text: str


@dataclass(frozen=True, slots=True)
class Int(Expr):
    """An integer literal (positions)."""

    value: int


@dataclass(frozen=True, slots=True)
class Const(Expr):
    """Any other literal (None, numbers, f-strings): never callable."""


@dataclass(frozen=True, slots=True)
class Opaque(Expr):
    """Anything else."""


@dataclass(frozen=True, slots=True)
class Slice(Expr):
    """The key of a slice (`items[1:]`, `hooks[:]`): the result is a container of the
    subscripted one's items, not one of them."""


CONST = Const()
OPAQUE = Opaque()
SLICE = Slice()
# the records that hold no expression
_LEAVES = frozenset({Name, Definition, Str, Int, Const, Opaque, Slice, Sent, ArmEnd, DeclaredAs})


def subexpressions(expr: Expr) -> list[Expr]:
    """The expressions directly inside one, those in its tuples (elements, arguments, pairs)
    included."""
    if type(expr) in _LEAVES:
        return []
    found: list[Expr] = []
    stack: list[object] = [getattr(expr, name) for name in expr.__slots__]
    while stack:
        item = stack.pop()
        if isinstance(item, Expr):
            found.append(item)
        elif isinstance(item, tuple):
            stack.extend(item)
    return found


class SymbolKind(str, Enum):
    MODULE = "Module"
    CLASS = "Class"
    FUNCTION = "Function"
    METHOD = "Method"


class EdgeKind(str, Enum):
    CONTAINS = "CONTAINS"
    DEFINES = "DEFINES"
    IMPORTS = "IMPORTS"
    CALLS = "CALLS"
    INHERITS = "INHERITS"
    USES_TYPE = "USES_TYPE"


class Resolution(str, Enum):
    """How sure a CALLS edge is. Only EXACT and INFERRED count as certain."""

    EXACT = "exact"  # by scope and import rules
    INFERRED = "inferred"  # by simple type inference or value flow (Edge.via says which)
    NAME = "name"  # fallback: the only definition with that name in the repository
    # a call resolved to a method runs an override of it in an indexed subclass when the
    # receiver is an instance of that subclass (Edge.via: "dispatch via `Base.m`")
    DISPATCH = "dispatch"
    # one of more values than a certain call may have (`MAX_CALLEES` of Python's value flow):
    # each call runs one of them, as a decorator's wrapper runs whichever function it wraps
    MANY = "many"
    # a call through a value declared as a callable type (`send: Send`, `Send = Callable[[
    # Message], Awaitable[None]]`) whose values are unknown may run each indexed function of
    # that signature (Edge.via: "declared `Send`")
    SIGNATURE = "signature"
    # one of the values known to reach the callee (or the operand of an implicit call) when
    # others may reach it too: a parameter some of whose callers pass what the linking cannot
    # follow (Edge.via: "one of the values known here")
    PARTIAL = "partial"

    @property
    def rank(self) -> int:
        """How sure: exact 3, inferred 2, name 1, the other possible tiers 0. Where two
        findings of one edge meet, the higher rank is kept."""
        return _RESOLUTION_RANK.get(self.value, 0)

    @classmethod
    def of_rank(cls, rank: int) -> Resolution:
        """The resolution a rank above 0 stands for: exact 3, inferred 2, name 1 (a test's
        reach is kept as the rank of its weakest edge)."""
        return _OF_RANK[rank]


_RESOLUTION_RANK = {"exact": 3, "inferred": 2, "name": 1}
_OF_RANK = {rank: Resolution(value) for value, rank in _RESOLUTION_RANK.items()}

CERTAIN_TIERS = tuple(r.value for r in Resolution if r.rank >= Resolution.INFERRED.rank)
"""The `resolution` values of certain CALLS edges, exact and inferred (the others are
*possible*): as Cypher parameters and for comparing the stored strings."""
POSSIBLE_TIERS = tuple(r.value for r in Resolution if r.value not in CERTAIN_TIERS)


@dataclass(frozen=True)
class SourceFile:
    """A file chosen by the walker, with the bytes needed to parse it."""

    path: str  # relative to the repository root, with "/" separators
    absolute: str
    sha256: str
    size: int
    language: str
    mtime_ns: int = 0


@dataclass(frozen=True)
class SkippedFile:
    path: str
    reason: str


@dataclass(frozen=True)
class ParseIssue:
    """A region the parser could not read (syntax error); what parses around it is kept."""

    line: int
    message: str


@dataclass(frozen=True)
class Symbol:
    """A class, function or method (modules are described by `ParsedFile`)."""

    qualified_name: str
    name: str
    kind: SymbolKind
    parent: str  # qualified name of the enclosing module, class or function
    start_line: int
    end_line: int
    signature: str
    docstring: str | None
    decorators: tuple[str, ...]
    code: str
    is_async: bool = False
    bases: tuple[Dotted, ...] = ()  # classes only, in order
    returns: Dotted | None = None  # functions: the return annotation, when it names one type
    parameters: tuple[str, ...] = ()  # functions: parameter names in order
    ordinal: int = 1  # 2, 3, ... when the same qualified name is defined again in one file
    # the declaration's own word where the kind says less: "interface", "enum", "type alias",
    # "namespace", "constructor", "getter", ... (None: a plain class, function or method)
    declared_as: str | None = None
    implements: tuple[Dotted, ...] = ()  # classes: interfaces named by `implements`, in order
    # Python functions: one letter per parameter, aligned with `parameters`: "p" positional or
    # keyword, "o" positional-only, "k" keyword-only, "*" `*args`, "d" `**kwargs` ("": unknown)
    parameter_kinds: str = ""


def content_hash(*parts: str | None) -> str:
    """Identity of a node's text: unchanged hash, no re-embedding, and coverage recorded
    against it still holds (`impact/coverage.py`)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update((part or "").encode("utf-8", errors="replace"))
        digest.update(b"\x00")
    return digest.hexdigest()[:32]


def symbol_content_hash(path: str, symbol: Symbol) -> str:
    """The `content_hash` a symbol's node keeps: its path, name, signature, docstring, code."""
    return content_hash(
        path, symbol.qualified_name, symbol.signature, symbol.docstring, symbol.code
    )


@dataclass(frozen=True)
class ImportStatement:
    """One imported name (a statement importing three names gives three records)."""

    scope: str  # qualified name of the scope that executes the import
    module: str  # dotted module text as written ("" for `from . import x`)
    level: int  # number of leading dots of a relative import
    name: str | None  # the imported name of a from-import; None for `import a.b`
    alias: str | None
    line: int
    type_checking: bool = False  # only for types: under `if TYPE_CHECKING:`, `import type`
    binds: bool = True  # False: binds no name (`import "./polyfill"`, a bare `import()`)
    exported: bool = False  # re-exported as it is imported (`export { a as b } from "./x"`)
    possible: bool = False  # may never run (a dynamic `import()`): a possible edge

    @property
    def bound_name(self) -> str:
        """The name this import binds in its scope (`import a.b` binds `a`)."""
        if self.alias:
            return self.alias
        if self.name is not None:
            return self.name
        return self.module.split(".")[0]


@dataclass(frozen=True)
class CallSite:
    """A call expression: `callee` is the dotted callee; a call on a call result sets
    `receiver_call` to the inner callee (`make_app().run()` -> callee ("run",) with
    receiver_call ("make_app",))."""

    scope: str
    callee: Dotted
    line: int
    receiver_call: Dotted | None = None
    at: int = 0  # start byte: orders the site among the assignments of its scope
    block: Block = ()
    value: Expr | None = None  # Python: the callee expression when it is not a dotted name


@dataclass(frozen=True)
class Binding:
    """A name bound to something whose type we may infer.

    `target` is ("x",) for a local or global, ("self", "attr") for an instance attribute.
    `kind` "call": bound to the result of calling `value`; "annotation": annotated as `value`;
    "alias": bound to whatever the name `value` is (`x = other.attr`); "enter": bound by
    `with value(...) as x`; "export": an export declaration names `value` under another name
    (`export { a as b }`, `module.exports = a`: a declaration, not value flow); "opaque": some
    other assignment (recorded only for names that also have a typed binding, so the latest
    binding before a line is known); "variant": the one value of the enum variant `value`
    (Rust `Entry::Vacant(x)`). An instance attribute is ("self", "attr") in every
    language (`this.attr` in TypeScript).
    """

    scope: str
    target: Dotted
    value: Dotted
    kind: Literal["call", "annotation", "alias", "enter", "export", "opaque", "class", "variant"]
    line: int


@dataclass(frozen=True)
class ValueFlow:
    """A value reaching a name, an attribute, a container or a function's result (Python).

    `target`: ("x",) a variable; ("self", "a") an instance attribute; ("x", "<item>") an
    element added to the container `x` (`x.append(v)`, `x[k] = v`, `x.add(v)`), ("x", "<key>",
    k) the same under the string key k, ("x", "<items>") every element of `value` (`x.extend(v)`,
    `x += v`, `x.update(v)`); ("<return>",), ("<yield>",), ("<yield from>",) what the function
    `scope` returns or yields; ("<default>", p) the default of its parameter p (evaluated in
    the enclosing scope); ("<shape>", p) / ("<shape>", "<return>") the container its parameter
    p / its result is declared as (`list[Foo]`: a display of Foo instances), ("<protocol>", p)
    the same where that is an abstract protocol (`Iterator[Foo]`). The binding
    takes effect at byte `at`: uses before it see the previous value.
    """

    scope: str
    target: Dotted
    value: Expr
    line: int
    at: int
    block: Block = ()


@dataclass(frozen=True)
class CallArguments:
    """The arguments of a call that passes something other than literals (Python): values a
    callee's parameters receive. A decorator is a call too: `@d` over `def f` passes
    `Definition(f)` to `d`."""

    scope: str
    callee: Expr
    arguments: Arguments
    line: int
    at: int
    block: Block = ()


ImplicitMode = Literal["", "first", "get", "set", "delete"]


@dataclass(frozen=True)
class ImplicitCall:
    """A method Python calls without a call expression (Python): `with x` runs
    `__enter__`/`__exit__`, `for _ in x` `__iter__`, `a + b` `__add__`, `x[k]` `__getitem__`,
    `x.attr` a property's getter."""

    scope: str
    methods: tuple[str, ...]  # each that the operand's class defines runs; () calls it (`raise X`)
    operand: Expr
    line: int
    at: int
    block: Block = ()
    syntax: str = ""  # for explanations: "with", "for", "+", "[]"
    # "": every method of `methods` the class defines runs; "first": only the first it
    # defines (f-string `{x}`: `__format__`, else `__str__`); "get" / "set" / "delete":
    # `methods` is one attribute's name, read, assigned or deleted (a property's getter,
    # setter or deleter runs)
    mode: ImplicitMode = ""


@dataclass(frozen=True)
class Signature:
    """The positional parameters and result of a callable (Python), as annotated: a function's
    own (`name` its qualified name), or a declared callable type `Callable[[A, B], R]` — a
    type alias (`name` the alias's qualified name) or a parameter's annotation (`name`
    "function(parameter)"). Types are the one class (or alias) each annotation names, as
    written: None where it names none (unannotated, `None`, a union)."""

    name: str
    parameters: tuple[Dotted | None, ...]  # positional ones, a method's `self` included
    required: int  # how many of them have no default
    returns: Dotted | None  # `Awaitable[R]` / `Coroutine[..., R]` and `async def`: R
    awaitable: bool  # an `async def`, or declared to return `Awaitable` / `Coroutine`
    declared: bool = False  # a callable type, not a function


@dataclass(frozen=True)
class TypeUse:
    scope: str
    type_name: Dotted
    line: int
    context: Literal["annotation", "isinstance", "return", "satisfies"]


@dataclass(frozen=True)
class ScopeNames:
    """Names local to a function scope (parameters and assignment targets)."""

    scope: str
    names: frozenset[str]
    globals: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ParsedFile:
    path: str
    module: str  # dotted module name from its import root
    is_package: bool  # an __init__ file: relative imports resolve against the module itself
    language: str
    sha256: str
    loc: int
    code: str
    docstring: str | None
    symbols: tuple[Symbol, ...] = ()
    imports: tuple[ImportStatement, ...] = ()
    calls: tuple[CallSite, ...] = ()
    bindings: tuple[Binding, ...] = ()
    type_uses: tuple[TypeUse, ...] = ()
    scopes: tuple[ScopeNames, ...] = ()
    module_names: frozenset[str] = frozenset()  # names assigned at module level
    all_names: tuple[str, ...] | None = None  # a literal __all__, when present
    issues: tuple[ParseIssue, ...] = ()
    flows: tuple[ValueFlow, ...] = ()  # Python: value flow (see `ValueFlow`)
    passes: tuple[CallArguments, ...] = ()  # Python: calls passing non-literal arguments
    implicit_calls: tuple[ImplicitCall, ...] = ()  # Python: special methods run by syntax
    signatures: tuple[Signature, ...] = ()  # Python: annotated functions, callable types
    # Rust: (first line, last line, predicate, the module a `mod x;` item declares or "") of
    # each item under `#[cfg(predicate)]`, weighed against the crate's default build by the
    # linker (`languages.rust.cfg`)
    conditions: tuple[tuple[int, int, str, str], ...] = ()
    # the last names of what the file uses as values, worked out from `flows` and `passes`
    # once when the parse is kept in the incremental state (`ingest.state.compact`): the
    # lookup tables read them instead of walking every file's flows again (Django: 0.38 s of
    # each incremental run); None: not worked out yet (`linking.flowkeys.value_references`)
    value_references: tuple[str, ...] | None = None
    # likewise the (attribute, scope, what it is taken off) of each attribute taken off a
    # name as a value (`obj.method`: a bound method; `linking.flowkeys.bound_references`)
    bound_references: tuple[tuple[str, str, Dotted], ...] | None = None


@dataclass(frozen=True)
class NodeRow:
    """One node as the writer stores it."""

    id: str
    kind: SymbolKind
    parent: str | None  # id of the DEFINES parent (None for modules)
    properties: dict[str, Any]

    def as_parameters(self) -> dict[str, Any]:
        return {"id": self.id, "parent": self.parent, "props": self.properties}


@dataclass(frozen=True)
class Edge:
    """A resolved relationship between two graph keys (see `graphrag_code.ids`)."""

    kind: EdgeKind
    source: str  # id of the source node
    target: str  # id of the target node, or the qualified name of an External
    external: bool = False
    resolution: Resolution | None = None
    lines: tuple[int, ...] = ()
    index: int | None = None  # INHERITS: position of the base
    names: tuple[str, ...] = field(default=())  # IMPORTS: the names imported
    # IMPORTS: set when the edge follows a re-export through `via`; CALLS: why a call reached
    # the target through a value ("the return value of `pkg.factory`"); None: by its name
    via: str | None = None
    implements: bool = False  # INHERITS: the base is an interface named by `implements`
