"""TypeScript / JavaScript declarations -> `Symbol` records: what each `def.*` capture
declares (see the module docstring of `parser`), named by the scope that holds it, with its
signature, JSDoc, decorators, heritage and parameters."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import tree_sitter as ts

from ...model import Dotted, Symbol, SymbolKind
from ...parsing.records import clipped_signature
from ...parsing.treesitter import first_line, last_line
from ...parsing.treesitter import node_text as _text
from .jsdoc import jsdoc, jsdoc_types
from .returns import plain_return
from .scopes import FileState, scope_of
from .syntax import FUNCTION_NODES, dotted_name, is_exports
from .types import single_type

__all__ = ["Symbols", "parameters_of"]


@dataclass
class _Def:
    """A declaration found in the tree, before it becomes a `Symbol`."""

    node: ts.Node  # the node whose text is the declaration
    scope_node: ts.Node  # the node the symbol's own scope covers (its body lives inside)
    name: str
    kind: SymbolKind
    declared_as: str | None
    function: ts.Node | None = None  # the function-like node (parameters, return type)
    heritage: ts.Node | None = None  # the class-like node whose extends/implements count
    parent: str | None = None  # the parent's qualified name when not the lexical scope


def _statement(node: ts.Node) -> ts.Node:
    """The statement a declaration stands in, for its source span and its JSDoc comment:
    `export …` around it, `const f = …` when it declares one name only."""
    outer = node
    if outer.type == "variable_declarator" and outer.parent is not None:
        declaration = outer.parent
        if declaration.named_child_count == 1:
            outer = declaration
    parent = outer.parent
    if outer.type == "assignment_expression" and parent and parent.type == "expression_statement":
        outer = parent
    while outer.parent is not None and outer.parent.type in (
        "export_statement",
        "ambient_declaration",
    ):
        outer = outer.parent
    parent = outer.parent
    if outer.type == "internal_module" and parent and parent.type == "expression_statement":
        outer = parent
    return outer


class Symbols:
    """The declarations of one file, in source order, outer before inner."""

    def __init__(self, state: FileState, captures: dict[str, list[ts.Node]]) -> None:
        self.state = state
        self.captures = captures
        self.seen: dict[str, int] = defaultdict(int)
        # names whose members are assigned functions (`app.init = function …`) in this file
        self.given_methods = _given_methods(captures.get("def.assignment", []))
        # `proto` of `var proto = module.exports = function …` -> the function's qualified name
        self.aliases: dict[str, str] = {}

    def build(self) -> tuple[Symbol, ...]:
        found: list[tuple[str, ts.Node]] = [
            (name, node)
            for name, nodes in self.captures.items()
            if name.startswith("def.")
            for node in nodes
        ]
        found.sort(key=lambda item: (item[1].start_byte, -item[1].end_byte))
        self._hoist(found)
        symbols: list[Symbol] = []
        handled: set[int] = set(_overloads(found))
        for capture, node in found:
            if node.id in handled:
                continue
            handled.add(node.id)
            for definition in self._definitions(capture, node):
                symbol = self._symbol(definition)
                if symbol is not None:
                    symbols.append(symbol)
        return tuple(symbols)

    def _hoist(self, found: list[tuple[str, ts.Node]]) -> None:
        """Top-level functions and classes are known before their declarations are reached
        (`Foo.prototype.m = function …` may come first: function declarations are hoisted)."""
        for capture, node in found:
            name = node.child_by_field_name("name")
            if capture in ("def.function", "def.class") and name is not None:
                parent = node.parent
                if parent is not None and parent.type == "export_statement":
                    parent = parent.parent
                if parent is not None and parent.type == "program":
                    kind = SymbolKind.CLASS if capture == "def.class" else SymbolKind.FUNCTION
                    self.state.kinds.setdefault(f"{self.state.module}.{_text(name)}", kind)

    # -- what each capture declares -----------------------------------------------------------
    def _definitions(self, capture: str, node: ts.Node) -> list[_Def]:
        kind = capture.removeprefix("def.")
        if kind == "function":
            return [self._function(node, node)]
        if kind == "signature":
            name = node.child_by_field_name("name")
            if name is None:
                return []
            return [_Def(node, node, _text(name), SymbolKind.FUNCTION, "signature", node)]
        if kind == "class":
            name = node.child_by_field_name("name")
            declared = "abstract class" if node.type == "abstract_class_declaration" else None
            label = _text(name) if name is not None else "default"
            return [_Def(node, node, label, SymbolKind.CLASS, declared, heritage=node)]
        if kind in ("interface", "type", "enum", "namespace"):
            name = node.child_by_field_name("name")
            if name is None:
                return []
            declared = {"type": "type alias"}.get(kind, kind)
            label = _text(name).replace(" ", "")
            return [_Def(node, node, label, SymbolKind.CLASS, declared, heritage=node)]
        if kind == "method":
            return self._method(node)
        if kind == "method_signature":
            name = node.child_by_field_name("name")
            if name is None:
                return []
            declared = "abstract method" if node.type.startswith("abstract") else "signature"
            return [_Def(node, node, _text(name), SymbolKind.METHOD, declared, node)]
        if kind == "field":
            return self._field(node)
        if kind == "variable":
            return self._variable(node)
        if kind == "object":
            return self._object(node)
        if kind == "assignment":
            return self._assignment(node)
        if kind == "default":
            return self._default(node)
        if kind == "pair":
            return self._pair(node)
        return []

    @staticmethod
    def _function(node: ts.Node, function: ts.Node) -> _Def:
        name = node.child_by_field_name("name")
        declared = "generator" if "generator" in function.type else None
        label = _text(name) if name is not None else "default"
        return _Def(node, function, label, SymbolKind.FUNCTION, declared, function)

    def _method(self, node: ts.Node) -> list[_Def]:
        name = node.child_by_field_name("name")
        if name is None or name.type == "computed_property_name":
            return []
        label = _text(name)
        container = node.parent
        if container is not None and container.type == "object":
            return self._object_member(node, label, node)
        words = {child.type for child in node.children}
        declared = (
            "constructor" if label == "constructor"
            else "getter" if "get" in words
            else "setter" if "set" in words
            else None
        )  # fmt: skip
        return [_Def(node, node, label, SymbolKind.METHOD, declared, node)]

    def _field(self, node: ts.Node) -> list[_Def]:
        name = node.child_by_field_name("name") or node.child_by_field_name("property")
        value = node.child_by_field_name("value")
        if name is None or value is None or name.type == "computed_property_name":
            return []
        declared = "arrow function" if value.type == "arrow_function" else "function expression"
        return [_Def(node, value, _text(name), SymbolKind.METHOD, declared, value)]

    def _variable(self, node: ts.Node) -> list[_Def]:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        while value is not None and value.type == "parenthesized_expression":
            value = value.named_children[0] if value.named_child_count else None
        if name is None or value is None:
            return []
        if value.type == "class":
            return [_Def(node, value, _text(name), SymbolKind.CLASS, None, heritage=value)]
        declared = "arrow function" if value.type == "arrow_function" else "function expression"
        return [_Def(node, value, _text(name), SymbolKind.FUNCTION, declared, value)]

    def _object(self, node: ts.Node) -> list[_Def]:
        """`const api = { get() {…} }`: a symbol for the object when it holds functions, or
        when functions are assigned to its members later (`var app = exports =
        module.exports = {}; app.init = function …`, `var res = Object.create(…)`)."""
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or value is None:
            return []
        given = _text(name) in self.given_methods
        if value.type == "object" and (given or _holds_functions(value)):
            return [_Def(node, value, _text(name), SymbolKind.CLASS, "object literal")]
        made = _assigned_value(value)
        if given and (made.type == "object" or _is_object_create(made)):
            return [_Def(node, made, _text(name), SymbolKind.CLASS, "object literal")]
        return []

    def _object_member(self, node: ts.Node, label: str, function: ts.Node) -> list[_Def]:
        """A function in an object literal: a method of the object's symbol, or a module-level
        function of `module.exports = { … }`; other objects' functions are no symbols."""
        obj = node.parent
        owner = self.state.def_scopes.get(obj.id) if obj is not None else None
        if owner is None and obj is not None:
            owner = self._returned_by(obj)
        words = {child.type for child in node.children} if node is function else set()
        declared = "getter" if "get" in words else "setter" if "set" in words else "object method"
        if owner is not None:
            return [_Def(node, function, label, SymbolKind.METHOD, declared, function)]
        if obj is not None and _is_module_exports(obj.parent, obj):
            return [_Def(node, function, label, SymbolKind.FUNCTION, declared, function)]
        return []

    def _returned_by(self, obj: ts.Node) -> str | None:
        """The named function that returns object literal `obj` (`return { batch() {…} }`,
        `() => ({ … })`): the object's functions are its members, so what a call of the
        factory gives has them (`createNotifyManager().batch`)."""
        outer = obj.parent
        while outer is not None and outer.type in (
            "parenthesized_expression", "as_expression", "satisfies_expression",
        ):  # fmt: skip
            outer = outer.parent
        if outer is None:
            return None
        if outer.type == "return_statement":
            body = outer.parent
            function = body.parent if body is not None and body.type == "statement_block" else None
        elif outer.type == "arrow_function":
            function = outer
        else:
            return None
        owner = self.state.def_scopes.get(function.id) if function is not None else None
        if owner is None or self.state.kinds.get(owner) != SymbolKind.FUNCTION:
            return None
        self.state.def_scopes[obj.id] = owner
        return owner

    def _pair(self, node: ts.Node) -> list[_Def]:
        key = node.child_by_field_name("key")
        value = node.child_by_field_name("value")
        if key is None or value is None or key.type not in ("property_identifier", "string"):
            return []
        label = _text(key).strip("'\"")
        if not label.isidentifier():
            return []
        return self._object_member(node, label, value)

    def _assignment(self, node: ts.Node) -> list[_Def]:
        """`exports.f = function …`, `module.exports = class …`, `X.prototype.m = function …`,
        `X.m = function …`, `X.prototype = { … }`."""
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        target = dotted_name(left) if left is not None else None
        if target is None or right is None:
            return []
        if target[0] == "this" and len(target) == 2:
            return self._this_member(node, target[1], right)
        if right.type == "object":
            if (len(target) == 2 and target[1] == "prototype") or target == ("module", "exports"):
                owner = self._known(node, target[0]) if target[0] != "module" else None
                if owner is not None:
                    self.state.def_scopes[right.id] = owner
            elif is_exports(target) and len(target) in (2, 3) and _holds_functions(right):
                return [_Def(node, right, target[-1], SymbolKind.CLASS, "object literal")]
            elif len(target) == 2 and target[0] != "module" and _holds_functions(right):
                # `internals.methods = { assert() {…} }`: an object of an object's
                owner = self._known(node, target[0])
                if owner is not None:
                    return [
                        _Def(node, right, target[1], SymbolKind.CLASS, "object literal",
                             parent=owner)
                    ]  # fmt: skip
            return []
        kind = SymbolKind.CLASS if right.type == "class" else SymbolKind.FUNCTION
        if target == ("module", "exports"):
            own = right.child_by_field_name("name")
            label = _text(own) if own else "default"
            alias = _declared_name(node)  # `var proto = module.exports = function …`
            if alias is not None:
                scope = scope_of(node, self.state)
                self.aliases[f"{scope}.{alias}"] = f"{scope}.{label}"
            return [_Def(node, right, label, kind, None, right, right)]
        if (len(target) == 2 and target[0] == "exports") or target[:2] == ("module", "exports"):
            if len(target) == 2 or len(target) == 3:
                return [_Def(node, right, target[-1], kind, None, right, right)]
            return []
        if kind == SymbolKind.FUNCTION and len(target) in (2, 3) and target[0] != "this":
            if len(target) == 3 and target[1] != "prototype":
                return []
            owner = self._known(node, target[0])
            if owner is None:
                return []
            return [_Def(node, right, target[-1], SymbolKind.METHOD, None, right, parent=owner)]
        if kind == SymbolKind.CLASS and len(target) == 2 and target[0] != "this":
            # `internals.Base = class {…}`: a class kept in an object of the module's
            owner = self._known(node, target[0])
            if owner is None:
                return []
            return [_Def(node, right, target[-1], kind, None, heritage=right, parent=owner)]
        return []

    def _this_member(self, node: ts.Node, name: str, right: ts.Node) -> list[_Def]:
        """`this.x = function …` / `(…) => …`: a method `x` of the class (or constructor
        function) whose instance `this` is; `this.x = { f: () => … }`: an object literal `x`
        of it, whose functions are its methods (`this._output.writeErr(…)`), as the checker
        declares them. Elsewhere (`this` of a plain function or a callback) nothing; nor where
        the class declares a field `x` (`debug;`, `enhancer_: Fn`): the field is the
        declaration, and what is assigned one of the values it may hold."""
        owner = self._this_owner(node)
        if owner is None or name.startswith("#") or _declares_field(node, name):
            return []
        if right.type == "object":
            if not _holds_functions(right):
                return []
            return [_Def(node, right, name, SymbolKind.CLASS, "object literal", parent=owner)]
        if right.type not in FUNCTION_NODES:
            return []
        declared = "arrow function" if right.type == "arrow_function" else "function expression"
        return [_Def(node, right, name, SymbolKind.METHOD, declared, right, parent=owner)]

    def _this_owner(self, node: ts.Node) -> str | None:
        """The class, object literal or constructor function whose instance `this` is where
        `node` runs: the nearest function that binds `this` (arrow functions do not) must be
        a method of one, or a top-level function (a constructor function)."""
        function = node.parent
        while function is not None and (
            function.type not in FUNCTION_NODES | {"method_definition", "function_declaration"}
            or function.type == "arrow_function"
        ):
            function = function.parent
        qualified = self.state.def_scopes.get(function.id) if function is not None else None
        if qualified is None:
            return None
        parent = qualified.rpartition(".")[0]
        kind = self.state.kinds.get(qualified)
        if kind == SymbolKind.METHOD and self.state.kinds.get(parent) in (
            SymbolKind.CLASS, SymbolKind.FUNCTION,
        ):  # fmt: skip
            return parent
        if kind == SymbolKind.FUNCTION and parent == self.state.module:
            return qualified
        return None

    def _known(self, node: ts.Node, name: str) -> str | None:
        """The qualified name of function or class `name` declared in the scope of `node`."""
        qualified = f"{scope_of(node, self.state)}.{name}"
        qualified = self.aliases.get(qualified, qualified)
        if self.state.kinds.get(qualified) in (SymbolKind.FUNCTION, SymbolKind.CLASS):
            return qualified
        return None

    def _default(self, node: ts.Node) -> list[_Def]:
        value = node.child_by_field_name("value")
        if value is None:
            return []
        if value.type == "class":
            return [_Def(value, value, "default", SymbolKind.CLASS, None, heritage=value)]
        own = value.child_by_field_name("name")
        label = _text(own) if own is not None else "default"
        declared = "arrow function" if value.type == "arrow_function" else None
        return [_Def(value, value, label, SymbolKind.FUNCTION, declared, value)]

    # -- the record ---------------------------------------------------------------------------
    def _symbol(self, definition: _Def) -> Symbol | None:
        state = self.state
        parent = definition.parent or scope_of(definition.node, state)
        qualified = f"{parent}.{definition.name}"
        state.def_scopes[definition.scope_node.id] = qualified
        self.seen[qualified] += 1
        if self.seen[qualified] == 1:
            state.kinds[qualified] = definition.kind
        if definition.function is not None:
            state.function_scopes.add(qualified)
        span = _statement(definition.node)
        heritage = definition.heritage
        bases, implements = _heritage(heritage) if heritage is not None else ((), ())
        function = definition.function
        returns = None
        parameters: tuple[str, ...] = ()
        docstring = jsdoc(span) or jsdoc(definition.node)
        if function is not None:
            returns = single_type(function.child_by_field_name("return_type"))
            if returns is None and state.grammar == "javascript" and docstring:
                returns = jsdoc_types(docstring).get("return")
            if returns is None and function.child_by_field_name("return_type") is None:
                returns = plain_return(function)
            params = function.child_by_field_name("parameters")
            parameters = tuple(name for name, _type, _node in parameters_of(params))
            if params is None:  # `x => …`: one parameter, no parentheses
                single = function.child_by_field_name("parameter")
                parameters = (_text(single),) if single is not None else ()
        is_async = function is not None and any(c.type == "async" for c in function.children)
        return Symbol(
            qualified_name=qualified,
            name=definition.name,
            kind=definition.kind,
            parent=parent,
            start_line=first_line(span),
            end_line=last_line(span),
            signature=_signature(span, definition),
            docstring=docstring,
            decorators=_decorators(definition.node, span),
            code=_text(span),
            is_async=is_async,
            bases=bases,
            returns=returns,
            parameters=parameters,
            ordinal=self.seen[qualified],
            declared_as=definition.declared_as,
            implements=implements,
        )


