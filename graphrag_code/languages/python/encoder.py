"""The `Expr` of a Python expression (`model.Expr`): tree-sitter nodes encoded as the typed
records value flow evaluates, and the `isinstance` tests a condition makes."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import tree_sitter as ts

from ...model import (
    CONST,
    OPAQUE,
    SLICE,
    Arguments,
    Attribute,
    Awaited,
    Call,
    Comprehension,
    Const,
    DictDisplay,
    Display,
    Expr,
    Int,
    LambdaExpr,
    Name,
    OneOf,
    Sent,
    Star,
    Str,
    Subscript,
    Unlike,
)
from ...parsing.treesitter import node_text

__all__ = [
    "COMPREHENSIONS",
    "Encoder",
    "interesting",
    "isinstance_tests",
    "literal_string",
    "none_test",
    "refuted_isinstance_tests",
    "target_access",
    "target_path",
]  # fmt: skip

_MAX_DEPTH = 10
_LITERALS = (Const, Str, Int)
_CONST_TYPES = frozenset(
    {"none", "true", "false", "float", "concatenated_string", "not_operator", "comparison_operator",
     "ellipsis", "unary_operator"}
)  # fmt: skip


def _negative_integer(node: ts.Node) -> bool:
    """`-1`: an index from the end, as constant as `1`."""
    operand = node.child_by_field_name("argument")
    operator = node.child_by_field_name("operator")
    return (
        operand is not None
        and operand.type == "integer"
        and operator is not None
        and operator.type == "-"
    )


_CONTAINER_TYPES: dict[str, Literal["list", "tuple", "set"]] = {
    "list": "list",
    "tuple": "tuple",
    "set": "set",
    "expression_list": "tuple",
}
COMPREHENSIONS: dict[str, Literal["list", "set", "dict"]] = {
    "list_comprehension": "list",
    "set_comprehension": "set",
    "generator_expression": "list",
    "dictionary_comprehension": "dict",
}


def literal_string(node: ts.Node) -> str | None:
    children = node.children
    if any(child.type == "interpolation" for child in children):
        return None
    if len(children) == 2 or (len(children) == 3 and children[1].named_child_count == 0):
        start = node_text(children[0])
        if start in ('"', "'", '"""', "'''"):  # no prefix, no escapes: the text itself
            return node_text(children[1]) if len(children) == 3 else ""
    try:
        value = ast.literal_eval(node_text(node))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, str) else None


