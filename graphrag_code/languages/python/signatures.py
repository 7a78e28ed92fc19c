"""Calls through values declared as callable types (Python): `send: Send` with
`Send = Callable[[Message], Awaitable[None]]`, `self.app` assigned from `app: ASGIApp`, a
parameter annotated `Callable[[Request], Response]`. Value flow may not tell which function
such a value holds, or know only the values of the calls it resolved (an ASGI middleware
chain is built at run time by `cls(app=app)`): every other indexed function whose annotated
signature fits the declared type may be the callee too, a *possible* edge (tier
`signature`), as a type checker would accept any of them there.

A function fits when its positional parameters (a method's `self` dropped) take exactly the
declared parameter types, in order (each annotated with the same class or alias, resolved
through imports), the rest having defaults, and its result matches: the same type, or none
declared for `None`, or `NoReturn` / `Never` for any; awaitable (`async def`) exactly when the
declared result is.

Library code takes no test module's function: a test suite defines hundreds of ASGI apps,
which reach the library only through the parameters it is given. Nor does any code take a
function that nothing uses as a value (passes, assigns, returns, stores): one only called by
its name cannot be what a variable holds, and a nested function that its enclosing function
only passes to functions it names is where value flow finds it (`escapes`).

A function that never returns fits another result only as a placeholder, its body one
`raise` (`empty_send`). A type that many functions fit (starlette's `ASGIApp`, 27; `Send`, 9)
keeps an edge to each: the tier is .156 precise there on the tuning set (stop 65), but those
edges are how `path` and the runtime chains reach an app through its middleware (§13), and
possible edges stay out of default answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model import CallSite, Dotted, Signature, Symbol, SymbolKind
from .dispatch import only_raises
from .escapes import escapes_flow
from .resolver import External, Instance, ModuleRef, Resolver, SymbolRef
from .tables import is_property, positional_types

__all__ = ["DeclaredType", "SignatureMatcher", "is_test_module"]

_MAX_DEPTH = 8  # re-exports followed to where an alias is written
_TEST_PARTS = frozenset({"test", "tests", "testing", "conftest"})
# the bottom type, a subtype of every result (`async def empty_send(m) -> NoReturn: raise`)
_NEVER_RETURNS = frozenset(
    f"{module}.{name}"
    for module in ("typing", "typing_extensions")
    for name in ("NoReturn", "Never")
)


# types that every value has: a signature of only these says nothing to match on
_ANYTHING = frozenset({"typing.Any", "typing_extensions.Any", "<builtin>.object"})
# a method called through its class as well as an instance: no `self` to bind
_UNBOUND = frozenset({"staticmethod", "classmethod"})


def is_test_module(module: str) -> bool:
    """Whether a module belongs to a test suite, by its dotted name (`tests.x`, `pkg.test_x`)."""
    parts = module.split(".")
    return any(part in _TEST_PARTS for part in parts) or any(
        part.startswith("test_") or part.endswith("_test") for part in parts
    )


@dataclass(frozen=True)
class DeclaredType:
    """The callable type a call's callee is declared as."""

    label: str  # how an explanation names it: the alias, or "the annotation of `cb`"
    signature: Signature
    module: str  # where it is written (its names resolve there)


