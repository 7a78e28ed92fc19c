"""What a Go name, type or callee is, seen from one file: the package's declarations (any file
of it), the file's imports, and the declared types of receivers, parameters, variables and
struct fields.

A type is a `TypeRef`: an internal type's qualified name, or an external one by import path
and name (`bytes.Buffer`). A callee resolves to a `Callee`: the function or method it names
and whether that took a type's inference (tier `inferred`) or only scope and imports
(`exact`). Method lookups follow embedded fields (promoted methods), breadth first, and
aliases (`type A = B`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...linking.index import Lookups
from ...model import Binding, Dotted, ImportStatement, ParsedFile, SymbolKind
from .externals import (
    PREDECLARED_INTERFACES,
    external_conversion,
    external_method,
    external_result,
)
from .modules import GoProject, package_dir, package_name, qualify
from .syntax import (
    CALLED,
    ELEMENT,
    LITERAL_MARK,
    RESULT,
    RETURNS,
    STRUCT_MARK,
    package_clause,
)

__all__ = ["Callee", "GoResolver", "Imported", "TypeRef", "variable_key"]

_VERSION = re.compile(r"v[0-9]+")
_MAX_DEPTH = 6  # embedded structs, aliases and call results followed at most this deep


@dataclass(frozen=True)
class TypeRef:
    """A named type: internal (`name` a qualified name) or external (`name` "path.Type")."""

    name: str
    external: bool = False
    container: bool = False  # a slice, array, map or channel of the type (`[]*T`)

    def element(self) -> TypeRef | None:
        """What indexing or ranging over a container of the type gives."""
        return TypeRef(self.name, self.external) if self.container else None


@dataclass(frozen=True)
class Callee:
    name: str  # a qualified name, or an external "path.Name"
    external: bool
    inferred: bool
    conversion: bool = False  # `T(x)`: a type, not a call


@dataclass(frozen=True)
class Imported:
    """One import of the file: the path, the repository directory it leads to (None outside)."""

    path: str
    directory: str | None


def variable_key(name: str) -> str:
    """The name an incremental run compares for a package-level variable or constant (`rules`
    offers it for each file declaring one)."""
    return f"go:var:{name}"


def _guessed_name(path: str) -> str:
    """The package name an import path conventionally binds (`gopkg.in/yaml.v3` -> yaml,
    `github.com/mattn/go-isatty` -> isatty, `github.com/x/y/v2` -> y)."""
    parts = path.split("/")
    last = parts[-1]
    if len(parts) > 1 and _VERSION.fullmatch(last):
        last = parts[-2]
    last = last.removeprefix("go-").removesuffix("-go").split(".")[0]
    return last.replace("-", "_")


class GoResolver:
    """Resolves names for one file."""

    def __init__(self, parsed: ParsedFile, lookups: Lookups, project: GoProject) -> None:
        self.parsed = parsed
        self.lookups = lookups
        self.project = project
        self.package = project.package_of.get(parsed.module) or file_package(parsed)
        self._consulted: set[str] = set()
        self._others: dict[str, GoResolver] = {parsed.path: self}
        self.imports: dict[str, Imported] = {}  # bound name -> import
        self.dot_imports: list[Imported] = []
        for statement in parsed.imports:
            self._bind(statement)

    # -- imports ---------------------------------------------------------------------------
    def _bind(self, statement: ImportStatement) -> None:
        directory = self.project.directory_of(statement.module)
        imported = Imported(statement.module, directory)
        if statement.alias == ".":
            self.dot_imports.append(imported)
        elif statement.alias not in (None, "_"):
            self.imports[statement.alias] = imported
        elif statement.alias is None:
            name = self._package_clause(directory) if directory is not None else None
            self.imports[name or _guessed_name(statement.module)] = imported

    def _package_clause(self, directory: str) -> str | None:
        for module in self.project.packages.get(directory, ()):
            info = self.lookups.module(module)
            if info is not None and not info.parsed.path.endswith("_test.go"):
                return package_clause(info.parsed)
        return None

    def consult_package(self, directory: str) -> None:
        """Note every file of a package as consulted (a declaration may move between them)."""
        if directory not in self._consulted or self.lookups.recording:
            self._consulted.add(directory)
            self.lookups.modules_consulted.update(self.project.packages.get(directory, ()))

    # -- types -----------------------------------------------------------------------------
    def type_in(self, parsed: ParsedFile, dotted: Dotted) -> TypeRef | None:
        """The type `dotted` names in another file (where a field or a result is declared)."""
        return self.resolver_of(parsed).type_of(dotted)

    def resolver_of(self, parsed: ParsedFile) -> GoResolver:
        """The resolver of another file (where a field, a result, a variable is declared)."""
        other = self._others.get(parsed.path)
        if other is None:
            other = self._others[parsed.path] = GoResolver(parsed, self.lookups, self.project)
            other._others = self._others
        return other

    def type_of(self, dotted: Dotted) -> TypeRef | None:
        if dotted[:1] == (ELEMENT,):
            inner = self.type_of(dotted[1:])
            return TypeRef(inner.name, inner.external, True) if inner is not None else None
        if len(dotted) == 1 and dotted[0].startswith(STRUCT_MARK):
            return TypeRef(dotted[0])  # an anonymous struct type (`syntax.STRUCT_MARK`)
        if len(dotted) == 1:
            found = self._local(dotted[0])
            if found is None and dotted[0] in PREDECLARED_INTERFACES:
                return TypeRef(dotted[0], external=True)
            return TypeRef(found) if found is not None and self._is_type(found) else None
        if len(dotted) == 2 and dotted[0] in self.imports:
            imported = self.imports[dotted[0]]
            if imported.directory is None:
                return TypeRef(f"{imported.path}.{dotted[1]}", external=True)
            self.consult_package(imported.directory)
            found = qualify(package_name(imported.directory), dotted[1])
            return TypeRef(found) if self._is_type(found) else None
        return None

    def _local(self, name: str) -> str | None:
        """A package-level declaration of the file's package (or of a dot-imported one)."""
        self.lookups.names_consulted.add(name)  # a file of the package may declare it later
        self.consult_package(package_dir(self.parsed.module))
        found = qualify(self.package, name)
        if self.lookups.symbol(found) is not None:
            return found
        for imported in self.dot_imports:
            if imported.directory is not None:
                found = qualify(package_name(imported.directory), name)
                if self.lookups.symbol(found) is not None:
                    return found
        return None

    def _is_type(self, qualified: str) -> bool:
        symbol = self.lookups.symbol(qualified)
        return symbol is not None and symbol.kind == SymbolKind.CLASS

    def file_of(self, qualified: str) -> ParsedFile | None:
        module = self.lookups.index.symbol_module.get(qualified)
        info = self.lookups.module(module) if module is not None else None
        return info.parsed if info is not None else None

    def unaliased(self, ref: TypeRef, depth: int = 0) -> TypeRef:
        """The type an alias stands for (`type A = B`), itself otherwise."""
        symbol = self.lookups.symbol(ref.name) if not (ref.external or ref.container) else None
        if symbol is None or symbol.declared_as != "type alias" or not symbol.bases:
            return ref
        home = self.file_of(ref.name)
        target = self.type_in(home, symbol.bases[0]) if home is not None else None
        return self.unaliased(target, depth + 1) if target and depth < _MAX_DEPTH else ref

    def member(self, ref: TypeRef, name: str) -> tuple[str, bool] | None:
        """The method `name` of a type: (qualified name or external name, external).
        Promoted methods of embedded types count, the shallowest first."""
        self.lookups.names_consulted.add(name)  # any file of the package may declare it
        if ref.container:
            return None
        queue: list[tuple[TypeRef, int]] = [(self.unaliased(ref), 0)]
        seen: set[TypeRef] = set()
        while queue:
            current, depth = queue.pop(0)
            if current in seen:
                continue
            seen.add(current)
            if current.external:
                if depth == 0:
                    return (external_method(current.name, name), True)
                continue
            for found in self.lookups.members(current.name, name):
                return (found, False)
            symbol = self.lookups.symbol(current.name)
            home = self.file_of(current.name) if symbol is not None else None
            if symbol is None or home is None or depth >= _MAX_DEPTH:
                continue
            for base in symbol.bases:
                embedded = self.type_in(home, base)
                if embedded is not None:
                    queue.append((self.unaliased(embedded), depth + 1))
        return None

    def field_type(self, ref: TypeRef, name: str, depth: int = 0) -> TypeRef | None:
        """The declared type of a struct field (promoted fields included)."""
        ref = self.unaliased(ref)
        if ref.external or ref.container or depth > _MAX_DEPTH:
            return None
        if ref.name.startswith(STRUCT_MARK):
            return self._anonymous_field(ref.name, name)
        bindings = self.lookups.index.attribute_bindings.get(ref.name, {}).get(name)
        home = self.file_of(ref.name)
        if home is None:
            return None
        if bindings:
            return self.type_in(home, bindings[0].value)
        symbol = self.lookups.symbol(ref.name)
        for base in symbol.bases if symbol is not None else ():
            embedded = self.type_in(home, base)
            if embedded is not None:
                found = self.field_type(embedded, name, depth + 1)
                if found is not None:
                    return found
        return None

    def _anonymous_field(self, struct: str, name: str) -> TypeRef | None:
        """A field's type of an anonymous struct type, bound in the scope that declares it."""
        scope = struct[len(STRUCT_MARK) :].rpartition("@")[0]
        fields = self.lookups.index.scope_bindings.get(scope, {}).get((struct, name))
        module = None if fields else self.lookups.module(scope)  # a package-level table
        if module is not None:
            fields = [b for b in module.parsed.bindings if b.target == (struct, name)]
        if not fields:
            return None
        return self.type_in(self._binding_file(fields[0]), fields[0].value)

    def element(self, ref: TypeRef) -> TypeRef | None:
        """What indexing or ranging over a value of the type gives (a named slice type's
        elements too: `type Commands []*Command`)."""
        if ref.container:
            return ref.element()
        symbol = self.lookups.symbol(ref.name) if not ref.external else None
        if symbol is None or symbol.declared_as != "type" or not symbol.bases:
            return None
        home = self.file_of(ref.name)
        underlying = self.type_in(home, symbol.bases[0]) if home is not None else None
        return underlying.element() if underlying is not None else None

    def step(self, ref: TypeRef, name: str) -> TypeRef | None:
        """The type of `value.name` (a field) or of `value.name()` (a method's result)."""
        if not name.endswith(CALLED):
            return self.field_type(ref, name)
        found = self.member(ref, name[: -len(CALLED)])
        if found is None or found[1]:
            return None
        symbol = self.lookups.symbol(found[0])
        home = self.file_of(found[0])
        if symbol is None or symbol.returns is None or home is None:
            return None
        return self.type_in(home, symbol.returns)

    # -- values ----------------------------------------------------------------------------
    def variable(self, scope: str, name: str, line: int) -> Binding | None:
        """The latest binding of a local name before `line`, else the package-level one."""
        bindings = self.lookups.index.scope_bindings.get(scope, {}).get((name,), [])
        # a value computed from the name itself on the call's own line is not bound yet
        # (`assert := assert.New(t)` calls the package, `p = p.Parent()` the earlier p)
        before = [
            b for b in bindings if b.line < line or (b.line == line and name not in b.value[:2])
        ]
        if before:  # the latest (of one line's, the first)
            return max(before, key=lambda b: b.line)
        if bindings:
            return None  # bound later in the function: a name used before is another
        found = self.package_variable(package_dir(self.parsed.module), name, self.package)
        for imported in self.dot_imports:
            if found is None and imported.directory is not None:
                found = self.package_variable(imported.directory, name)
        return found

    def package_variable(
        self, directory: str, name: str, package: str | None = None
    ) -> Binding | None:
        """A package-level variable or constant of the package in `directory` (its external
        test package's when `package` names it)."""
        package = package or package_name(directory)
        self.consult_package(directory)
        self.lookups.names_consulted.add(variable_key(name))
        module = self.project.variables.get(package, {}).get(name)
        info = self.lookups.module(module) if module is not None else None
        found = info.bindings.get(name) if info is not None else None
        return found[0] if found else None

    def is_variable(self, scope: str, name: str, line: int) -> bool:
        return self.variable(scope, name, line) is not None

    def binding_type(self, binding: Binding, depth: int = 0) -> TypeRef | None:
        """The type a binding gives its name."""
        if depth > _MAX_DEPTH or not binding.value:
            return None
        home = self._binding_file(binding)
        if binding.kind == "annotation":
            return self.type_in(home, binding.value)
        element = binding.value[0] == ELEMENT
        value = binding.value[1:] if element else binding.value
        position = 0
        if value and value[-1].startswith(RESULT):
            position, value = int(value[-1][len(RESULT) :]), value[:-1]
        found: TypeRef | None = None
        if binding.kind == "call" and value:
            found = self.result_type(
                binding.scope, value, binding.line, depth + 1, home, position=position
            )
        elif binding.kind == "alias" and value:
            found = self.value_type(binding.scope, value, binding.line, depth + 1)
        if found is not None and element:
            return self.element(found)
        return found

    def _binding_file(self, binding: Binding) -> ParsedFile:
        if binding.scope == self.parsed.module:
            return self.parsed
        module = self.lookups.index.symbol_module.get(binding.scope, binding.scope)
        info = self.lookups.module(module)
        return info.parsed if info is not None else self.parsed

    def value_type(self, scope: str, dotted: Dotted, line: int, depth: int = 0) -> TypeRef | None:
        """The type of a dotted value (`x`, `x.f.g`, `T{}`)."""
        head, *fields = dotted
        if head == ELEMENT and fields:
            container = self.value_type(scope, (fields[0],), line, depth + 1)
            current = self.element(container) if container is not None else None
            fields = fields[1:]
        elif head.endswith(CALLED):
            current = self.result_type(scope, (head[: -len(CALLED)],), line, depth + 1)
        elif head.endswith(LITERAL_MARK):
            current = self.type_of(tuple(head[: -len(LITERAL_MARK)].split(".")))
        elif fields and head in self.imports and not self.is_variable(scope, head, line):
            directory = self.imports[head].directory  # `pkg.Var.f`
            binding = self.package_variable(directory, fields[0]) if directory is not None else None
            current = self.binding_type(binding, depth) if binding is not None else None
            fields = fields[1:]
        else:
            binding = self.variable(scope, head, line)
            current = self.binding_type(binding, depth) if binding is not None else None
        for name in fields:
            if current is None:
                return None
            current = self.step(current, name)
        return current

    def result_type(
        self,
        scope: str,
        callee: Dotted,
        line: int,
        depth: int,
        home: ParsedFile | None = None,
        *,
        position: int = 0,
    ) -> TypeRef | None:
        """The type of a call's (first) result."""
        resolver = self.resolver_of(home) if home is not None else self
        if len(callee) == 1:
            value = resolver.variable(scope, callee[0], line)
            if value is not None:  # a function value with known results: `get := func() *T`
                return resolver.value_result(value, position)
        found = resolver.callee(scope, callee, line, depth)
        if found is None:
            return None
        if found.conversion:
            return TypeRef(found.name, external=found.external)
        if found.external:
            known = external_result(found.name) if not position else None
            return TypeRef(known, external=True) if known is not None else None
        symbol = self.lookups.symbol(found.name)
        declared = symbol.returns if symbol is not None else None
        if position:
            later = self.lookups.index.scope_bindings.get(found.name, {})
            results = later.get((f"{RESULT}{position}",))
            declared = results[0].value if results else None
        where = self.file_of(found.name)
        return self.type_in(where, declared) if where is not None and declared else None

    def value_result(self, binding: Binding, position: int) -> TypeRef | None:
        """The type of a result of calling a function value bound by `get := func() *T {…}`."""
        home = self._binding_file(binding)
        if not position:
            returns = binding.value[1:] if binding.value[:1] == (RETURNS,) else None
            return self.type_in(home, returns) if returns else None
        later = self.lookups.index.scope_bindings.get(binding.scope, {})
        found = [b for b in later.get((*binding.target, f"{RESULT}{position}"), ())
                 if b.line == binding.line]  # fmt: skip
        return self.type_in(home, found[0].value) if found else None

    def callee(self, scope: str, dotted: Dotted, line: int, depth: int = 0) -> Callee | None:
        """What a call of `dotted` runs (see the module's docstring)."""
        head, *rest = dotted
        if not rest:
            value = self.variable(scope, head, line)
            if value is not None:
                return self.value_callee(value, depth)
            found = self._local(head)
            return self._named(found, False) if found is not None else None
        if head.endswith((LITERAL_MARK, CALLED)):
            receiver = self.value_type(scope, (head,), line, depth)
            return self.method_on(receiver, rest, scope, line)
        if head == ELEMENT:
            receiver = self.value_type(scope, (head, rest[0]), line, depth)
            return self.method_on(receiver, rest[1:], scope, line) if rest[1:] else None
        if not self.is_variable(scope, head, line) and head in self.imports:
            imported = self.imports[head]
            if len(rest) > 1 and rest[0].endswith(CALLED):  # `pkg.New().M()`
                made = (head, rest[0][: -len(CALLED)])
                receiver = self.result_type(scope, made, line, depth + 1)
                return self.method_on(receiver, rest[1:], scope, line)
            if len(rest) != 1:
                return None
            if imported.directory is None:
                name = f"{imported.path}.{rest[0]}"
                return Callee(name, True, False, conversion=external_conversion(name))
            self.consult_package(imported.directory)
            self.lookups.names_consulted.add(rest[0])
            found = qualify(package_name(imported.directory), rest[0])
            return self._named(found, False) if self.lookups.symbol(found) else None
        receiver = self.value_type(scope, (head,), line, depth)
        if receiver is None and not self.is_variable(scope, head, line):
            declared = self._local(head)  # a method expression `T.M`
            if declared is not None and self._is_type(declared) and len(rest) == 1:
                found_member = self.member(TypeRef(declared), rest[0])
                if found_member is not None and not found_member[1]:
                    return Callee(found_member[0], False, False)
            return None
        return self.method_on(receiver, rest, scope, line)

    def value_callee(self, binding: Binding, depth: int) -> Callee | None:
        """What a function value runs when it was bound to a named function or a method value
        (`f := obj.Method; f()`, `h := handle; h()`): that declaration, `inferred` (the name
        may be bound again before the call)."""
        if binding.kind != "alias" or depth > _MAX_DEPTH:
            return self._function_value(binding)
        home = self.resolver_of(self._binding_file(binding))
        found = home.callee(binding.scope, binding.value, binding.line, depth + 1)
        if found is None or found.conversion:
            return None
        return Callee(found.name, found.external, True)

    def _function_value(self, binding: Binding) -> Callee | None:
        """A package-level `var handler = func(…) {…}` is a function node of its own (the
        parser's): a call of the name runs it unless it was bound again (`inferred`)."""
        if binding.scope not in self.lookups.index.modules or len(binding.target) != 1:
            return None
        declared = self._local(binding.target[0])
        symbol = self.lookups.symbol(declared) if declared is not None else None
        if symbol is None or symbol.kind != SymbolKind.FUNCTION or declared is None:
            return None
        return Callee(declared, False, True)

    def method_on(
        self, receiver: TypeRef | None, names: list[str], scope: str, line: int
    ) -> Callee | None:
        for name in names[:-1]:
            if receiver is None:
                return None
            receiver = self.step(receiver, name)
        if receiver is None:
            return None
        found = self.member(receiver, names[-1])
        if found is None:
            return None
        return Callee(found[0], found[1], True)

    def _named(self, qualified: str, inferred: bool) -> Callee | None:
        symbol = self.lookups.symbol(qualified)
        if symbol is None:
            return None
        if symbol.kind == SymbolKind.CLASS:
            return Callee(qualified, False, inferred, conversion=True)
        return Callee(qualified, False, inferred)


def file_package(parsed: ParsedFile) -> str:
    """The package a file belongs to (`modules.package_name`), from its package clause."""
    clause = package_clause(parsed) or ""
    external = clause.endswith("_test") and parsed.path.endswith("_test.go")
    return package_name(package_dir(parsed.module), external_test=external)
