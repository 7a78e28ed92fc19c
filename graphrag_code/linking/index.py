"""Repository-wide lookup tables built from every `ParsedFile` of one repository.

Every lookup goes through a `Lookups` view that records which modules (and which short names)
it consulted. Those records are what makes incremental linking exact: when module M changes
its interface, exactly the files whose resolution consulted M are linked again.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Set
from dataclasses import dataclass, field

from ..model import (
    Binding,
    Call,
    CallArguments,
    Definition,
    Dotted,
    Expr,
    ImportStatement,
    ParsedFile,
    ScopeNames,
    Signature,
    Symbol,
    SymbolKind,
    ValueFlow,
)
from .flowkeys import (
    ATTRIBUTE,
    CALL_KEY,
    CONTAINER_MARKS,
    FLOWS_KEY,
    GLOBALS,
    SIGNATURE_KEY,
    STORE_KEY,
    VALUE_CALLS,
    VALUE_KEY,
    bound_references,
    pass_name,
    stores,
    value_calls,
    value_references,
)
from .rules import PLAIN_RULES, IndexRules, RulesByLanguage

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
    for signature in parsed.signatures:  # what a call through a callable type may run
        add("signature", signature.name, signature.parameters, signature.required,
            signature.returns, signature.awaitable, signature.declared)  # fmt: skip
    for binding in parsed.bindings:
        if binding.scope == parsed.module or binding.target[:1] == ("self",):
            add("bind", binding.scope, binding.target, binding.value, binding.kind)
        elif binding.kind in ("annotation", "class") and "." in binding.scope:
            # class-level annotations of attributes are visible to other files
            add("bind", binding.scope, binding.target, binding.value, binding.kind)
    return digest.hexdigest()


def _uncount(counter: Counter[str], names: Iterable[str]) -> None:
    """Take a removed file's names out of a count, dropping the names none holds any more."""
    counter.subtract(names)
    for gone in [name for name, count in counter.items() if count <= 0]:
        del counter[gone]


