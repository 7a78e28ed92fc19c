"""What Python annotations declare: the one class an annotation names (or the class object
`type[X]` holds), the element types of a container annotation, the names it mentions."""

from __future__ import annotations

import re

import tree_sitter as ts

from ...model import OPAQUE, DictDisplay, Display, Dotted, Expr, InstanceOf, Name
from ...parsing.treesitter import collect, node_text
from .syntax import DOTTED_TEXT, dotted_name, string_value

__all__ = [
    "NOT_ONE_CLASS", "annotation_names", "annotation_type", "class_annotation",
    "declared_classes",
    "declares_protocol", "element_types", "returned_type", "sent_type",
]  # fmt: skip

_WRAPPERS = frozenset({"Optional", "Final", "ClassVar", "Annotated", "Type", "type"})


def annotation_type(node: ts.Node) -> Dotted | None:
    """The single class an annotation names (`Foo`, `m.Foo`, `"Foo"`, `Optional[Foo]`,
    `Foo | None`), or None when it names a container or several types."""
    if node.type == "type":
        if node.named_child_count != 1:
            return None
        return annotation_type(node.named_children[0])
    if node.type in ("identifier", "attribute"):
        return dotted_name(node)
    if node.type == "string":
        value = string_value(node)
        return _string_type(value) if value else None
    if node.type in ("binary_operator", "union_type"):  # Foo | None, Box[int] | None
        inner = _besides_none(node)
        return annotation_type(inner) if inner is not None else None
    if node.type in ("generic_type", "subscript"):
        head_node = node.child_by_field_name("value") or node.named_children[0]
        head = dotted_name(head_node)
        params = [c for c in node.named_children[1:] if c.type != "comment"]
        if node.type == "generic_type" and params and params[0].type == "type_parameter":
            params = list(params[0].named_children)
        if head is not None and head[-1] == "Union":  # Union[Foo, None]
            params = [p for p in params if node_text(p) != "None"]
            return annotation_type(params[0]) if len(params) == 1 else None
        if head is None or head[-1] in _NOT_ONE_CLASS:
            return None
        if head[-1] in _WRAPPERS:
            return annotation_type(params[0]) if params else None
        return head  # `Convertor[Any]`, `Box[int]`: an instance of the generic class itself
    return None


_NOT_ONE_CLASS = frozenset(
    {
        "Union", "Callable", "Literal", "Generic", "Protocol", "TypeGuard", "TypeIs",
        "Concatenate", "Unpack", "Required", "NotRequired", "ReadOnly", "LiteralString",
        "Awaitable", "Coroutine", "AsyncContextManager", "ContextManager",
        "AbstractContextManager", "AbstractAsyncContextManager", "Pattern", "Match", "IO",
        "KeysView", "ValuesView", "ItemsView", "MappingView", "Container", "Hashable", "Sized",
        "SupportsInt", "SupportsFloat", "SupportsIndex", "SupportsAbs", "SupportsBytes",
        "tuple", "Tuple", "Counter", "ChainMap",
        "list", "List", "set", "Set", "frozenset", "FrozenSet", "Sequence", "MutableSequence",
        "Iterable", "Iterator", "Collection", "AbstractSet", "MutableSet", "Generator",
        "AsyncIterator", "AsyncIterable", "AsyncGenerator", "Deque", "deque", "Reversible",
        "dict", "Dict", "Mapping", "MutableMapping", "DefaultDict", "defaultdict", "OrderedDict",
    }
)  # fmt: skip
"""Subscripted names that are not one class whose instance the value is: typing's special
forms and protocols, and the containers (their element types are `element_types`' work)."""
NOT_ONE_CLASS = _NOT_ONE_CLASS


_STRING_OPTIONAL = re.compile(r"^Optional\[(.+)\]$|^(.+?)\s*\|\s*None$|^None\s*\|\s*(.+)$")


def _string_type(text: str) -> Dotted | None:
    """A forward reference's one class: `"Foo"`, `"m.Foo"`, `"Foo | None"`, `"Optional[Foo]"`."""
    text = text.strip()
    if DOTTED_TEXT.match(text):
        return tuple(text.split("."))
    optional = _STRING_OPTIONAL.match(text)
    if optional is None:
        return None
    inner = next(group for group in optional.groups() if group is not None)
    return tuple(inner.strip().split(".")) if DOTTED_TEXT.match(inner.strip()) else None


