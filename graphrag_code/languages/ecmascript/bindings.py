"""TypeScript / JavaScript bindings -> `Binding` records: what types a name, a field or an
export (annotations, JSDoc, `new` results, aliases, `export default`, `module.exports`); what
flows through collections, callbacks and returns is `derived`'s."""

from __future__ import annotations

import re
from functools import cached_property
from typing import Literal

import tree_sitter as ts

from ...model import Binding, Dotted, Symbol, SymbolKind
from ...parsing.records import opaque_bindings
from ...parsing.treesitter import first_line
from ...parsing.treesitter import node_text as _text
from .derived import DerivedBindings, declared_elements, held_elements
from .jsdoc import jsdoc, jsdoc_types
from .scopes import FileReader
from .symbols import parameters_of
from .syntax import (
    FUNCTION_NODES,
    callee_parts,
    dotted_name,
    element_of,
    is_exports,
    specifier_names,
    unwrap,
)
from .types import element_type, single_type

__all__ = ["Bindings"]

_TYPEDEF_IMPORT = re.compile(  # @typedef {import("SPEC").NAME} ALIAS
    r"@typedef\s*\{\s*import\(\s*[\"']([^\"']+)[\"']\s*\)\.([A-Za-z_$][\w$]*)\s*\}"
    r"\s*([A-Za-z_$][\w$]*)"
)


