"""Python source -> `ParsedFile`, with tree-sitter (its grammar tolerates syntax errors).

The captures come from `queries/python.scm`; this module turns them into records. Everything
is attributed to the scope that executes it: a call in a function body belongs to the function,
a decorator or a default value to the enclosing scope, a call in a class body to the class.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal

import tree_sitter as ts
import tree_sitter_python

from ...model import (
    OPAQUE,
    Binding,
    CallSite,
    DictDisplay,
    Display,
    Dotted,
    Expr,
    ImportStatement,
    InstanceOf,
    Name,
    ParsedFile,
    ScopeNames,
    Symbol,
    SymbolKind,
    TypeUse,
)
from ...parsing.treesitter import node_text, remembered_texts, syntax_issues
from .flows import FlowExtractor
from .signature_parser import SignatureExtractor

__all__ = ["PythonParser"]

_DEF_TYPES = ("function_definition", "class_definition")
_DOTTED_TEXT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_WRAPPERS = frozenset({"Optional", "Final", "ClassVar", "Annotated", "Type", "type"})
_MAX_SIGNATURE = 300


@cache
def _language() -> ts.Language:
    return ts.Language(tree_sitter_python.language())


@cache
def _query() -> ts.Query:
    text = resources.files(__name__.rpartition(".")[0]).joinpath("queries/python.scm").read_text()
    query: ts.Query = ts.Query(_language(), text)
    return query


def _dotted(node: ts.Node) -> Dotted | None:
    """`a.b.c` -> ("a", "b", "c"); None for anything that is not a plain dotted name."""
    if node.type == "identifier":
        return (node_text(node),)
    if node.type == "attribute":
        obj = node.child_by_field_name("object")
        attr = node.child_by_field_name("attribute")
        if obj is None or attr is None:
            return None
        head = _dotted(obj)
        return None if head is None else (*head, node_text(attr))
    return None


def _string_value(node: ts.Node) -> str | None:
    try:
        value = ast.literal_eval(node_text(node))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def annotation_type(node: ts.Node) -> Dotted | None:
    """The single class an annotation names (`Foo`, `m.Foo`, `"Foo"`, `Optional[Foo]`,
    `Foo | None`), or None when it names a container or several types."""
    if node.type == "type":
        if node.named_child_count != 1:
            return None
        return annotation_type(node.named_children[0])
    if node.type in ("identifier", "attribute"):
        return _dotted(node)
    if node.type == "string":
        value = _string_value(node)
        return _string_type(value) if value else None
    if node.type in ("binary_operator", "union_type"):  # Foo | None, Box[int] | None
        inner = _besides_none(node)
        return annotation_type(inner) if inner is not None else None
    if node.type in ("generic_type", "subscript"):
        head_node = node.child_by_field_name("value") or node.named_children[0]
        head = _dotted(head_node)
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


_STRING_OPTIONAL = re.compile(r"^Optional\[(.+)\]$|^(.+?)\s*\|\s*None$|^None\s*\|\s*(.+)$")


def _string_type(text: str) -> Dotted | None:
    """A forward reference's one class: `"Foo"`, `"m.Foo"`, `"Foo | None"`, `"Optional[Foo]"`."""
    text = text.strip()
    if _DOTTED_TEXT.match(text):
        return tuple(text.split("."))
    optional = _STRING_OPTIONAL.match(text)
    if optional is None:
        return None
    inner = next(group for group in optional.groups() if group is not None)
    return tuple(inner.strip().split(".")) if _DOTTED_TEXT.match(inner.strip()) else None


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
    head = _dotted(head_node)
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


def _declared_classes(node: ts.Node) -> tuple[Dotted, ...] | None:
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
    head = _dotted(node.child_by_field_name("value") or node.named_children[0])
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
    head = _dotted(node.child_by_field_name("value") or node.named_children[0])
    params = [c for c in node.named_children[1:] if c.type != "comment"]
    if node.type == "generic_type" and params and params[0].type == "type_parameter":
        params = list(params[0].named_children)
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
    head = _dotted(node.child_by_field_name("value") or node.named_children[0])
    params = [c for c in node.named_children[1:] if c.type != "comment"]
    if node.type == "generic_type" and params and params[0].type == "type_parameter":
        params = list(params[0].named_children)
    if head is None or head[-1] not in ("Generator", "AsyncGenerator") or len(params) < 2:
        return None
    sent = _instance_of(params[1])
    return sent if isinstance(sent, InstanceOf) else None


