"""Keys and digests of what a file's value flow offers and reads, for exact incremental linking.

A linker that follows a value notes a key in its consulted records (`FLOWS_KEY + scope`,
`CALL_KEY + name`, ...); `flow_keys` digests each keyed part of a file, so a changed digest
relinks exactly the files that read that part. The names a file uses as values, stores into
attributes or calls by a variable are listed here too (`value_names`, `stores`, `value_calls`).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterator

from ..model import (
    ArmEnd,
    At,
    Attribute,
    Block,
    Call,
    CallArguments,
    Definition,
    Dotted,
    Expr,
    LambdaExpr,
    Name,
    ParsedFile,
    ScopeNames,
    Symbol,
    SymbolKind,
    ValueFlow,
    subexpressions,
)

__all__ = [
    "ATTRIBUTE", "CALL_KEY", "CONTAINER_MARKS", "FLOWS_KEY", "GLOBALS", "SIGNATURE_KEY",
    "STORE_KEY", "VALUE_CALLS", "VALUE_KEY", "BoundReference", "bound_references", "call_names",
    "flow_keys",
    "mentions", "pass_name", "store_names", "stores", "value_calls", "value_names",
    "value_parts", "value_references",
]  # fmt: skip

FLOWS_KEY = "flows:"
"""`FLOWS_KEY + scope` (and the other keys of `flow_keys`) in `modules_consulted`: the linking
read that part of a file's value flow (`ParsedFile.flows`, `passes`)."""
CALL_KEY = "call:"
"""`CALL_KEY + name` in `names_consulted`: the linking looked for every call named `name`
(the callers of a function whose parameter it followed)."""
SIGNATURE_KEY = "signature:"
"""`SIGNATURE_KEY + bucket` in `names_consulted`: the linking matched a callable type against
the functions of one bucket (`IndexRules.signature_buckets`: a function entering it relinks
the file)."""
STORE_KEY = "store:"
"""`STORE_KEY + attribute` in `names_consulted`: the linking looked for every store into an
attribute of that name through a variable (`s.auth = HTTPDigestAuth(…)` in a test), to learn
what an instance attribute may hold; see `stores`."""
VALUE_KEY = "value:"
"""`VALUE_KEY + name` in `names_consulted`: the linking asked whether any code uses something
of that name as a value (passes, assigns, returns or stores it, rather than only calling it):
only such a function can be what a variable of a callable type holds; see `value_names`."""
CONTAINER_MARKS = frozenset({"<item>", "<items>", "<key>"})
"""The last part of a binding target that stores into a container (`x[k] = v`, `x.append(v)`)."""


def _value_references(parsed: ParsedFile) -> list[str]:
    """The last names of what a file uses as values (once each): the names and attributes its
    assignments, returns, defaults and stores read, and the arguments of its calls
    (decorators included: `@d` passes the function), but not what it only calls."""
    return sorted({name for _, name, _ in _references(parsed)})


def _references(parsed: ParsedFile) -> Iterator[tuple[str, str, Dotted | None]]:
    """(scope, name, what it is taken off) of each value reference (`_value_references`):
    `x.m` is `m` taken off `x`, `f` is taken off nothing (`()`), `f().m` off an expression
    (None). The parser folds an attribute of a name into the name (`Name(("x", "m"))`), so
    an `Attribute` is always taken off an expression."""
    roots = [(flow.scope, flow.value) for flow in parsed.flows]
    roots += [(call.scope, value) for call in parsed.passes for _, value in call.arguments]
    for scope, root in roots:
        for part in value_parts(root):
            match part:
                case Name(dotted):
                    yield scope, dotted[-1], dotted[:-1]
                case Definition(qualified_name):
                    yield scope, qualified_name.rpartition(".")[2], ()
                case Attribute(_, name):
                    yield scope, name, None


def value_parts(expr: Expr) -> Iterator[Name | Definition | Attribute]:
    """The parts of an expression that it uses as values: names, definitions (a decorated
    `def`) and attributes of other expressions, but not the names it only calls (`f(x)` uses
    `x`; `make()()` uses what `make` returns, not `make`)."""
    stack = [expr]
    while stack:
        item = stack.pop()
        match item:
            case Name() | Definition():
                yield item
            case Attribute(value, _):
                yield item
                stack.append(value)
            case Call(callee, arguments):
                if not isinstance(callee, Name):
                    stack.append(callee)
                stack += [value for _, value in arguments]
            case other:
                stack += subexpressions(other)


BoundReference = tuple[str, str, Dotted]
"""(attribute, scope, the name it is taken off): `obj.method` used as a value in `scope`."""