class RepositoryIndex:
    """All tables of one repository. Built once per linking run, with each language's rules
    (`languages.index_rules()`; a language without rules here is read as plain)."""

    def __init__(self, files: Iterable[ParsedFile], rules: RulesByLanguage | None = None) -> None:
        self.rules: dict[str, IndexRules] = dict(rules or {})
        self.modules: dict[str, ModuleInfo] = {}
        self.shadowed_paths: set[str] = set()
        # module -> the files that claim its name after the one indexed (`linking.claims`)
        self.shadowed_files: dict[str, list[ParsedFile]] = {}
        self.symbols: dict[str, Symbol] = {}
        self.symbol_module: dict[str, str] = {}
        self.members: dict[str, dict[str, list[str]]] = defaultdict(dict)
        self.scope_imports: dict[str, dict[str, list[ImportStatement]]] = defaultdict(dict)
        self.scope_bindings: dict[str, dict[Dotted, list[Binding]]] = defaultdict(dict)
        self.scope_names: dict[str, ScopeNames] = {}
        self.attribute_bindings: dict[str, dict[str, list[Binding]]] = defaultdict(dict)
        self.short_names: dict[str, list[str]] = defaultdict(list)
        # short name -> how many of its methods are properties (`x.name` reads run a getter;
        # `IndexRules.is_property`)
        self.property_names: Counter[str] = Counter()
        # short name -> how many class bodies assign it a call's result (a descriptor, maybe)
        self.descriptor_names: Counter[str] = Counter()
        # short name -> how many files use something of that name as a value (`VALUE_KEY`)
        self.value_names: Counter[str] = Counter()
        # short name -> (module, scope, what it is taken off) of each value reference that
        # takes an attribute of that name off something (`obj.method`: a bound method)
        self.bound_references: dict[str, list[tuple[str, str, Dotted]]] = defaultdict(list)
        # property -> its accessor ("setter", "deleter": `IndexRules.accessor`) -> the ordinal
        # of that redefinition
        self.accessors: dict[str, dict[str, int]] = {}
        # a name defined again in its module (overload stubs, then the implementation) ->
        # the returns its later definitions declare
        self.redefined_returns: dict[str, set[Dotted | None]] = {}
        # value flow: per scope, target -> flows in source order
        self.scope_flows: dict[str, dict[Dotted, list[ValueFlow]]] = defaultdict(dict)
        # class -> attribute -> flows into `self.attribute` (its methods) or the class body
        self.attribute_flows: dict[str, dict[str, list[ValueFlow]]] = defaultdict(dict)
        # class -> attribute -> elements added to the container `self.attribute`
        self.attribute_additions: dict[str, dict[str, list[ValueFlow]]] = defaultdict(dict)
        # module -> name -> flows into the module's variable from anywhere in the module
        # (`global` assignments in functions, elements added to it in functions)
        self.module_flows: dict[str, dict[str, list[ValueFlow]]] = defaultdict(dict)
        self.passes_by_name: dict[str, list[tuple[str, CallArguments]]] = defaultdict(list)
        # attribute -> stores into it through a variable (`stores`), with their modules
        self.attribute_stores: dict[str, list[tuple[str, ValueFlow]]] = defaultdict(list)
        self.decorations: dict[str, ValueFlow] = {}  # decorated definition -> its binding
        # class -> attribute -> its annotation, when the resolver does not read it
        self.declared_attributes: dict[str, dict[str, ValueFlow]] = defaultdict(dict)
        # annotated functions and declared callable types by `Signature.name`, with the
        # module each is written in; the functions by `IndexRules.signature_buckets`
        self.signatures: dict[str, tuple[Signature, str]] = {}
        self.signature_buckets: dict[str, list[str]] = defaultdict(list)
        ordered = sorted(files, key=lambda f: (not f.is_package, f.path))
        for parsed in ordered:
            if parsed.module in self.modules:
                self.shadowed_paths.add(parsed.path)
                self.shadowed_files.setdefault(parsed.module, []).append(parsed)
                continue
            self._add(parsed)

    def language_rules(self, language: str) -> IndexRules:
        return self.rules.get(language, PLAIN_RULES)

    def symbol_rules(self, qualified_name: str) -> IndexRules:
        """The rules of the language a symbol of the index is written in."""
        module = self.symbol_module.get(qualified_name)
        info = self.modules.get(module) if module is not None else None
        return self.language_rules(info.parsed.language) if info is not None else PLAIN_RULES

    def _add(self, parsed: ParsedFile) -> None:
        rules = self.language_rules(parsed.language)
        self.modules[parsed.module] = _module_info(parsed)
        kinds: dict[str, SymbolKind] = {}
        for symbol in parsed.symbols:
            if symbol.ordinal != 1 and self.symbol_module.get(symbol.qualified_name) == (
                parsed.module
            ):
                accessor = rules.accessor(symbol)
                if accessor is not None:
                    self.accessors.setdefault(symbol.qualified_name, {})[accessor] = symbol.ordinal
                self.redefined_returns.setdefault(symbol.qualified_name, set()).add(symbol.returns)
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
                if rules.is_property(symbol):
                    self.property_names[symbol.name] += 1
        for statement in parsed.imports:
            if statement.scope != parsed.module and statement.name != "*" and statement.binds:
                self.scope_imports[statement.scope].setdefault(statement.bound_name, []).append(
                    statement
                )
        for binding in parsed.bindings:
            if binding.target[:1] == ("self",) and len(binding.target) == 2:
                # the instance attribute of a method's class (`self.x = …`, `this.x = …`), or
                # of a function that is its own class (JavaScript's `function Foo() { this.x
                # = … }`, whose instances `new Foo()` makes)
                owner = self.symbols.get(binding.scope)
                if owner is not None and owner.kind in (SymbolKind.METHOD, SymbolKind.FUNCTION):
                    cls = owner.parent if owner.kind == SymbolKind.METHOD else binding.scope
                    self.attribute_bindings[cls].setdefault(binding.target[1], []).append(binding)
                continue
            if binding.scope != parsed.module:
                if kinds.get(binding.scope) == SymbolKind.CLASS and len(binding.target) == 1:
                    self.attribute_bindings[binding.scope].setdefault(binding.target[0], []).append(
                        binding
                    )
                self.scope_bindings[binding.scope].setdefault(binding.target, []).append(binding)
        for names in parsed.scopes:
            self.scope_names[names.scope] = names
        self._add_flows(parsed, kinds)
        self.descriptor_names.update(rules.descriptor_attributes(parsed))
        self.value_names.update(value_references(parsed))
        for attribute, scope, taken_off in bound_references(parsed):
            self.bound_references[attribute].append((parsed.module, scope, taken_off))
        for signature in parsed.signatures:
            if signature.name in self.signatures:
                continue
            self.signatures[signature.name] = (signature, parsed.module)
            if not signature.declared and kinds.get(signature.name) is not None:
                symbol = self.symbols[signature.name]
                for bucket in rules.signature_buckets(signature, symbol):
                    self.signature_buckets[bucket].append(signature.name)

    def _add_flows(self, parsed: ParsedFile, kinds: dict[str, SymbolKind]) -> None:
        module = parsed.module
        for flow in parsed.flows:
            target = flow.target
            self.scope_flows[flow.scope].setdefault(target, []).append(flow)
            scope_kind = kinds.get(flow.scope)
            if target[0] == "<declared>":
                if target[1:2] == ("self",) and scope_kind == SymbolKind.METHOD:
                    owner = self.symbols[flow.scope].parent
                    self.declared_attributes[owner].setdefault(target[-1], flow)
                elif scope_kind == SymbolKind.CLASS and len(target) == 2:
                    self.declared_attributes[flow.scope].setdefault(target[1], flow)
                continue
            if target[0] == "self" and len(target) >= 2 and scope_kind == SymbolKind.METHOD:
                owner = self.symbols[flow.scope].parent
                table = self.attribute_flows if len(target) == 2 else self.attribute_additions
                if len(target) == 2 or target[2] in CONTAINER_MARKS:
                    table[owner].setdefault(target[1], []).append(flow)
            elif scope_kind == SymbolKind.CLASS and len(target) == 1:
                self.attribute_flows[flow.scope].setdefault(target[0], []).append(flow)
            elif flow.scope != module and not target[0].startswith("<"):
                names = self.scope_names.get(flow.scope)
                local = names is not None and target[0] in names.names
                declared = names is not None and target[0] in names.globals
                if declared or (len(target) > 1 and target[1] in CONTAINER_MARKS and not local):
                    self.module_flows[module].setdefault(target[0], []).append(flow)
            if isinstance(flow.value, Call) and len(target) == 1:
                decorated = _decorated(flow.value)
                if decorated is not None:
                    self.decorations.setdefault(decorated, flow)
        for call in parsed.passes:
            name = pass_name(call.callee)
            if name is not None:
                self.passes_by_name[name].append((module, call))
        for call in value_calls(parsed):
            self.passes_by_name[VALUE_CALLS].append((module, call))
        for flow in stores(parsed):
            self.attribute_stores[flow.target[1]].append((module, flow))

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
        rules = self.language_rules(parsed.language)
        del self.modules[parsed.module]
        _uncount(self.descriptor_names, rules.descriptor_attributes(parsed))
        _uncount(self.value_names, value_references(parsed))
        for attribute in {attribute for attribute, _, _ in bound_references(parsed)}:
            others = [r for r in self.bound_references[attribute] if r[0] != parsed.module]
            if others:
                self.bound_references[attribute] = others
            else:
                del self.bound_references[attribute]
        for signature in parsed.signatures:
            if self.signatures.get(signature.name, (None, ""))[1] != parsed.module:
                continue
            del self.signatures[signature.name]
            symbol = self.symbols.get(signature.name)
            if not signature.declared and symbol is not None:
                for bucket in rules.signature_buckets(signature, symbol):
                    _discard(self.signature_buckets, bucket, signature.name)
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
            if rules.is_property(symbol):
                self.property_names[symbol.name] -= 1
                if self.property_names[symbol.name] <= 0:
                    del self.property_names[symbol.name]
            self.scope_imports.pop(qualified, None)
            self.scope_bindings.pop(qualified, None)
            self.attribute_bindings.pop(qualified, None)
            self.scope_names.pop(qualified, None)
            self.scope_flows.pop(qualified, None)
            self.attribute_flows.pop(qualified, None)
            self.attribute_additions.pop(qualified, None)
            self.decorations.pop(qualified, None)
            self.declared_attributes.pop(qualified, None)
            self.accessors.pop(qualified, None)
            self.redefined_returns.pop(qualified, None)
        self.scope_flows.pop(parsed.module, None)
        self.module_flows.pop(parsed.module, None)
        names = {pass_name(call.callee) for call in parsed.passes} - {None}
        if value_calls(parsed):
            names.add(VALUE_CALLS)
        for name in names:
            assert name is not None
            kept = [entry for entry in self.passes_by_name[name] if entry[0] != parsed.module]
            if kept:
                self.passes_by_name[name] = kept
            else:
                del self.passes_by_name[name]
        for attribute in {flow.target[1] for flow in stores(parsed)}:
            left = [e for e in self.attribute_stores[attribute] if e[0] != parsed.module]
            if left:
                self.attribute_stores[attribute] = left
            else:
                del self.attribute_stores[attribute]