class Bindings(FileReader):
    """The bindings of one file."""

    @cached_property
    def derived(self) -> DerivedBindings:
        """What flows through collections, callbacks and returns (`derived`)."""
        return DerivedBindings(self.state, self.captures, self.symbols)

    def bindings(self) -> list[Binding]:
        records: list[Binding] = []
        for node in self.captures.get("function.any", []):
            records.extend(self._parameter_bindings(node))
        for name in self.captures.get("bind.variable", []):
            declarator = name.parent
            if declarator is None:
                continue
            scope = self._scope(declarator)
            line = first_line(declarator)
            declared = declarator.child_by_field_name("type")
            records.extend(declared_elements(scope, (_text(name),), declared, line))
            annotation = single_type(declared)
            if annotation is not None:
                records.append(Binding(scope, (_text(name),), annotation, "annotation", line))
                continue
            documented = self._documented(scope, (_text(name),), declarator.parent, line)
            if documented:
                records.extend(documented)
                continue
            records.extend(_value_binding(scope, (_text(name),), declarator, line))
        for name in self.captures.get("bind.assign", []):
            assignment = name.parent
            if assignment is not None:
                scope = self._scope(assignment)
                line = first_line(assignment)
                records.extend(_value_binding(scope, (_text(name),), assignment, line, "right"))
        for member in self.captures.get("bind.this", []):
            assignment = member.parent
            prop = member.child_by_field_name("property")
            if assignment is not None and prop is not None:
                scope = self._scope(assignment)
                line = first_line(assignment)
                target = ("self", _text(prop))
                documented = self._documented(scope, target, assignment.parent, line)
                records.extend(
                    documented or _value_binding(scope, target, assignment, line, "right")
                )
        for node in self.captures.get("bind.field", []):
            records.extend(self._field_binding(node))
        for node in self.captures.get("bind.parameter_property", []):
            records.extend(self._parameter_property(node))
        for node in self.captures.get("function.any", []):
            records.extend(self.derived.of_callback(node))
        for node in self.captures.get("bind.for_of", []):
            records.extend(self.derived.of_for_of(node))
        for node in self.captures.get("local.pattern", []):
            records.extend(self.derived.of_destructuring(node))
        records.extend(self._typedef_imports())
        records.extend(self._export_bindings())
        records.extend(self._member_aliases())
        records.extend(self._opaque(records))
        records.sort(key=lambda b: (b.line, b.scope, b.target))
        return records

    def _documented(
        self, scope: str, target: Dotted, statement: ts.Node | None, line: int
    ) -> list[Binding]:
        """JavaScript's `/** @type {Option[]} */ this.options = []` (`let cmd` too): the type
        the checker declares the name with, and its elements' (TypeScript ignores JSDoc)."""
        if self.state.grammar != "javascript" or statement is None:
            return []
        if statement.type not in ("expression_statement", "lexical_declaration",
                                  "variable_declaration"):  # fmt: skip
            return []
        if statement.type != "expression_statement" and statement.named_child_count != 1:
            return []  # `/** @type {A} */ let a, b`: not one name's type
        doc = jsdoc(statement)
        types = jsdoc_types(doc) if doc is not None else {}
        records = []
        if "type" in types:
            records.append(Binding(scope, target, types["type"], "annotation", line))
        if "type[]" in types:
            records.append(Binding(scope, element_of(target), types["type[]"], "annotation", line))
        return records

    def _typedef_imports(self) -> list[Binding]:
        """JavaScript's `@typedef {import("./command.js").Command} Command` in a top-level
        comment: the name the file's JSDoc types use for another module's export (no import
        at run time, so no IMPORTS edge: a binding of the module's name)."""
        if self.state.grammar != "javascript":
            return []
        module = self.state.module
        return [
            Binding(module, (alias,), ("require()", spec, name), "alias", first_line(comment))
            for comment in self.captures.get("bind.typedef", [])
            for spec, name, alias in _TYPEDEF_IMPORT.findall(_text(comment))
        ]

    def _symbol_of(self, qualified_name: str) -> Symbol | None:
        return next((s for s in self.symbols if s.qualified_name == qualified_name), None)

    def _parameter_bindings(self, node: ts.Node) -> list[Binding]:
        scope = self._function_scope(node)
        records = []
        documented: dict[str, Dotted] = {}
        if self.state.grammar == "javascript" and node.id in self.state.def_scopes:
            # JavaScript: JSDoc `@param {Suite} suite` types a parameter, as for the checker
            symbol = self._symbol_of(self.state.def_scopes[node.id])
            if symbol is not None and symbol.docstring:
                documented = jsdoc_types(symbol.docstring)
        records.extend(self._this_parameter(node))
        records.extend(self.derived.of_function(node, documented.get("return[]")))
        params = node.child_by_field_name("parameters")
        for param in params.named_children if params is not None else ():
            records.extend(self.derived.of_parameter_pattern(scope, param))
        for name, annotation, param in parameters_of(params):
            line = first_line(param)
            value = single_type(annotation) or documented.get(f"param:{name}")
            if value is not None:
                records.append(Binding(scope, (name,), value, "annotation", line))
            element = element_type(annotation) or documented.get(f"param:{name}[]")
            if element is not None:
                records.append(Binding(scope, element_of((name,)), element, "annotation", line))
        return records

    def _this_parameter(self, node: ts.Node) -> list[Binding]:
        """`function make_(this: Annotation, …)`: TypeScript's declared `this` of a named
        function."""
        qualified = self.state.def_scopes.get(node.id)
        params = node.child_by_field_name("parameters")
        first = params.named_children[0] if params is not None and params.named_children else None
        if qualified is None or first is None or first.type != "required_parameter":
            return []
        pattern = first.child_by_field_name("pattern")
        declared = single_type(first.child_by_field_name("type"))
        if pattern is None or pattern.type != "this" or declared is None:
            return []
        return [Binding(qualified, ("this",), declared, "annotation", first_line(first))]

    def _field_binding(self, node: ts.Node) -> list[Binding]:
        name = node.child_by_field_name("name") or node.child_by_field_name("property")
        if name is None or name.type not in ("property_identifier", "private_property_identifier"):
            return []
        scope = self._scope(node)
        if self.state.kinds.get(scope) != SymbolKind.CLASS:
            return []
        line = first_line(node)
        label = _text(name)  # `#x` keeps its `#`: `this.#x` reads it, `this.x` does not
        declared = node.child_by_field_name("type")
        elements = declared_elements(scope, (label,), declared, line)
        annotation = single_type(declared)
        if annotation is not None:
            return [Binding(scope, (label,), annotation, "annotation", line), *elements]
        return _value_binding(scope, (label,), node, line) + elements

    def _parameter_property(self, node: ts.Node) -> list[Binding]:
        """`constructor(private readonly repo: Repo)`: a field of the class."""
        pattern = node.child_by_field_name("pattern")
        declared = node.child_by_field_name("type")
        params = node.parent
        constructor = params.parent if params is not None else None
        if pattern is None or declared is None or constructor is None:
            return []
        owner = self.state.def_scopes.get(constructor.id)
        if owner is None:
            return []
        klass = owner.rpartition(".")[0]
        line = first_line(node)
        records = declared_elements(klass, (_text(pattern),), declared, line)
        annotation = single_type(declared)
        if annotation is not None:
            records.append(Binding(klass, (_text(pattern),), annotation, "annotation", line))
        return records

    def _member_aliases(self) -> list[Binding]:
        """`res.set = res.header = function header …` on an object of methods: `set` is an
        alias of the method `header` (express's response and request)."""
        records: list[Binding] = []
        for node in self.captures.get("def.assignment", []):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            method = dotted_name(left) if left is not None else None
            if method is None or len(method) != 2 or right is None:
                continue
            if right.type not in FUNCTION_NODES:
                continue
            owner = f"{self._scope(node)}.{method[0]}"
            symbol = self._symbol_of(owner)
            if symbol is None or symbol.declared_as != "object literal":
                continue
            inner, outer = node, node.parent
            while outer is not None and outer.type == "assignment_expression":
                if outer.child_by_field_name("right") != inner:
                    break
                target = outer.child_by_field_name("left")
                alias = dotted_name(target) if target is not None else None
                if alias is None or len(alias) != 2 or alias[0] != method[0]:
                    break
                line = first_line(outer)
                records.append(Binding(owner, (alias[1],), method, "alias", line))
                inner, outer = outer, outer.parent
        return records

    def _export_bindings(self) -> list[Binding]:
        """What a module exports under another name: `export default x`, `export { a as b }`,
        `export = X`, `module.exports = X`, `exports.b = a`."""
        module = self.state.module
        records: list[Binding] = []
        for node in self.captures.get("export", []):
            if node.child_by_field_name("source") is not None or node.parent is None:
                continue
            if node.parent.type != "program":
                continue
            line = first_line(node)
            words = {child.type for child in node.children}
            declaration = node.child_by_field_name("declaration")
            value = node.child_by_field_name("value")
            if "default" in words and declaration is not None:
                name = declaration.child_by_field_name("name")
                if name is not None:
                    records.append(Binding(module, ("default",), (_text(name),), "export", line))
            elif "default" in words and value is not None and value.type not in FUNCTION_NODES:
                if value.type != "class":
                    records.extend(_expression_binding(module, ("default",), value, line, "export"))
            elif "=" in words:  # export = X
                value = next((c for c in node.named_children if c.type != "comment"), None)
                if value is not None:
                    records.extend(
                        _expression_binding(module, ("module", "exports"), value, line, "export")
                    )
            for clause in (c for c in node.named_children if c.type == "export_clause"):
                for spec in clause.named_children:
                    local, exported = specifier_names(spec)
                    if local is not None:  # `export { a }` too: a is exported even if imported
                        names = (exported or local,), (local,)
                        records.append(Binding(module, *names, "export", line))
        for name in self.captures.get("exports.assignment", []):
            left = name.child_by_field_name("left")
            right = name.child_by_field_name("right")
            target = dotted_name(left) if left is not None else None
            if target is None or right is None or self._scope(name) != module:
                continue
            line = first_line(name)
            if target == ("module", "exports") and right.type in FUNCTION_NODES | {"class"}:
                own = right.child_by_field_name("name")
                label = _text(own) if own is not None else "default"
                records.append(Binding(module, target, (label,), "export", line))
            elif target == ("module", "exports") and right.type == "object":
                records.extend(_object_exports(module, right, line))
            elif right.type not in FUNCTION_NODES | {"class", "object"}:
                if target == ("module", "exports"):
                    records.extend(_expression_binding(module, target, right, line, "export"))
                elif is_exports(target) and len(target) in (2, 3):
                    records.extend(
                        _expression_binding(module, (target[-1],), right, line, "export")
                    )
        return records

    def _opaque(self, typed: list[Binding]) -> list[Binding]:
        """Untyped assignments to names that also have a typed binding in the same scope."""
        assigned = self.captures.get("local", []) + self.captures.get("bind.assign", [])
        return opaque_bindings(
            typed, ((self._declaring_scope(n), (_text(n),), first_line(n)) for n in assigned)
        )


