"""Name and attribute resolution with Python's scoping rules (LEGB, imports, MRO).

A resolved expression is a `Target`: an internal symbol or module, an external dotted name, or
an instance of an internal class (from a constructor call, an annotation or `self`). Any step
that relies on inferring a value's type marks the result `inferred`; the rest is `exact`.
Where Python could bind a name to two different things, the answer is None: we never guess.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Set
from functools import partial
from typing import TypeVar

from ...linking.index import Lookups, ModuleInfo
from ...linking.members import member_along_mro
from ...linking.targets import (
    NOT_HERE,
    External,
    Instance,
    ModuleRef,
    SymbolRef,
    Target,
    agreed_value,
    latest_before,
    mark,
    sole_external,
)  # fmt: skip
from ...model import Binding, Dotted, ImportStatement, Name, Symbol, SymbolKind

__all__ = ["External", "Instance", "ModuleRef", "Resolver", "SymbolRef", "Target"]

_T = TypeVar("_T")
_K = TypeVar("_K")
_Consulted = tuple[Set[str], Set[str]]  # modules and names (see `Lookups.end`)

BUILTIN_NAMES = frozenset(dir(builtins))
_PROPERTY_DECORATORS = frozenset(
    {"property", "cached_property", "functools.cached_property", "abc.abstractproperty"}
)
_MAX_DEPTH = 12
_SELF_TYPES = frozenset({("typing", "Self"), ("typing_extensions", "Self")})


def _single(candidates: list[Target | None]) -> Target | None:
    """The one target all candidates agree on (ignoring unknowns), else None. Unlike
    `targets.single` (the TypeScript rule), the same thing reached exactly and by inference
    counts as two answers here: Python's resolver has always treated it so."""
    found = {c for c in candidates if c is not None}
    return found.pop() if len(found) == 1 else None