def _overloads(found: list[tuple[str, ts.Node]]) -> list[int]:
    """The overload signatures of functions and methods that have an implementation in the
    same block: the implementation stands for all of them (as the checker's answers do)."""
    implemented: set[tuple[int, str]] = set()
    signatures: list[tuple[int, str, int]] = []
    for capture, node in found:
        name = node.child_by_field_name("name")
        if name is None:
            continue
        key = (_block(node), _text(name))
        if capture in ("def.signature", "def.method_signature") and node.type != (
            "abstract_method_signature"
        ):
            signatures.append((*key, node.id))
        elif capture in ("def.function", "def.method"):
            implemented.add(key)
    return [node_id for block, name, node_id in signatures if (block, name) in implemented]


def _block(node: ts.Node) -> int:
    """The id of the block (program, statement block, class body) a declaration stands in."""
    parent = node.parent
    while parent is not None and parent.type in ("export_statement", "ambient_declaration"):
        parent = parent.parent
    return parent.id if parent is not None else -1


def _holds_functions(obj: ts.Node) -> bool:
    for child in obj.named_children:
        if child.type == "method_definition":
            return True
        if child.type == "pair":
            value = child.child_by_field_name("value")
            if value is not None and value.type in FUNCTION_NODES:
                return True
    return False