def _expression_binding(
    scope: str,
    target: Dotted,
    value: ts.Node,
    line: int,
    kind: Literal["alias", "export"] = "alias",
) -> list[Binding]:
    """The binding of `target` to expression `value`, when its type may be inferred (to a
    name: `kind` "export" when an export declaration names it, which is exact)."""
    value = unwrap(value)
    if value.type == "new_expression":
        constructor = value.child_by_field_name("constructor")
        dotted = dotted_name(constructor) if constructor is not None else None
        return [Binding(scope, target, dotted, "call", line)] if dotted else []
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        if function is None or function.type == "import":
            return []
        callee, receiver = callee_parts(function)
        if receiver is None and callee[0] != "<expr>" and callee != ("require",):
            return [Binding(scope, target, callee, "call", line)]
        return []
    if value.type == "assignment_expression" and kind == "export":
        value = _chained_value(value)  # `exports.Ids = internals.Ids = class {…}`
    if value.type in ("identifier", "member_expression", "this", "subscript_expression"):
        dotted = dotted_name(value)  # `xs[i]`: an element of xs (`xs[]`)
        # `exports.Suite = Suite` exports the module's `Suite` (a declaration, no value flow);
        # `x = x` tells nothing
        if dotted is not None and (dotted != target or kind == "export"):
            return [Binding(scope, target, dotted, kind, line)]
    return []


