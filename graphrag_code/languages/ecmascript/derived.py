"""Bindings derived from how a value reaches a name through collections, callbacks and
returns, named by pseudo-names the resolver reads (`resolver`): `xs[]` the elements of `xs`
(`xs: Foo[]`, `for (x of xs)`, `xs.forEach(x => …)`, `xs[i]`), `f()[]` and `f().k` the
elements and a property of what `f` returns, `f(1:0)` the first parameter of the function `f`
takes as its second argument."""

from __future__ import annotations

import tree_sitter as ts

from ...model import Binding, Dotted
from ...parsing.treesitter import first_line
from ...parsing.treesitter import node_text as _text
from .returns import returned_values
from .scopes import FileReader
from .symbols import parameters_of
from .syntax import CALLED, argument_part, dotted_name, element_of, unwrap
from .types import callback_parameter_types, element_type, single_type

__all__ = ["DerivedBindings", "declared_elements", "held_elements", "pattern_value"]

# array methods that give an array of the same elements
_SAME_ELEMENTS = frozenset(
    {"filter", "slice", "concat", "sort", "reverse", "toSorted", "toReversed", "splice"}
)
# array methods whose callback's first parameter is an element of the array (or set)
_ELEMENT_CALLBACKS = frozenset(
    {"forEach", "map", "filter", "find", "findLast", "findIndex", "findLastIndex", "some",
     "every", "flatMap"}
)  # fmt: skip


class DerivedBindings(FileReader):
    """The derived bindings of one file, by the node that makes them."""

    def of_function(self, node: ts.Node, documented_return: Dotted | None) -> list[Binding]:
        """What a named function declares beside itself: its returned elements and properties,
        its callback parameters' types."""
        return (
            self._returned_elements(node, documented_return)
            + self._returned_properties(node)
            + self._callback_parameters(node)
        )

    def of_callback(self, node: ts.Node) -> list[Binding]:
        """The parameters of a function passed as an argument."""
        return self._callback_element(node) + self._callback_argument(node)

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
                constructor = made.child_by_field_name("constructor")
                made_of = dotted_name(constructor) if constructor is not None else None
                if made_of is not None:
                    target = (f"{name}{CALLED}.{_text(key)}",)
                    records.append(Binding(scope, target, made_of, "call", first_line(pair)))
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
        array = collection(obj)
        params = parameters_of(node.child_by_field_name("parameters"))
        single = node.child_by_field_name("parameter")  # `x => …`
        first = _text(single) if single is not None else params[0][0] if params else None
        if array is None or first is None or (params and params[0][1] is not None):
            return []
        line = first_line(node)
        return [Binding(self._function_scope(node), (first,), element_of(array), "alias", line)]

    def _callback_argument(self, node: ts.Node) -> list[Binding]:
        """`this.nearest(xs, (handle) => …)`: each untyped parameter of a function passed to
        a call is what the callee declares for it (`nearest(1:0)`), or to `new C(…)` what C's
        constructor declares (`C(0:0)`); array methods' callbacks see the array's elements
        instead (`_callback_element`)."""
        argument = node
        while argument.parent is not None and argument.parent.type == "ternary_expression":
            argument = argument.parent  # `new Observable(s ? (sub) => … : (sub) => …)`
        arguments = argument.parent
        call = arguments.parent if arguments is not None else None
        if arguments is None or arguments.type != "arguments" or call is None:
            return []
        function = call.child_by_field_name(  # `new Observable((subscriber) => …)` too
            "constructor" if call.type == "new_expression" else "function"
        )
        called = dotted_name(function) if function is not None else None
        if call.type not in ("call_expression", "new_expression") or called is None:
            return []
        if call.type == "call_expression" and called[-1] in _ELEMENT_CALLBACKS:
            return []
        position = [a.id for a in arguments.named_children if a.type != "comment"].index(
            argument.id
        )
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

    def of_for_of(self, node: ts.Node) -> list[Binding]:
        """`for (const x of xs)`: `x` is an element of `xs`."""
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None or not any(c.type == "of" for c in node.children):
            return []
        array = collection(right)
        if array is None:
            return []
        scope = self._scope(node)
        return [Binding(scope, (_text(left),), element_of(array), "alias", first_line(node))]

    def of_destructuring(self, pattern: ts.Node) -> list[Binding]:
        """`const { status, ctx: c } = this.parse(…)`: each name is the property of what the
        call returns (`this.parse().status`); `const { gen } = cxt`: `gen` is `cxt.gen`."""
        declarator = pattern.parent
        value = declarator.child_by_field_name("value") if declarator is not None else None
        if declarator is None or value is None or pattern.type != "object_pattern":
            return []
        value = unwrap(value)
        if value.type == "call_expression":
            function = value.child_by_field_name("function")
            called = dotted_name(function) if function is not None else None
            if called is None or called[0] == "require":
                return []
            source: Dotted = (*called[:-1], called[-1] + CALLED)
        else:
            read = dotted_name(value)
            if read is None:
                return []
            source = read
        return _pattern_aliases(self._scope(declarator), pattern, source, first_line(declarator))

    def of_parameter_pattern(self, scope: str, param: ts.Node) -> list[Binding]:
        """`function f({ gen, it }: KeywordCxt)`: the pattern's type names a value no name holds,
        `{}@<offset>` (unique in the file), and each name is that value's property."""
        pattern = param.child_by_field_name("pattern")
        declared = single_type(param.child_by_field_name("type"))
        if pattern is None or pattern.type != "object_pattern" or declared is None:
            return []
        line = first_line(param)
        whole = pattern_value(pattern)
        return [
            Binding(scope, (whole,), declared, "annotation", line),
            *_pattern_aliases(scope, pattern, (whole,), line),
        ]


