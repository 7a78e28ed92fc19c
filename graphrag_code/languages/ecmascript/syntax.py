"""TypeScript / JavaScript plain syntax as tree-sitter gives it: dotted names (through `(x)`,
`x!`, `x as T`), callees, `require("x")` specifiers, string literals and destructured names."""

from __future__ import annotations

import tree_sitter as ts

from ...model import Dotted
from ...parsing.treesitter import member_chain
from ...parsing.treesitter import node_text as _text

__all__ = [
    "CALLED", "ELEMENT", "ELEMENT_CALLS", "FUNCTION_NODES", "RETURNED_ELEMENT", "argument_part",
    "callee_parts", "dotted_name", "element_of", "is_exports", "misread_await", "pattern_names",
    "required_specifier", "returned_part", "specifier_names", "split_argument_part",
    "string_literal", "unwrap",
]  # fmt: skip


FUNCTION_NODES = frozenset(
    {"function_expression", "arrow_function", "generator_function", "function"}
)
# array methods that return one of the array's elements (`xs.find(…)`)
ELEMENT_CALLS = frozenset({"find", "findLast", "at", "pop", "shift"})
_SCOPE_HEADS = {"this": "this", "super": "super()"}
# the name of the elements of `xs` (`xs[]`): what `xs[i]`, `for (const x of xs)` and the
# callback of `xs.forEach(x => …)` see, bound where `xs` is declared as `Foo[]`
ELEMENT = "[]"
CALLED = "()"  # `f()`: what calling f returns; `f()[]` its elements, `f().k` its property k
RETURNED_ELEMENT = CALLED + ELEMENT
_NAME_NODES = frozenset(
    {"identifier", "property_identifier", "private_property_identifier", "type_identifier"}
)


def unwrap(node: ts.Node) -> ts.Node:
    """The expression inside `(x)`, `x!`, `x as T`, `x satisfies T`, `await x`, and the last
    of `(a, x)`: a comma expression's value is its last operand (TypeScript's CommonJS output
    calls an import as `(0, mod_1.f)(…)` so that `this` is not `mod_1`)."""
    while True:
        awaited = misread_await(node)
        if awaited is not None:
            node = awaited
            continue
        if node.type not in (
            "parenthesized_expression", "non_null_expression", "as_expression",
            "satisfies_expression", "await_expression", "type_assertion", "sequence_expression",
        ) or not node.named_child_count:  # fmt: skip
            return node
        last = node.type in ("type_assertion", "sequence_expression")
        inner = node.named_children[-1] if last else node.named_children[0]
        if inner is None:
            return node
        node = inner


def misread_await(node: ts.Node) -> ts.Node | None:
    """The operand of `await (x)` that the JavaScript grammar read as a call of a function named
    `await` (so `await (0, fs_1.readJson)(p)`, tsc's output, became a call of `await(…)`'s
    result): the last argument, as a comma expression's value is its last operand. None for
    any other node (a function cannot be named `await` in a module or an async function)."""
    if node.type != "call_expression":
        return None
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if function is None or function.type != "identifier" or _text(function) != "await":
        return None
    if arguments is None or arguments.type != "arguments" or not arguments.named_child_count:
        return None
    return arguments.named_children[-1]


def dotted_name(node: ts.Node) -> Dotted | None:
    """`a.b.c` -> ("a", "b", "c"); `this.x` -> ("this", "x"); `this.#x` -> ("this", "#x") (a
    private name keeps its `#`: `#x` and `x` are two members); None for other expressions."""
    node = unwrap(node) if node.type == "non_null_expression" else node
    if node.type in _NAME_NODES:
        return (_text(node),)
    if node.type in _SCOPE_HEADS:
        return (_SCOPE_HEADS[node.type],)
    if node.type == "member_expression":
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if obj is None or prop is None:
            return None
        head = dotted_name(obj)
        return None if head is None else (*head, _text(prop))
    if node.type in ("nested_identifier", "nested_type_identifier"):
        parts = _text(node).replace(" ", "").split(".")
        return tuple(parts) if all(parts) else None
    if node.type == "subscript_expression":  # `xs[i]`, not `obj["key"]`
        obj = node.child_by_field_name("object")
        index = node.child_by_field_name("index")
        if obj is None or index is None or index.type in ("string", "template_string"):
            return None
        head = dotted_name(obj)
        return element_of(head) if head is not None else None
    return None


def argument_part(function: str, argument: int, parameter: int) -> str:
    """`f(1:0)`: the first parameter of the function passed to f as its second argument."""
    return f"{function}({argument}:{parameter})"


