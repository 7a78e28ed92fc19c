"""Value flow of one Python file: what names, attributes, containers and results may hold.

The captures of `queries/python.scm` (`flow.*`, `call`, `implicit.*`) become `ValueFlow`,
`CallArguments` and `ImplicitCall` records whose values are `Expr` records (see `model.Expr`).
Every record knows its position (`at`, a byte offset) and `Block` inside its scope, so the
linker can tell which assignments reach a use. Nothing here resolves a name: that is linking.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeVar

import tree_sitter as ts

from ...model import (
    CONST,
    OPAQUE,
    Arguments,
    ArmEnd,
    At,
    Attribute,
    Awaited,
    Block,
    Call,
    CallArguments,
    Caught,
    Comprehension,
    Const,
    DeclaredAs,
    Definition,
    DictDisplay,
    Display,
    Dotted,
    Entered,
    Expr,
    ImplicitCall,
    InstanceOf,
    Int,
    Iterated,
    LambdaExpr,
    Like,
    Name,
    OneOf,
    Sent,
    Star,
    Str,
    Subscript,
    Unlike,
    ValueFlow,
)
from ...parsing.treesitter import node_text

__all__ = ["FlowExtractor", "call_arguments", "expression"]

_MAX_DEPTH = 10
_LITERALS = (Const, Str, Int)
_CONST_TYPES = frozenset(
    {"none", "true", "false", "float", "concatenated_string", "not_operator", "comparison_operator",
     "ellipsis", "unary_operator"}
)  # fmt: skip
_CONTAINER_TYPES: dict[str, Literal["list", "tuple", "set"]] = {
    "list": "list",
    "tuple": "tuple",
    "set": "set",
    "expression_list": "tuple",
}
_COMPREHENSIONS: dict[str, Literal["list", "set", "dict"]] = {
    "list_comprehension": "list",
    "set_comprehension": "set",
    "generator_expression": "list",
    "dictionary_comprehension": "dict",
}
# container methods that store their argument: method -> position of the stored value
_ADDS = {"append": 0, "add": 0, "appendleft": 0, "insert": 1, "setdefault": 1, "put": 0}
_EXTENDS = frozenset({"extend", "update", "extendleft"})
# calls that run the callable they are given later, with the positional arguments after it
# (`task_group.start_soon(wrap, partial(...))`, `executor.submit(fn, a)`): method -> the
# callable's position
_SPAWNERS = {
    "start_soon": 0, "start_task_soon": 0, "submit": 0, "call_soon": 0,
    "call_soon_threadsafe": 0, "run_sync": 0, "to_thread": 0, "run_in_threadpool": 0,
    "run_in_executor": 1, "call_later": 1, "call_at": 1,
}  # fmt: skip
# what grows a list or set held in another container (`hooks[event].append(f)`)
_NESTED_ADDS = frozenset({"append", "add", "appendleft", "extend"})
# the operands an implicit call is recorded for (what value flow may find a class of)
_OPERANDS = (Name, Call, Attribute, Subscript, Awaited, Iterated)
# operators -> the special method of the left operand (of the right one for `in`)
_BINARY = {
    "+": "__add__", "-": "__sub__", "*": "__mul__", "/": "__truediv__", "//": "__floordiv__",
    "%": "__mod__", "**": "__pow__", "@": "__matmul__", "&": "__and__", "|": "__or__",
    "^": "__xor__", "<<": "__lshift__", ">>": "__rshift__",
}  # fmt: skip
_UNARY = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}
_TRUTH = ("__bool__", "__len__")  # what `bool(x)` runs: the first the class defines
_COMPARE = {
    "==": "__eq__", "!=": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__",
    ">=": "__ge__",
}  # fmt: skip
# block-opening statements: the field (or node type) of each arm, and whether arms exclude
# each other (`if`/`match`: one arm runs)
_FLAG_EXCLUSIVE = 1
_FLAG_PRIVATE = 2  # comprehensions and lambdas: their names are not seen outside
# an arm of an `if` / `match` that always ends in `return` or `raise`: what it binds is not
# seen after it (`if x is None: x = Default(); return x.run()`)
_FLAG_TERMINATES = 4
_ARM_SHIFT = 3
_MAX_ARM = 31
# statements an arm cannot be left through once they run, and those whose own body a
# `break` / `continue` inside it belongs to (or that run later: definitions)
_EXITS = frozenset({"return_statement", "raise_statement"})
_OWN_JUMPS = frozenset(
    {"for_statement", "while_statement", "function_definition", "class_definition", "lambda"}
)


def _string(node: ts.Node) -> str | None:
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


def expression(node: ts.Node | None, inner: Callable[[ts.Node], Expr] | None = None) -> Expr:
    """The `Expr` of a tree-sitter expression node (`inner` encodes nested scopes' bodies)."""
    return _Encoder(inner).encode(node, 0)


def call_arguments(node: ts.Node | None) -> Arguments:
    return _Encoder(None).arguments(node, 0)


@dataclass
class _Encoder:
    positioned: Callable[[ts.Node], Expr] | None  # wraps bodies evaluated at their own place

    def encode(self, node: ts.Node | None, depth: int) -> Expr:
        if node is None or depth > _MAX_DEPTH:
            return OPAQUE
        kind = node.type
        if kind == "identifier":
            return Name((node_text(node),))
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
            return Subscript(self.encode(value, depth + 1), self.encode(key, depth + 1))
        if kind == "string":
            text = _string(node)
            return Str(text) if text is not None else CONST
        if kind == "integer":
            try:
                return Int(int(node_text(node), 0))
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
        if kind in _COMPREHENSIONS and self.positioned is not None:
            body = node.child_by_field_name("body")
            if body is None:
                return OPAQUE
            if kind == "dictionary_comprehension":
                key, value = body.child_by_field_name("key"), body.child_by_field_name("value")
                if key is None or value is None:
                    return OPAQUE
                return Comprehension("dict", (self.positioned(key), self.positioned(value)))
            return Comprehension(_COMPREHENSIONS[kind], self.positioned(body))
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
        tests = _isinstance_tests(test) if test.type == "call" else []
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
                text = _string(child)
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


@dataclass
class FlowExtractor:
    """Turns one file's flow captures into records; `scope_of` is the parser's scope rule."""

    scope_of: Callable[[ts.Node], str]
    def_scopes: dict[int, str]  # def node id -> qualified name
    # the classes an annotation declares when the resolver cannot read it (None: it can,
    # or it declares callables, which value flow follows)
    declared_names: Callable[[ts.Node], tuple[tuple[str, ...], ...] | None]
    # a container annotation's element types as a display of instances (`list[Foo]` ->
    # Display("list", (InstanceOf(Name(("Foo",))),))), None for anything else
    element_types: Callable[[ts.Node], Expr | None] = lambda _: None
    # a generator annotation's sent type as an instance (`Generator[Y, Foo, R]` ->
    # InstanceOf(Name(("Foo",)))), None for anything else
    sent_type: Callable[[ts.Node], Expr | None] = lambda _: None
    # qualified name -> node type of each definition (`function_definition`, ...)
    def_kinds: Mapping[str, str] = field(default_factory=dict)
    # whether a container annotation names an abstract protocol (`Iterator[Foo]`), which
    # classes of the repository may implement, rather than a concrete container
    declares_protocol: Callable[[ts.Node], bool] = lambda _: False
    flows: list[ValueFlow] = field(default_factory=list)
    passes: list[CallArguments] = field(default_factory=list)
    implicit: list[ImplicitCall] = field(default_factory=list)
    _blocks: dict[int, Block] = field(default_factory=dict)
    _interned: dict[Block, Block] = field(default_factory=dict)
    _arms: _Arms = field(default_factory=lambda: _Arms())

    # -- positions ------------------------------------------------------------------------------
    def block_of(self, node: ts.Node) -> Block:
        """The enclosing branches and loops of `node` inside its scope, outermost first."""
        # (id, node, its parent): `parent` costs tree-sitter a walk down from the root, so once
        chain: list[tuple[int, ts.Node, ts.Node | None]] = []
        current: ts.Node | None = node
        found: Block | None = None
        while current is not None:
            key = current.id
            cached = self._blocks.get(key)
            if cached is not None:
                found = cached
                break
            parent = current.parent
            chain.append((key, current, parent))
            if parent is None or (
                parent.type in ("function_definition", "class_definition")
                and current == parent.child_by_field_name("body")
            ):
                found = ()
                break
            current = parent
        block = found if found is not None else ()
        for key, child, above in reversed(chain):
            entry = _block_entry(above, child, self._arms) if above is not None else None
            if entry is not None:
                extended = (*block, entry)
                block = self._interned.setdefault(extended, extended)
            self._blocks[key] = block
        return block

    def _expr(self, node: ts.Node | None) -> Expr:
        return expression(node, self._positioned)

    def value(self, node: ts.Node) -> Expr:
        """The `Expr` of an expression of this file (lambdas and comprehensions included)."""
        return self._expr(node)

    def _positioned(self, node: ts.Node) -> Expr:
        """A body evaluated where it stands (a lambda's, a comprehension's element)."""
        return At(node.start_byte, self.block_of(node), self._expr(node))

    def _add(self, node: ts.Node, target: tuple[str, ...], value: Expr, at: int) -> None:
        self.flows.append(
            ValueFlow(
                self.scope_of(node), target, value, node.start_point[0] + 1, at, self.block_of(node)
            )
        )

    # -- captures -------------------------------------------------------------------------------
    def declared(self, node: ts.Node) -> None:
        """A parameter or attribute annotated with a type the resolver does not read (a
        container of classes, a union): `("<declared>", name)` / `("<declared>", "self",
        name)` holds `DeclaredAs(names)`; the values that reach it are taken as the declared
        classes (what the type checkers see)."""
        annotation = node.child_by_field_name("type")
        names = self.declared_names(annotation) if annotation is not None else None
        if node.type != "assignment" and annotation is not None:
            self._parameter_shape(node, annotation)
        if names is None:
            return
        value: Expr = DeclaredAs(names)
        if node.type == "assignment":
            path = _target_path(node.child_by_field_name("left"))
            if path is not None:
                self._add(node, ("<declared>", *path), value, node.start_byte)
            return
        name = node.child_by_field_name("name")
        if name is None and node.named_children and node.named_children[0].type == "identifier":
            name = node.named_children[0]
        params = node.parent
        function = params.parent if params is not None else None
        qualified = self.def_scopes.get(function.id) if function is not None else None
        if name is not None and qualified is not None and function is not None:
            self.flows.append(
                ValueFlow(
                    qualified, ("<declared>", node_text(name)), value, node.start_point[0] + 1,
                    function.start_byte, self.block_of(function),
                )
            )  # fmt: skip

    def _parameter_shape(self, node: ts.Node, annotation: ts.Node) -> None:
        """`def f(xs: list[Foo])`: ("<shape>", "xs") in f holds the container's element types;
        ("<protocol>", "xs") the same where the annotation is an abstract protocol
        (`Iterator[Foo]`), which the caller's own class may implement."""
        shape = self.element_types(annotation)
        name = node.child_by_field_name("name")
        if name is None and node.named_children and node.named_children[0].type == "identifier":
            name = node.named_children[0]
        params = node.parent
        function = params.parent if params is not None else None
        qualified = self.def_scopes.get(function.id) if function is not None else None
        if shape is None or name is None or qualified is None or function is None:
            return
        targets: list[Dotted] = [("<shape>", node_text(name))]
        if self.declares_protocol(annotation):
            targets.append(("<protocol>", node_text(name)))
        for target in targets:
            self.flows.append(
                ValueFlow(
                    qualified,
                    target,
                    shape,
                    node.start_point[0] + 1,
                    function.start_byte,
                    self.block_of(function),
                )
            )

    def narrowed(self, node: ts.Node) -> None:
        """`if isinstance(x, Foo):` (in its body; an `elif` in its own), `assert
        isinstance(x, Foo)` (after it) and `if not isinstance(x, Foo): return` (after it): x
        holds an instance of Foo there, as the type checkers narrow it."""
        if node.type in ("if_statement", "elif_clause"):
            condition = node.child_by_field_name("condition")
            place = node.child_by_field_name("consequence")
            at = condition.end_byte if condition is not None else 0  # the body sees it
        else:
            condition = node.named_children[0] if node.named_children else None
            place, at = node, node.end_byte
        if condition is None or place is None:
            return
        for name, classes in _isinstance_tests(condition):
            self._add(place, (name,), InstanceOf(self._expr(classes)), at)
        if node.type == "if_statement":
            self._joined(node, condition, place)
        if node.type != "if_statement" or node.children_by_field_name("alternative"):
            return
        # `if not isinstance(x, Foo): raise …` with no `elif` / `else`: after it, x is a Foo;
        # `if not isinstance(x, Foo): x = Foo(x)`: what the body bound, or a Foo
        refuted = _refuted_isinstance_tests(condition)
        if not refuted:
            return
        ends = self._arms.terminates(place)
        bound = set() if ends else self._arms.bound(place)
        here = self.block_of(node)
        for name, classes in refuted:
            if not ends and name not in bound:
                continue
            before: Expr = At(node.start_byte, here, Name((name,)))
            value: Expr = Like(before, self._expr(classes))
            if not ends:  # what the body left: read through its window, as a join's arms
                body: Expr = ArmEnd(node.start_byte, node.end_byte, self.block_of(place), name)
                value = OneOf((body, value))
            self._add(node, (name,), value, node.end_byte)

    def _joined(self, node: ts.Node, condition: ts.Node, consequence: ts.Node) -> None:
        """An `if` with an `else`, after which a name holds what one of its arms left in it,
        when every arm that goes on binds it: a flow at the `if`'s end joining the arms' ends
        (so what it held before the `if` no longer reaches past it). An arm binds a name by
        assigning it at its top level (or in an `if`/`else` that does so in every arm), by
        an `isinstance` test narrowing it, and the `else` of `if isinstance(x, K):` binds x
        to its earlier values that are not Ks."""
        alternatives = node.children_by_field_name("alternative")
        if not alternatives or alternatives[-1].type != "else_clause":
            return
        if self.def_kinds.get(self.scope_of(node)) != "function_definition":
            return  # (a module's or class's names are read whole, not at a position)
        tests = _isinstance_tests(condition) if condition.type == "call" else []
        otherwise = alternatives[-1].child_by_field_name("body")
        here = self.block_of(node)
        if len(tests) == 1 and len(alternatives) == 1 and otherwise is not None:
            # the `else` of `if isinstance(x, K):`: x is not a K there
            name, classes = tests[0]
            before: Expr = At(node.start_byte, here, Name((name,)))
            unlike: Expr = Unlike(before, self._expr(classes))
            self._add(otherwise, (name,), unlike, otherwise.start_byte)
        arms: list[tuple[ts.Node, set[str]]] = [
            (consequence, {name for name, _ in _isinstance_tests(condition)})
        ]
        for alternative in alternatives:
            body = _arm_body(alternative)
            if body is None:
                return
            narrowed: set[str] = set()
            if alternative.type == "elif_clause":
                test = alternative.child_by_field_name("condition")
                narrowed = {n for n, _ in _isinstance_tests(test)} if test is not None else set()
            elif len(tests) == 1 and len(alternatives) == 1:
                narrowed = {tests[0][0]}
            arms.append((body, narrowed))
        live = [(body, narrowed) for body, narrowed in arms if not self._arms.terminates(body)]
        if not live:
            return
        bound = set.intersection(*(self._arms.bound(body) | narrowed for body, narrowed in live))
        blocks = [self.block_of(body) for body, _ in live]
        for name in sorted(bound):
            ends = tuple(ArmEnd(node.start_byte, node.end_byte, b, name) for b in blocks)
            self._add(node, (name,), OneOf(ends), node.end_byte)

    def declared_return(self, function: ts.Node) -> None:
        """`def f() -> list[Foo]`: ("<declared>", "<return>") in f, like a parameter's."""
        annotation = function.child_by_field_name("return_type")
        qualified = self.def_scopes.get(function.id)
        shape = self.element_types(annotation) if annotation is not None else None
        if shape is not None and qualified is not None:
            self.flows.append(
                ValueFlow(
                    qualified, ("<shape>", "<return>"), shape, function.start_point[0] + 1,
                    function.start_byte, self.block_of(function),
                )
            )  # fmt: skip
        sent = self.sent_type(annotation) if annotation is not None else None
        if sent is not None and qualified is not None:
            self.flows.append(
                ValueFlow(
                    qualified, ("<sent>",), sent, function.start_point[0] + 1,
                    function.start_byte, self.block_of(function),
                )
            )  # fmt: skip
        names = self.declared_names(annotation) if annotation is not None else None
        if names is None or qualified is None:
            return
        self.flows.append(
            ValueFlow(
                qualified, ("<declared>", "<return>"), DeclaredAs(names),
                function.start_point[0] + 1, function.start_byte, self.block_of(function),
            )
        )  # fmt: skip

    def assignment(self, node: ts.Node) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        self.declared(node)
        if left is None:
            return
        if right is None:  # `x: int` declares, binds nothing
            return
        if right.type == "assignment":  # a = b = value: a gets the value (b is its own capture)
            right = _last_value(right)
            if right is None:
                return
        self._bind(left, self._expr(right), node, node.end_byte)

    def _bind(self, left: ts.Node, value: Expr, node: ts.Node, at: int) -> None:
        kind = left.type
        if kind == "identifier":
            self._add(node, (node_text(left),), value, at)
        elif kind == "attribute":
            obj = left.child_by_field_name("object")
            attr = left.child_by_field_name("attribute")
            if obj is not None and attr is not None and obj.type == "identifier":
                self._add(node, (node_text(obj), node_text(attr)), value, at)
        elif kind == "subscript":
            container = _target_path(left.child_by_field_name("value"))
            key = left.child_by_field_name("subscript")
            if container is not None:
                text = _string(key) if key is not None and key.type == "string" else None
                item = ("<key>", text) if text is not None else ("<item>",)
                self._add(node, (*container, *item), value, at)
        elif kind in ("pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple",
                      "list"):  # fmt: skip
            targets = [c for c in left.named_children if c.type != "comment"]
            elements = (
                value.elements if isinstance(value, Display) and value.kind != "set" else None
            )
            if elements is None:  # `a, b = pair`: unpacking iterates the value
                self._implicit_value(node, ("__iter__",), value, "unpacking")
            for position, target in enumerate(targets):
                if target.type in ("list_splat_pattern", "list_splat"):
                    inner = target.named_children[0] if target.named_children else None
                    if inner is not None:
                        self._bind(inner, OPAQUE, node, at)
                    elements = None  # positions after a star are not known
                    continue
                if elements is not None and len(elements) == len(targets):
                    part = elements[position]
                else:
                    part = Subscript(value, Int(position))
                self._bind(target, part, node, at)

    def augmented(self, node: ts.Node) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        path = _target_path(left)
        if path is None or right is None or operator is None:
            return
        if node_text(operator) in ("+=", "|="):  # x += [f]: the items of the right side join x
            self._add(node, (*path, "<items>"), self._expr(right), node.end_byte)
        method = _BINARY.get(node_text(operator)[:-1])
        if method is not None and left is not None:
            self._implicit(node, (f"__i{method[2:]}", method), left, node_text(operator))

    def returned(self, node: ts.Node) -> None:
        values = [c for c in node.named_children if c.type != "comment"]
        if not values:
            return
        value = (
            self._expr(values[0])
            if len(values) == 1
            else Display("tuple", tuple(map(self._expr, values)))
        )
        self._add(node, ("<return>",), value, node.start_byte)

    def yielded(self, node: ts.Node) -> None:
        values = [c for c in node.named_children if c.type != "comment"]
        if not values:
            return
        delegated = any(child.type == "from" for child in node.children)
        target = "<yield from>" if delegated else "<yield>"
        self._add(node, (target,), self._expr(values[0]), node.start_byte)

    def for_loop(self, node: ts.Node) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return
        self._bind(left, Iterated(self._expr(right)), node, right.end_byte)
        self._iterated(node, right)

    def comprehension(self, node: ts.Node) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        owner = node.parent
        if left is None or right is None or owner is None:
            return
        # visible to the element, which stands before the clause: take effect at the start
        self._bind(left, Iterated(self._expr(right)), node, owner.start_byte)
        self._iterated(node, right)

    def _iterated(self, loop: ts.Node, iterable: ts.Node) -> None:
        """A `for` statement or clause (`async for` too) runs its iterable's `__iter__`."""
        asynchronous = any(child.type == "async" for child in loop.children)
        self._implicit(iterable, ("__aiter__",) if asynchronous else ("__iter__",), iterable, "for")

    def with_item(self, node: ts.Node) -> None:
        value = node.child_by_field_name("value")
        if value is None:
            return
        statement = node.parent.parent if node.parent is not None else None
        asynchronous = (
            statement is not None
            and bool(statement.children)
            and statement.children[0].type == "async"
        )
        methods = ("__aenter__", "__aexit__") if asynchronous else ("__enter__", "__exit__")
        if value.type == "as_pattern":
            manager = value.named_children[0] if value.named_children else None
            alias = value.child_by_field_name("alias")
            target = alias.named_children[0] if alias is not None and alias.named_children else None
            if manager is None:
                return
            if target is not None:
                self._bind(target, Entered(self._expr(manager)), node, node.end_byte)
            self._implicit(manager, methods, manager, "with")
        else:
            self._implicit(value, methods, value, "with")

    def except_clause(self, node: ts.Node) -> None:
        pattern = node.child_by_field_name("value")
        if pattern is None:
            pattern = next((c for c in node.named_children if c.type == "as_pattern"), None)
        if pattern is None or pattern.type != "as_pattern":
            return
        caught = pattern.named_children[0] if pattern.named_children else None
        alias = pattern.child_by_field_name("alias")
        target = alias.named_children[0] if alias is not None and alias.named_children else None
        if caught is not None and target is not None and target.type == "identifier":
            self._add(pattern, (node_text(target),), Caught(self._expr(caught)), pattern.end_byte)

    def walrus(self, node: ts.Node) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is not None:
            self._add(node, (node_text(name),), self._expr(value), node.end_byte)

    def lambda_parameters(self, node: ts.Node) -> None:
        """A lambda's parameters hide the names outside it (their values are unknown)."""
        body = node.child_by_field_name("body")
        params = node.child_by_field_name("parameters")
        if body is None or params is None:
            return
        for child in params.named_children:
            name = child.child_by_field_name("name") or child
            if name.type == "identifier":
                self.flows.append(
                    ValueFlow(
                        self.scope_of(node), (node_text(name),), OPAQUE, node.start_point[0] + 1,
                        params.end_byte, self.block_of(body),
                    )
                )  # fmt: skip

    def default(self, node: ts.Node) -> None:
        """`def f(p=value)`: the default, evaluated where the `def` runs (its annotation
        is the `flow.typed` capture's)."""
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        params = node.parent
        function = params.parent if params is not None else None
        if name is None or value is None or function is None:
            return
        qualified = self.def_scopes.get(function.id)
        expr = self._expr(value)
        if qualified is not None and interesting(expr):
            self.flows.append(
                ValueFlow(
                    qualified, ("<default>", node_text(name)), expr, node.start_point[0] + 1,
                    function.start_byte, self.block_of(function),
                )
            )  # fmt: skip

    def decorated(self, node: ts.Node) -> None:
        """`@d` over `def f`: the name f is bound to `d(f)` (decorators apply bottom-up)."""
        definition = node.child_by_field_name("definition")
        if definition is None:
            return
        qualified = self.def_scopes.get(definition.id)
        name = definition.child_by_field_name("name")
        if qualified is None or name is None:
            return
        value: Expr = Definition(qualified)
        decorators = [c for c in node.children if c.type == "decorator"]
        scope = self.scope_of(node)
        block = self.block_of(node)
        for decorator in reversed(decorators):
            inner = decorator.named_children[0] if decorator.named_children else None
            callee = self._expr(inner)
            arguments: Arguments = ((0, value),)
            line = decorator.start_point[0] + 1
            self.passes.append(
                CallArguments(scope, callee, arguments, line, decorator.start_byte, block)
            )
            value = Call(callee, arguments)
        self.flows.append(
            ValueFlow(
                scope, (node_text(name),), value, node.start_point[0] + 1, node.end_byte, block
            )
        )

    def call(self, node: ts.Node) -> None:
        """A call's arguments (when any is not a literal), and what container methods store."""
        function = node.child_by_field_name("function")
        arguments = _Encoder(self._positioned).arguments(node.child_by_field_name("arguments"), 0)
        if function is None or not any(interesting(value) for _, value in arguments):
            return
        callee = self._expr(function)
        self.passes.append(
            CallArguments(
                self.scope_of(node), callee, arguments, node.start_point[0] + 1, node.start_byte,
                self.block_of(node),
            )
        )  # fmt: skip
        spawned = _spawned(callee, arguments)
        if spawned is not None:
            self.passes.append(
                CallArguments(
                    self.scope_of(node), spawned[0], spawned[1], node.start_point[0] + 1,
                    node.start_byte, self.block_of(node),
                )
            )  # fmt: skip
        if function.type != "attribute":
            return
        method = node_text(function.child_by_field_name("attribute") or function)
        receiver = function.child_by_field_name("object")
        container = _target_path(receiver)
        if container is None:
            self._nested_addition(node, receiver, method, arguments)
            return
        if method in _ADDS:
            stored = [value for key, value in arguments if key == _ADDS[method]]
            key_text = next((v.text for k, v in arguments if k == 0 and isinstance(v, Str)), None)
            item = ("<key>", key_text) if method == "setdefault" and key_text else ("<item>",)
            for value in stored:
                self._add(node, (*container, *item), value, node.end_byte)
        elif method in _EXTENDS:
            for key, value in arguments:
                if key == 0:
                    self._add(node, (*container, "<items>"), value, node.end_byte)
                elif isinstance(key, str) and key not in ("*", "**") and method == "update":
                    self._add(node, (*container, "<key>", key), value, node.end_byte)

    def _nested_addition(
        self,
        node: ts.Node,
        receiver: ts.Node | None,
        method: str,
        arguments: Arguments,
    ) -> None:
        """`hooks[event].append(f)`, `funcs.setdefault(key, []).append(f)`: a container held
        in another one grows. Stored as an element of the outer container that is a list of
        what was added, so reading `hooks[event]` (or any element) and iterating it meets f
        (requests' `register_hook` and `dispatch_hook`)."""
        if receiver is None or method not in _NESTED_ADDS:
            return
        if receiver.type == "subscript":
            outer = receiver.child_by_field_name("value")
            key = receiver.child_by_field_name("subscript")
        elif receiver.type == "call" and _calls_method(receiver, "setdefault"):
            callee = receiver.child_by_field_name("function")
            outer = callee.child_by_field_name("object") if callee is not None else None
            listed = receiver.child_by_field_name("arguments")
            key = listed.named_children[0] if listed is not None and listed.named_children else None
        else:
            return
        path = _target_path(outer)
        if path is None:
            return
        added = [value for position, value in arguments if position == 0]
        if len(added) != 1:
            return
        element: Expr = Star(added[0]) if method == "extend" else added[0]
        text = _string(key) if key is not None and key.type == "string" else None
        item = ("<key>", text) if text is not None else ("<item>",)
        kind: Literal["set", "list"] = "set" if method == "add" else "list"
        self._add(node, (*path, *item), Display(kind, (element,)), node.end_byte)

    def operator(self, node: ts.Node) -> None:
        """`a + b`, `a == b`, `a in b`, `-a`: the operand's special method (if its class has
        one)."""
        if node.type == "unary_operator":
            operator = node.child_by_field_name("operator")
            argument = node.child_by_field_name("argument")
            method = _UNARY.get(node_text(operator)) if operator is not None else None
            if method is not None and argument is not None:
                self._implicit(node, (method,), argument, node_text(operator or node))
            return
        if node.type == "binary_operator":
            operator = node.child_by_field_name("operator")
            left = node.child_by_field_name("left")
            method = _BINARY.get(node_text(operator)) if operator is not None else None
            if method is not None and left is not None:
                self._implicit(node, (method,), left, node_text(operator) if operator else "")
            return
        operands = [c for c in node.named_children if c.type != "comment"]
        operators = [node_text(c) for c in node.children if not c.is_named]
        if len(operands) != 2 or len(operators) != 1:
            return
        if operators[0] in ("in", "not in"):
            self._implicit(node, ("__contains__",), operands[1], "in")
        elif operators[0] in _COMPARE:
            self._implicit(node, (_COMPARE[operators[0]],), operands[0], operators[0])

    def subscript(self, node: ts.Node) -> None:
        value = node.child_by_field_name("value")
        if value is None:
            return
        methods = {
            "get": ("__getitem__",), "set": ("__setitem__",), "delete": ("__delitem__",),
            "update": ("__getitem__", "__setitem__"),
        }[_access(node)]  # fmt: skip
        self._implicit(node, methods, value, "[]")

    def attribute(self, node: ts.Node) -> None:
        """`x.name` read, assigned or deleted: a property's getter, setter or deleter runs,
        when `name` is one of x's class (the linker decides; a plain attribute runs nothing)."""
        value = node.child_by_field_name("object")
        name = node.child_by_field_name("attribute")
        parent = node.parent
        if value is None or name is None or (parent is not None and parent.type == "decorator"):
            return
        access = _access(node)
        attribute = node_text(name)
        for mode in ("get", "set") if access == "update" else (access,):
            self._implicit(node, (attribute,), value, f".{attribute}", mode)

    def interpolation(self, node: ts.Node) -> None:
        """`f"{x}"` formats x: `__format__`, else (object's `__format__`) `__str__`, else
        (object's `__str__`) `__repr__`; `{x!r}` runs `__repr__`."""
        value = node.child_by_field_name("expression")
        if value is None:
            return
        conversion = node.child_by_field_name("type_conversion")
        text = node_text(conversion) if conversion is not None else ""
        methods = {"!r": ("__repr__",), "!s": ("__str__", "__repr__")}.get(
            text, ("__format__", "__str__", "__repr__")
        )
        self._implicit(node, methods, value, "f-string", "first")

    def truth(self, node: ts.Node) -> None:
        """A value tested for truth (`if x:`, `while`, `assert`, `not x`, `x or y`, a
        comprehension's `if`): its class's `__bool__`, else its `__len__`. A `not`, or a
        boolean operator's left operand, is a capture of its own; a boolean operator in a
        truth test tests its right operand too."""
        current: ts.Node | None = node
        while current is not None:  # a loop, not recursion: `a or (b or (c or ...))`
            while current.type == "parenthesized_expression" and current.named_child_count == 1:
                current = current.named_children[0]
            if current.type != "boolean_operator":
                break
            current = current.child_by_field_name("right")
        if current is not None and current.type != "not_operator":
            self._implicit(current, _TRUTH, current, "truth test", "first")

    def conditional(self, node: ts.Node) -> None:
        """`a if test else b` tests `test` for truth."""
        operands = [c for c in node.named_children if c.type != "comment"]
        if len(operands) == 3:
            self.truth(operands[1])

    def raised(self, node: ts.Node) -> None:
        """`raise Error` (no call) constructs the class."""
        value = node.named_children[0] if node.named_children else None
        if value is not None and value.type in ("identifier", "attribute"):
            self._implicit(node, (), value, "raise")

    def _implicit(
        self,
        node: ts.Node,
        methods: tuple[str, ...],
        operand: ts.Node,
        syntax: str,
        mode: Literal["", "first", "get", "set", "delete"] = "",
    ) -> None:
        self._implicit_value(node, methods, self._expr(operand), syntax, mode)

    def _implicit_value(
        self,
        node: ts.Node,
        methods: tuple[str, ...],
        value: Expr,
        syntax: str,
        mode: Literal["", "first", "get", "set", "delete"] = "",
    ) -> None:
        if isinstance(value, _OPERANDS):
            self.implicit.append(
                ImplicitCall(
                    self.scope_of(node), methods, value, node.start_point[0] + 1, node.start_byte,
                    self.block_of(node), syntax, mode,
                )
            )  # fmt: skip


_PATTERNS = frozenset({"pattern_list", "tuple_pattern", "list_pattern", "expression_list"})
_TARGET_WRAPPERS = _PATTERNS | {"parenthesized_expression"}


def _access(node: ts.Node) -> Literal["get", "set", "delete", "update"]:
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


def _last_value(node: ts.Node) -> ts.Node | None:
    while node.type == "assignment":
        right = node.child_by_field_name("right")
        if right is None:
            return None
        node = right
    return node


def _calls_method(node: ts.Node, method: str) -> bool:
    """Whether a call node calls `<something>.method(...)`."""
    function = node.child_by_field_name("function")
    if function is None or function.type != "attribute":
        return False
    attribute = function.child_by_field_name("attribute")
    return attribute is not None and node_text(attribute) == method


def _target_path(node: ts.Node | None) -> tuple[str, ...] | None:
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


def _refuted_isinstance_tests(condition: ts.Node) -> list[tuple[str, ts.Node]]:
    """(name, classes) of each `isinstance(name, classes)` that holds when a condition is
    false: `not isinstance(…)`, alone or joined by `or`."""
    return _joined_tests(condition, "or", _negated_isinstance_call)


def _isinstance_tests(condition: ts.Node) -> list[tuple[str, ts.Node]]:
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


def _negated_isinstance_call(node: ts.Node) -> list[tuple[str, ts.Node]]:
    argument = node.child_by_field_name("argument") if node.type == "not_operator" else None
    return _isinstance_tests(argument) if argument is not None else []


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


def _block_entry(parent: ts.Node, child: ts.Node, arms: _Arms) -> int | None:
    """The `Block` entry `parent` adds for code inside its `child`, if it is a branch."""
    kind = parent.type
    base = parent.start_byte << 8
    if kind == "if_statement":
        if child == parent.child_by_field_name("condition"):
            return None
        arm = 0
        for position, alternative in enumerate(parent.children_by_field_name("alternative")):
            if alternative == child:
                arm = position + 1
        return base | _arm(arm) | _FLAG_EXCLUSIVE | arms.flag(_arm_body(child))
    if kind == "block":  # a match statement's arms (the child's type first: `parent` is dear)
        if child.type != "case_clause":
            return None
        statement = parent.parent
        if statement is None or statement.type != "match_statement":
            return None
        arm = next(i for i, c in enumerate(parent.children) if c == child)
        body = child.child_by_field_name("consequence")
        return base | _arm(arm) | _FLAG_EXCLUSIVE | arms.flag(body)
    if kind in ("for_statement", "while_statement"):
        if child == parent.child_by_field_name("body"):
            return base
        if child == parent.child_by_field_name("alternative"):
            return base | _arm(1)
        return None
    if kind == "try_statement":
        # never terminating: an exception leaves a `try` body ending in `return` midway
        if child.type in ("block", "except_clause", "except_group_clause", "else_clause"):
            arm = next(i for i, c in enumerate(parent.children) if c == child)
            return base | _arm(arm)
        return None
    if kind in _COMPREHENSIONS or kind == "lambda":
        if child.type == "for_in_clause" and kind in _COMPREHENSIONS:
            # the first iterable is evaluated outside; treat the clause as inside (its target
            # must be private), which only matters for names the element also binds
            return base | _FLAG_PRIVATE
        return base | _FLAG_PRIVATE
    return None


def _arm(position: int) -> int:
    """An arm's bits of a block entry. Arms past `_MAX_ARM` (an `elif` chain that long is
    rare) share one and are not told apart: an assignment in one of them may then seem to
    reach, or to dominate, a use in another."""
    return min(position, _MAX_ARM) << _ARM_SHIFT


def _arm_body(arm: ts.Node) -> ts.Node | None:
    """The statements of an `if` arm: the consequence itself, an `elif`'s or an `else`'s."""
    if arm.type == "elif_clause":
        return arm.child_by_field_name("consequence")
    if arm.type == "else_clause":
        return arm.child_by_field_name("body")
    return arm


_T = TypeVar("_T")


class _Arms:
    """What the arms of one file's branches do, each worked out once (a walk up or down a
    deep nest of `if`/`else` would otherwise repeat at every level)."""

    def __init__(self) -> None:
        self._ends: dict[int, bool] = {}
        self._bound: dict[int, frozenset[str]] = {}

    def flag(self, body: ts.Node | None) -> int:
        return _FLAG_TERMINATES if body is not None and self.terminates(body) else 0

    def terminates(self, body: ts.Node) -> bool:
        """Whether a block always ends in `return` or `raise` (its last statement, or an
        `if` with an `else` whose arms all do) and holds no `break` / `continue` that could
        leave it for the code after its loop."""

        def ends(node: ts.Node, groups: list[list[ts.Node]]) -> bool:
            (arms,) = groups  # none: the last statement is no `if`, or one that may fall through
            last = all(self._ends[arm.id] for arm in arms) if arms else _last_exits(node)
            return last and not _jumps_out(node)

        return _post_order(body, self._ends, lambda node: [_tail_arms(node)], ends)

    def bound(self, body: ts.Node) -> set[str]:
        """The names a block binds on every way through it that goes on past it: assigned
        by its own statements, or in every arm that goes on of an `if`/`else` among them."""

        def live_arms(node: ts.Node) -> list[list[ts.Node]]:
            return [
                [arm for arm in arms if not self.terminates(arm)] for arms in _if_else_arms(node)
            ]

        def names(node: ts.Node, groups: list[list[ts.Node]]) -> frozenset[str]:
            found = _bound_on_every_path(node)
            for live in groups:
                if live:
                    found |= set.intersection(*(set(self._bound[arm.id]) for arm in live))
            return frozenset(found)

        bound: frozenset[str] = _post_order(body, self._bound, live_arms, names)
        return set(bound)


def _post_order(
    root: ts.Node,
    memo: dict[int, _T],
    groups_of: Callable[[ts.Node], list[list[ts.Node]]],
    compute: Callable[[ts.Node, list[list[ts.Node]]], _T],
) -> _T:
    """`memo[root.id]`, each node's value computed from its groups of inner nodes once theirs
    are known, without recursion: a nest of `if`/`else` is as deep as the file makes it."""
    stack = [root]
    while stack:
        node = stack[-1]
        if node.id in memo:
            stack.pop()
            continue
        groups = groups_of(node)
        pending = [inner for group in groups for inner in group if inner.id not in memo]
        if pending:
            stack.extend(pending)
            continue
        memo[node.id] = compute(node, groups)
        stack.pop()
    return memo[root.id]


def _tail_arms(body: ts.Node) -> list[ts.Node]:
    """The arm bodies of a block's last statement when it is an `if` with an `else` (none
    when it is no `if`, or one that can fall through)."""
    statements = [c for c in body.named_children if c.type != "comment"]
    if not statements or statements[-1].type != "if_statement":
        return []
    last = statements[-1]
    first = last.child_by_field_name("consequence")
    arms = [arm for arm in (first, *last.children_by_field_name("alternative")) if arm]
    if not any(arm.type == "else_clause" for arm in arms):
        return []
    bodies = [_arm_body(arm) for arm in arms]
    return [b for b in bodies if b is not None] if None not in bodies else []


def _last_exits(body: ts.Node) -> bool:
    statements = [c for c in body.named_children if c.type != "comment"]
    return bool(statements) and statements[-1].type in _EXITS


def _if_else_arms(body: ts.Node) -> list[list[ts.Node]]:
    """The arm bodies of each `if`/`else` among a block's own statements."""
    found: list[list[ts.Node]] = []
    for statement in body.named_children:
        if statement.type != "if_statement":
            continue
        alternatives = statement.children_by_field_name("alternative")
        if not alternatives or alternatives[-1].type != "else_clause":
            continue
        first = statement.child_by_field_name("consequence")
        bodies = [first, *(_arm_body(arm) for arm in alternatives)]
        if None not in bodies:
            found.append([b for b in bodies if b is not None])
    return found


def _bound_on_every_path(body: ts.Node) -> set[str]:
    """The names a block's own statements assign (`x = …`, not inside a nested branch):
    bound on every way through it that goes on past it."""
    names: set[str] = set()
    for statement in body.named_children:
        if statement.type != "expression_statement" or not statement.named_children:
            continue
        assignment = statement.named_children[0]
        left = assignment.child_by_field_name("left") if assignment.type == "assignment" else None
        if left is not None and left.type == "identifier":
            names.add(node_text(left))
    return names


def _jumps_out(node: ts.Node) -> bool:
    """A `break` or `continue` under `node` that belongs to a loop around it."""
    stack = list(node.named_children)
    while stack:
        current = stack.pop()
        if current.type in ("break_statement", "continue_statement"):
            return True
        if current.type not in _OWN_JUMPS:
            stack.extend(current.named_children)
    return False


def _spawned(callee: Expr, arguments: Arguments) -> tuple[Expr, Arguments] | None:
    """The later call a spawning call makes (`start_soon(wrap, p)` -> `wrap(p)`): the
    callable it is given by name and the positional arguments after it, renumbered; None for
    any other call, or one that passes the callable nothing."""
    if isinstance(callee, Name):
        method = callee.dotted[-1]
    elif isinstance(callee, Attribute):
        method = callee.name
    else:
        return None
    position = _SPAWNERS.get(method)
    if position is None:
        return None
    spawned = next((value for key, value in arguments if key == position), None)
    if not isinstance(spawned, Name):
        return None
    passed = tuple(
        (key - position - 1, value)
        for key, value in arguments
        if isinstance(key, int) and key > position
    )
    stars = tuple((key, value) for key, value in arguments if key == "*")
    return (spawned, passed + stars) if passed or stars else None
