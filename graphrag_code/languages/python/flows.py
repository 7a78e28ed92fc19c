"""Value flow of one Python file: what names, attributes, containers and results may hold.

The captures of `queries/python.scm` (`flow.*`, `call`, `implicit.*`) become `ValueFlow`,
`CallArguments` and `ImplicitCall` records whose values are `Expr` records (see `model.Expr`).
Every record knows its position (`at`, a byte offset) and `Block` inside its scope, so the
linker can tell which assignments reach a use. Nothing here resolves a name: that is linking.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

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
    DeclaredAs,
    Definition,
    Display,
    Dotted,
    Entered,
    Expr,
    ImplicitCall,
    InstanceOf,
    Int,
    Iterated,
    Like,
    Name,
    OneOf,
    ParseIssue,
    Star,
    Str,
    Subscript,
    Unlike,
    ValueFlow,
)
from ...parsing.treesitter import node_text
from .blocks import Arms, arm_body, block_entry
from .encoder import (
    Encoder,
    interesting,
    isinstance_tests,
    literal_string,
    none_test,
    refuted_isinstance_tests,
    target_access,
    target_path,
)
from .spawners import spawned_call
from .syntax import calls_method, last_value

__all__ = ["FlowExtractor"]

# stacked decorators whose values are followed (each nests the value one level deeper)
MAX_DECORATORS = 64


# container methods that store their argument: method -> position of the stored value
_ADDS = {"append": 0, "add": 0, "appendleft": 0, "insert": 1, "setdefault": 1, "put": 0}
_EXTENDS = frozenset({"extend", "update", "extendleft"})
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
    issues: list[ParseIssue] = field(default_factory=list)  # what was kept only in part
    _blocks: dict[int, Block] = field(default_factory=dict)
    _interned: dict[Block, Block] = field(default_factory=dict)
    _arms: Arms = field(default_factory=lambda: Arms())
    _encoder: Encoder = field(init=False)

    def __post_init__(self) -> None:
        self._encoder = Encoder(self._positioned)

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
            entry = block_entry(above, child, self._arms) if above is not None else None
            if entry is not None:
                extended = (*block, entry)
                block = self._interned.setdefault(extended, extended)
            self._blocks[key] = block
        return block

    def _expr(self, node: ts.Node | None) -> Expr:
        return self._encoder.encode(node, 0)

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
            path = target_path(node.child_by_field_name("left"))
            if path is not None:
                self._add(node, ("<declared>", *path), value, node.start_byte)
            return
        name, function, qualified = self._parameter_of(node)
        if name is not None and qualified is not None and function is not None:
            self.flows.append(
                ValueFlow(
                    qualified, ("<declared>", node_text(name)), value, node.start_point[0] + 1,
                    function.start_byte, self.block_of(function),
                )
            )  # fmt: skip

    def _parameter_of(self, node: ts.Node) -> tuple[ts.Node | None, ts.Node | None, str | None]:
        """A parameter node's name, the function whose parameter it is, and that function's
        qualified name (each None where the tree has none)."""
        name = node.child_by_field_name("name")
        if name is None and node.named_children and node.named_children[0].type == "identifier":
            name = node.named_children[0]
        params = node.parent
        function = params.parent if params is not None else None
        qualified = self.def_scopes.get(function.id) if function is not None else None
        return name, function, qualified

    def _parameter_shape(self, node: ts.Node, annotation: ts.Node) -> None:
        """`def f(xs: list[Foo])`: ("<shape>", "xs") in f holds the container's element types;
        ("<protocol>", "xs") the same where the annotation is an abstract protocol
        (`Iterator[Foo]`), which the caller's own class may implement."""
        shape = self.element_types(annotation)
        name, function, qualified = self._parameter_of(node)
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
        for name, classes in isinstance_tests(condition):
            self._add(place, (name,), InstanceOf(self._expr(classes)), at)
        if node.type in ("if_statement", "elif_clause"):
            self._none_arms(node, condition, place)
        if node.type == "if_statement":
            self._joined(node, condition, place)
        if node.type != "if_statement" or node.children_by_field_name("alternative"):
            return
        self._refuted_after(node, condition, place)
        # `if not isinstance(x, Foo): raise …` with no `elif` / `else`: after it, x is a Foo;
        # `if not isinstance(x, Foo): x = Foo(x)`: what the body bound, or a Foo
        refuted = refuted_isinstance_tests(condition)
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

    def _refuted_after(self, node: ts.Node, condition: ts.Node, consequence: ts.Node) -> None:
        """`if isinstance(x, Foo): return …` with no `elif` / `else`, in a function: after
        it, x is not a Foo (`if isinstance(v, URL): return v` then `v.encode()`)."""
        if condition.type != "call" or not self._arms.terminates(consequence):
            return
        if self.def_kinds.get(self.scope_of(node)) != "function_definition":
            return
        tests = isinstance_tests(condition)
        if len(tests) != 1:
            return
        name, classes = tests[0]
        before: Expr = At(node.start_byte, self.block_of(node), Name((name,)))
        self._add(node, (name,), Unlike(before, self._expr(classes)), node.end_byte)

    def _none_arms(self, node: ts.Node, condition: ts.Node, consequence: ts.Node) -> None:
        """`if p is None:` / `if p is not None:` in a function: `("<is None>", p)` at the start
        of the code that runs only where p is None, `("<is not None>", p)` of the code that
        runs only where it is not: the `if`'s arm, its `else` (of an `if` without `elif`),
        and the rest of the enclosing block after an arm that always returns or raises. A
        call that passes p, or leaves it None, runs only one of them: `def auto(cls=None):
        if cls is None: return partial(...)` applied as `@auto` returns what the rest does."""
        test = none_test(condition)
        if test is None or self.def_kinds.get(self.scope_of(node)) != "function_definition":
            return
        name, is_none = test
        arms = [(consequence, is_none)]
        alternatives = node.children_by_field_name("alternative")
        if node.type == "if_statement" and len(alternatives) == 1:
            body = arm_body(alternatives[0]) if alternatives[0].type == "else_clause" else None
            if body is not None:
                arms.append((body, not is_none))
        for arm, none in arms:
            target = ("<is None>" if none else "<is not None>", name)
            self._add(arm, target, CONST, arm.start_byte)
        if len(arms) == 1 and not alternatives and self._arms.terminates(consequence):
            # after `if p is not None: return wrap(p)`, p is None (and the other way round)
            rest = ("<is not None>" if is_none else "<is None>", name)
            self._add(node, rest, CONST, node.end_byte)

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
        tests = isinstance_tests(condition) if condition.type == "call" else []
        otherwise = alternatives[-1].child_by_field_name("body")
        here = self.block_of(node)
        if len(tests) == 1 and len(alternatives) == 1 and otherwise is not None:
            # the `else` of `if isinstance(x, K):`: x is not a K there
            name, classes = tests[0]
            before: Expr = At(node.start_byte, here, Name((name,)))
            unlike: Expr = Unlike(before, self._expr(classes))
            self._add(otherwise, (name,), unlike, otherwise.start_byte)
        arms: list[tuple[ts.Node, set[str]]] = [
            (consequence, {name for name, _ in isinstance_tests(condition)})
        ]
        for alternative in alternatives:
            body = arm_body(alternative)
            if body is None:
                return
            narrowed: set[str] = set()
            if alternative.type == "elif_clause":
                test = alternative.child_by_field_name("condition")
                narrowed = {n for n, _ in isinstance_tests(test)} if test is not None else set()
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
            right = last_value(right)
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
            container = target_path(left.child_by_field_name("value"))
            key = left.child_by_field_name("subscript")
            if container is not None:
                text = literal_string(key) if key is not None and key.type == "string" else None
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
        path = target_path(left)
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
        if len(decorators) > MAX_DECORATORS:
            # `d(d(...(f)))` nests one record per decorator, and every later step (pickling to
            # the state, to and from the parse pool) recurses through it: 500 crashed each run
            # (issue 57). The outer ones say what the name holds; below them, the value is
            # not followed.
            self.issues.append(
                ParseIssue(
                    node.start_point[0] + 1,
                    f"{len(decorators)} stacked decorators: the value of the outer "
                    f"{MAX_DECORATORS} followed, not what the others make",
                )
            )
            decorators, value = decorators[:MAX_DECORATORS], OPAQUE
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
        arguments = self._encoder.arguments(node.child_by_field_name("arguments"), 0)
        if function is None or not any(interesting(value) for _, value in arguments):
            return
        callee = self._expr(function)
        self.passes.append(
            CallArguments(
                self.scope_of(node), callee, arguments, node.start_point[0] + 1, node.start_byte,
                self.block_of(node),
            )
        )  # fmt: skip
        spawned = spawned_call(callee, arguments)
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
        container = target_path(receiver)
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
        elif receiver.type == "call" and calls_method(receiver, "setdefault"):
            callee = receiver.child_by_field_name("function")
            outer = callee.child_by_field_name("object") if callee is not None else None
            listed = receiver.child_by_field_name("arguments")
            key = listed.named_children[0] if listed is not None and listed.named_children else None
        else:
            return
        path = target_path(outer)
        if path is None:
            return
        added = [value for position, value in arguments if position == 0]
        if len(added) != 1:
            return
        element: Expr = Star(added[0]) if method == "extend" else added[0]
        text = literal_string(key) if key is not None and key.type == "string" else None
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
        }[target_access(node)]  # fmt: skip
        self._implicit(node, methods, value, "[]")

    def attribute(self, node: ts.Node) -> None:
        """`x.name` read, assigned or deleted: a property's getter, setter or deleter runs,
        when `name` is one of x's class (the linker decides; a plain attribute runs nothing)."""
        value = node.child_by_field_name("object")
        name = node.child_by_field_name("attribute")
        parent = node.parent
        if value is None or name is None or (parent is not None and parent.type == "decorator"):
            return
        access = target_access(node)
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