def pattern_value(pattern: ts.Node) -> str:
    """The name of the value a parameter's object pattern takes apart (`{}@<offset>`): no code
    can spell it, and the offset keeps two patterns of a scope apart."""
    return f"{{}}@{pattern.start_byte}"


def _pattern_aliases(scope: str, pattern: ts.Node, source: Dotted, line: int) -> list[Binding]:
    """Each plainly named property of an object pattern (`{ a, b: c }`) as an alias of that
    property of `source` (of a call's result: `f().a`, one name, as `f` declares it); nested
    patterns and defaults are left out."""
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
        read = (
            (*source[:-1], f"{source[-1]}.{_text(key)}")
            if source[-1].endswith(CALLED)
            else (*source, _text(key))
        )
        records.append(Binding(scope, (_text(local),), read, "alias", line))
    return records


def collection(node: ts.Node) -> Dotted | None:
    """The dotted name whose elements `node` holds: `this.xs`, or `this.getAll()` as
    `this.getAll()` (what a call of getAll returns)."""
    node = unwrap(node)
    if node.type == "call_expression":
        function = node.child_by_field_name("function")
        called = dotted_name(function) if function is not None else None
        return (*called[:-1], called[-1] + CALLED) if called else None
    return dotted_name(node)


def declared_elements(
    scope: str, target: Dotted, declared: ts.Node | None, line: int
) -> list[Binding]:
    """`xs: Foo[]` (or `Array<Foo>`, `Set<Foo>`) declares `xs[]`, its elements, as Foo."""
    element = element_type(declared)
    return [Binding(scope, element_of(target), element, "annotation", line)] if element else []


def held_elements(scope: str, target: Dotted, value: ts.Node, line: int) -> list[Binding]:
    """`xs = this.getAll()`: xs[] is getAll()[]; `xs = ys.filter(…)` (`slice`, `concat`,
    `sort`…): xs[] is ys[]; `xs = [suite]` (every item the same name): xs[] is suite; `xs =
    [new Subject()]` (every item made by one class): xs[] is what `new Subject()` gives."""
    value = unwrap(value)
    if value.type == "array":
        items = [dotted_name(unwrap(item)) for item in value.named_children]
        if items and items[0] is not None and all(item == items[0] for item in items):
            return [Binding(scope, element_of(target), items[0], "alias", line)]
        made = [_constructed(unwrap(item)) for item in value.named_children]
        if made and made[0] is not None and all(item == made[0] for item in made):
            return [Binding(scope, element_of(target), made[0], "call", line)]
        return []
    function = value.child_by_field_name("function") if value.type == "call_expression" else None
    if function is None:
        return []
    method = function.child_by_field_name("property")
    if function.type == "member_expression" and method and _text(method) in _SAME_ELEMENTS:
        obj = function.child_by_field_name("object")  # `this.getAll().filter(…)` too
        array = collection(obj) if obj is not None else None
        return (
            [Binding(scope, element_of(target), element_of(array), "alias", line)] if array else []
        )
    called = dotted_name(function)
    if called is None or called[0] == "require":
        return []
    held = element_of((*called[:-1], called[-1] + CALLED))
    return [Binding(scope, element_of(target), held, "alias", line)]


def _constructed(node: ts.Node) -> Dotted | None:
    """The class `new X(…)` names, or None."""
    constructor = node.child_by_field_name("constructor") if node.type == "new_expression" else None
    return dotted_name(constructor) if constructor is not None else None