def _declares_field(node: ts.Node, name: str) -> bool:
    """Whether the class whose code holds `node` declares a field `name` in its body."""
    body = node.parent
    while body is not None and body.type != "class_body":
        body = body.parent
    for child in body.named_children if body is not None else ():
        if child.type in ("public_field_definition", "field_definition"):
            own = child.child_by_field_name("name") or child.child_by_field_name("property")
            if own is not None and _text(own) == name:
                return True
    return False


def _given_methods(assignments: list[ts.Node]) -> frozenset[str]:
    """The `x` of every `x.m = function …`, `x.C = class …` or `x.o = { f() {…} }` (a function,
    a class or an object of functions assigned to a member of a name)."""
    names: set[str] = set()
    for node in assignments:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        target = dotted_name(left) if left is not None else None
        if target is None or len(target) != 2 or right is None:
            continue
        given = right.type in FUNCTION_NODES | {"class"} or (
            right.type == "object" and _holds_functions(right)
        )
        if given and target[0] not in ("this", "exports", "module"):
            names.add(target[0])
    return frozenset(names)


def _declared_name(assignment: ts.Node) -> str | None:
    """`x` of `var x = a = b = assignment`: the variable a chain of assignments declares."""
    outer = assignment.parent
    while outer is not None and outer.type == "assignment_expression":
        outer = outer.parent
    if outer is None or outer.type != "variable_declarator":
        return None
    name = outer.child_by_field_name("name")
    return _text(name) if name is not None and name.type == "identifier" else None