def _instance_of(node: ts.Node) -> Expr:
    dotted = annotation_type(node)
    return InstanceOf(Name(dotted)) if dotted is not None else OPAQUE


def _returns(node: ts.Node) -> Dotted | None:
    """A return annotation's one type; `type[X]` as ("type[]", *X) (the class, not an
    instance: no name resolves to it, so only the value-flow linker reads it)."""
    held = class_annotation(node)
    if held is not None:
        return ("type[]", *held)
    return annotation_type(node)


def annotation_names(node: ts.Node) -> list[Dotted]:
    """Every dotted name mentioned in an annotation (`dict[str, Foo]` -> str, Foo, dict)."""
    found: list[Dotted] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("identifier", "attribute"):
            dotted = _dotted(current)
            if dotted is not None:
                found.append(dotted)
            continue
        if current.type == "string":
            value = _string_value(current)
            if value and _DOTTED_TEXT.match(value.strip()):
                found.append(tuple(value.strip().split(".")))
            continue
        stack.extend(current.named_children)
    return found


def _callee(function: ts.Node) -> tuple[Dotted, Dotted | None]:
    """Dotted callee of a call's `function` node, and the receiver call when chained."""
    direct = _dotted(function)
    if direct is not None:
        return direct, None
    if function.type != "attribute":
        return ("<expr>",), None
    parts: list[str] = []
    node = function
    while node.type == "attribute":
        attr = node.child_by_field_name("attribute")
        obj = node.child_by_field_name("object")
        if attr is None or obj is None:
            return ("<expr>",), None
        parts.append(node_text(attr))
        node = obj
        direct = _dotted(node)
        if direct is not None:
            return (*direct, *reversed(parts)), None
    parts.reverse()
    if node.type == "call":
        inner = node.child_by_field_name("function")
        if inner is not None and inner.type == "identifier" and node_text(inner) == "super":
            return ("super()", *parts), None
        if inner is not None:
            receiver, _ = _callee(inner)
            if receiver[0] != "<expr>":
                return tuple(parts), receiver
    return ("<expr>", *parts), None


def _docstring(body: ts.Node | None) -> str | None:
    if body is None or body.named_child_count == 0:
        return None
    first = body.named_children[0]
    if first.type != "expression_statement" or first.named_child_count != 1:
        return None
    string = first.named_children[0]
    if string.type != "string":
        return None
    value = _string_value(string)
    return inspect.cleandoc(value) if value else None


@dataclass
class _ScopeMap:
    """Which scope runs the code at each byte offset of a file: the definition bodies, met in
    source order, flattened into the offsets where the innermost one changes (before the
    first, and between bodies: the module). Looked up by offset because walking up `parent`
    costs tree-sitter a walk down from the root at each step."""

    module: str
    starts: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # the scope from each of `starts` on
    _open: list[tuple[int, str]] = field(default_factory=list)  # (end, scope), innermost last

    def enter(self, offset: int) -> str:
        """The scope of code at `offset`, while the map is built (offsets in source order):
        the bodies that end by then are closed."""
        while self._open and self._open[-1][0] <= offset:
            end, _ = self._open.pop()
            self.starts.append(end)
            self.names.append(self._open[-1][1] if self._open else self.module)
        return self._open[-1][1] if self._open else self.module

    def open(self, start: int, end: int, scope: str) -> None:
        """A definition body: `scope` runs the code from `start` to `end`."""
        self.enter(start)
        self.starts.append(start)
        self.names.append(scope)
        self._open.append((end, scope))

    def finish(self) -> None:
        self.enter(sys.maxsize)

    def scope_at(self, offset: int) -> str:
        at = bisect_right(self.starts, offset) - 1
        return self.names[at] if at >= 0 else self.module