def class_annotation(node: ts.Node) -> Dotted | None:
    """The class `X` of an annotation `type[X]` / `Type[X]` (also inside `Optional[...]` and
    `... | None`): the variable holds the class itself, not an instance."""
    if node.type == "type":
        return class_annotation(node.named_children[0]) if node.named_child_count == 1 else None
    if node.type in ("binary_operator", "union_type"):  # type[Foo] | None
        inner = _besides_none(node)
        return class_annotation(inner) if inner is not None else None
    if node.type not in ("generic_type", "subscript"):
        return None
    head_node = node.child_by_field_name("value") or node.named_children[0]
    head = dotted_name(head_node)
    params = [c for c in node.named_children[1:] if c.type != "comment"]
    if node.type == "generic_type" and params and params[0].type == "type_parameter":
        params = list(params[0].named_children)
    if head is None or len(params) != 1:
        return None
    if head[-1] == "Optional":
        return class_annotation(params[0])
    if head[-1] in ("type", "Type"):
        return annotation_type(params[0])
    return None


_CALLABLE_WORDS = ("Callable", "Protocol")


def declared_classes(node: ts.Node) -> tuple[Dotted, ...] | None:
    """The names an annotation mentions when it declares instances in a way the resolver does
    not read (`Sequence[Foo]`, `Foo | Bar`, `dict[str, Foo]`); None for annotations of one
    class or of a class object (read as types elsewhere) and of callables (value flow follows
    those)."""
    if annotation_type(node) is not None or class_annotation(node) is not None:
        return None
    text = node_text(node)
    if any(word in text for word in _CALLABLE_WORDS) or ("[" not in text and "|" not in text):
        return None
    return tuple(sorted(set(annotation_names(node))))


_SEQUENCES = frozenset(
    {
        "list", "List", "set", "Set", "frozenset", "FrozenSet", "Sequence", "MutableSequence",
        "Iterable", "Iterator", "Collection", "AbstractSet", "MutableSet", "Generator",
        "AsyncIterator", "AsyncIterable", "AsyncGenerator", "Deque", "deque", "Reversible",
    }
)  # fmt: skip
_MAPPINGS = frozenset(
    {"dict", "Dict", "Mapping", "MutableMapping", "DefaultDict", "defaultdict", "OrderedDict"}
)


# the abstract protocols among those that callers fill with objects of their own more often
# than with a built-in container: generator objects, mappings (`os.environ`, a class of ours);
# a `Sequence[Foo]` is nearly always a list
_PROTOCOLS = frozenset(
    {
        "Iterable", "Iterator", "Generator", "AsyncIterator", "AsyncIterable",
        "AsyncGenerator", "Mapping", "MutableMapping",
    }
)  # fmt: skip


def _besides_none(node: ts.Node) -> ts.Node | None:
    """The other member of `X | None` (or `None | X`): a `binary_operator` in an expression
    (`typing.Mapping[str, str] | None`), a `union_type` in a type (`list[Foo] | None`);
    None for any other union."""
    members = [c for c in node.named_children if c.type != "comment"]
    if len(members) != 2:
        return None
    kept = [m for m in members if node_text(m) != "None"]
    return kept[0] if len(kept) == 1 else None


def declares_protocol(node: ts.Node) -> bool:
    """Whether an annotation names an abstract protocol with its element types
    (`AsyncGenerator[bytes, None]`, `Mapping[str, str] | None`), which any class
    implementing it may fill, not one concrete container (`list[Foo]`)."""
    if node.type == "type" and node.named_child_count == 1:
        return declares_protocol(node.named_children[0])
    if node.type in ("binary_operator", "union_type"):  # Mapping[str, str] | None
        inner = _besides_none(node)
        return inner is not None and declares_protocol(inner)
    if node.type not in ("generic_type", "subscript"):
        return False
    head = dotted_name(node.child_by_field_name("value") or node.named_children[0])
    if head is not None and head[-1] == "Optional":
        params = [c for c in node.named_children[1:] if c.type != "comment"]
        return len(params) == 1 and declares_protocol(params[0])
    return head is not None and head[-1] in _PROTOCOLS