class SignatureMatcher:
    """Declared callable types of callees and the functions that fit them, for one file
    (answers are memoised per instance: one file's linking records what they consulted)."""

    def __init__(self, resolver: Resolver, module: str) -> None:
        self.resolver = resolver
        self.lookups = resolver.lookups
        self.module = module
        self.in_tests = is_test_module(module)
        self._keys: dict[tuple[str, str, Dotted], str | None] = {}
        self._fitting_memo: dict[str, list[str] | None] = {}

    # -- the declared type of a callee ---------------------------------------------------------
    def declared(self, site: CallSite) -> DeclaredType | None:
        """The callable type the callee of `site` is declared as: a parameter's (of the
        function or of one enclosing it) or an instance attribute assigned from one."""
        if site.value is not None or site.receiver_call is not None:
            return None
        if len(site.callee) == 1:
            function = self._parameter_owner(site.scope, site.callee[0])
            return None if function is None else self._parameter_type(function, site.callee[0])
        if len(site.callee) == 2 and site.callee[0] == "self":
            return self._attribute_type(site.scope, site.callee[1])
        return None

    def _parameter_owner(self, scope: str, name: str) -> str | None:
        """The innermost function around `scope` with a parameter `name` (None when a local
        variable of that name comes first)."""
        index = self.lookups.index
        current: str | None = scope
        while current is not None and current != self.module:
            symbol = self.lookups.symbol(current)
            if symbol is None or symbol.kind == SymbolKind.CLASS:
                return None
            if name in symbol.parameters:
                return current
            names = index.scope_names.get(current)
            if names is not None and name in names.names and name not in names.globals:
                return None  # a local variable (not `nonlocal name`)
            current = symbol.parent
        return None

    def _parameter_type(self, function: str, parameter: str) -> DeclaredType | None:
        inline = self.lookups.declared_signature(f"{function}({parameter})")
        if inline is not None:
            signature, module = inline
            return DeclaredType(f"the annotation of `{parameter}`", signature, module)
        bindings = self.lookups.index.scope_bindings.get(function, {}).get((parameter,), [])
        module = self.lookups.index.symbol_module.get(function, self.module)
        for binding in bindings:
            if binding.kind == "annotation":
                declared = self._alias(function, binding.value, module)
                if declared is not None:
                    return declared
        return None

    def _alias(self, scope: str, annotation: Dotted, module: str) -> DeclaredType | None:
        """The callable type alias an annotation names, if it names one."""
        key = self._key(scope, annotation, module)
        found = self.lookups.declared_signature(key) if key is not None else None
        if key is None or found is None:
            return None
        return DeclaredType(f"`{key.rpartition('.')[2]}`", found[0], found[1])

    def _attribute_type(self, scope: str, attribute: str, depth: int = 0) -> DeclaredType | None:
        """`self.attribute`, annotated as a callable type or assigned a parameter that is, or
        another attribute that is (`self.app = self._base_app`)."""
        method = self.lookups.symbol(scope)
        while method is not None and method.kind == SymbolKind.FUNCTION:
            method = self.lookups.symbol(method.parent)  # a closure inside a method
        if method is None or method.kind != SymbolKind.METHOD:
            return None
        for owner in self.resolver.mro(method.parent):
            for binding in self.lookups.attribute_bindings(owner, attribute):
                module = self.lookups.index.symbol_module.get(binding.scope, self.module)
                if binding.kind == "annotation":
                    declared = self._alias(binding.scope, binding.value, module)
                    if declared is not None:
                        return declared
                elif (
                    binding.kind == "alias"
                    and len(binding.value) == 1
                    and self._parameter_owner(binding.scope, binding.value[0]) == binding.scope
                ):
                    declared = self._parameter_type(binding.scope, binding.value[0])
                    if declared is not None:
                        return declared
                elif (
                    binding.kind == "alias"
                    and len(binding.value) == 2
                    and binding.value[0] == "self"
                    and binding.value[1] != attribute
                    and depth < _MAX_DEPTH
                ):
                    declared = self._attribute_type(binding.scope, binding.value[1], depth + 1)
                    if declared is not None:
                        return declared
        return None

    # -- the functions that fit ----------------------------------------------------------------
    def fitting(self, declared: DeclaredType) -> list[str] | None:
        """The qualified names of the indexed functions that fit `declared` (None: a type too
        loose to match on: a parameter or the result of no one named type)."""
        memo = declared.signature.name
        if memo not in self._fitting_memo:
            self._fitting_memo[memo] = self._fitting(declared)
        return self._fitting_memo[memo]

    def _fitting(self, declared: DeclaredType) -> list[str] | None:
        wanted, home = declared.signature, declared.module
        keys: list[str] = []
        for dotted in wanted.parameters:
            key = self._key(home, dotted, home) if dotted is not None else None
            if key is None:
                return None
            keys.append(key)
        result = self._key(home, wanted.returns, home) if wanted.returns is not None else None
        if wanted.returns is not None and result is None:
            return None
        if not keys and result is None:
            return None  # `Callable[[], None]`: any function without arguments
        if all(key in _ANYTHING for key in keys) and (result is None or result in _ANYTHING):
            return None  # `Callable[[Any], Any]`: any function of one argument
        bucket = keys[0].rpartition(".")[2] if keys else "()"
        return [
            symbol.qualified_name
            for symbol, signature, module in self.lookups.signatures_in(bucket)
            if (self.in_tests or not is_test_module(module))
            and not is_property(symbol)
            and signature.awaitable == wanted.awaitable
            and self._fits(symbol.qualified_name, signature, module, keys, result)
            # a function no code uses as a value (only calls) cannot be what the callee holds;
            # a `__call__` runs where its class's instances are the values
            and (symbol.name == "__call__" or self._used_as_value(symbol))
        ]

    def _used_as_value(self, symbol: Symbol) -> bool:
        """Whether code uses a function as a value; a method (its `self` dropped to fit) only
        bound, taken off what may be an instance of its class (`console.get_time`, not
        `file.write` of an `IO[str]` for `NullFile.write`)."""
        if symbol.kind != SymbolKind.METHOD or _UNBOUND & set(symbol.decorators):
            module = self.lookups.index.symbol_module.get(symbol.qualified_name, self.module)
            return self.lookups.used_as_value(symbol.name) and escapes_flow(
                symbol, module, self.resolver
            )
        return any(
            self._may_bind(symbol.parent, module, scope, owner)
            for module, scope, owner in self.lookups.bound_references(symbol.name)
        )

    def _may_bind(self, cls: str, module: str, scope: str, owner: Dotted) -> bool:
        """Whether `owner.name` may take the method `name` of `cls` off an instance of it (or
        of a subclass, or of a base the method overrides), as the resolver knows `owner`."""
        found = self.resolver.resolve_dotted(scope, owner, module)
        if not isinstance(found, Instance):
            return False
        held = found.class_name
        return held == cls or cls in self.resolver.mro(held) or held in self.resolver.mro(cls)

    def _fits(
        self, scope: str, signature: Signature, module: str, keys: list[str], result: str | None
    ) -> bool:
        types = positional_types(signature, self.lookups.index.symbols[scope])
        required = signature.required - (len(signature.parameters) - len(types))
        if not required <= len(keys) <= len(types):
            return False
        for dotted, key in zip(types, keys, strict=False):
            if dotted is None or self._key(scope, dotted, module) != key:
                return False
        returns = self._key(scope, signature.returns, module) if signature.returns else None
        if returns in _NEVER_RETURNS:
            # a function that never returns fits any declared result where it is a module's
            # placeholder, whose body is one `raise` (`empty_send`): not a method that ends its
            # object's work (`ctx.exit`), nor a helper that raises through others or waits
            # forever (trio's test `raiser1`, `sleep_forever`), which only its own type fits
            symbol = self.lookups.symbol(scope)
            return (
                symbol is not None
                and symbol.kind == SymbolKind.FUNCTION
                and symbol.parent == module
                and (returns == result or only_raises(symbol.code))
            )
        if signature.returns is None or result is None:
            return signature.returns is None and result is None
        return returns == result

    # -- type names ----------------------------------------------------------------------------
    def _key(self, scope: str, dotted: Dotted, module: str) -> str | None:
        """The class or alias an annotation names, as one string: a class's qualified name,
        a module-level alias's `module.name`, an external's dotted name."""
        memo = (scope, module, dotted)
        if memo not in self._keys:
            self._keys[memo] = self._resolve_key(scope, dotted, module)
        return self._keys[memo]

    def _resolve_key(self, scope: str, dotted: Dotted, module: str) -> str | None:
        target = self.resolver.resolve_dotted(scope, dotted, module)
        if isinstance(target, SymbolRef):
            return target.qualified_name
        if isinstance(target, External):
            return target.name
        if isinstance(target, ModuleRef) or target is not None:
            return None
        if len(dotted) == 1:
            return self._variable(module, dotted[0], 0)
        head = self.resolver.resolve_dotted(scope, dotted[:-1], module)
        if isinstance(head, ModuleRef):
            return self._variable(head.module, dotted[-1], 0)
        return None

    def _variable(self, module: str, name: str, depth: int) -> str | None:
        """`module.name` for a module-level variable (a type alias), through re-exports."""
        info = self.lookups.module(module)
        if info is None or depth > _MAX_DEPTH:
            return None
        for statement in info.imports.get(name, []):
            if statement.name is None:
                return None
            source = self.resolver.absolute_module(statement, module, info.parsed.is_package)
            if self.lookups.has_module(source):
                return self._variable(source, statement.name, depth + 1)
            return f"{source}.{statement.name}"
        if name in info.parsed.module_names:
            return f"{module}.{name}"
        return None