def _decorated(value: Expr) -> str | None:
    """The definition a decorator binding wraps: `Call(d, ((0, Definition(q)),))` -> q."""
    while isinstance(value, Call):
        if len(value.arguments) != 1:
            return None
        inner = value.arguments[0][1]
        if isinstance(inner, Definition):
            return inner.qualified_name
        value = inner
    return None


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
        self._outer: list[tuple[set[str], set[str]]] = []

    # -- nested records: what one cached computation consulted, replayed where it is reused
    def begin(self) -> None:
        """Record into fresh sets until `end` (nested computations nest)."""
        self._outer.append((self.modules_consulted, self.names_consulted))
        self.modules_consulted, self.names_consulted = set(), set()

    @property
    def recording(self) -> bool:
        """Whether a nested record (`begin`) is open."""
        return bool(self._outer)

    def end(self) -> tuple[Set[str], Set[str]]:
        """What was consulted since the matching `begin`, also kept by the enclosing record
        (the record's sets, not written again once it ends: handed out as they are)."""
        inner = (self.modules_consulted, self.names_consulted)
        self.modules_consulted, self.names_consulted = self._outer.pop()
        self.replay(*inner)
        return inner

    def replay(self, modules: Set[str], names: Set[str]) -> None:
        """Record what a reused result consulted when it was computed."""
        self.modules_consulted.update(modules)
        self.names_consulted.update(names)

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

    def member_names(self, scope: str) -> frozenset[str]:
        """The names a class defines itself (its methods and nested classes)."""
        module = self.index.symbol_module.get(scope)
        if module is not None:
            self.modules_consulted.add(module)
        return frozenset(self.index.members.get(scope, {}))

    def declared_return(self, symbol: Symbol) -> Dotted | None:
        """The one type a call of a function is declared to return: its annotation, unless it
        is an overload stub (`IndexRules.is_overload`) whose other definitions declare other
        types (click's `command(f) -> Command` while `command("name")` returns a decorator):
        then none, and the implementation's returned values say."""
        if symbol.returns is None:
            return None
        if not self.index.symbol_rules(symbol.qualified_name).is_overload(symbol):
            return symbol.returns
        self.modules_consulted.add(self.index.symbol_module[symbol.qualified_name])
        others = self.index.redefined_returns.get(symbol.qualified_name, set())
        return symbol.returns if others <= {symbol.returns} else None

    def accessor(self, qualified_name: str, kind: str) -> int | None:
        """The ordinal of a property's `@name.setter` / `@name.deleter` definition."""
        module = self.index.symbol_module.get(qualified_name)
        if module is not None:
            self.modules_consulted.add(module)
        return self.index.accessors.get(qualified_name, {}).get(kind)

    def attribute_bindings(self, class_name: str, attribute: str) -> list[Binding]:
        module = self.index.symbol_module.get(class_name)
        if module is not None:
            self.modules_consulted.add(module)
        return self.index.attribute_bindings.get(class_name, {}).get(attribute, [])

    # -- value flow: each read records the module's flows as consulted -----------------------
    def _flows_of(self, key: str) -> None:
        self.modules_consulted.add(FLOWS_KEY + key)

    def flows(self, scope: str, target: Dotted) -> list[ValueFlow]:
        """The flows into `target` in `scope`, in source order (reading them also reads how
        `scope` binds the name `target[0]`: see `flow_keys`)."""
        self._flows_of(f"{scope}/{target[0]}")
        return self.index.scope_flows.get(scope, {}).get(target, [])

    def signature(self, function: str) -> Symbol | None:
        """A function whose parameters value flow reads."""
        self._flows_of(f"{function}/<signature>")
        return self.symbol(function)

    def attribute_flows(self, class_name: str, attribute: str) -> list[ValueFlow]:
        self._flows_of(class_name + ATTRIBUTE + attribute)
        return self.index.attribute_flows.get(class_name, {}).get(attribute, [])

    def attribute_additions(self, class_name: str, attribute: str) -> list[ValueFlow]:
        self._flows_of(class_name + ATTRIBUTE + attribute)
        return self.index.attribute_additions.get(class_name, {}).get(attribute, [])

    def declared_attribute(self, class_name: str, attribute: str) -> ValueFlow | None:
        """The annotation of `class_name.attribute` the resolver does not read, if any."""
        self._flows_of(class_name + ATTRIBUTE + attribute)
        return self.index.declared_attributes.get(class_name, {}).get(attribute)

    def module_flows(self, module: str, name: str) -> list[ValueFlow]:
        self._flows_of(module + GLOBALS + name)
        return self.index.module_flows.get(module, {}).get(name, [])

    def decoration(self, qualified_name: str) -> ValueFlow | None:
        symbol = self.index.symbols.get(qualified_name)
        if symbol is not None:
            self._flows_of(f"{symbol.parent}/{symbol.name}")
        return self.index.decorations.get(qualified_name)

    def passes_named(self, name: str) -> list[tuple[str, CallArguments]]:
        """Every call named `name` that passes values, with its module."""
        self.names_consulted.add(CALL_KEY + name)
        found = self.index.passes_by_name.get(name, [])
        for _, call in found:
            self._flows_of(f"{call.scope}/{CALL_KEY}{name}")
        return found

    def attribute_stores(self, attribute: str) -> list[tuple[str, ValueFlow]]:
        """Every store into an attribute named `attribute` through a variable (`stores`),
        with its module."""
        self.names_consulted.add(STORE_KEY + attribute)
        found = self.index.attribute_stores.get(attribute, [])
        for _, flow in found:
            self._flows_of(f"{flow.scope}/{flow.target[0]}")
        return found

    def declared_signature(self, name: str) -> tuple[Signature, str] | None:
        """A declared callable type (`Signature.declared`) and the module it is written in."""
        found = self.index.signatures.get(name)
        if found is None or not found[0].declared:
            return None
        self.modules_consulted.add(found[1])
        return found

    def used_as_value(self, name: str) -> bool:
        """Whether any file uses something named `name` as a value (see `VALUE_KEY`)."""
        self.names_consulted.add(VALUE_KEY + name)
        return self.index.value_names.get(name, 0) > 0

    def bound_references(self, name: str) -> list[tuple[str, str, Dotted]]:
        """(module, scope, what it is taken off) of each use of an attribute `name` as a value
        (`obj.name` passed, assigned, returned): where a method becomes a bound value."""
        self.names_consulted.add(VALUE_KEY + name)
        return self.index.bound_references.get(name, [])

    def signatures_in(self, bucket: str) -> list[tuple[Symbol, Signature, str]]:
        """The functions filed under `bucket` (`IndexRules.signature_buckets`), with their
        signatures and modules."""
        self.names_consulted.add(SIGNATURE_KEY + bucket)
        found: list[tuple[Symbol, Signature, str]] = []
        for name in self.index.signature_buckets.get(bucket, []):
            signature, module = self.index.signatures[name]
            self.modules_consulted.add(module)
            found.append((self.index.symbols[name], signature, module))
        return found

    def unique_callable(self, name: str, languages: frozenset[str]) -> str | None:
        """The one function, method or class called `name` among the files of `languages`
        in the repository, if unique (a call in one language never matches a name of another
        that cannot call it)."""
        self.names_consulted.add(name)
        found = [
            qualified
            for qualified in self.index.short_names.get(name, [])
            if self.index.modules[self.index.symbol_module[qualified]].parsed.language in languages
        ]
        return found[0] if len(found) == 1 else None