def element_types(node: ts.Node) -> Expr | None:
    """A container annotation as a display of instances of its element types (value flow
    iterates it like a literal): `list[Foo]` / `Iterator[Foo]` -> Display("list", (Foo,)),
    `dict[K, V]` -> DictDisplay(((K, V),)), `tuple[A, B]` -> Display("tuple", (A, B)), each
    element InstanceOf(Name(...)), a container of its own (`tuple[str, list[Foo]]`) or
    OPAQUE; None when no element type is one class or such a container."""
    if node.type == "type" and node.named_child_count == 1:
        return element_types(node.named_children[0])
    if node.type in ("binary_operator", "union_type"):  # list[Foo] | None
        inner = _besides_none(node)
        return element_types(inner) if inner is not None else None
    if node.type not in ("generic_type", "subscript"):
        return None
    head, params = _generic(node)
    if head is None or not params:
        return None
    elements = [_element_of(p) for p in params]
    shape: Expr | None = None
    if head[-1] in ("Optional", "Final") and len(params) == 1:
        return element_types(params[0])
    variadic = head[-1] in ("tuple", "Tuple") and node_text(params[-1]) == "..."
    if head[-1] in _SEQUENCES or variadic:
        shape = Display("list", (elements[0],))
    elif head[-1] in ("tuple", "Tuple"):
        shape = Display("tuple", tuple(elements))
    elif head[-1] in _MAPPINGS and len(params) == 2:
        shape = DictDisplay(((elements[0], elements[1]),))
    known = any(e != OPAQUE for e in elements)
    return shape if known else None


def _generic(node: ts.Node) -> tuple[Dotted | None, list[ts.Node]]:
    """The type a generic annotation (`list[Foo]`, a `generic_type` or a `subscript`)
    applies, and its parameters."""
    head = dotted_name(node.child_by_field_name("value") or node.named_children[0])
    params = [c for c in node.named_children[1:] if c.type != "comment"]
    if node.type == "generic_type" and params and params[0].type == "type_parameter":
        params = list(params[0].named_children)
    return head, params


def _element_of(node: ts.Node) -> Expr:
    """One element type of a container annotation: an instance of its class, or a container
    itself (`tuple[str, dict[str, Foo]]`)."""
    element = _instance_of(node)
    if isinstance(element, InstanceOf):
        return element
    return element_types(node) or element


def sent_type(node: ts.Node) -> Expr | None:
    """What `yield` evaluates to in a function declared `-> Generator[Y, S, R]` (or
    `AsyncGenerator[Y, S]`): an instance of S, the value its caller sends; None when S is not
    one class."""
    if node.type == "type" and node.named_child_count == 1:
        return sent_type(node.named_children[0])
    if node.type not in ("generic_type", "subscript"):
        return None
    head, params = _generic(node)
    if head is None or head[-1] not in ("Generator", "AsyncGenerator") or len(params) < 2:
        return None
    sent = _instance_of(params[1])
    return sent if isinstance(sent, InstanceOf) else None


def _instance_of(node: ts.Node) -> Expr:
    dotted = annotation_type(node)
    return InstanceOf(Name(dotted)) if dotted is not None else OPAQUE


def returned_type(node: ts.Node) -> Dotted | None:
    """A return annotation's one type; `type[X]` as ("type[]", *X) (the class, not an
    instance: no name resolves to it, so only the value-flow linker reads it)."""
    held = class_annotation(node)
    if held is not None:
        return ("type[]", *held)
    return annotation_type(node)


def annotation_names(node: ts.Node) -> list[Dotted]:
    """Every dotted name mentioned in an annotation (`dict[str, Foo]` -> str, Foo, dict)."""
    return collect(node, _names_in)


def _names_in(node: ts.Node) -> list[Dotted] | None:
    """The name a name or a forward reference gives (`annotation_names`); None elsewhere."""
    if node.type in ("identifier", "attribute"):
        dotted = dotted_name(node)
        return [dotted] if dotted is not None else []
    if node.type == "string":
        value = string_value(node)
        return (
            [tuple(value.strip().split("."))] if value and DOTTED_TEXT.match(value.strip()) else []
        )
    return None