@dataclass
class _FileState:
    module: str
    def_scopes: dict[int, str] = field(default_factory=dict)  # def node id -> its qualified name
    def_kinds: dict[str, str] = field(default_factory=dict)  # qualified name -> node type
    scopes: _ScopeMap = field(init=False)  # complete once `_symbols` has run

    def __post_init__(self) -> None:
        self.scopes = _ScopeMap(self.module)


class PythonParser:
    """Parses one Python file. Cheap to construct; not thread-safe (one per process)."""

    language = "python"
    suffixes = (".py",)

    def __init__(self) -> None:
        self._parser = ts.Parser(_language())

    def skip_reason(self, path: str, source: bytes) -> str | None:
        return None

    def parse(
        self, *, path: str, module: str, is_package: bool, source: bytes, sha256: str
    ) -> ParsedFile:
        tree = self._parser.parse(source)
        with remembered_texts():
            return self._records(tree, path, module, is_package, source, sha256)

    def _records(
        self, tree: ts.Tree, path: str, module: str, is_package: bool, source: bytes, sha256: str
    ) -> ParsedFile:
        # each capture list in source order: the binding returns them in no stable order
        captures = {
            name: sorted(nodes, key=lambda node: (node.start_byte, -node.end_byte))
            for name, nodes in ts.QueryCursor(_query()).captures(tree.root_node).items()
        }
        state = _FileState(module=module)
        symbols = self._symbols(captures.get("definition.class", []), captures, state)
        flows = self._flows(captures, state)
        text = source.decode("utf-8", errors="replace")
        signatures = SignatureExtractor(module, state.def_scopes, annotation_type, _dotted)
        return ParsedFile(
            path=path,
            module=module,
            is_package=is_package,
            language=self.language,
            sha256=sha256,
            loc=text.count("\n") + (0 if text.endswith("\n") or not text else 1),
            code=text,
            docstring=_docstring(tree.root_node),
            symbols=symbols,
            imports=tuple(self._imports(captures, state)),
            calls=tuple(self._calls(captures.get("call", []), state, flows)),
            bindings=tuple(self._bindings(captures, state, symbols)),
            type_uses=tuple(self._type_uses(captures, state)),
            scopes=tuple(self._scope_names(captures, state, symbols)),
            module_names=frozenset(self._module_names(captures, state)),
            all_names=self._all_names(tree.root_node),
            issues=tuple(syntax_issues(tree.root_node)),
            flows=tuple(flows.flows),
            passes=tuple(flows.passes),
            implicit_calls=tuple(flows.implicit),
            signatures=tuple(
                signatures.extract(tree.root_node, captures.get("definition.function", []))
            ),
        )

    def _flows(self, captures: dict[str, list[ts.Node]], state: _FileState) -> FlowExtractor:
        flows = FlowExtractor(
            lambda node: self._scope_of(node, state), state.def_scopes, _declared_classes,
            element_types, sent_type, state.def_kinds, declares_protocol=declares_protocol,
        )  # fmt: skip
        handlers = {
            "flow.assign": flows.assignment, "flow.augment": flows.augmented,
            "flow.return": flows.returned, "flow.yield": flows.yielded,
            "flow.for": flows.for_loop, "flow.comprehension": flows.comprehension,
            "flow.with": flows.with_item, "flow.except": flows.except_clause,
            "flow.walrus": flows.walrus, "flow.lambda": flows.lambda_parameters,
            "flow.default": flows.default, "flow.decorated": flows.decorated,
            "call": flows.call, "implicit.operator": flows.operator,
            "implicit.subscript": flows.subscript, "implicit.raise": flows.raised,
            "implicit.truth": flows.truth, "implicit.conditional": flows.conditional,
            "implicit.attribute": flows.attribute, "implicit.format": flows.interpolation,
            "flow.typed": flows.declared, "definition.function": flows.declared_return,
            "flow.narrow": flows.narrowed,
        }  # fmt: skip
        for capture, handle in handlers.items():
            for node in captures.get(capture, []):
                handle(node)
        flows.flows.sort(key=lambda f: (f.at, f.scope, f.target))
        flows.passes.sort(key=lambda p: (p.at, p.line))
        flows.implicit.sort(key=lambda c: (c.at, c.methods))
        return flows

    # -- scopes -------------------------------------------------------------------------------
    def _scope_of(self, node: ts.Node, state: _FileState) -> str:
        """Qualified name of the scope that executes `node`: the innermost definition whose
        body holds it."""
        return state.scopes.scope_at(node.start_byte)

    # -- definitions --------------------------------------------------------------------------
    def _symbols(
        self, classes: list[ts.Node], captures: dict[str, list[ts.Node]], state: _FileState
    ) -> tuple[Symbol, ...]:
        nodes = sorted(
            classes + captures.get("definition.function", []), key=lambda n: n.start_byte
        )
        symbols: list[Symbol] = []
        seen: dict[str, int] = defaultdict(int)
        for node in nodes:
            name_node = node.child_by_field_name("name")
            if name_node is None:
                continue
            parent_scope = state.scopes.enter(node.start_byte)
            qualified = f"{parent_scope}.{node_text(name_node)}"
            state.def_scopes[node.id] = qualified
            seen[qualified] += 1
            if seen[qualified] == 1:
                state.def_kinds[qualified] = node.type
            body = node.child_by_field_name("body")
            if body is not None:
                state.scopes.open(body.start_byte, body.end_byte, qualified)
            symbols.append(self._symbol(node, qualified, parent_scope, state, seen[qualified]))
        state.scopes.finish()
        return tuple(symbols)

    def _symbol(
        self, node: ts.Node, qualified: str, parent: str, state: _FileState, ordinal: int
    ) -> Symbol:
        outer = node.parent if node.parent and node.parent.type == "decorated_definition" else None
        decorators = tuple(
            node_text(child).lstrip("@").strip()
            for child in (outer.children if outer else [])
            if child.type == "decorator"
        )
        span = outer or node
        body = node.child_by_field_name("body")
        name = qualified.rsplit(".", 1)[1]
        if node.type == "class_definition":
            superclasses = node.child_by_field_name("superclasses")
            parameter_kinds = ""
            bases = tuple(
                base
                for arg in (superclasses.named_children if superclasses else [])
                if arg.type != "keyword_argument"
                for base in [_dotted(arg) or self._generic_base(arg)]
                if base is not None
            )
            signature = f"class {name}{node_text(superclasses) if superclasses else ''}"
            kind = SymbolKind.CLASS
            returns = None
            parameters: tuple[str, ...] = ()
        else:
            params = node.child_by_field_name("parameters")
            return_node = node.child_by_field_name("return_type")
            is_async = bool(node.children) and node.children[0].type == "async"
            arrow = f" -> {node_text(return_node)}" if return_node is not None else ""
            prefix = "async def" if is_async else "def"
            signature = f"{prefix} {name}{node_text(params) if params else '()'}{arrow}"
            kind = (
                SymbolKind.METHOD
                if state.def_kinds.get(parent) == "class_definition"
                else SymbolKind.FUNCTION
            )
            bases = ()
            returns = _returns(return_node) if return_node is not None else None
            parameters = tuple(name for name, _ in _parameters(params)) if params else ()
            parameter_kinds = _parameter_kinds(params) if params else ""
        if len(signature) > _MAX_SIGNATURE:
            signature = signature[: _MAX_SIGNATURE - 1] + "…"
        return Symbol(
            qualified_name=qualified,
            name=name,
            kind=kind,
            parent=parent,
            start_line=span.start_point[0] + 1,
            end_line=span.end_point[0] + 1,
            signature=" ".join(signature.split()),
            docstring=_docstring(body),
            decorators=decorators,
            code=node_text(span),
            is_async=node.type == "function_definition"
            and bool(node.children)
            and node.children[0].type == "async",
            bases=bases,
            returns=returns,
            parameters=parameters,
            ordinal=ordinal,
            parameter_kinds=parameter_kinds,
        )

    @staticmethod
    def _generic_base(node: ts.Node) -> Dotted | None:
        if node.type == "subscript":  # Generic[T], Base[int]
            value = node.child_by_field_name("value")
            return _dotted(value) if value is not None else None
        return None

    # -- imports ------------------------------------------------------------------------------
    def _imports(
        self, captures: dict[str, list[ts.Node]], state: _FileState
    ) -> list[ImportStatement]:
        records: list[ImportStatement] = []
        for node in captures.get("import.plain", []):
            scope = self._scope_of(node, state)
            checking = _under_type_checking(node)
            for child in node.children_by_field_name("name"):
                module, alias = _name_and_alias(child)
                if module:
                    records.append(
                        ImportStatement(
                            scope, module, 0, None, alias, node.start_point[0] + 1, checking
                        )
                    )
        for node in captures.get("import.from", []):
            scope = self._scope_of(node, state)
            checking = _under_type_checking(node)
            module_node = node.child_by_field_name("module_name")
            if module_node is None:
                continue
            level, module = _relative(module_node)
            line = node.start_point[0] + 1
            if any(child.type == "wildcard_import" for child in node.children):
                records.append(ImportStatement(scope, module, level, "*", None, line, checking))
                continue
            for child in node.children_by_field_name("name"):
                name, alias = _name_and_alias(child)
                if name:
                    records.append(
                        ImportStatement(scope, module, level, name, alias, line, checking)
                    )
        records.sort(key=lambda r: (r.line, r.module, r.name or ""))
        return records

    # -- calls, bindings, types ---------------------------------------------------------------
    def _calls(
        self, nodes: list[ts.Node], state: _FileState, flows: FlowExtractor
    ) -> list[CallSite]:
        sites = []
        for node in nodes:
            function = node.child_by_field_name("function")
            if function is None:
                continue
            callee, receiver = _callee(function)
            value = None if _dotted(function) is not None else flows.value(function)
            sites.append(
                CallSite(
                    self._scope_of(node, state), callee, node.start_point[0] + 1, receiver,
                    node.start_byte, flows.block_of(node), value,
                )
            )  # fmt: skip
        return sites

    def _bindings(
        self,
        captures: dict[str, list[ts.Node]],
        state: _FileState,
        symbols: tuple[Symbol, ...],
    ) -> list[Binding]:
        records: list[Binding] = []
        for node in captures.get("definition.function", []):
            params = node.child_by_field_name("parameters")
            qualified = state.def_scopes.get(node.id)
            if params is None or qualified is None:
                continue
            for name, type_node in _parameters(params):
                if type_node is None:
                    continue
                line = node.start_point[0] + 1
                held = class_annotation(type_node)
                value = annotation_type(type_node) if held is None else None
                if held is not None:
                    records.append(Binding(qualified, (name,), held, "class", line))
                elif value is not None:
                    records.append(Binding(qualified, (name,), value, "annotation", line))
        for target in captures.get("bind.target", []):
            assignment = target.parent
            if assignment is None:
                continue
            target_parts = _dotted(target)
            if target_parts is None:
                continue
            scope = self._scope_of(assignment, state)
            line = assignment.start_point[0] + 1
            right = assignment.child_by_field_name("right")
            if right is not None and right.type == "await" and right.named_child_count == 1:
                right = right.named_children[0]  # x = await f(): typed like f()
            annotation = assignment.child_by_field_name("type")
            if annotation is not None and node_text(annotation).rpartition(".")[2] == "TypeAlias":
                pass  # `X: TypeAlias = ...` names a type: X is no instance of anything
            elif annotation is not None:
                held = class_annotation(annotation)
                value = annotation_type(annotation) if held is None else None
                if held is not None:
                    records.append(Binding(scope, target_parts, held, "class", line))
                elif value is not None:
                    records.append(Binding(scope, target_parts, value, "annotation", line))
            elif right is not None and right.type == "call":
                function = right.child_by_field_name("function")
                if function is not None:
                    callee, receiver = _callee(function)
                    if receiver is None and callee[0] != "<expr>":
                        records.append(Binding(scope, target_parts, callee, "call", line))
            elif right is not None and right.type in ("identifier", "attribute"):
                value = _dotted(right)
                if value is not None and value != target_parts:
                    records.append(Binding(scope, target_parts, value, "alias", line))
        for item in captures.get("with.item", []):
            pattern = item.child_by_field_name("value")
            alias = pattern.child_by_field_name("alias") if pattern is not None else None
            if pattern is None or alias is None or alias.named_child_count != 1:
                continue
            call, target = pattern.named_children[0], alias.named_children[0]
            function = call.child_by_field_name("function")
            if call.type != "call" or target.type != "identifier" or function is None:
                continue
            callee, receiver = _callee(function)
            if receiver is None and callee[0] != "<expr>":
                scope = self._scope_of(call, state)
                records.append(
                    Binding(scope, (node_text(target),), callee, "enter", call.start_point[0] + 1)
                )
        records.extend(self._opaque_bindings(captures, state, records))
        records.sort(key=lambda b: (b.line, b.scope, b.target))
        return records

    def _opaque_bindings(
        self, captures: dict[str, list[ts.Node]], state: _FileState, typed: list[Binding]
    ) -> list[Binding]:
        """Untyped assignments to names that also have a typed binding in the same scope: the
        resolver needs them to know which binding is the latest before a call."""
        typed_lines: dict[tuple[str, Dotted], set[int]] = defaultdict(set)
        for binding in typed:
            typed_lines[(binding.scope, binding.target)].add(binding.line)
        opaque: list[Binding] = []
        for node in captures.get("local", []):
            name = (node_text(node),)
            scope = self._scope_of(node, state)
            lines = typed_lines.get((scope, name))
            line = node.start_point[0] + 1
            if lines is not None and line not in lines:
                opaque.append(Binding(scope, name, (), "opaque", line))
        return opaque

    def _type_uses(self, captures: dict[str, list[ts.Node]], state: _FileState) -> list[TypeUse]:
        uses: list[TypeUse] = []
        for node in captures.get("annotation", []):
            parent = node.parent
            context: Literal["annotation", "return"] = "annotation"
            if parent is not None and parent.type == "function_definition":
                scope = state.def_scopes.get(parent.id, state.module)
                context = "return"
            elif (
                parent is not None
                and parent.parent is not None
                and parent.type
                in (
                    "typed_parameter",
                    "typed_default_parameter",
                )
            ):
                function = parent.parent.parent  # parameters -> function_definition
                scope = (
                    state.def_scopes.get(function.id, state.module)
                    if function is not None
                    else state.module
                )
            else:
                scope = self._scope_of(node, state)
            line = node.start_point[0] + 1
            uses.extend(TypeUse(scope, name, line, context) for name in annotation_names(node))
        for node in captures.get("isinstance", []):
            scope = self._scope_of(node, state)
            line = node.start_point[0] + 1
            candidates = node.named_children if node.type == "tuple" else [node]
            for candidate in candidates:
                dotted = _dotted(candidate)
                if dotted is not None:
                    uses.append(TypeUse(scope, dotted, line, "isinstance"))
        uses.sort(key=lambda u: (u.line, u.scope, u.type_name))
        return uses

    # -- names bound per scope ----------------------------------------------------------------
    def _scope_names(
        self,
        captures: dict[str, list[ts.Node]],
        state: _FileState,
        symbols: tuple[Symbol, ...],
    ) -> list[ScopeNames]:
        functions = {
            s.qualified_name for s in symbols if s.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)
        }
        names: dict[str, set[str]] = defaultdict(set)
        declared: dict[str, set[str]] = defaultdict(set)
        for node in captures.get("local", []):
            scope = self._scope_of(node, state)
            if scope in functions:
                names[scope].add(node_text(node))
        for node in captures.get("global", []):
            scope = self._scope_of(node, state)
            if scope in functions:
                declared[scope].add(node_text(node))
        for symbol in symbols:
            if symbol.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD):
                names[symbol.qualified_name].update(symbol.parameters)
        return [
            ScopeNames(scope, frozenset(names[scope] - declared[scope]), frozenset(declared[scope]))
            for scope in sorted(names.keys() | declared.keys())
        ]

    def _module_names(self, captures: dict[str, list[ts.Node]], state: _FileState) -> set[str]:
        return {
            node_text(node)
            for node in captures.get("local", [])
            if self._scope_of(node, state) == state.module
        }

    @staticmethod
    def _all_names(root: ts.Node) -> tuple[str, ...] | None:
        for statement in root.named_children:
            if statement.type != "expression_statement" or statement.named_child_count != 1:
                continue
            assignment = statement.named_children[0]
            left = assignment.child_by_field_name("left")
            right = assignment.child_by_field_name("right")
            if assignment.type != "assignment" or left is None or right is None:
                continue
            if node_text(left) != "__all__" or right.type not in ("list", "tuple"):
                continue
            values = [_string_value(item) for item in right.named_children]
            if all(isinstance(v, str) for v in values):
                return tuple(v for v in values if v is not None)
        return None