@dataclass
class Encoder:
    """Encodes the expressions of one file; a name or string met again is the same `Name` or
    `Str` (a file has far fewer names than uses of them: fewer objects to make, pickle and
    collect; without it click links 15 % slower than with tuples, with it 3 %)."""

    positioned: Callable[[ts.Node], Expr] | None  # wraps bodies evaluated at their own place
    _names: dict[str, Name] = field(default_factory=dict)
    _strings: dict[str, Str] = field(default_factory=dict)

    def encode(self, node: ts.Node | None, depth: int) -> Expr:
        """The `Expr` of a tree-sitter expression node."""
        if node is None or depth > _MAX_DEPTH:
            return OPAQUE
        kind = node.type
        if kind == "identifier":
            text = node_text(node)
            name = self._names.get(text)
            if name is None:
                name = self._names[text] = Name((text,))
            return name
        if kind == "attribute":
            obj = node.child_by_field_name("object")
            attr = node.child_by_field_name("attribute")
            if obj is None or attr is None:
                return OPAQUE
            head = self.encode(obj, depth + 1)
            if isinstance(head, Name):
                return Name((*head.dotted, node_text(attr)))
            return Attribute(head, node_text(attr))
        if kind == "call":
            function = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            return Call(self.encode(function, depth + 1), self.arguments(arguments, depth + 1))
        if kind == "subscript":
            value = node.child_by_field_name("value")
            key = node.child_by_field_name("subscript")
            alias = self._type_union(value, node, depth)
            if alias is not None:
                return alias
            if key is not None and key.type == "slice":
                return Subscript(self.encode(value, depth + 1), SLICE)
            return Subscript(self.encode(value, depth + 1), self.encode(key, depth + 1))
        if kind == "string":
            literal = literal_string(node)
            if literal is None:
                return CONST
            string = self._strings.get(literal)
            if string is None:
                string = self._strings[literal] = Str(literal)
            return string
        if kind == "integer" or (kind == "unary_operator" and _negative_integer(node)):
            try:
                return Int(int(node_text(node).replace(" ", ""), 0))  # `-1`, `- 1`
            except ValueError:
                return CONST
        if kind in _CONST_TYPES:
            return CONST
        if kind == "parenthesized_expression":
            inner = [c for c in node.named_children if c.type != "comment"]
            return self.encode(inner[0], depth) if len(inner) == 1 else OPAQUE
        if kind in _CONTAINER_TYPES:
            return Display(_CONTAINER_TYPES[kind], self._elements(node, depth))
        if kind == "dictionary":
            pairs: list[tuple[Expr | None, Expr]] = []
            for child in node.named_children:
                if child.type == "pair":
                    key_expr = self.encode(child.child_by_field_name("key"), depth + 1)
                    value_expr = self.encode(child.child_by_field_name("value"), depth + 1)
                    pairs.append((key_expr, value_expr))
                elif child.type == "dictionary_splat" and child.named_children:
                    pairs.append((None, self.encode(child.named_children[0], depth + 1)))
            return DictDisplay(tuple(pairs))
        if kind == "conditional_expression":
            parts = [c for c in node.named_children if c.type != "comment"]
            if len(parts) == 3:
                chosen, otherwise = self._narrowed_arms(parts, depth)
                return OneOf((chosen, otherwise))
            return OPAQUE
        if kind == "binary_operator":
            return self._concatenated(node, depth)
        if kind == "boolean_operator":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            return OneOf((self.encode(left, depth + 1), self.encode(right, depth + 1)))
        if kind == "yield":  # `x = yield v`: what the generator's caller sends
            from_ = any(child.type == "from" for child in node.children)
            return OPAQUE if from_ else Sent()
        if kind == "await":
            awaited = node.named_children[0] if node.named_children else None
            return Awaited(self.encode(awaited, depth + 1))
        if kind == "lambda" and self.positioned is not None:
            params = node.child_by_field_name("parameters")
            names = tuple(
                node_text(name)
                for child in (params.named_children if params is not None else [])
                for name in [child.child_by_field_name("name") or child]
                if name.type == "identifier"
            )
            body = node.child_by_field_name("body")
            body_expr = self.positioned(body) if body is not None else OPAQUE
            return LambdaExpr(node.start_point[0] + 1, names, body_expr)
        if kind in COMPREHENSIONS and self.positioned is not None:
            body = node.child_by_field_name("body")
            if body is None:
                return OPAQUE
            if kind == "dictionary_comprehension":
                key, value = body.child_by_field_name("key"), body.child_by_field_name("value")
                if key is None or value is None:
                    return OPAQUE
                return Comprehension("dict", (self.positioned(key), self.positioned(value)))
            return Comprehension(COMPREHENSIONS[kind], self.positioned(body))
        if kind == "named_expression":
            return self.encode(node.child_by_field_name("value"), depth + 1)
        return OPAQUE

    def _concatenated(self, node: ts.Node, depth: int) -> Expr:
        """`[a] + rest + [b]`, where a side is a list (or tuple) display: that kind of
        container holding each side's elements, a side that is not a display as `*side`.
        Any other `+` (numbers, strings, two names) and other operators: opaque."""
        operator = node.child_by_field_name("operator")
        if operator is None or node_text(operator) != "+":
            return OPAQUE
        sides = (
            self.encode(node.child_by_field_name("left"), depth + 1),
            self.encode(node.child_by_field_name("right"), depth + 1),
        )
        kinds = {side.kind for side in sides if isinstance(side, Display) and side.kind != "set"}
        if len(kinds) != 1:  # no display, or a list and a tuple (a TypeError)
            return OPAQUE
        kind = kinds.pop()
        elements: list[Expr] = []
        for side in sides:
            if isinstance(side, Display) and side.kind == kind:
                elements.extend(side.elements)
            else:
                elements.append(Star(side))
        return Display(kind, tuple(elements))

    def _narrowed_arms(self, parts: list[ts.Node], depth: int) -> tuple[Expr, Expr]:
        """The two arms of `a if c else b`; where c is `isinstance(x, K)` (or its `not`),
        the arm that is x itself holds what x holds that is not a K: `Proxy(p) if
        isinstance(p, str) else p` is a Proxy, wherever p came from."""
        chosen, test, otherwise = parts
        arms = [self.encode(chosen, depth + 1), self.encode(otherwise, depth + 1)]
        negated = test.type == "not_operator"
        if negated:
            argument = test.child_by_field_name("argument")
            if argument is None:
                return arms[0], arms[1]
            test = argument
        tests = isinstance_tests(test) if test.type == "call" else []
        if len(tests) == 1:
            name, classes = tests[0]
            excluded = 0 if negated else 1  # the arm where x is not a K
            if arms[excluded] == Name((name,)):
                arms[excluded] = Unlike(arms[excluded], self.encode(classes, depth + 1))
        return arms[0], arms[1]

    def _type_union(self, head: ts.Node | None, node: ts.Node, depth: int) -> Expr | None:
        """`Union[A, "B", None]` / `Optional[A]` as a value (a type alias): one of the classes
        it names (a string names one too), None (`CONST`) included."""
        if head is None or head.type not in ("identifier", "attribute"):
            return None
        word = node_text(head).rsplit(".", 1)[-1]
        if word not in ("Union", "Optional"):
            return None
        members: list[Expr] = [CONST] if word == "Optional" else []
        for child in node.children_by_field_name("subscript"):
            if child.type == "string":
                text = literal_string(child)
                dotted = text.strip().split(".") if text is not None else []
                if not dotted or not all(part.isidentifier() for part in dotted):
                    return None
                members.append(Name(tuple(dotted)))
            else:
                members.append(self.encode(child, depth + 1))
        return OneOf(tuple(members)) if members else None

    def _elements(self, node: ts.Node, depth: int) -> tuple[Expr, ...]:
        elements: list[Expr] = []
        for child in node.named_children:
            if child.type == "comment":
                continue
            if child.type == "list_splat" and child.named_children:
                elements.append(Star(self.encode(child.named_children[0], depth + 1)))
            else:
                elements.append(self.encode(child, depth + 1))
        return tuple(elements)

    def arguments(self, node: ts.Node | None, depth: int) -> Arguments:
        if node is None:
            return ()
        if node.type != "argument_list":  # f(x for x in y): one generator argument
            return ((0, self.encode(node, depth)),)
        found: list[tuple[int | str, Expr]] = []
        position = 0
        for child in node.named_children:
            if child.type == "comment":
                continue
            if child.type == "keyword_argument":
                name = child.child_by_field_name("name")
                value = child.child_by_field_name("value")
                if name is not None:
                    found.append((node_text(name), self.encode(value, depth + 1)))
            elif child.type == "list_splat" and child.named_children:
                found.append(("*", self.encode(child.named_children[0], depth + 1)))
            elif child.type == "dictionary_splat" and child.named_children:
                found.append(("**", self.encode(child.named_children[0], depth + 1)))
            else:
                found.append((position, self.encode(child, depth + 1)))
                position += 1
        return tuple(found)