def bound_references(parsed: ParsedFile) -> tuple[BoundReference, ...]:
    """The value references that take an attribute off a name (`obj.method`, not `function`
    nor `make().method`, whose owner no resolver names): how a method becomes a value,
    bound. Those its parse carries when it was kept in the incremental state, else worked
    out now."""
    if parsed.bound_references is not None:
        return parsed.bound_references
    return _bound_references(parsed)


def _bound_references(parsed: ParsedFile) -> tuple[BoundReference, ...]:
    return tuple(
        sorted({(name, scope, owner) for scope, name, owner in _references(parsed) if owner})
    )


def value_references(parsed: ParsedFile) -> tuple[str, ...]:
    """The last names of what a file uses as values, once each, sorted: those its parse
    carries when it was kept in the incremental state, else worked out now."""
    if parsed.value_references is not None:
        return parsed.value_references
    return tuple(_value_references(parsed))


def value_names(parsed: ParsedFile) -> list[str]:
    """`VALUE_KEY + name` for each name a file uses as a value (see `VALUE_KEY`)."""
    return [VALUE_KEY + name for name in value_references(parsed)]


def pass_name(callee: Expr) -> str | None:
    """The name a call is made by: `f` for `f(...)`, `m` for `a.b.m(...)` and `x().m(...)`,
    `f()` for `f(...)(...)` (a decorator with arguments calls what `f` returns)."""
    match callee:
        case Name(dotted):
            return dotted[-1]
        case Attribute(_, name):
            return name
        case Call(inner_callee, _):
            inner = pass_name(inner_callee)
            return f"{inner}()" if inner is not None and not inner.endswith("()") else None
    return None


VALUE_CALLS = "<value>"
"""The name `passes_named` files every call of a variable under (`auth(self)`, `hook(data)`,
`config("DEBUG", cast=bool)`: a parameter or a variable assigned in its scope), besides its
own name: where an instance's `__call__` is called from, which no call names."""


def value_calls(parsed: ParsedFile) -> list[CallArguments]:
    """The calls passing values whose callee is a variable of their scope: a parameter or a
    name the function assigns, or a module-level name the module assigns (not a `def`,
    class or import)."""
    local = {names.scope: names.names for names in parsed.scopes}
    defined = {s.name for s in parsed.symbols if s.parent == parsed.module}
    assigned = {
        f.target[0] for f in parsed.flows if f.scope == parsed.module and len(f.target) == 1
    } - defined
    found = []
    for call in parsed.passes:
        callee = call.callee
        if not isinstance(callee, Name) or len(callee.dotted) != 1:
            continue
        name = callee.dotted[0]
        if name in local.get(call.scope, ()) or (call.scope == parsed.module and name in assigned):
            found.append(call)
    return found


def stores(parsed: ParsedFile) -> list[ValueFlow]:
    """The stores into an attribute of an object a variable holds (`s.auth = v`, `app.x = v`):
    not `self.x = v` in a method and not a class body's names, which are filed under their
    class, nor elements added to a container."""
    kinds = {s.qualified_name: s.kind for s in parsed.symbols}
    found = []
    for flow in parsed.flows:
        target = flow.target
        if len(target) != 2 or target[0].startswith("<") or target[1].startswith("<"):
            continue
        kind = kinds.get(flow.scope)
        if kind == SymbolKind.CLASS or (target[0] == "self" and kind == SymbolKind.METHOD):
            continue
        found.append(flow)
    return found


def store_names(parsed: ParsedFile) -> list[str]:
    """`STORE_KEY + attribute` for each store of `stores`."""
    return [STORE_KEY + flow.target[1] for flow in stores(parsed)]


def call_names(parsed: ParsedFile) -> list[str]:
    """`CALL_KEY + name` for each call passing values (see `CALL_KEY`), one per call, and
    `CALL_KEY + VALUE_CALLS` for each call of a variable."""
    names = [pass_name(p.callee) for p in parsed.passes]
    names += [VALUE_CALLS] * len(value_calls(parsed))
    return [CALL_KEY + name for name in names if name is not None]


