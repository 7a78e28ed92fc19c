"""TypeScript / JavaScript bindings -> `Binding` records: what types a name, a field or an
export (annotations, JSDoc, `new` results, aliases, `export default`, `module.exports`)."""

from __future__ import annotations

from typing import Literal

import tree_sitter as ts

from ...model import Binding, Dotted, Symbol, SymbolKind
from ...parsing.records import opaque_bindings
from ...parsing.treesitter import first_line
from ...parsing.treesitter import node_text as _text
from .jsdoc import jsdoc_types
from .returns import returned_values
from .scopes import FileReader
from .symbols import parameters_of
from .syntax import (
    CALLED,
    FUNCTION_NODES,
    argument_part,
    callee_parts,
    dotted_name,
    element_of,
    is_exports,
    unwrap,
)
from .types import callback_parameter_types, element_type, single_type

__all__ = ["Bindings"]

# array methods that give an array of the same elements
_SAME_ELEMENTS = frozenset(
    {"filter", "slice", "concat", "sort", "reverse", "toSorted", "toReversed", "splice"}
)
# array methods whose callback's first parameter is an element of the array (or set)
_ELEMENT_CALLBACKS = frozenset(
    {"forEach", "map", "filter", "find", "findLast", "findIndex", "findLastIndex", "some",
     "every", "flatMap"}
)  # fmt: skip


