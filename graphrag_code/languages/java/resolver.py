"""Names and types as javac would read them in one file: types by scope (nested and local
types, the file's own, single-type imports, the package, on-demand imports, `java.lang`,
fully qualified names), the declared type of a name (locals, parameters, fields of the
enclosing and inherited types), the type of an expression (`syntax.expression`'s records),
and the methods a name reaches along a type's supertypes.

A `Found` is an internal class or method by qualified name, or an external one by its
dotted name (`java.util.List`). Every read goes through `Lookups`, so incremental linking
knows which files a file's edges depend on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ...linking.index import Lookups, ModuleInfo
from ...model import (
    Attribute,
    Binding,
    Call,
    DeclaredAs,
    Dotted,
    Expr,
    ImportStatement,
    InstanceOf,
    Name,
    OneOf,
    ParsedFile,
    Subscript,
    Symbol,
    SymbolKind,
)
from .builds import Builds
from .functional import LAMBDA
from .modules import build_folder, module_qualifier
from .overloads import Argument, Candidate
from .parser import PACKAGE
from .syntax import ITEM

__all__ = ["Found", "JavaProject", "JavaResolver", "Resolvers"]

# the types of `java.lang` a file names without importing them (the common ones)
_JAVA_LANG = frozenset(
    {
        "Object", "String", "StringBuilder", "StringBuffer", "Math", "System", "Integer", "Long",
        "Short", "Byte", "Double", "Float", "Boolean", "Character", "Number", "Enum", "Class",
        "Thread", "Runnable", "Exception", "RuntimeException", "Error", "Throwable",
        "IllegalArgumentException", "IllegalStateException", "NullPointerException", "Iterable",
        "Comparable", "CharSequence", "AutoCloseable", "Cloneable", "Override", "Deprecated",
        "SuppressWarnings", "FunctionalInterface", "SafeVarargs", "Void", "ThreadLocal",
        "UnsupportedOperationException", "IndexOutOfBoundsException",
        "ArrayIndexOutOfBoundsException", "ClassCastException", "Record", "InterruptedException",
        "CloneNotSupportedException", "ArithmeticException", "Process", "Runtime",
        "StackTraceElement", "SecurityException", "ReflectiveOperationException",
        "ClassNotFoundException", "NumberFormatException", "StrictMath", "AssertionError",
        "OutOfMemoryError", "StackOverflowError", "ClassLoader", "Package", "Appendable",
        "Readable",
    }
)  # fmt: skip
# what common JDK methods return, by name: the type of an argument that is such a call
_JDK_RESULTS = {
    **dict.fromkeys(
        ("toString", "name", "getName", "getSimpleName", "trim", "substring", "toLowerCase",
         "toUpperCase", "replace", "format", "valueOf", "strip", "getMessage"), "String"
    ),
    **dict.fromkeys(("hashCode", "size", "length", "indexOf", "intValue", "ordinal"), "int"),
    **dict.fromkeys(("equals", "isEmpty", "contains", "startsWith", "endsWith"), "boolean"),
    "charAt": "char",
    "longValue": "long",
    "doubleValue": "double",
    "toCharArray": "char[]",
}  # fmt: skip
# the methods of the JDK's containers that give one of their elements
_ELEMENT_METHODS = frozenset(
    {"get", "getFirst", "getLast", "next", "previous", "peek", "poll", "pop", "element",
     "orElse", "orElseThrow", "orElseGet", "first", "last", "firstElement", "lastElement",
     "remove", "take", "getValue"}
)  # fmt: skip
_NUMERIC = ("byte", "short", "char", "int", "long", "float", "double")
_PRIMITIVES = frozenset({"int", "long", "short", "byte", "char", "float", "double", "boolean"})
_PRIMITIVE_NAMES = frozenset((primitive,) for primitive in _PRIMITIVES)
_MAX_SUPERS = 64  # types visited along one type's supertypes


@dataclass(frozen=True)
class Found:
    name: str
    external: bool = False


@dataclass
class JavaProject:
    """Per run: each Java file's package, the top-level types of each package, its files;
    the types several build modules declare (`modules`, `builds`)."""

    package_of: dict[str, str] = field(default_factory=dict)  # module -> package
    types: dict[str, dict[str, str]] = field(default_factory=dict)  # package -> name -> qn
    files: dict[str, list[str]] = field(default_factory=dict)  # package -> modules
    # a top-level type's name as its package says (`p.Util`) -> each declaration of it that
    # a build module's qualifier names (`core/p.Util`), with that build module's folder
    variants: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    builds: Builds = field(default_factory=Builds)

    @classmethod
    def of(cls, modules: dict[str, ModuleInfo], build_files: Mapping[str, str]) -> JavaProject:
        project = cls()
        for module, info in sorted(modules.items()):
            if info.parsed.language != "java":
                continue
            package = file_package(info.parsed)
            project.package_of[module] = package
            project.files.setdefault(package, []).append(module)
            names = project.types.setdefault(package, {})
            for name, defined in info.defs.items():
                names.setdefault(name, defined[0])
            if module_qualifier(module):
                for name in info.defs:
                    project.variants.setdefault(f"{package}.{name}" if package else name, [])
        for module, declared in sorted(project.package_of.items()):
            info = modules[module]
            for name, defined in info.defs.items():
                found = project.variants.get(f"{declared}.{name}" if declared else name)
                if found is not None:
                    found.append((defined[0], build_folder(info.parsed.path)))
        if project.variants:
            project.builds = Builds.read(build_files)
        return project


def file_package(parsed: ParsedFile) -> str:
    for binding in parsed.bindings:
        if binding.target == (PACKAGE,):
            return ".".join(binding.value)
    return ""


class Resolvers:
    """The resolvers of one link: the file's own and those of the files whose declarations
    it reads (a base class is named in its own file's scope)."""

    def __init__(self, lookups: Lookups, project: JavaProject) -> None:
        self.lookups = lookups
        self.project = project
        self._made: dict[str, JavaResolver] = {}

    def of(self, module: str) -> JavaResolver | None:
        found = self._made.get(module)
        if found is None:
            info = self.lookups.module(module)
            if info is None:
                return None
            found = self._made[module] = JavaResolver(info.parsed, self)
        return found

    def of_symbol(self, qualified_name: str) -> JavaResolver | None:
        module = self.lookups.index.symbol_module.get(qualified_name)
        return self.of(module) if module is not None else None


class JavaResolver:
    def __init__(self, parsed: ParsedFile, resolvers: Resolvers) -> None:
        self.parsed = parsed
        self.resolvers = resolvers
        self.lookups = resolvers.lookups
        self.project = resolvers.project
        self.package = resolvers.project.package_of.get(parsed.module, file_package(parsed))
        self.build = build_folder(parsed.path)
        self.single = {
            s.name: self._imported(s) for s in parsed.imports if s.name not in (None, "*")
        }
        self.stars = [self.internal(s.module) for s in parsed.imports if s.name == "*"]
        self._own = {s.qualified_name: s for s in parsed.symbols if s.ordinal == 1}
        self._types: dict[tuple[Dotted, str], Found | None] = {}
        # per link: the same lookups (and so the same modules consulted) every time
        self._supertypes: dict[str, list[str]] = {}
        self._direct: dict[str, list[Found]] = {}
        self._calls = {(c.scope, c.line, c.callee): c for c in parsed.calls}
        self._typing: set[Binding] = set()  # lambda parameters being typed

    def internal(self, name: str) -> str:
        """`name` as the repository names it for this file (`p.Util.add` -> `core/p.Util.add`
        where several build modules declare `p.Util`: the one this file's build module sees,
        `builds`); unchanged where none do, or where which one is not evident."""
        chosen = self._chosen(name)
        return name if chosen is None else chosen

    def _chosen(self, name: str) -> str | None:
        """`internal`'s answer, None where which declaration is meant is not evident."""
        seen = self._seen(name)
        return name if seen is None else seen[0] if len(seen) == 1 else None

    def unclear(self, name: str) -> list[str]:
        """What `name` may mean where several build modules declare it and which one this
        file's build module sees is not evident (none where it is, or none do)."""
        seen = self._seen(name)
        return seen if seen is not None and len(seen) != 1 else []

    def _seen(self, name: str) -> list[str] | None:
        """The declarations `name` may mean as this file's build module sees them (all of
        them where that is not evident); None where no build module qualifies it."""
        variants = self.project.variants
        if not variants:
            return None
        parts = name.split(".")
        for size in range(1, len(parts) + 1):
            top = ".".join(parts[:size])
            found = variants.get(top)
            if found is not None:
                seen = self.project.builds.order(self.build, found) or [n for n, _ in found]
                return [declared + name[len(top) :] for declared in seen]
        return None

    def _imported(self, statement: ImportStatement) -> ImportStatement:
        """A single-type or static import with its qualifier as `internal` reads it."""
        if not self.project.variants or statement.name is None:
            return statement
        named = self.internal(f"{statement.module}.{statement.name}")
        module = named.removesuffix("." + statement.name)
        return replace(statement, module=module) if module != statement.module else statement

    def call_at(self, scope: str, line: int, callee: Dotted) -> Call | None:
        """The call of this file's site at `line` of `scope` with this callee."""
        site = self._calls.get((scope, line, callee))
        return site.value if site is not None and isinstance(site.value, Call) else None

    # -- symbols and scopes -------------------------------------------------------------------
    def symbol(self, name: str) -> Symbol | None:
        return self._own.get(name) or self.lookups.symbol(name)

    def scopes(self, scope: str) -> list[str]:
        """`scope` and the symbols around it, innermost first, up to the top-level type."""
        found = []
        current: str | None = scope
        while current is not None and current != self.parsed.module:
            found.append(current)
            symbol = self.symbol(current)
            current = symbol.parent if symbol is not None else None
        return found

    def classes_around(self, scope: str) -> list[str]:
        return [s for s in self.scopes(scope) if _is_class(self.symbol(s))]

    # -- types --------------------------------------------------------------------------------
    def type_of(self, dotted: Dotted, scope: str) -> Found | None:
        key = (dotted, scope)
        if key not in self._types:
            self._types[key] = self._type_of(dotted, scope)
        return self._types[key]

    def _type_of(self, dotted: Dotted, scope: str) -> Found | None:
        if not dotted or dotted[-1].endswith("]") or dotted[0] in _PRIMITIVES:
            return None
        found = self._simple_type(dotted[0], scope)
        rest = dotted[1:]
        if found is None:
            for size in range(len(dotted), 1, -1):
                qualified = self.internal(".".join(dotted[:size]))
                if _is_class(self.lookups.symbol(qualified)):
                    found, rest = Found(qualified), dotted[size:]
                    break
            else:
                if (
                    len(dotted) > 1
                    and dotted[0][:1].islower()
                    and not self.unclear(".".join(dotted))
                ):
                    return Found(".".join(dotted), external=True)
                return None
        for part in rest:
            found = self.member_type(found, part)
            if found is None:
                return None
        return found

    def member_type(self, owner: Found, name: str) -> Found | None:
        if owner.external:
            return Found(f"{owner.name}.{name}", external=True)
        for cls in self.supertypes(owner.name):
            for qualified in self.lookups.members(cls, name):
                if _is_class(self.lookups.symbol(qualified)):
                    return Found(qualified)
        return None

    def _simple_type(self, name: str, scope: str) -> Found | None:
        # a type of this name declared anywhere later may be the one meant (incremental runs
        # relink the files that read a name whose declarations changed)
        self.lookups.names_consulted.add(name)
        for around in self.scopes(scope):
            for qualified in self.lookups.members(around, name):
                if _is_class(self.symbol(qualified)):
                    return Found(qualified)
            if _is_class(self.symbol(around)):
                for cls in self.supertypes(around)[1:]:
                    for qualified in self.lookups.members(cls, name):
                        if _is_class(self.lookups.symbol(qualified)):
                            return Found(qualified)
        own = self.lookups.module(self.parsed.module)
        if own is not None and name in own.defs:
            return Found(own.defs[name][0])
        statement = self.single.get(name)
        if statement is not None:
            qualified = f"{statement.module}.{name}"
            if _is_class(self.lookups.symbol(qualified)):
                return Found(qualified)
            if self.unclear(qualified):
                return None  # several build modules declare it, which one is not evident
            if self.lookups.symbol(statement.module) is None and _names_type(name):
                return Found(qualified, external=True)
            return None  # a static import of a method or field
        in_package = self.project.types.get(self.package, {}).get(name)
        if in_package is not None and self.project.variants:
            plain = f"{self.package}.{name}" if self.package else name
            in_package = self._chosen(plain) if plain in self.project.variants else in_package
        if in_package is not None:
            self.lookups.symbol(in_package)
            return Found(in_package)
        for module in self.stars:
            qualified = self.internal(f"{module}.{name}")
            if _is_class(self.lookups.symbol(qualified)):
                return Found(qualified)
        if name in _JAVA_LANG:
            return Found(f"java.lang.{name}", external=True)
        return None

    def supertypes(self, cls: str) -> list[str]:
        """`cls` and its internal supertypes, breadth first (superclasses before interfaces)."""
        known = self._supertypes.get(cls)
        if known is not None:
            return known
        order = self._supertypes[cls] = [cls]
        for current in order:
            if len(order) >= _MAX_SUPERS:
                break
            for base in self.direct_supertypes(current):
                if not base.external and base.name not in order:
                    order.append(base.name)
        return order

    def direct_supertypes(self, cls: str) -> list[Found]:
        known = self._direct.get(cls)
        if known is None:
            known = self._direct[cls] = self._direct_supertypes(cls)
        return known

    def _direct_supertypes(self, cls: str) -> list[Found]:
        symbol = self.symbol(cls)
        resolver = self if cls in self._own else self.resolvers.of_symbol(cls)
        if symbol is None or resolver is None:
            return []
        found = []
        for base in (*symbol.bases, *symbol.implements):
            typed = resolver.type_of(base, symbol.parent)
            if typed is not None and typed.name != cls:
                found.append(typed)
        return found

    def superclass(self, cls: str) -> Found | None:
        """What `super.` names in `cls`: the class it extends, else `java.lang.Object`."""
        symbol = self.symbol(cls)
        resolver = self if cls in self._own else self.resolvers.of_symbol(cls)
        if symbol is None or resolver is None:
            return None
        if symbol.bases and symbol.declared_as not in ("interface", "anonymous class"):
            return resolver.type_of(symbol.bases[0], symbol.parent)
        if symbol.declared_as == "anonymous class" and symbol.bases:
            base = resolver.type_of(symbol.bases[0], symbol.parent)
            base_symbol = None if base is None or base.external else self.lookups.symbol(base.name)
            if base_symbol is None or base_symbol.declared_as != "interface":
                return base
        return Found("java.lang.Object", external=True)

    def external_supertype(self, cls: str) -> str | None:
        """The first external supertype of `cls` or of its internal supertypes."""
        for current in self.supertypes(cls):
            for base in self.direct_supertypes(current):
                if base.external:
                    return base.name
        return None

    # -- members ------------------------------------------------------------------------------
    def methods(self, cls: str, name: str) -> list[Candidate]:
        """The methods named `name` of `cls` and its supertypes, an override hiding the
        method it overrides (never a sibling: overloads of one class whose parameters are
        type variables, `notEmpty(T)` with different bounds, look alike here)."""
        found: list[Candidate] = []
        seen: set[tuple[str, ...]] = set()
        for current in self.supertypes(cls):
            hidden = set(seen)
            for qualified in self.lookups.members(current, name):
                symbol = self.lookups.symbol(qualified)
                if symbol is None or symbol.kind != SymbolKind.METHOD:
                    continue
                if symbol.declared_as == "constructor":
                    continue
                candidate = self.candidate(symbol)
                if candidate.types not in hidden:
                    seen.add(candidate.types)
                    found.append(candidate)
        return found

    def constructors(self, cls: str) -> list[Candidate]:
        symbol = self.lookups.symbol(cls)
        if symbol is None:
            return []
        return [
            self.candidate(found)
            for qualified in self.lookups.members(cls, symbol.name)
            if (found := self.lookups.symbol(qualified)) is not None
            and found.declared_as == "constructor"
        ]

    def candidate(self, method: Symbol) -> Candidate:
        bindings = self.lookups.index.scope_bindings.get(method.qualified_name, {})
        types = tuple(_first_value(bindings.get((parameter,))) for parameter in method.parameters)
        return Candidate(method.qualified_name, types, method.parameter_kinds.endswith("*"))

    def field_type(self, cls: str, name: str) -> Found | None:
        for current in self.supertypes(cls):
            bindings = self.lookups.attribute_bindings(current, name)
            if bindings:
                resolver = self if current in self._own else self.resolvers.of_symbol(current)
                return resolver.type_of(bindings[0].value, current) if resolver else None
        return None

    # -- values -------------------------------------------------------------------------------
    def name_type(self, name: str, scope: str, line: int) -> Found | None:
        """The declared type of a local, parameter or field `name` seen from `scope`."""
        for around in self.scopes(scope):
            symbol = self.symbol(around)
            if _is_class(symbol):
                found = self.field_type(around, name)
                if found is not None:
                    return found
                continue
            bindings = self.lookups.index.scope_bindings.get(around, {}).get((name,))
            if bindings:
                return self._binding_type(_latest(bindings, line), line)
        statement = self.single.get(name)
        if statement is not None and _is_class(self.lookups.symbol(statement.module)):
            return self.field_type(statement.module, name)  # a static import of a field
        return None

    def declared(self, name: str, scope: str, line: int) -> str | None:
        """The type a local, parameter or field `name` is declared with, as written (its
        last part: `int`, `String[]`, `Node`)."""
        for around in self.scopes(scope):
            if _is_class(self.symbol(around)):
                for current in self.supertypes(around):
                    fields = self.lookups.attribute_bindings(current, name)
                    if fields:
                        return fields[0].value[-1]
                continue
            local = self.lookups.index.scope_bindings.get(around, {}).get((name,))
            if local:
                binding = _latest(local, line)
                if binding.kind == "annotation":
                    return binding.value[-1]
                found = self._binding_type(binding, line)
                return found.name.rpartition(".")[2] if found is not None else None
        return None

    def argument(self, expr: Expr, scope: str, line: int) -> Argument | None:
        """An argument's type where it is evident: a literal, a declared name, `new T()`, a
        cast, a field, a call's declared result."""
        if isinstance(expr, DeclaredAs):
            return Argument(expr.classes[0][-1])
        if (
            isinstance(expr, InstanceOf)
            and isinstance(expr.classes, Name)
            and expr.classes.dotted in _PRIMITIVE_NAMES
        ):
            return Argument(expr.classes.dotted[0])  # a cast to a primitive: `(char) i`
        found: Found | None = None
        if isinstance(expr, Name) and len(expr.dotted) == 1 and expr.dotted[0] != "this":
            declared = self.declared(expr.dotted[0], scope, line)
            if declared is None:
                return None
            found = self.type_of((declared,), scope)
            if found is None or found.external:
                return Argument(declared)
        elif isinstance(expr, Name) and len(expr.dotted) > 1:
            owner, _ = self.receiver(expr.dotted[:-1], scope, line)
            if owner is None or owner.external:
                return None
            for current in self.supertypes(owner.name):
                bindings = self.lookups.attribute_bindings(current, expr.dotted[-1])
                if bindings:
                    found = self.type_of(bindings[0].value, current)
                    if found is None or found.external:
                        return Argument(bindings[0].value[-1])
                    break
        elif isinstance(expr, Call):
            return self._result_argument(expr, scope, line)
        elif isinstance(expr, OneOf):
            return _common([self.argument(option, scope, line) for option in expr.options])
        elif isinstance(expr, Subscript) and isinstance(expr.value, Name):
            dotted = expr.value.dotted
            array = self.declared(dotted[0], scope, line) if len(dotted) == 1 else None
            if array is None or not array.endswith("[]"):
                return None
            found = self.type_of((array[:-2],), scope)
            if found is None or found.external:
                return Argument(array[:-2])
        else:
            found = self.value_type(expr, scope, line)
        if found is None:
            return None
        return self._argument_of(found)

    def _argument_of(self, found: Found) -> Argument:
        simple = found.name.rpartition(".")[2]
        if found.external or self.external_supertype(found.name) is not None:
            return Argument(simple)
        names = frozenset(name.rpartition(".")[2] for name in self.supertypes(found.name))
        return Argument(simple, names | {"Object"})

    def _result_argument(self, call: Call, scope: str, line: int) -> Argument | None:
        from .calls import call_targets

        targets, _ = call_targets(self, call, scope, line)
        if len(targets) == 1 and targets[0].external:
            known = _JDK_RESULTS.get(targets[0].name.rpartition(".")[2])
            return Argument(known) if known is not None else None
        if len(targets) != 1:
            return None
        method = self.lookups.symbol(targets[0].name)
        if method is None:
            return None
        if method.kind == SymbolKind.CLASS:
            return self._argument_of(Found(method.qualified_name))
        if method.declared_as == "constructor":
            return self._argument_of(Found(method.parent))
        if method.returns is None:
            return None
        resolver = self.resolvers.of_symbol(method.qualified_name)
        typed = resolver.type_of(method.returns, method.qualified_name) if resolver else None
        if typed is None or typed.external:
            return Argument(method.returns[-1])
        return self._argument_of(typed)

    def _binding_type(self, binding: Binding, line: int) -> Found | None:
        if binding.kind == "annotation":
            return self.type_of(binding.value, binding.scope)
        if binding.kind == "alias" and binding.value[0] != binding.target[0]:
            return self.name_type(binding.value[0], binding.scope, binding.line)
        if binding.kind == "opaque" and binding.value[:1] == (LAMBDA,):
            from .lambdas import lambda_parameter

            if binding in self._typing:  # a lambda's call whose receiver is its parameter
                return None
            self._typing.add(binding)
            try:
                return lambda_parameter(self, binding)
            finally:
                self._typing.discard(binding)
        if binding.kind == "call":
            site = self._calls.get((binding.scope, binding.line, binding.value))
            if site is not None and site.value is not None:
                return self.value_type(site.value, site.scope, site.line)
        return None

    def value_type(self, expr: Expr, scope: str, line: int) -> Found | None:
        """The type of an expression, where its declarations say it."""
        if isinstance(expr, Name):
            return self.receiver(expr.dotted, scope, line)[0]
        if isinstance(expr, InstanceOf) and isinstance(expr.classes, Name):
            return self.type_of(expr.classes.dotted, scope)
        if isinstance(expr, DeclaredAs):
            literal = expr.classes[0]
            return Found("java.lang.String", external=True) if literal == ("String",) else None
        if isinstance(expr, Attribute):
            owner = self.value_type(expr.value, scope, line)
            if owner is None or owner.external:
                return None
            return self.field_type(owner.name, expr.name)
        if isinstance(expr, Call):
            return self.result_type(expr, scope, line)
        if isinstance(expr, Subscript) and isinstance(expr.value, Name):
            dotted = expr.value.dotted  # an array's element: `nodes[i]` of `Node[] nodes`
            array = self.declared(dotted[0], scope, line) if len(dotted) == 1 else None
            if array is not None and array.endswith("[]"):
                return self.type_of((array[:-2],), scope)
        return None

    def result_type(self, call: Call, scope: str, line: int) -> Found | None:
        from .calls import call_targets  # the call rules use these tables, and these them

        element = self._element(call, scope, line)
        if element is not None:
            return element

        targets, _ = call_targets(self, call, scope, line)
        found: set[Found] = set()
        for target in targets:
            if target.external:
                return None
            method = self.lookups.symbol(target.name)
            if method is None:
                return None
            if method.kind == SymbolKind.CLASS:
                found.add(Found(method.qualified_name))
                continue
            if method.declared_as == "constructor":
                found.add(Found(method.parent))
                continue
            resolver = self.resolvers.of_symbol(method.qualified_name)
            if method.returns is None or resolver is None:
                return None
            typed = resolver.type_of(method.returns, method.qualified_name)
            if typed is None:
                typed = self._type_variable_result(call, method, scope, line)
            if typed is None:
                return None
            found.add(typed)
        return found.pop() if len(found) == 1 else None

    def _type_variable_result(
        self, call: Call, method: Symbol, scope: str, line: int
    ) -> Found | None:
        """What `box.get()` gives when `get` returns its class's last type parameter and
        `box` is declared with type arguments (`Box<Item> box`: Item)."""
        callee = call.callee
        if method.returns is None or len(method.returns) != 1:
            return None
        if not (isinstance(callee, Attribute) and isinstance(callee.value, Name)):
            return None
        if len(callee.value.dotted) != 1:
            return None
        owner = self.lookups.symbol(method.parent)
        parameters = type_parameters(owner.signature, owner.name) if owner else ()
        if not parameters or parameters[-1] != method.returns[0]:
            return None
        return self.type_argument(callee.value.dotted[0], scope, line)

    def _element(self, call: Call, scope: str, line: int) -> Found | None:
        """An element a JDK container's getter gives (`nodes.get(i)` of `List<Node> nodes`)."""
        callee = call.callee
        if not (isinstance(callee, Attribute) and callee.name in _ELEMENT_METHODS):
            return None
        if not (isinstance(callee.value, Name) and len(callee.value.dotted) == 1):
            return None
        return self.element_of(callee.value.dotted[0], scope, line)

    def element_of(self, name: str, scope: str, line: int) -> Found | None:
        """The type of the elements of a JDK container `name` declared with its type
        arguments (`List<Node> nodes`: Node; a `Map`'s values)."""
        container = self.name_type(name, scope, line)
        if container is None or not container.external:
            return None
        return self.type_argument(name, scope, line)

    def type_argument(self, name: str, scope: str, line: int) -> Found | None:
        """The type of the last type argument `name` is declared with (`Box<Item> box`)."""
        for around in self.scopes(scope):
            if _is_class(self.symbol(around)):
                for current in self.supertypes(around):
                    table = self.lookups.index.scope_bindings.get(current, {})
                    found = table.get((name, ITEM))
                    if found:
                        self.lookups.symbol(current)
                        return self.type_of(found[0].value, current)
                continue
            items = self.lookups.index.scope_bindings.get(around, {}).get((name, ITEM))
            if items:
                return self.type_of(_latest(items, line).value, around)
            if (name,) in self.lookups.index.scope_bindings.get(around, {}):
                return None
        return None

    def receiver(self, dotted: Dotted, scope: str, line: int) -> tuple[Found | None, bool]:
        """The type of a dotted receiver and whether it names the type itself (a static
        call) rather than a value of it."""
        head, rest = dotted[0], dotted[1:]
        classes = self.classes_around(scope)
        found: Found | None
        static = False
        if head == "this":
            found = Found(classes[0]) if classes else None
        elif head == "super":
            found = self.superclass(classes[0]) if classes else None
        else:
            found = self.name_type(head, scope, line)
            if found is None:
                for size in range(1, len(dotted) + 1):
                    typed = self.type_of(dotted[:size], scope)
                    if typed is not None and not (
                        typed.external and size < len(dotted) and dotted[size][:1].isupper()
                    ):
                        found, rest, static = typed, dotted[size:], True
                        break
        if static and found is not None and not found.external:
            symbol = self.lookups.symbol(found.name)
            if symbol is not None and symbol.declared_as == "enum constant":
                found, static = Found(symbol.parent), False  # a value of its enum
        for part in rest:
            if found is None or found.external:
                return None, False
            if part == "this":  # `Outer.this`
                static = False
                continue
            field_type = self.field_type(found.name, part)
            if field_type is None and static:
                nested = self.member_type(found, part)
                if nested is not None:
                    found = nested
                    continue
            found, static = field_type, False
        return found, static


def type_parameters(signature: str, name: str) -> tuple[str, ...]:
    """The names of a class's type parameters from its header (`class Box<K, V extends
    Item>` -> ("K", "V"))."""
    at = signature.find(name + "<")
    if at < 0:
        return ()
    depth, start, found = 0, at + len(name) + 1, []
    for end in range(start - 1, len(signature)):
        char = signature[end]
        depth += (char == "<") - (char == ">")
        if (char == "," and depth == 1) or depth == 0:
            found.append(signature[start:end].split()[0] if signature[start:end].split() else "")
            start = end + 1
        if depth == 0:
            break
    return tuple(found)


def _common(found: list[Argument | None]) -> Argument | None:
    """The type of `a ? b : c` or `a + b`: the one both have, the wider of two numbers."""
    names = [argument.name for argument in found if argument is not None]
    if len(names) != len(found) or not names:
        return None
    if "String" in names:
        return Argument("String")
    numeric = [name for name in _NUMERIC if name in names]
    if len(set(names)) == 1:
        return found[0]
    return Argument(numeric[-1]) if len(numeric) == len(set(names)) else None


def _names_type(name: str) -> bool:
    """Whether a statically imported name may be a nested type: not `max`, not `UTF_8`."""
    return name[:1].isupper() and not (name.isupper() and ("_" in name or len(name) > 4))


def _is_class(symbol: Symbol | None) -> bool:
    return symbol is not None and symbol.kind == SymbolKind.CLASS


def _latest(bindings: list[Binding], line: int) -> Binding:
    before = [b for b in bindings if b.line <= line]
    return before[-1] if before else bindings[0]


def _first_value(bindings: list[Binding] | None) -> str:
    if not bindings:
        return "?"
    return bindings[0].value[-1]