def interesting(value: Expr) -> bool:
    """False for literals: they never hold a function, a class or an instance of one."""
    return not isinstance(value, _LITERALS)


def refuted_isinstance_tests(condition: ts.Node) -> list[tuple[str, ts.Node]]:
    """(name, classes) of each `isinstance(name, classes)` that holds when a condition is
    false: `not isinstance(…)`, alone or joined by `or`."""
    return _joined_tests(condition, "or", _negated_isinstance_call)


def isinstance_tests(condition: ts.Node) -> list[tuple[str, ts.Node]]:
    """(name, classes) of each `isinstance(name, classes)` a condition requires (alone or
    joined by `and`)."""
    return _joined_tests(condition, "and", _isinstance_call)


def _joined_tests(
    condition: ts.Node, operator: str, test: Callable[[ts.Node], list[tuple[str, ts.Node]]]
) -> list[tuple[str, ts.Node]]:
    """`test` of each part of a condition joined by `operator` (parentheses see through)."""
    if condition.type == "parenthesized_expression" and condition.named_child_count == 1:
        return _joined_tests(condition.named_children[0], operator, test)
    if condition.type == "boolean_operator":
        found = condition.child_by_field_name("operator")
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        if found is None or node_text(found) != operator or left is None or right is None:
            return []
        return _joined_tests(left, operator, test) + _joined_tests(right, operator, test)
    return test(condition)