class Bindings(FileReader):
    """The bindings of one file."""

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
            records.extend(_elements(scope, (_text(name),), declared, line))
            annotation = single_type(declared)
            if annotation is not None:
                records.append(Binding(scope, (_text(name),), annotation, "annotation", line))
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
                records.extend(_value_binding(scope, target, assignment, line, "right"))
        for node in self.captures.get("bind.field", []):
            records.extend(self._field_binding(node))
        for node in self.captures.get("bind.parameter_property", []):
            records.extend(self._parameter_property(node))
        for node in self.captures.get("function.any", []):
            records.extend(self._callback_element(node))
            records.extend(self._callback_argument(node))
        for node in self.captures.get("bind.for_of", []):
            records.extend(self._for_of_element(node))
        for node in self.captures.get("local.pattern", []):
            records.extend(self._destructured(node))
        records.extend(self._export_bindings())
        records.extend(self._opaque(records))
        records.sort(key=lambda b: (b.line, b.scope, b.target))
        return records

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
        records.extend(self._returned_elements(node, documented.get("return[]")))
        records.extend(self._this_parameter(node))
        records.extend(self._callback_parameters(node))
        records.extend(self._returned_properties(node))
        for name, annotation, param in parameters_of(node.child_by_field_name("parameters")):
            line = first_line(param)
            value = single_type(annotation) or documented.get(f"param:{name}")
            if value is not None:
                records.append(Binding(scope, (name,), value, "annotation", line))
            element = element_type(annotation) or documented.get(f"param:{name}[]")
            if element is not None:
                records.append(Binding(scope, element_of((name,)), element, "annotation", line))
        return records

    def _returned_properties(self, node: ts.Node) -> list[Binding]:
        """`parse() { return { status: new Status(), … } }` declares `parse().status` (beside
        parse) as what `new Status()` gives: `const { status } = this.parse(…)` reads it.
        Only `new` values: other names may be the function's own locals."""
        qualified = self.state.def_scopes.get(node.id)
        if qualified is None:
            return []
        scope, _, name = qualified.rpartition(".")
        records = []
        for value in returned_values(node):
            value = unwrap(value)
            if value.type != "object":
                continue
            for pair in (c for c in value.named_children if c.type == "pair"):
                key = pair.child_by_field_name("key")
                made = pair.child_by_field_name("value")
                if key is None or made is None or made.type != "new_expression":
                    continue
                target = (f"{name}{CALLED}.{_text(key)}",)
                records.extend(_expression_binding(scope, target, made, first_line(pair)))
        return records

    def _destructured(self, pattern: ts.Node) -> list[Binding]:
        """`const { status, ctx: c } = this.parse(…)`: each name is the property of what the
        call returns (`this.parse().status`)."""
        declarator = pattern.parent
        value = declarator.child_by_field_name("value") if declarator is not None else None
        if declarator is None or value is None or pattern.type != "object_pattern":
            return []
        value = unwrap(value)
        function = (
            value.child_by_field_name("function") if value.type == "call_expression" else None
        )
        called = dotted_name(function) if function is not None else None
        if called is None or called[0] == "require":
            return []
        scope = self._scope(declarator)
        line = first_line(declarator)
        records = []
        for child in pattern.named_children:
            key: ts.Node | None = child
            local: ts.Node | None = child
            if child.type == "pair_pattern":
                key = child.child_by_field_name("key")
                local = child.child_by_field_name("value")
            elif child.type != "shorthand_property_identifier_pattern":
                continue
            if key is None or local is None or local.type not in (
                "identifier", "shorthand_property_identifier_pattern",
            ):  # fmt: skip
                continue
            source = (*called[:-1], f"{called[-1]}{CALLED}.{_text(key)}")
            records.append(Binding(scope, (_text(local),), source, "alias", line))
        return records

    def _callback_parameters(self, node: ts.Node) -> list[Binding]:
        """`f(xs, getOffset: (handle: Handle) => number)`: `(1:0)` beside f is Handle, the
        first parameter of the function f takes as its second argument."""
        qualified = self.state.def_scopes.get(node.id)
        params = node.child_by_field_name("parameters")
        if qualified is None or params is None:
            return []
        records = []
        index = 0
        for child in params.named_children:
            pattern = child.child_by_field_name("pattern")
            if child.type == "comment" or (pattern is not None and pattern.type == "this"):
                continue
            types = callback_parameter_types(child.child_by_field_name("type"))
            for position, declared in enumerate(types):
                if declared is not None:
                    target = (argument_part("", index, position),)
                    records.append(
                        Binding(qualified, target, declared, "annotation", first_line(child))
                    )
            index += 1
        return records

    def _callback_argument(self, node: ts.Node) -> list[Binding]:
        """`this.nearest(xs, (handle) => …)`: each untyped parameter of a function passed to
        a call is what the callee declares for it (`nearest(1:0)`); array methods' callbacks
        see the array's elements instead (`_callback_element`)."""
        arguments = node.parent
        call = arguments.parent if arguments is not None else None
        if arguments is None or arguments.type != "arguments" or call is None:
            return []
        function = call.child_by_field_name("function")
        called = dotted_name(function) if function is not None else None
        if call.type != "call_expression" or called is None or called[-1] in _ELEMENT_CALLBACKS:
            return []
        position = [a.id for a in arguments.named_children if a.type != "comment"].index(node.id)
        single = node.child_by_field_name("parameter")  # `x => …`
        params = node.child_by_field_name("parameters")
        children = (
            [single]
            if single is not None
            else [
                c
                for c in (params.named_children if params is not None else [])
                if c.type != "comment"
            ]
        )
        records = []
        for index, child in enumerate(children):
            name = child if child.type == "identifier" else child.child_by_field_name("pattern")
            if name is None or name.type != "identifier" or child.child_by_field_name("type"):
                continue
            source = (*called[:-1], argument_part(called[-1], position, index))
            records.append(
                Binding(
                    self._function_scope(node), (_text(name),), source, "alias", first_line(node)
                )
            )
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

    def _returned_elements(self, node: ts.Node, documented: Dotted | None) -> list[Binding]:
        """`getAll(): Query[]` declares `getAll()[]`, the elements of what it returns, as Query
        (in the scope that holds the function: a class's, for a method)."""
        qualified = self.state.def_scopes.get(node.id)
        element = element_type(node.child_by_field_name("return_type")) or documented
        if qualified is None or element is None:
            return []
        scope, _, name = qualified.rpartition(".")
        target = element_of((name + CALLED,))
        return [Binding(scope, target, element, "annotation", first_line(node))]

    def _callback_element(self, node: ts.Node) -> list[Binding]:
        """`xs.forEach((x) => …)`: the callback's first parameter is an element of `xs` (an
        alias of `xs[]`, which the declaration of `xs` types)."""
        arguments = node.parent
        call = arguments.parent if arguments is not None else None
        if call is None or call.type != "call_expression" or arguments is None:
            return []
        if arguments.type != "arguments" or arguments.named_children[:1] != [node]:
            return []
        function = call.child_by_field_name("function")
        if function is None or function.type != "member_expression":
            return []
        method = function.child_by_field_name("property")
        obj = function.child_by_field_name("object")
        if method is None or obj is None or _text(method) not in _ELEMENT_CALLBACKS:
            return []
        array = _collection(obj)
        params = parameters_of(node.child_by_field_name("parameters"))
        single = node.child_by_field_name("parameter")  # `x => …`
        first = _text(single) if single is not None else params[0][0] if params else None
        if array is None or first is None or (params and params[0][1] is not None):
            return []
        line = first_line(node)
        return [Binding(self._function_scope(node), (first,), element_of(array), "alias", line)]

    def _for_of_element(self, node: ts.Node) -> list[Binding]:
        """`for (const x of xs)`: `x` is an element of `xs`."""
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None or not any(c.type == "of" for c in node.children):
            return []
        array = _collection(right)
        if array is None:
            return []
        scope = self._scope(node)
        return [Binding(scope, (_text(left),), element_of(array), "alias", first_line(node))]

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
        elements = _elements(scope, (label,), declared, line)
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
        records = _elements(klass, (_text(pattern),), declared, line)
        annotation = single_type(declared)
        if annotation is not None:
            records.append(Binding(klass, (_text(pattern),), annotation, "annotation", line))
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
                    name = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias") or name
                    if name is not None and alias is not None:  # `export { a }` too: a is
                        exported = _text(alias).strip("'\"")  # exported even if imported
                        records.append(Binding(module, (exported,), (_text(name),), "export", line))
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