def flow_keys(parsed: ParsedFile) -> dict[str, str]:
    """What other files' value flow may read of this file, by the key the linker records when
    it reads it -> a hash of that part. Keys (all after `FLOWS_KEY`): `scope/name` for what a
    scope binds to a name (its flows, whether the name is local, global or imported there,
    and every flow or call of the scope that mentions the name, in order: which assignment
    reaches a use depends on that order), `scope/<return>` and the like, `scope/call:name`
    for its calls of that name, `function/<signature>`, `class#attribute`, and
    `module#globals/name` for what functions store into a module's global.

    Byte offsets are left out (an edit above a part leaves its hash unchanged); a statement
    added inside one function changes the keys of the names it mentions only.
    """
    symbols = {symbol.qualified_name: symbol for symbol in parsed.symbols}
    local = {names.scope: names for names in parsed.scopes}
    groups: dict[str, list[tuple[int, tuple[object, ...]]]] = defaultdict(list)
    for flow in parsed.flows:
        record: tuple[object, ...] = ("flow", flow.target, flow.value, flow.block)
        keys = _flow_keys(flow, parsed.module, symbols, local)
        keys |= {f"{flow.scope}/{name}" for name in mentions(flow.value)}
        for key in keys:
            groups[key].append((flow.at, record))
    variables = {id(call) for call in value_calls(parsed)}
    for call in parsed.passes:
        record = ("pass", call.callee, call.arguments, call.block)
        passed = [value for _, value in call.arguments]
        keys = {f"{call.scope}/{name}" for name in mentions(call.callee, *passed)}
        name = pass_name(call.callee)
        if name is not None:
            keys.add(f"{call.scope}/{CALL_KEY}{name}")
        if id(call) in variables:
            keys.add(f"{call.scope}/{CALL_KEY}{VALUE_CALLS}")
        for key in keys:
            groups[key].append((call.at, record))
    for symbol in parsed.symbols:
        signature = (symbol.parameters, symbol.parameter_kinds, symbol.returns)
        groups[f"{symbol.qualified_name}/<signature>"].append((-1, ("signature", signature)))
    for names in parsed.scopes:
        for name in names.names:
            groups[f"{names.scope}/{name}"].append((-1, ("local",)))
        for name in names.globals:
            groups[f"{names.scope}/{name}"].append((-1, ("global",)))
    for statement in parsed.imports:
        if statement.scope != parsed.module:
            imported = (statement.module, statement.level, statement.name, statement.alias)
            groups[f"{statement.scope}/{statement.bound_name}"].append((-1, ("import", imported)))
    return {FLOWS_KEY + key: _digest(records) for key, records in groups.items()}


ATTRIBUTE = "#"
GLOBALS = "#globals/"


def _flow_keys(
    flow: ValueFlow, module: str, symbols: dict[str, Symbol], local: dict[str, ScopeNames]
) -> set[str]:
    """The keys under which the index's tables serve one flow (see `flow_keys`)."""
    target = flow.target
    keys = {f"{flow.scope}/{target[0]}"}
    symbol = symbols.get(flow.scope)
    if symbol is None:
        return keys
    attribute = target[-1] if target[0] == "<declared>" else target[1] if len(target) > 1 else ""
    if symbol.kind == SymbolKind.CLASS:
        keys.add(flow.scope + ATTRIBUTE + (attribute or target[0]))
    elif "self" in target[:2] and symbol.kind == SymbolKind.METHOD:
        keys.add(symbol.parent + ATTRIBUTE + attribute)
    elif not target[0].startswith("<"):
        names = local.get(flow.scope)
        if names is None or target[0] in names.globals or target[0] not in names.names:
            keys.add(module + GLOBALS + target[0])
    return keys


def mentions(*values: Expr) -> set[str]:
    """The names expressions read: heads of their `Name` parts."""
    found: set[str] = set()
    stack = list(values)
    while stack:
        item = stack.pop()
        if isinstance(item, Name):
            found.add(item.dotted[0])
        else:
            stack += subexpressions(item)
    return found


def _digest(records: list[tuple[int, tuple[object, ...]]]) -> str:
    digest = hashlib.sha256()
    offsets: dict[int, int] = {}

    def block(entries: Block) -> Block:
        # renumber the block entries by first appearance, keeping their flag bits
        return tuple(offsets.setdefault(e >> 8, len(offsets)) << 8 | (e & 0xFF) for e in entries)

    for _, record in sorted(records, key=lambda r: r[0]):
        if record[0] in ("flow", "pass"):  # (kind, ..., block): the block renumbered too
            record = (_relative(record[:-1], block), block(record[-1]))  # type: ignore[arg-type]
        digest.update(repr(record).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def _relative(value: object, block: Callable[[Block], Block]) -> object:
    """An `Expr` (or a structure of them) as nested tuples, with the byte offsets of its `At`
    and `ArmEnd` parts dropped and their blocks renumbered."""
    match value:
        case At(_, where, expr):
            return ("At", block(where), _relative(expr, block))
        case ArmEnd(_, _, arm, name):
            return ("ArmEnd", block(arm), name)
        case LambdaExpr(_, params, body):  # its line: only for explanations
            return ("LambdaExpr", params, _relative(body, block))
        case Expr():
            parts = (_relative(getattr(value, name), block) for name in value.__slots__)
            return (type(value).__name__, *parts)
        case tuple():
            return tuple(_relative(item, block) for item in value)
    return value