def split_argument_part(name: str) -> tuple[str, str] | None:
    """`f(1:0)` -> ("f", "(1:0)"); None for other names."""
    function, paren, rest = name.partition("(")
    if not paren or not function or not rest.endswith(")") or ":" not in rest:
        return None
    argument, _, parameter = rest[:-1].partition(":")
    if not (argument.isdigit() and parameter.isdigit()):
        return None
    return function, f"({rest}"


def returned_part(name: str) -> tuple[str, str] | None:
    """`getAll()[]` -> ("getAll", "[]"), `parse().status` -> ("parse", ".status"); None for a
    plain name."""
    function, called, rest = name.partition(CALLED)
    if not called or not function or not (rest == ELEMENT or rest.startswith(".")):
        return None
    return function, rest


def element_of(dotted: Dotted) -> Dotted:
    """The dotted name of the elements of `dotted` (`this.xs` -> `this.xs[]`)."""
    return (*dotted[:-1], dotted[-1] + ELEMENT)


def callee_parts(function: ts.Node) -> tuple[Dotted, Dotted | None]:
    """Dotted callee of a call's `function` node, and the receiver call when chained
    (`make().run()` -> ("run",) with receiver ("make",); `new A().m()` -> ("m",), ("A",))."""
    function = unwrap(function) if function.type != "member_expression" else function
    if function.type == "super":
        return ("super()", "constructor"), None
    required = required_specifier(function)
    if required is not None:  # require("./x")(…)
        return ("require()", required), None
    direct = dotted_name(function)
    if direct is not None:
        return direct, None
    chain = member_chain(function, "member_expression", "property", dotted_name, unwrap)
    if chain is None:
        return ("<expr>",), None
    parts, node = chain.names, chain.base
    if chain.head is not None:
        return (*chain.head, *parts), None
    required = required_specifier(node)
    if required is not None:  # require("./x").f(…)
        return ("require()", required, *parts), None
    inner: ts.Node | None = None
    if node.type == "call_expression":
        inner = node.child_by_field_name("function")
    elif node.type == "new_expression":
        inner = node.child_by_field_name("constructor")
    if inner is not None and parts:
        receiver, _ = callee_parts(inner)
        if receiver[0] != "<expr>":
            return tuple(parts), receiver
    return ("<expr>", *parts), None


def required_specifier(node: ts.Node) -> str | None:
    """The specifier of a `require("x")` call."""
    if node.type != "call_expression":
        return None
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if function is None or function.type != "identifier" or _text(function) != "require":
        return None
    if arguments is None or arguments.named_child_count != 1:
        return None
    return string_literal(arguments.named_children[0])


def string_literal(node: ts.Node | None) -> str | None:
    if node is None or node.type not in ("string", "template_string"):
        return None
    if node.type == "template_string" and any(
        c.type == "template_substitution" for c in node.children
    ):
        return None
    return _text(node)[1:-1]


def specifier_names(spec: ts.Node) -> tuple[str | None, str | None]:
    """(name, alias) of an import or export specifier, `"a-b"` string names unquoted. The
    JavaScript grammar reads `default` as a bare keyword, outside the name and alias fields:
    `import { default as y }`, `export { x as default }` (the TypeScript grammar does not)."""
    name = spec.child_by_field_name("name")
    alias = spec.child_by_field_name("alias")
    texts = [_text(name).strip("'\"") if name is not None else None]
    texts.append(_text(alias).strip("'\"") if alias is not None else None)
    if name is None or alias is None:
        words = [c.type for c in spec.children if c.type in ("default", "as")]
        if words and words[0] == "default":
            texts[0] = "default"
        elif words[-2:] == ["as", "default"]:
            texts[1] = "default"
    return texts[0], texts[1]


def is_exports(target: Dotted) -> bool:
    return target[0] == "exports" or target[:2] == ("module", "exports")


def pattern_names(pattern: ts.Node) -> list[str]:
    """Names bound by a parameter or a destructuring pattern (`{ a, b: c }`, `[x, y]`), not
    the names its default values read (`n = nextId()` binds `n` only)."""
    names: list[str] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node.type in ("required_parameter", "optional_parameter"):  # TypeScript
            inner = node.child_by_field_name("pattern")
            if inner is not None:
                stack.append(inner)
        elif node.type in ("identifier", "shorthand_property_identifier_pattern"):
            names.append(_text(node))
        elif node.type in ("pair_pattern", "assignment_pattern", "object_assignment_pattern"):
            inner = node.child_by_field_name("value" if node.type == "pair_pattern" else "left")
            if inner is not None:
                stack.append(inner)
        elif node.type not in ("type_annotation", "property_identifier"):
            stack.extend(node.named_children)
    return names