def _assigned_value(node: ts.Node) -> ts.Node:
    """The value of `a = b = value` (the node itself when it is no assignment)."""
    while node.type == "assignment_expression":
        right = node.child_by_field_name("right")
        if right is None:
            break
        node = right
    return node


def _is_object_create(node: ts.Node) -> bool:
    """`Object.create(…)`: an object whose members are what is assigned to it."""
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    return function is not None and dotted_name(function) == ("Object", "create")


def _is_module_exports(assignment: ts.Node | None, obj: ts.Node) -> bool:
    if assignment is None or assignment.type != "assignment_expression":
        return False
    left = assignment.child_by_field_name("left")
    return left is not None and dotted_name(left) == ("module", "exports")


def _heritage(node: ts.Node) -> tuple[tuple[Dotted, ...], tuple[Dotted, ...]]:
    """(extends, implements) of a class or interface declaration."""
    bases: list[Dotted] = []
    implements: list[Dotted] = []
    for child in node.children:
        if child.type == "class_heritage":
            for clause in child.named_children:
                if clause.type == "extends_clause":
                    value = clause.child_by_field_name("value")
                    dotted = dotted_name(value) if value is not None else None
                    if dotted is not None:
                        bases.append(dotted)
                elif clause.type == "implements_clause":
                    implements.extend(
                        d for t in clause.named_children if (d := single_type(t)) is not None
                    )
                else:  # JavaScript: the expression itself
                    dotted = dotted_name(clause)
                    if dotted is not None:
                        bases.append(dotted)
        elif child.type == "extends_type_clause":
            bases.extend(d for t in child.named_children if (d := single_type(t)) is not None)
    return tuple(bases), tuple(implements)