def _chained_value(assignment: ts.Node) -> ts.Node:
    """What `a = b = c = value` gives: `value`, or the innermost name it is assigned to where
    `value` is a function, class or object literal (`internals.Template` of `module.exports =
    exports = internals.Template = class {…}`, the name its symbol has)."""
    left, value = assignment, assignment
    while value.type == "assignment_expression":
        inner_left = value.child_by_field_name("left")
        right = value.child_by_field_name("right")
        if inner_left is None or right is None:
            return assignment
        left, value = inner_left, unwrap(right)
    return left if value.type in FUNCTION_NODES | {"class", "object"} else value


def _value_binding(
    scope: str, target: Dotted, node: ts.Node, line: int, field_name: str = "value"
) -> list[Binding]:
    """The binding an initialiser or assignment gives `target` (`as T` counts as annotated),
    and the elements it holds when it is what a call returns (`xs = getAll()`: getAll()[])."""
    value = node.child_by_field_name(field_name)
    if value is None:
        return []
    return held_elements(scope, target, value, line) + _typed_value(scope, target, value, line)


def _typed_value(scope: str, target: Dotted, value: ts.Node, line: int) -> list[Binding]:
    if value.type in ("as_expression", "satisfies_expression") and value.named_child_count == 2:
        annotated = single_type(value.named_children[1])
        if annotated is not None and value.type == "as_expression":
            return [Binding(scope, target, annotated, "annotation", line)]
    if value.type in FUNCTION_NODES | {"class", "object"}:
        return []
    return _expression_binding(scope, target, value, line)


def _object_exports(module: str, obj: ts.Node, line: int) -> list[Binding]:
    """`module.exports = { a, b: c }`: the module exports `b` as `c` (and `a` as itself)."""
    records = []
    for child in obj.named_children:
        if child.type == "pair":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if key is None or value is None or value.type in FUNCTION_NODES:
                continue
            label = _text(key).strip("'\"")
            records.extend(_expression_binding(module, (label,), value, line, "export"))
    return records
