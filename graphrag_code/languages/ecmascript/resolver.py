"""Name and member resolution with TypeScript / JavaScript rules.

Scopes are functions (block scopes are not told apart: the latest binding before a line wins),
classes do not scope names for their methods (members are reached through `this`), namespaces
and object literals do. A module's namespace is its top-level declarations, its imports and
its exports (`export { a as b }`, `export default`, `module.exports`, `export * from`).
Types come from annotations, `new` results, return types and parameter types; any step that
relies on one marks the result `inferred`; a field's declared type holds over what is assigned
to it. `xs[]` names the elements of `xs` and `f()[]`, `f().k` the elements and properties of
what `f` returns, bound beside their declarations (see `derived`). Where two answers are
possible the answer is None. A private name (`obj.#x`) needs no type: it is the `#x` of the
class around the code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    single,
    sole_external,
)  # fmt: skip
from ...model import Binding, Dotted, ImportStatement, Symbol, SymbolKind
from .modules import EcmaProject, resolve_specifier
from .returns import THIS
from .syntax import (
    CALLED,
    ELEMENT,
    ELEMENT_CALLS,
    element_of,
    returned_part,
    split_argument_part,
)

__all__ = ["JS_GLOBALS", "EcmaResolver"]

JS_GLOBALS = frozenset(
    {
        "console", "Math", "JSON", "Object", "Array", "String", "Number", "Boolean", "Symbol",
        "Promise", "Map", "Set", "WeakMap", "WeakSet", "Date", "RegExp", "Error", "TypeError",
        "RangeError", "SyntaxError", "Reflect", "Proxy", "BigInt", "Intl", "parseInt",
        "parseFloat", "isNaN", "isFinite", "setTimeout", "clearTimeout", "setInterval",
        "clearInterval", "setImmediate", "queueMicrotask", "structuredClone", "fetch",
        "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI", "process",
        "Buffer", "globalThis", "window", "document", "require", "URL", "URLSearchParams",
        "TextEncoder", "TextDecoder", "AbortController", "ArrayBuffer", "Uint8Array",
        "DataView", "Function", "alert", "atob", "btoa", "localStorage", "navigator",
    }
)  # fmt: skip
_MAX_DEPTH = 12
_SCOPES_OF_NAMES = ("namespace",)  # the class-like symbols that scope names
# members code may assign inside a method (`this.x = () => …`, `this.o = { … }`)
_ASSIGNED_MEMBERS = frozenset({"arrow function", "function expression", "object literal"})
_EXPORTS = ("module", "exports")
# array methods that give one of the array's elements


@dataclass
class EcmaResolver:
    """Resolves the names of one file being linked (a new one per file: the lookups it makes
    are that file's dependency record)."""

    lookups: Lookups
    project: EcmaProject
    _exports: dict[tuple[str, str], Target | None] = field(default_factory=dict)
    _specifiers: dict[tuple[str, str], tuple[str | None, str | None]] = field(default_factory=dict)
    _resolving: set[tuple[str, Dotted]] = field(default_factory=set)
    _mro: dict[str, list[str]] = field(default_factory=dict)
    # a module-level name's value, kept when no cycle cut its reading short (`_namespace`)
    _module_values: dict[tuple[str, str, bool], Target | None] = field(default_factory=dict)
    _cycles_cut: int = 0
    _lexical: dict[str, str] = field(default_factory=dict)
    _redefined: dict[str, dict[str, list[Symbol]]] = field(default_factory=dict)

    # -- modules ------------------------------------------------------------------------------
    def specifier(self, importer: str, specifier: str) -> tuple[str | None, str | None]:
        """(internal module, external package) an import of file module `importer` reaches."""
        key = (importer, specifier)
        found = self._specifiers.get(key)
        if found is None:
            info = self.lookups.index.modules.get(importer)
            path = info.parsed.path if info is not None else importer.removeprefix("./")
            resolved = resolve_specifier(path, specifier, self.project, self.lookups)
            found = self._specifiers[key] = (resolved.module, resolved.external)
        return found

    def import_target(self, statement: ImportStatement, importer: str) -> Target | None:
        """What the name an import binds refers to."""
        module, external = self.specifier(importer, statement.module)
        name = statement.name
        if external is not None:
            if name in (None, "default", "*"):
                return External((external,))
            return External((external, name))
        if module is None:
            return None
        if name is None:
            return self.module_value(module)
        if name == "default":
            return self.default_export(module)
        return self.export(module, name)

    def module_value(self, module: str) -> Target | None:
        """What `require(module)` (or `import * as m`) gives: `module.exports` when the module
        assigns it, else the module's namespace."""
        info = self.lookups.module(module)
        if info is None:
            return None
        assigned = [b for b in info.parsed.bindings if b.target == _EXPORTS and b.scope == module]
        if assigned:
            return self._binding_value(assigned, module)
        return ModuleRef(module)

    def default_export(self, module: str) -> Target | None:
        found = self.export(module, "default")
        if found is not None:
            return found
        value = self.module_value(module)  # CommonJS: the default import is module.exports
        return value if not isinstance(value, ModuleRef) else None

    def export(self, module: str, name: str, depth: int = 0) -> Target | None:
        """`name` as exported by internal `module`."""
        key = (module, name)
        if key in self._exports:
            return self._exports[key]
        self._exports[key] = None  # cycle guard (circular re-exports)
        found = self._export(module, name, depth)
        self._exports[key] = found
        return found

    def _export(self, module: str, name: str, depth: int) -> Target | None:
        info = self.lookups.module(module)
        if info is None or depth > _MAX_DEPTH:
            return None
        found = self._namespace(info, name, exported=True)
        if found is not None:
            return found
        for star in info.star_imports:
            source, _external = self.specifier(module, star.module)
            if source is not None and name != "default":
                nested = self.export(source, name, depth + 1)
                if nested is not None:
                    return nested
        assigned = [b for b in info.parsed.bindings if b.target == _EXPORTS and b.scope == module]
        if assigned:
            value = self._binding_value(assigned, module)
            return self.attribute(value, name) if value is not None else None
        return None

    def _namespace(self, info: ModuleInfo, name: str, *, exported: bool = False) -> Target | None:
        """`name` in a module's top-level namespace, or (`exported`) among what it exports:
        its declarations, re-exports and export bindings, not the names it only imports."""
        module = info.parsed.module
        candidates: list[Target | None] = [SymbolRef(q) for q in info.defs.get(name, [])]
        for statement in info.imports.get(name, []):
            if statement.exported or not exported:
                candidates.append(self.import_target(statement, module))
        if candidates:
            return single(candidates)
        bindings = info.bindings.get(name)
        if not bindings:
            return None
        if exported:
            bindings = [b for b in bindings if b.kind == "export"] or bindings
        # Read once per file: module-level values that read one another (fastify's) made
        # every call site read the whole chain again, exponentially. A value whose reading met
        # a cycle depends on where the reading started, and is not kept.
        key = (module, name, exported)
        if key in self._module_values:
            return self._module_values[key]
        cut = self._cycles_cut
        value = self._binding_value(bindings, module)
        if self._cycles_cut == cut:
            self._module_values[key] = value
        return value

    # -- names --------------------------------------------------------------------------------
    def resolve_name(
        self, scope: str, name: str, module: str, line: int | None = None
    ) -> Target | None:
        """`name` as code in `scope` sees it at `line`."""
        current = scope
        first = True
        while current != module:
            symbol = self._scope_symbol(current, module, line if first else None)
            if symbol is None:
                break
            if symbol.kind != SymbolKind.CLASS or symbol.declared_as in _SCOPES_OF_NAMES:
                found = self._local(symbol, name, module, line if first else None)
                if found is not NOT_HERE:
                    return found  # type: ignore[return-value]
            first = False
            current = self._lexical_parent(symbol)
        info = self.lookups.module(module)
        if info is not None:
            found_module = self._namespace(info, name)
            if found_module is not None:
                return found_module
            if name in info.parsed.module_names:
                return None  # a module-level variable we cannot type
        if name in JS_GLOBALS:
            return External(("<builtin>", name))
        return None

    def is_bound(self, scope: str, name: str, module: str) -> bool:
        current = scope
        while current != module:
            names = self.lookups.index.scope_names.get(current)
            if names is not None and name in names.names:
                return True
            symbol = self.lookups.symbol(current)
            if symbol is None:
                break
            current = self._lexical_parent(symbol)
        info = self.lookups.module(module)
        return info is not None and name in info.parsed.module_names

    def _scope_symbol(self, qualified: str, module: str, line: int | None) -> Symbol | None:
        """The symbol named `qualified` whose code holds `line`: of two definitions of one name
        (`Runnable.prototype.skip = …` and `this.skip = function () {…}` in `run`) the one the
        code is in, whose lexical parent may differ."""
        symbol = self.lookups.symbol(qualified)
        if symbol is None or line is None or symbol.start_line <= line <= symbol.end_line:
            return symbol
        if module not in self._redefined:
            info = self.lookups.module(module)
            later: dict[str, list[Symbol]] = {}
            for other in info.parsed.symbols if info is not None else ():
                if other.ordinal > 1:
                    later.setdefault(other.qualified_name, []).append(other)
            self._redefined[module] = later
        for other in self._redefined[module].get(qualified, ()):
            if other.start_line <= line <= other.end_line:
                return other
        return symbol

    def _lexical_parent(self, symbol: Symbol) -> str:
        """The scope whose names the code of `symbol` sees next: its parent, but for a function
        or an object literal assigned to `this.x` inside a method (`this.skip = function () {
        done() }` in `run`), that method, whose locals it closes over."""
        parent = symbol.parent
        if symbol.declared_as not in _ASSIGNED_MEMBERS:
            return parent
        key = symbol.qualified_name
        if key not in self._lexical:
            around: Symbol | None = None
            for name in self.lookups.member_names(parent):
                for qualified in self.lookups.members(parent, name):
                    method = self.lookups.symbol(qualified)
                    if (
                        method is not None and method.kind == SymbolKind.METHOD
                        and method.start_line < symbol.start_line
                        and symbol.end_line <= method.end_line
                        and (around is None or method.start_line > around.start_line)
                    ):  # fmt: skip
                        around = method
            self._lexical[key] = around.qualified_name if around is not None else parent
        return self._lexical[key]

    def _local(self, symbol: Symbol, name: str, module: str, line: int | None) -> object:
        scope = symbol.qualified_name
        members = self.lookups.members(scope, name)
        if symbol.kind == SymbolKind.FUNCTION:  # `Foo.prototype.m` is no name inside Foo
            members = [m for m in members if self._kind(m) != SymbolKind.METHOD]
        candidates: list[Target | None] = [SymbolRef(q) for q in members]
        imports = self.lookups.index.scope_imports.get(scope, {}).get(name, [])
        candidates += [self.import_target(s, module) for s in imports]
        if candidates:
            return single(candidates)
        names = self.lookups.index.scope_names.get(scope)
        if names is not None and name.removesuffix(ELEMENT) in names.names:  # `xs[]`: of xs
            bindings = self.lookups.index.scope_bindings.get(scope, {}).get((name,))
            if bindings and line is not None:
                bindings = latest_before(bindings, line)
            return self._binding_value(bindings, scope) if bindings else None
        return NOT_HERE

    def this_value(self, scope: str) -> Target | None:
        """What `this` is in `scope`: its declared type (`this: T`), an instance of the class
        of a method (of the function whose prototype holds it), the object of an object
        literal's method."""
        declared = self.lookups.index.scope_bindings.get(scope, {}).get(("this",))
        if declared:  # TypeScript's `function f(this: T)`
            return self._binding_value(declared, scope)
        symbol = self.lookups.symbol(scope)
        if symbol is not None and self._is_constructor(symbol):  # function Foo() { this… }
            return Instance(symbol.qualified_name, inferred=False)
        if symbol is not None and _is_arrow(symbol):  # its `this` is the code's around it
            return self.this_value(symbol.parent)
        if symbol is not None and _is_exported_object_method(symbol):
            return ModuleRef(symbol.parent)  # `module.exports = { m() { this.n() } }`
        if symbol is not None and _is_class(symbol):  # code in the class body outside a
            # named method: a field's initialiser, the body of `[Symbol.iterator]() {…}`
            return Instance(symbol.qualified_name, inferred=False)
        if symbol is None or symbol.kind != SymbolKind.METHOD:
            return None
        owner = self.lookups.symbol(symbol.parent)
        if owner is None:
            return None
        if owner.declared_as == "object literal":
            return SymbolRef(owner.qualified_name)
        if owner.kind == SymbolKind.CLASS and owner.declared_as not in ("namespace", "enum"):
            return Instance(owner.qualified_name, inferred=False)
        if owner.kind == SymbolKind.FUNCTION:  # Foo.prototype.m = function () { this… }
            return Instance(owner.qualified_name, inferred=False)
        return None

    # -- expressions --------------------------------------------------------------------------
    def resolve_dotted(
        self, scope: str, parts: Dotted, module: str, line: int | None = None
    ) -> Target | None:
        if not parts or parts[0] == "<expr>":
            return None
        argument = split_argument_part(parts[-1])
        if argument is not None:  # `f(1:0)`: what f declares its callback's parameter to be
            function = self.resolve_dotted(scope, (*parts[:-1], argument[0]), module, line)
            return self._callback_parameter(function, argument[1])
        returned = returned_part(parts[-1])
        if returned is not None:  # `f()[]`, `f().k`: what f's declaration says
            function = self.resolve_dotted(scope, (*parts[:-1], returned[0]), module, line)
            return self._returned(function, returned[1])
        private = _last_private(parts)
        if private:  # `x.#p.q`: #p is the class's around the code, whatever x is
            target = self.private_member(scope, parts[private], module)
            for attribute in parts[private + 1 :]:
                if target is None:
                    return None
                target = self.attribute(target, attribute)
            return target
        if parts[0] == "super()":
            return self._super(scope, parts[1:])
        if parts[0] == "this":
            target = self.this_value(scope)
        elif parts[0] == "require()" and len(parts) > 1:  # require("./x").f
            internal, external = self.specifier(module, parts[1])
            target = (
                self.module_value(internal) if internal is not None
                else External((external,)) if external is not None
                else None
            )  # fmt: skip
            parts = parts[1:]
        elif parts[0] in ("exports", "module") and not self.is_bound(scope, parts[0], module):
            # CommonJS: `exports.f()` and `module.exports.f()` reach this module's exports
            target = ModuleRef(module)
            if parts[0] == "module":
                if parts[1:2] != ("exports",):
                    return None
                parts = parts[1:]
        else:
            target = self.resolve_name(scope, parts[0], module, line)
        for attribute in parts[1:]:
            if target is None:
                return None
            target = self.attribute(target, attribute)
        return target

    def _callback_parameter(self, function: Target | None, part: str) -> Target | None:
        """The declared type of a parameter of the function `function` takes as an argument
        (`part` "(1:0)", bound beside the function's parameters)."""
        if not isinstance(function, SymbolRef):
            return None
        scope = function.qualified_name
        symbol = self.lookups.symbol(scope)
        if symbol is not None and _is_class(symbol):  # `new C(…)`: C's constructor declares it
            constructor = self.attribute(Instance(scope, inferred=False), "constructor")
            if not isinstance(constructor, SymbolRef):
                return None
            scope = constructor.qualified_name
        bindings = self.lookups.index.scope_bindings.get(scope, {}).get((part,))
        return mark(self._binding_value(bindings, scope), True) if bindings else None

    def _returned(self, function: Target | None, part: str) -> Target | None:
        """The elements (`part` "[]") or a property (".k") of what calling `function` returns:
        the property of its return type, else the binding `f()[]`, `f().k` beside its
        declaration (`getAll(): Query[]`, JSDoc `@returns {Query[]}`, `return { k: new K() }`)."""
        if not isinstance(function, SymbolRef):
            return None
        symbol = self.lookups.symbol(function.qualified_name)
        if symbol is None or symbol.parent is None:
            return None
        if part.startswith("."):
            result = self.call_result(function)
            found = self.attribute(result, part[1:]) if result is not None else None
            if found is not None:
                return mark(found, True)
        key = symbol.name + CALLED + part
        if symbol.parent == self.lookups.index.symbol_module.get(symbol.qualified_name):
            info = self.lookups.module(symbol.parent)  # a module's function
            bindings = info.bindings.get(key) if info is not None else None
        else:
            bindings = self.lookups.attribute_bindings(symbol.parent, key) or (
                self.lookups.index.scope_bindings.get(symbol.parent, {}).get((key,))
            )
        if not bindings:
            return None
        return mark(self._binding_value(bindings, symbol.parent), True)

    def private_member(self, scope: str, name: str, module: str) -> Target | None:
        """`#name` as code in `scope` reads it: the member of the innermost class around the
        code that declares `#name` (a private name is lexical: `obj.#name` is that class's
        whatever `obj` is, or a syntax error), so no type is needed to reach it. The members
        of an anonymous class are the function's around it."""
        current = scope
        while current != module:
            symbol = self.lookups.symbol(current)
            if symbol is None:
                return None
            if self.lookups.members(current, name) or self.lookups.attribute_bindings(
                current, name
            ):
                return self.member(current, name, instance=True)
            current = symbol.parent
        return None

    def _super(self, scope: str, rest: Dotted) -> Target | None:
        method = self.lookups.symbol(scope)
        if method is None or method.kind != SymbolKind.METHOD or not rest:
            return None
        target: Target | None = None
        for cls in self.mro(method.parent)[1:]:
            members = self.lookups.members(cls, rest[0])
            if members:
                target = SymbolRef(members[0])
                break
        else:
            bases = self.mro(method.parent)[1:]
            external = self._external_base(method.parent)
            if rest[0] == "constructor" and bases:  # super(…) of a base without a constructor
                target = SymbolRef(bases[0])
            elif external is not None:
                target = External((*external.dotted, rest[0]), inferred=True)
        for attribute in rest[1:]:
            if target is None:
                return None
            target = self.attribute(target, attribute)
        return target

    def attribute(self, target: Target, name: str) -> Target | None:
        """`target.name`."""
        if isinstance(target, ModuleRef):
            return mark(self.export(target.module, name), target.inferred)
        if isinstance(target, External):  # (what an outside collection holds is unknown)
            return (
                None
                if name.endswith(ELEMENT)
                else External((*target.dotted, name), target.inferred)
            )
        if isinstance(target, SymbolRef):
            symbol = self.lookups.symbol(target.qualified_name)
            if symbol is None:
                return None
            if symbol.kind == SymbolKind.CLASS:
                found = self.member(symbol.qualified_name, name, instance=False)
            elif symbol.kind == SymbolKind.FUNCTION:  # Foo.create = function …
                members = self.lookups.members(symbol.qualified_name, name)
                methods = [m for m in members if self._kind(m) == SymbolKind.METHOD]
                found = SymbolRef(methods[0]) if len(methods) == 1 else None
            else:
                return None
            if found is None:  # `exports = module.exports = Foo; exports.f = …` is Foo.f
                found = self._exported_beside(symbol, name)
            return mark(found, target.inferred)
        return mark(self.member(target.class_name, name, instance=True), target.inferred)

    def _exported_beside(self, symbol: Symbol, name: str) -> Target | None:
        """`name` exported by the module whose `module.exports` is `symbol` (CommonJS puts a
        module's other exports on what it exports)."""
        module = self.lookups.index.symbol_module.get(symbol.qualified_name)
        if module is None or symbol.parent != module:
            return None
        value = self.module_value(module)
        if value != SymbolRef(symbol.qualified_name):
            return None
        info = self.lookups.module(module)
        return self._namespace(info, name, exported=True) if info is not None else None

    def _is_constructor(self, symbol: Symbol) -> bool:
        """A constructor function: a function whose prototype holds methods."""
        if symbol.kind != SymbolKind.FUNCTION:
            return False
        members = self.lookups.index.members.get(symbol.qualified_name, {})
        return any(self._kind(q) == SymbolKind.METHOD for names in members.values() for q in names)

    def _kind(self, qualified_name: str) -> SymbolKind | None:
        symbol = self.lookups.symbol(qualified_name)
        return symbol.kind if symbol is not None else None

    def member(self, class_name: str, name: str, *, instance: bool) -> Target | None:
        """A member of a class (or interface, enum, namespace, object) and its bases."""
        outside = name.endswith(ELEMENT)  # what an external base's collection holds: unknown
        return member_along_mro(
            self.mro(class_name), name, self.lookups, instance=instance,
            accessor_value=self._getter_value, binding_value=self._field_value,
            external_base=lambda: None if outside else self._external_base(class_name),
        )  # fmt: skip

    def _field_value(self, bindings: list[Binding], scope: str) -> Target | None:
        """What a field holds: its declared type when it has one (what is assigned to it must
        fit that, for the checker), else what its bindings agree on. A field is declared once
        in its class; a name in a scope may be declared again in another block, so this holds
        for fields only."""
        declared = [b for b in bindings if b.kind == "annotation"]
        return self._binding_value(declared or bindings, scope)

    def _getter_value(self, qualified_name: str) -> object:
        symbol = self.lookups.symbol(qualified_name)
        if symbol is None or symbol.declared_as != "getter":
            return NOT_HERE
        if symbol.returns is None:
            return None
        return mark(self._typed(symbol, symbol.returns), True)

    def _typed(self, symbol: Symbol, type_name: Dotted) -> Target | None:
        """An instance of `type_name` as seen from `symbol`'s declaration."""
        module = self.lookups.index.symbol_module[symbol.qualified_name]
        found = self.resolve_dotted(symbol.parent, type_name, module)
        if type_name == THIS:  # a method that returns `this`: an instance of its class
            return mark(found, True) if isinstance(found, Instance) else None
        return self.as_instance(found)

    def as_instance(self, target: Target | None) -> Target | None:
        """The value of something declared with type `target`."""
        if isinstance(target, SymbolRef):
            symbol = self.lookups.symbol(target.qualified_name)
            if symbol is not None and (
                symbol.kind == SymbolKind.CLASS or self._is_constructor(symbol)
            ):
                return Instance(symbol.qualified_name)
            return None
        if isinstance(target, External) and target.dotted[-1][:1].isupper():
            return External(target.dotted, inferred=True)
        return None

    def call_result(self, callee: Target | None) -> Target | None:
        """What calling (or `new`-ing) `callee` gives."""
        if isinstance(callee, SymbolRef):
            symbol = self.lookups.symbol(callee.qualified_name)
            if symbol is None:
                return None
            if symbol.kind == SymbolKind.CLASS:
                return Instance(symbol.qualified_name)
            typed = self._typed(symbol, symbol.returns) if symbol.returns is not None else None
            if typed is None and self._is_constructor(symbol):  # new Foo() of `function Foo`
                return Instance(symbol.qualified_name)  # with a prototype
            return typed
        if isinstance(callee, External) and callee.dotted[-1][:1].isupper():
            return External(callee.dotted, inferred=True)
        return None

    def _binding_value(self, bindings: list[Binding] | None, scope: str) -> Target | None:
        """The value a name holds when all its typed bindings agree."""
        module = self._module_of(scope)
        if bindings and (bindings[0].scope, bindings[0].target) in self._resolving:
            self._cycles_cut += 1  # agreed_value answers None: a name met again while read
        return agreed_value(bindings, self._resolving, lambda b: self._bound(b, module), single)

    def _bound(self, binding: Binding, module: str) -> Target | None:
        """The value one typed binding gives its name."""
        value = self.resolve_dotted(binding.scope, binding.value, module, binding.line)
        if binding.kind == "annotation":
            return self.as_instance(value)
        if binding.kind == "alias":
            return mark(value, True)
        if binding.kind == "export":
            return value
        result = self.call_result(value)
        if result is None and binding.value[-1] in ELEMENT_CALLS and len(binding.value) > 1:
            # `xs.find(…)` of an array: one of its elements (not a method of ours)
            element = element_of(binding.value[:-1])
            return mark(self.resolve_dotted(binding.scope, element, module, binding.line), True)
        return result

    def _module_of(self, scope: str) -> str:
        module = self.lookups.index.symbol_module.get(scope)
        return module if module is not None else scope

    # -- classes ------------------------------------------------------------------------------
    def _bases(self, class_name: str, *, implements: bool = False) -> list[Target | None]:
        symbol = self.lookups.symbol(class_name)
        if symbol is None:
            return []
        module = self.lookups.index.symbol_module[class_name]
        names = symbol.bases + (symbol.implements if implements else ())
        return [self.resolve_dotted(symbol.parent, base, module) for base in names]

    def mro(self, class_name: str) -> list[str]:
        """The class, its `extends` chain, then the interfaces they implement (where abstract
        classes find members they only declare through an interface)."""
        cached = self._mro.get(class_name)
        if cached is not None:
            return cached
        self._mro[class_name] = [class_name]  # cycle guard
        order = [class_name]
        for base in self._bases(class_name, implements=True):
            if isinstance(base, SymbolRef) and self._kind(base.qualified_name) in (
                SymbolKind.CLASS,
                SymbolKind.FUNCTION,
            ):
                order.extend(c for c in self.mro(base.qualified_name) if c not in order)
        self._mro[class_name] = order
        return order

    def _external_base(self, class_name: str) -> External | None:
        return sole_external(base for cls in self.mro(class_name) for base in self._bases(cls))

    def constructor(self, class_name: str) -> str | None:
        """The `constructor` a `new` runs (own or inherited through `extends`)."""
        symbol = self.lookups.symbol(class_name)
        if symbol is None or symbol.kind != SymbolKind.CLASS:
            return None
        for cls in self.mro(class_name):
            owner = self.lookups.symbol(cls)
            if owner is None or owner.declared_as == "interface":
                continue
            found = self.lookups.members(cls, "constructor")
            if found:
                return found[0]
        return None


def _is_arrow(symbol: Symbol) -> bool:
    """A function declared as `const f = () => …` (a class field's arrow is a method)."""
    return symbol.kind == SymbolKind.FUNCTION and symbol.declared_as == "arrow function"


def _is_exported_object_method(symbol: Symbol) -> bool:
    """A function of `module.exports = { … }` (a module-level function whose `this` is the
    exports object, or an object made from it with `Object.create`)."""
    return symbol.kind == SymbolKind.FUNCTION and symbol.declared_as in (
        "object method", "getter", "setter",
    )  # fmt: skip


def _is_class(symbol: Symbol) -> bool:
    """A class proper (not an interface, enum, namespace or object literal)."""
    return symbol.kind == SymbolKind.CLASS and symbol.declared_as in (None, "abstract class")


def _last_private(parts: Dotted) -> int:
    """The index of the last private name (`#x`) after the head of `parts`; 0 when none."""
    return max((i for i, part in enumerate(parts) if i and part.startswith("#")), default=0)