def none_test(condition: ts.Node) -> tuple[str, bool] | None:
    """(name, True) for a condition `name is None`, (name, False) for `name is not None`
    (parentheses see through); None for any other condition."""
    if condition.type == "parenthesized_expression" and condition.named_child_count == 1:
        return none_test(condition.named_children[0])
    if condition.type != "comparison_operator" or condition.child_count != 3:
        return None
    left, operator, right = condition.children
    if left.type != "identifier" or right.type != "none":
        return None
    if operator.type not in ("is", "is not"):
        return None
    return node_text(left), operator.type == "is"


def _negated_isinstance_call(node: ts.Node) -> list[tuple[str, ts.Node]]:
    argument = node.child_by_field_name("argument") if node.type == "not_operator" else None
    return isinstance_tests(argument) if argument is not None else []


def _isinstance_call(node: ts.Node) -> list[tuple[str, ts.Node]]:
    if node.type != "call":
        return []
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if function is None or arguments is None or node_text(function) != "isinstance":
        return []
    values = [a for a in arguments.named_children if a.type != "comment"]
    if len(values) != 2 or values[0].type != "identifier":
        return []
    return [(node_text(values[0]), values[1])]


_PATTERNS = frozenset({"pattern_list", "tuple_pattern", "list_pattern", "expression_list"})
_TARGET_WRAPPERS = _PATTERNS | {"parenthesized_expression"}


def target_access(node: ts.Node) -> Literal["get", "set", "delete", "update"]:
    """How a target expression is used: read, assigned (`x.a = v`, `x.a, y = v`, `for x.a
    in`), deleted (`del x.a`) or both read and assigned (`x.a += v`)."""
    child, parent = node, node.parent
    while parent is not None and parent.type in _TARGET_WRAPPERS:
        child, parent = parent, parent.parent
    if parent is None:
        return "get"
    if parent.type == "delete_statement":
        return "delete"
    if parent.type in ("assignment", "for_statement", "for_in_clause"):
        return "set" if child == parent.child_by_field_name("left") else "get"
    if parent.type == "augmented_assignment":
        return "update" if child == parent.child_by_field_name("left") else "get"
    return "get"


def target_path(node: ts.Node | None) -> tuple[str, ...] | None:
    """`x` -> ("x",), `self.items` -> ("self", "items"); None for anything else."""
    if node is None:
        return None
    if node.type == "identifier":
        return (node_text(node),)
    if node.type == "attribute":
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        if obj is not None and attr is not None and obj.type == "identifier":
            return (node_text(obj), node_text(attr))
    return None