class Resolver:
    """Resolves names for the files of one linking run (one per file, for dependency records)."""

    def __init__(self, lookups: Lookups) -> None:
        self.lookups = lookups
        # memoised per file, with what computing each answer consulted (replayed on reuse:
        # a value-flow result computed after a reuse must record it too, or a file that
        # reuses that result later would miss a module it depends on)
        self._module_cache: dict[tuple[str, str], tuple[Target | None, _Consulted | None]] = {}
        self._mro_cache: dict[str, tuple[list[str], _Consulted | None]] = {}
        self._resolving: set[tuple[str, Dotted]] = set()

    # -- modules and imports ------------------------------------------------------------------
    def absolute_module(self, statement: ImportStatement, importer: str, is_package: bool) -> str:
        """The absolute dotted module an import statement names."""
        if statement.level == 0:
            return statement.module
        parts = importer.split(".") if importer else []
        if not is_package:
            parts = parts[:-1]
        if statement.level > 1:
            parts = (
                parts[: len(parts) - (statement.level - 1)]
                if statement.level - 1 <= len(parts)
                else []
            )
        if statement.module:
            parts.extend(statement.module.split("."))
        return ".".join(parts)

    def import_target(
        self, statement: ImportStatement, importer: str, is_package: bool
    ) -> Target | None:
        """What the name bound by an import refers to."""
        module = self.absolute_module(statement, importer, is_package)
        if statement.name is None:
            bound = module if statement.alias else module.split(".")[0]
            return self._module_or_external(bound)
        submodule = f"{module}.{statement.name}" if module else statement.name
        if self.lookups.has_module(submodule):
            return ModuleRef(submodule)
        if self.lookups.has_module(module):
            return self.lookup_in_module(module, statement.name)
        if statement.level == 0 and not self._is_internal_package(module):
            return External((*module.split("."), statement.name))
        return None

    def _module_or_external(self, module: str) -> Target:
        if self.lookups.has_module(module):
            return ModuleRef(module)
        return External(tuple(module.split(".")))

    def _is_internal_package(self, module: str) -> bool:
        head = module.split(".")[0]
        return self.lookups.has_module(head)

    def lookup_in_module(self, module: str, name: str, depth: int = 0) -> Target | None:
        """`name` as an attribute of internal module `module` (namespace, then submodule)."""
        key = (module, name)
        cached = self._module_cache.get(key)
        if cached is not None:  # (checked here: hits are the hot path)
            return self._reused(cached)
        return self._computed(
            self._module_cache, key, None, lambda: self._lookup_in_module(module, name, depth)
        )

    def _reused(self, cached: tuple[_T, _Consulted | None]) -> _T:
        """A memoised answer, recording again what computing it consulted (the file's own
        record has it already when no nested record is open; nothing while it is still being
        computed: a cycle)."""
        value, consulted = cached
        if consulted is not None and self.lookups.recording:
            self.lookups.replay(*consulted)
        return value

    def _computed(
        self,
        cache: dict[_K, tuple[_T, _Consulted | None]],
        key: _K,
        guard: _T,
        compute: Callable[[], _T],
    ) -> _T:
        """`compute()` memoised with what it consulted; `guard` answers while it runs."""
        cache[key] = (guard, None)
        self.lookups.begin()
        try:
            result = compute()
        finally:
            consulted = self.lookups.end()
        cache[key] = (result, consulted)
        return result

    def _lookup_in_module(self, module: str, name: str, depth: int) -> Target | None:
        info = self.lookups.module(module)
        if info is None or depth > _MAX_DEPTH:
            return None
        found = self._namespace_lookup(info, name, depth)
        if found is not None:
            return found
        if self.lookups.has_module(f"{module}.{name}"):
            return ModuleRef(f"{module}.{name}")
        for star in info.star_imports:
            source = self.absolute_module(star, module, info.parsed.is_package)
            if self.lookups.has_module(source):
                nested = self.lookup_in_module(source, name, depth + 1)
                if nested is not None and not name.startswith("_"):
                    return nested
        return None

    def _namespace_lookup(self, info: ModuleInfo, name: str, depth: int) -> Target | None:
        module = info.parsed.module
        candidates: list[Target | None] = [SymbolRef(q) for q in info.defs.get(name, [])]
        for statement in info.imports.get(name, []):
            candidates.append(self.import_target(statement, module, info.parsed.is_package))
        if candidates:
            return _single(candidates)
        bindings = info.bindings.get(name)
        if bindings:
            return self._binding_value(bindings, module)
        return None

    # -- names --------------------------------------------------------------------------------
    def resolve_name(
        self, scope: str, name: str, module: str, line: int | None = None
    ) -> Target | None:
        """`name` as seen from code executing in `scope` (a function, class or module) at
        `line` (when given, a local variable takes its latest binding before that line)."""
        current: str | None = scope
        first = True
        while current is not None and current != module:
            symbol = self.lookups.symbol(current)
            if symbol is None:
                break
            # a class body is a scope only for code directly in it, not for its methods
            if symbol.kind != SymbolKind.CLASS or first:
                found = self._resolve_in_local_scope(symbol, name, module, line if first else None)
                if found is not NOT_HERE:
                    return found  # type: ignore[return-value]
            first = False
            current = symbol.parent
        info = self.lookups.module(module)
        if info is not None:
            found_module = self._namespace_lookup(info, name, 0)
            if found_module is not None:
                return found_module
            if name in info.parsed.module_names:
                return None  # a module-level variable we cannot type
            for star in info.star_imports:
                source = self.absolute_module(star, module, info.parsed.is_package)
                if self.lookups.has_module(source):
                    nested = self.lookup_in_module(source, name)
                    if nested is not None:
                        return nested
                elif star.level == 0:
                    return None  # may come from an external star import
        if name in BUILTIN_NAMES:
            return External(("<builtin>", name))
        return None

    def is_bound(self, scope: str, name: str, module: str) -> bool:
        """True when `name` is a variable of some scope `scope` sees (local or global)."""
        if self.binding_scope(scope, name, module) is not None:
            return True
        info = self.lookups.module(module)
        return info is not None and name in info.parsed.module_names

    def is_parameter(self, scope: str, name: str) -> bool:
        """Whether `name` is a parameter of the function `scope` (a value its callers pick)."""
        symbol = self.lookups.index.symbols.get(scope)
        return symbol is not None and name in symbol.parameters

    def binding_scope(self, scope: str, name: str, module: str) -> str | None:
        """The innermost function scope, from `scope` outwards, where `name` is local (a
        parameter or an assignment target); None when it is global or unbound."""
        current: str | None = scope
        while current is not None and current != module:
            names = self.lookups.index.scope_names.get(current)
            if names is not None and name in names.names:
                return current
            symbol = self.lookups.symbol(current)
            current = symbol.parent if symbol is not None else None
        return None

    def _resolve_in_local_scope(
        self, symbol: Symbol, name: str, module: str, line: int | None
    ) -> object:
        scope = symbol.qualified_name
        members = self.lookups.members(scope, name)
        if symbol.kind == SymbolKind.CLASS and line is not None:
            members = self._defined_above(members, line)
        imports = self.lookups.index.scope_imports.get(scope, {}).get(name, [])
        info = self.lookups.index.modules.get(module)
        is_package = info.parsed.is_package if info is not None else False
        candidates: list[Target | None] = [SymbolRef(q) for q in members]
        candidates += [self.import_target(s, module, is_package) for s in imports]
        if candidates:
            return _single(candidates)
        if symbol.kind == SymbolKind.CLASS:
            bindings = self.lookups.index.scope_bindings.get(scope, {}).get((name,))
            return self._binding_value(bindings, scope) if bindings else NOT_HERE
        names = self.lookups.index.scope_names.get(scope)
        if names is not None and name in names.globals:
            return NOT_HERE
        if symbol.kind == SymbolKind.METHOD and symbol.parameters[:1] == (name,):
            return self._self_value(symbol)
        if names is not None and name in names.names:
            bindings = self.lookups.index.scope_bindings.get(scope, {}).get((name,))
            if bindings and line is not None:
                bindings = latest_before(bindings, line)
            return self._binding_value(bindings, scope) if bindings else None
        return NOT_HERE

    def _defined_above(self, members: list[str], line: int) -> list[str]:
        """The members a class body has bound by `line`: the body runs top down, so
        `_wrappers = set()` above `def set` calls the builtin (anyio's `RunVar`)."""
        found = []
        for qualified in members:
            member = self.lookups.symbol(qualified)
            if member is None or member.start_line < line:
                found.append(qualified)
        return found

    def _self_value(self, method: Symbol) -> Target | None:
        if "staticmethod" in method.decorators:
            return None
        if "classmethod" in method.decorators or method.name in (
            "__new__",
            "__init_subclass__",
            "__class_getitem__",
        ):
            return SymbolRef(method.parent)
        return Instance(method.parent, inferred=False)

    def _binding_value(self, bindings: list[Binding] | None, scope: str) -> Target | None:
        """The type a variable holds, when all its typed bindings agree."""
        module = self._module_of_scope(scope)
        return agreed_value(
            bindings, self._resolving, lambda binding: self._bound(binding, module), _single
        )

    def _bound(self, binding: Binding, module: str) -> Target | None:
        """The type one typed binding gives its variable."""
        value = self.resolve_dotted(binding.scope, binding.value, module, binding.line)
        if binding.kind == "annotation":
            return self._as_instance(value)
        if binding.kind == "enter":
            return self._entered(self._call_result(value))
        if binding.kind == "alias":
            return mark(value, True)
        if binding.kind == "class":  # `x: type[Foo]` holds the class Foo
            return mark(value, True) if isinstance(value, SymbolRef) else None
        return self._call_result(value)

    def _entered(self, manager: Target | None) -> Target | None:
        """What `with manager as x` binds: `__enter__`'s annotated type, else the manager
        itself where `__enter__` returns `self` (the convention) or its returns are not
        known, when the class defines `__enter__`; None where it returns something else
        (`return Conn()`), which value flow follows."""
        if not isinstance(manager, Instance):
            return None
        for method in ("__enter__", "__aenter__"):
            found = self.class_member(manager.class_name, method, instance=True)
            if isinstance(found, SymbolRef):
                symbol = self.lookups.symbol(found.qualified_name)
                if self.returns_self(found.qualified_name):
                    return manager
                if symbol is not None and symbol.returns is not None:
                    returned = self._call_result(found)
                    # `-> T` with a TypeVar (or `Self`) resolves to nothing useful: the manager
                    return returned if isinstance(returned, Instance) else manager
                return manager if self._returns_itself(found.qualified_name) else None
        return None

    def _from_receiver(self, binding: Binding) -> bool:
        """Whether a method's binding reads its receiver (`self.x = self.make()`)."""
        symbol = self.lookups.symbol(binding.scope)
        if symbol is None or symbol.kind != SymbolKind.METHOD or not symbol.parameters:
            return False
        return binding.value[:1] == symbol.parameters[:1]

    def _returns_itself(self, method: str) -> bool:
        """Whether every `return` of a method returns its receiver (`return self`), or
        it has none the parser recorded."""
        symbol = self.lookups.symbol(method)
        receiver = symbol.parameters[:1] if symbol is not None else ()
        returns = self.lookups.flows(method, ("<return>",))
        return all(flow.value == Name(receiver) for flow in returns)

    def _module_of_scope(self, scope: str) -> str:
        module = self.lookups.index.symbol_module.get(scope)
        return module if module is not None else scope

    def _as_instance(self, target: Target | None) -> Target | None:
        """The value of a variable annotated with `target`."""
        if isinstance(target, SymbolRef):
            symbol = self.lookups.symbol(target.qualified_name)
            if symbol is not None and symbol.kind == SymbolKind.CLASS:
                return Instance(symbol.qualified_name)
            return None
        if isinstance(target, External) and target.dotted[-1][:1].isupper():
            # `f: F` with `F = TypeVar("F")`: a type variable names no class (the instance
            # of `TypeVar` is the variable, not what `f` holds)
            if is_type_variable(target):
                return None
            return External(target.dotted, inferred=True)
        return None

    def _call_result(self, callee: Target | None) -> Target | None:
        """The value a call returns: an instance for a class, the annotated return type."""
        if isinstance(callee, SymbolRef):
            symbol = self.lookups.symbol(callee.qualified_name)
            if symbol is None:
                return None
            if symbol.kind == SymbolKind.CLASS:
                return Instance(symbol.qualified_name)
            if self.returns_self(symbol.qualified_name):
                return Instance(symbol.parent)
            returns = self.lookups.declared_return(symbol)
            if returns is not None:
                module = self.lookups.index.symbol_module[symbol.qualified_name]
                return self._as_instance(self.resolve_dotted(symbol.parent, returns, module))
            return None
        if isinstance(callee, External) and callee.dotted[-1][:1].isupper():
            return External(callee.dotted, inferred=True)
        return None

    def returns_self(self, function: str) -> bool:
        """Whether a method returns an instance of its receiver's class: `-> Self`
        (typing / typing_extensions), or `def m(self: T) -> T` / `def m(cls: type[T]) -> T`
        with T a TypeVar (bound, constrained or plain: the receiver fixes it)."""
        symbol = self.lookups.symbol(function)
        if symbol is None or symbol.kind != SymbolKind.METHOD or symbol.returns is None:
            return False
        if symbol.returns[0] == "type[]" or "staticmethod" in symbol.decorators:
            return False
        module = self.lookups.index.symbol_module[function]
        returned = self.resolve_dotted(symbol.parent, symbol.returns, module)
        if not isinstance(returned, External):
            return False
        if returned.dotted in _SELF_TYPES:
            return True
        if returned.dotted[-1] != "TypeVar" or not symbol.parameters:
            return False
        first = symbol.parameters[0]
        bindings = self.lookups.index.scope_bindings.get(function, {}).get((first,), [])
        typed = (b for b in bindings if b.kind in ("annotation", "class"))
        return any(b.value == symbol.returns for b in typed)

    # -- dotted expressions -------------------------------------------------------------------
    def resolve_dotted(
        self, scope: str, parts: Dotted, module: str, line: int | None = None
    ) -> Target | None:
        if not parts or parts[0] == "<expr>":
            return None
        if parts[0] == "super()":
            head = self._super(scope)
            if head is None or len(parts) < 2:
                return None
            return self._member_after(head, parts[1], scope, parts[2:])
        target = self.resolve_name(scope, parts[0], module, line)
        for attribute in parts[1:]:
            if target is None:
                return None
            target = self.attribute(target, attribute)
        return target

    def _member_after(self, owner: str, name: str, scope: str, rest: Dotted) -> Target | None:
        """`super().name`: look `name` up in the MRO after `owner`'s own class."""
        mro = self.mro(owner)[1:]
        target: Target | None = None
        for cls in mro:
            found = self.lookups.members(cls, name)
            if found:
                target = SymbolRef(found[0])
                break
        for attribute in rest:
            if target is None:
                return None
            target = self.attribute(target, attribute)
        return target

    def _super(self, scope: str) -> str | None:
        symbol = self.lookups.symbol(scope)
        while symbol is not None and symbol.kind != SymbolKind.METHOD:
            symbol = self.lookups.symbol(symbol.parent)
        return symbol.parent if symbol is not None else None

    def attribute(self, target: Target, name: str) -> Target | None:
        """`target.name`."""
        if isinstance(target, ModuleRef):
            return mark(self.lookup_in_module(target.module, name), target.inferred)
        if isinstance(target, External):
            return External((*target.dotted, name), target.inferred)
        if isinstance(target, SymbolRef):
            symbol = self.lookups.symbol(target.qualified_name)
            if symbol is None or symbol.kind != SymbolKind.CLASS:
                return None
            return mark(
                self.class_member(symbol.qualified_name, name, instance=False), target.inferred
            )
        return mark(self.class_member(target.class_name, name, instance=True), target.inferred)

    def class_member(self, class_name: str, name: str, *, instance: bool) -> Target | None:
        binding_value = (
            partial(self._read_value, reader=class_name) if instance else self._binding_value
        )
        return member_along_mro(
            self.mro(class_name), name, self.lookups, instance=instance,
            accessor_value=self._property_value, binding_value=binding_value,
            external_base=lambda: self._external_base(class_name),
        )  # fmt: skip

    def _read_value(self, bindings: list[Binding], scope: str, reader: str) -> Target | None:
        """What reading an attribute of an instance of `reader` gives: a descriptor the
        class body holds (`name = Field()`, Field defining `__get__`) gives what its
        `__get__` is declared to return (nothing known when undeclared), not the
        descriptor; what a base's method assigns from its `self` (`self.engine =
        self.engine_class()`) is left to value flow, which reads that `self` as the
        instance of `reader` (a subclass may override `engine_class`)."""
        if reader != scope and any(self._from_receiver(binding) for binding in bindings):
            return None
        value = self._binding_value(bindings, scope)
        if not isinstance(value, Instance) or all(b.scope != scope for b in bindings):
            return value
        getter = self.class_member(value.class_name, "__get__", instance=False)
        if not isinstance(getter, SymbolRef):
            return value
        symbol = self.lookups.symbol(getter.qualified_name)
        if symbol is None or symbol.kind != SymbolKind.METHOD:
            return value
        return self._call_result(getter)

    def _property_value(self, qualified_name: str) -> object:
        """The value an instance attribute backed by a `@property` holds (its return type)."""
        symbol = self.lookups.symbol(qualified_name)
        if symbol is None or not _PROPERTY_DECORATORS.intersection(symbol.decorators):
            return NOT_HERE
        if symbol.returns is None:
            return None
        module = self.lookups.index.symbol_module[qualified_name]
        value = self._as_instance(self.resolve_dotted(symbol.parent, symbol.returns, module))
        return mark(value, True)

    def _external_base(self, class_name: str) -> External | None:
        """The first external base in the MRO, when the class has exactly one."""
        return sole_external(base for cls in self.mro(class_name) for base in self._bases(cls))

    def _bases(self, class_name: str) -> list[Target | None]:
        symbol = self.lookups.symbol(class_name)
        if symbol is None:
            return []
        module = self.lookups.index.symbol_module[class_name]
        return [self.resolve_dotted(symbol.parent, base, module) for base in symbol.bases]

    def mro(self, class_name: str) -> list[str]:
        """Internal classes in method resolution order (C3 where it applies, else DFS)."""
        cached = self._mro_cache.get(class_name)
        if cached is not None:
            return self._reused(cached)
        return self._computed(
            self._mro_cache, class_name, [class_name], lambda: self._mro(class_name)
        )

    def _mro(self, class_name: str) -> list[str]:
        bases = [
            base.qualified_name
            for base in self._bases(class_name)
            if isinstance(base, SymbolRef)
            and (symbol := self.lookups.symbol(base.qualified_name)) is not None
            and symbol.kind == SymbolKind.CLASS
        ]
        return _c3(class_name, [self.mro(base) for base in bases], bases)

    def constructor(self, class_name: str) -> str | None:
        """The `__init__` a call to the class runs (own or inherited), if internal."""
        for cls in self.mro(class_name):
            found = self.lookups.members(cls, "__init__")
            if found:
                return found[0]
        return None


def _c3(head: str, base_mros: list[list[str]], bases: list[str]) -> list[str]:
    sequences = [list(m) for m in base_mros] + [list(bases)]
    result = [head]
    while True:
        sequences = [s for s in sequences if s]
        if not sequences:
            return result
        for sequence in sequences:
            candidate = sequence[0]
            if not any(candidate in s[1:] for s in sequences):
                break
        else:  # inconsistent hierarchy: fall back to depth-first order without duplicates
            seen = set(result)
            for mro in base_mros:
                for cls in mro:
                    if cls not in seen:
                        seen.add(cls)
                        result.append(cls)
            return result
        result.append(candidate)
        sequences = [s[1:] if s[0] == candidate else s for s in sequences]


# the constructors of type variables, and `typing.AnyStr`, a type variable typing defines
_TYPE_VARIABLES = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple", "AnyStr"})


def is_type_variable(target: object) -> bool:
    """Whether `target` is `typing.TypeVar` (or `ParamSpec`, `TypeVarTuple`) or a variable
    made by calling it (or `AnyStr`): what a name annotated with it holds is unknown."""
    return isinstance(target, External) and target.dotted[-1] in _TYPE_VARIABLES