def _collection(node: ts.Node) -> Dotted | None:
    """The dotted name whose elements `node` holds: `this.xs`, or `this.getAll()` as
    `this.getAll()` (what a call of getAll returns)."""
    node = unwrap(node)
    if node.type == "call_expression":
        function = node.child_by_field_name("function")
        called = dotted_name(function) if function is not None else None
        return (*called[:-1], called[-1] + CALLED) if called else None
    return dotted_name(node)


def _elements(scope: str, target: Dotted, declared: ts.Node | None, line: int) -> list[Binding]:
    """`xs: Foo[]` (or `Array<Foo>`, `Set<Foo>`) declares `xs[]`, its elements, as Foo."""
    element = element_type(declared)
    return [Binding(scope, element_of(target), element, "annotation", line)] if element else []


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
    if value.type in ("identifier", "member_expression", "this"):
        dotted = dotted_name(value)
        # `exports.Suite = Suite` exports the module's `Suite` (a declaration, no value flow);
        # `x = x` tells nothing
        if dotted is not None and (dotted != target or kind == "export"):
            return [Binding(scope, target, dotted, kind, line)]
    return []


def _value_binding(
    scope: str, target: Dotted, node: ts.Node, line: int, field_name: str = "value"
) -> list[Binding]:
    """The binding an initialiser or assignment gives `target` (`as T` counts as annotated),
    and the elements it holds when it is what a call returns (`xs = getAll()`: getAll()[])."""
    value = node.child_by_field_name(field_name)
    if value is None:
        return []
    return _held_elements(scope, target, value, line) + _typed_value(scope, target, value, line)


def _held_elements(scope: str, target: Dotted, value: ts.Node, line: int) -> list[Binding]:
    """`xs = this.getAll()`: xs[] is getAll()[]; `xs = ys.filter(…)` (`slice`, `concat`,
    `sort`…): xs[] is ys[]; `xs = [suite]` (every item the same name): xs[] is suite."""
    value = unwrap(value)
    if value.type == "array":
        items = [dotted_name(unwrap(item)) for item in value.named_children]
        if items and items[0] is not None and all(item == items[0] for item in items):
            return [Binding(scope, element_of(target), items[0], "alias", line)]
        return []
    function = value.child_by_field_name("function") if value.type == "call_expression" else None
    if function is None:
        return []
    method = function.child_by_field_name("property")
    if function.type == "member_expression" and method and _text(method) in _SAME_ELEMENTS:
        obj = function.child_by_field_name("object")  # `this.getAll().filter(…)` too
        array = _collection(obj) if obj is not None else None
        return (
            [Binding(scope, element_of(target), element_of(array), "alias", line)] if array else []
        )
    called = dotted_name(function)
    if called is None or called[0] == "require":
        return []
    held = element_of((*called[:-1], called[-1] + CALLED))
    return [Binding(scope, element_of(target), held, "alias", line)]


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