def _signature(span: ts.Node, definition: _Def) -> str:
    """The declaration up to its body: `export async function load(path: string): Promise<T>`."""
    body: ts.Node | None = None
    for candidate in (definition.function, definition.scope_node, definition.node):
        if candidate is not None:
            body = candidate.child_by_field_name("body")
            if body is not None:
                break
    if definition.kind == SymbolKind.CLASS and definition.declared_as == "type alias":
        body = None
    text = _text(span)
    if body is not None and span.start_byte <= body.start_byte <= span.end_byte:
        text = text[
            : len(
                (span.text or b"")[: body.start_byte - span.start_byte].decode("utf-8", "replace")
            )
        ]
    signature = " ".join(text.split()).rstrip("{ ").rstrip()
    return clipped_signature(signature)


def _decorators(node: ts.Node, span: ts.Node) -> tuple[str, ...]:
    found = [c for c in (*span.children, *node.children) if c.type == "decorator"]
    previous = node.prev_sibling
    while previous is not None and previous.type == "decorator":
        found.append(previous)
        previous = previous.prev_sibling
    return tuple(sorted({_text(d).lstrip("@").strip() for d in found}))


def parameters_of(params: ts.Node | None) -> list[tuple[str, ts.Node | None, ts.Node]]:
    """(name, type annotation, parameter node) of every simply named parameter."""
    if params is None:
        return []
    found: list[tuple[str, ts.Node | None, ts.Node]] = []
    for child in params.named_children:
        annotation = child.child_by_field_name("type")
        target = (
            child.child_by_field_name("pattern") if child.type.endswith("_parameter") else child
        )
        while target is not None and target.type in ("rest_pattern", "assignment_pattern"):
            target = (
                target.child_by_field_name("left")
                if target.type == "assignment_pattern"
                else (target.named_children[0] if target.named_child_count else None)
            )
        if target is not None and target.type == "identifier":
            found.append((_text(target), annotation, child))
    return found
