"""Repository-wide lookup tables built from every `ParsedFile` of one repository.

Every lookup goes through a `Lookups` view that records which modules (and which short names)
it consulted. Those records are what makes incremental linking exact: when module M changes
its interface, exactly the files whose resolution consulted M are linked again.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..model import Binding, Dotted, ImportStatement, ParsedFile, ScopeNames, Symbol, SymbolKind

__all__ = ["Lookups", "ModuleInfo", "RepositoryIndex", "interface_hash"]


@dataclass
class ModuleInfo:
    """The module-level namespace of one file."""

    parsed: ParsedFile
    defs: dict[str, list[str]] = field(default_factory=dict)  # name -> symbol qualified names
    imports: dict[str, list[ImportStatement]] = field(default_factory=dict)  # bound name -> imports
    star_imports: list[ImportStatement] = field(default_factory=list)
    bindings: dict[str, list[Binding]] = field(default_factory=dict)  # name -> bindings


def _module_info(parsed: ParsedFile) -> ModuleInfo:
    info = ModuleInfo(parsed=parsed)
    for symbol in parsed.symbols:
        if symbol.parent == parsed.module and symbol.ordinal == 1:
            info.defs.setdefault(symbol.name, []).append(symbol.qualified_name)
    for statement in parsed.imports:
        if statement.scope != parsed.module or not statement.binds:
            continue
        if statement.name == "*":
            info.star_imports.append(statement)
        else:
            info.imports.setdefault(statement.bound_name, []).append(statement)
    for binding in parsed.bindings:
        if binding.scope == parsed.module and len(binding.target) == 1:
            info.bindings.setdefault(binding.target[0], []).append(binding)
    return info


def interface_hash(parsed: ParsedFile) -> str:
    """Hash of everything other files can see of a module; body-only edits leave it unchanged."""
    digest = hashlib.sha256()

    def add(*parts: object) -> None:
        digest.update(repr(parts).encode())
        digest.update(b"\n")

    add(parsed.module, parsed.is_package, sorted(parsed.module_names), parsed.all_names)
    for symbol in parsed.symbols:
        add(
            symbol.qualified_name, symbol.kind.value, symbol.parent, symbol.bases,
            symbol.returns, symbol.parameters[:1], symbol.decorators, symbol.ordinal,
            symbol.declared_as, symbol.implements,
        )  # fmt: skip
    for statement in parsed.imports:
        if statement.scope == parsed.module:
            add(
                "import", statement.module, statement.level, statement.name, statement.alias,
                statement.binds, statement.exported,
            )  # fmt: skip
    for binding in parsed.bindings:
        if binding.scope == parsed.module or binding.target[:1] == ("self",):
            add("bind", binding.scope, binding.target, binding.value, binding.kind)
        elif binding.kind == "annotation" and "." in binding.scope:
            # class-level annotations of attributes are visible to other files
            add("bind", binding.scope, binding.target, binding.value, binding.kind)
    return digest.hexdigest()


class RepositoryIndex:
    """All tables of one repository. Built once per linking run."""

    def __init__(self, files: Iterable[ParsedFile]) -> None:
        self.modules: dict[str, ModuleInfo] = {}
        self.shadowed_paths: set[str] = set()
        self.symbols: dict[str, Symbol] = {}
        self.symbol_module: dict[str, str] = {}
        self.members: dict[str, dict[str, list[str]]] = defaultdict(dict)
        self.scope_imports: dict[str, dict[str, list[ImportStatement]]] = defaultdict(dict)
        self.scope_bindings: dict[str, dict[Dotted, list[Binding]]] = defaultdict(dict)
        self.scope_names: dict[str, ScopeNames] = {}
        self.attribute_bindings: dict[str, dict[str, list[Binding]]] = defaultdict(dict)
        self.short_names: dict[str, list[str]] = defaultdict(list)
        ordered = sorted(files, key=lambda f: (not f.is_package, f.path))
        for parsed in ordered:
            if parsed.module in self.modules:
                self.shadowed_paths.add(parsed.path)
                continue
            self._add(parsed)

    def _add(self, parsed: ParsedFile) -> None:
        self.modules[parsed.module] = _module_info(parsed)
        kinds: dict[str, SymbolKind] = {}
        for symbol in parsed.symbols:
            if symbol.ordinal != 1 or symbol.qualified_name in self.symbols:
                continue
            self.symbols[symbol.qualified_name] = symbol
            self.symbol_module[symbol.qualified_name] = parsed.module
            kinds[symbol.qualified_name] = symbol.kind
            if symbol.parent != parsed.module:
                self.members[symbol.parent].setdefault(symbol.name, []).append(
                    symbol.qualified_name
                )
            if symbol.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD, SymbolKind.CLASS):
                self.short_names[symbol.name].append(symbol.qualified_name)
        for statement in parsed.imports:
            if statement.scope != parsed.module and statement.name != "*" and statement.binds:
                self.scope_imports[statement.scope].setdefault(statement.bound_name, []).append(
                    statement
                )
        for binding in parsed.bindings:
            if binding.target[:1] == ("self",) and len(binding.target) == 2:
                # the instance attribute of a method's class (`self.x = …`, `this.x = …`)
                owner = self.symbols.get(binding.scope)
                if owner is not None and owner.kind == SymbolKind.METHOD:
                    self.attribute_bindings[owner.parent].setdefault(binding.target[1], []).append(
                        binding
                    )
                continue
            if binding.scope != parsed.module:
                if kinds.get(binding.scope) == SymbolKind.CLASS and len(binding.target) == 1:
                    self.attribute_bindings[binding.scope].setdefault(binding.target[0], []).append(
                        binding
                    )
                self.scope_bindings[binding.scope].setdefault(binding.target, []).append(binding)
        for names in parsed.scopes:
            self.scope_names[names.scope] = names

    def update(self, removed: Iterable[ParsedFile], added: Iterable[ParsedFile]) -> bool:
        """Swap the contributions of changed files in place (watch mode: no full rebuild).

        Returns False, changing nothing, when the result could differ from a fresh build
        (module names claimed by two files); the caller then builds a new index.
        """
        removed, added = list(removed), list(added)
        if self.shadowed_paths:
            return False
        for parsed in removed:
            owner = self.modules.get(parsed.module)
            if owner is None or owner.parsed.path != parsed.path:
                return False
        leaving = {parsed.module for parsed in removed}
        arriving = [parsed.module for parsed in added]
        if len(set(arriving)) != len(arriving) or any(
            module in self.modules and module not in leaving for module in arriving
        ):
            return False
        for parsed in removed:
            self._remove(parsed)
        for parsed in added:
            self._add(parsed)
        return True

    def _remove(self, parsed: ParsedFile) -> None:
        del self.modules[parsed.module]
        for symbol in parsed.symbols:
            qualified = symbol.qualified_name
            if symbol.ordinal != 1 or self.symbol_module.get(qualified) != parsed.module:
                continue
            del self.symbols[qualified]
            del self.symbol_module[qualified]
            if symbol.parent != parsed.module:
                _discard(self.members.get(symbol.parent, {}), symbol.name, qualified)
                if not self.members.get(symbol.parent, True):
                    del self.members[symbol.parent]
            _discard(self.short_names, symbol.name, qualified)
            self.scope_imports.pop(qualified, None)
            self.scope_bindings.pop(qualified, None)
            self.attribute_bindings.pop(qualified, None)
            self.scope_names.pop(qualified, None)


def _discard(table: dict[str, list[str]], key: str, value: str) -> None:
    values = table.get(key)
    if values is not None and value in values:
        values.remove(value)
        if not values:
            del table[key]


class Lookups:
    """A recording view of the index: every consulted module and short name is noted."""

    def __init__(self, index: RepositoryIndex) -> None:
        self.index = index
        self.modules_consulted: set[str] = set()
        self.names_consulted: set[str] = set()

    def module(self, name: str) -> ModuleInfo | None:
        self.modules_consulted.add(name)
        return self.index.modules.get(name)

    def has_module(self, name: str) -> bool:
        return self.module(name) is not None

    def symbol(self, qualified_name: str) -> Symbol | None:
        symbol = self.index.symbols.get(qualified_name)
        if symbol is not None:
            self.modules_consulted.add(self.index.symbol_module[qualified_name])
        return symbol

    def members(self, scope: str, name: str) -> list[str]:
        found = self.index.members.get(scope, {}).get(name, [])
        for qualified in found:
            self.modules_consulted.add(self.index.symbol_module[qualified])
        return found

    def attribute_bindings(self, class_name: str, attribute: str) -> list[Binding]:
        module = self.index.symbol_module.get(class_name)
        if module is not None:
            self.modules_consulted.add(module)
        return self.index.attribute_bindings.get(class_name, {}).get(attribute, [])

    def unique_callable(
        self, name: str, languages: frozenset[str] = frozenset({"python"})
    ) -> str | None:
        """The one function, method or class called `name` among the files of `languages`
        in the repository, if unique (a Python call never matches a TypeScript name)."""
        self.names_consulted.add(name)
        found = [
            qualified
            for qualified in self.index.short_names.get(name, [])
            if self.index.modules[self.index.symbol_module[qualified]].parsed.language in languages
        ]
        return found[0] if len(found) == 1 else None