def _parameters(params: ts.Node) -> list[tuple[str, ts.Node | None]]:
    """(name, annotation node) for every parameter."""
    found: list[tuple[str, ts.Node | None]] = []
    for child in params.named_children:
        annotation = child.child_by_field_name("type")
        if child.type == "identifier":
            found.append((node_text(child), None))
        elif child.type in ("default_parameter", "typed_default_parameter"):
            name = child.child_by_field_name("name")
            if name is not None:
                found.append((node_text(name), annotation))
        elif child.type in ("typed_parameter", "list_splat_pattern", "dictionary_splat_pattern"):
            inner = child.named_children[0] if child.named_children else None
            while inner is not None and inner.type in (
                "list_splat_pattern",
                "dictionary_splat_pattern",
            ):
                inner = inner.named_children[0] if inner.named_children else None
            if inner is not None and inner.type == "identifier":
                found.append((node_text(inner), annotation))
    return found


def _parameter_kinds(params: ts.Node) -> str:
    """One letter per parameter `_parameters` lists (see `Symbol.parameter_kinds`)."""
    kinds: list[str] = []
    keyword_only = False
    for child in params.named_children:
        kind = child.type
        if kind == "typed_parameter" and child.named_children:
            kind = child.named_children[0].type if child.named_children[0].type in (
                "list_splat_pattern", "dictionary_splat_pattern"
            ) else kind  # fmt: skip
        if kind == "positional_separator":
            kinds = ["o" if k == "p" else k for k in kinds]
        elif kind == "keyword_separator":
            keyword_only = True
        elif kind == "list_splat_pattern":
            kinds.append("*")
            keyword_only = True
        elif kind == "dictionary_splat_pattern":
            kinds.append("d")
        elif kind in ("identifier", "default_parameter", "typed_default_parameter",
                      "typed_parameter"):  # fmt: skip
            kinds.append("k" if keyword_only else "p")
    return "".join(kinds)


def _name_and_alias(node: ts.Node) -> tuple[str, str | None]:
    if node.type == "aliased_import":
        name = node.child_by_field_name("name")
        alias = node.child_by_field_name("alias")
        return (node_text(name) if name else "", node_text(alias) if alias else None)
    return node_text(node), None


def _relative(module_node: ts.Node) -> tuple[int, str]:
    if module_node.type != "relative_import":
        return 0, node_text(module_node)
    level = 0
    module = ""
    for child in module_node.children:
        if child.type == "import_prefix":
            level = node_text(child).count(".")
        elif child.type == "dotted_name":
            module = node_text(child)
    return level, module


def _under_type_checking(node: ts.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type == "if_statement":
            condition = parent.child_by_field_name("condition")
            if condition is not None and "TYPE_CHECKING" in node_text(condition):
                return True
        parent = parent.parent
    return False
