"""TypeScript and JavaScript source -> `ParsedFile`, with tree-sitter.

One parser for `.ts .tsx .mts .cts` (language "typescript", the TypeScript or TSX grammar) and
`.js .jsx .mjs .cjs` (language "javascript", the JavaScript grammar, which reads JSX too); a
`.d.ts` file gives declarations only. Captures come from `queries/ecmascript.scm` plus
`typescript.scm` or `javascript.scm`; this module turns them into the records every language
emits. Qualified names follow the file: a module is its path (`src/util/dates.ts`, a file at the
root `./index.ts`, so a TS/JS name always holds a `/` and a Python name never does) and a symbol
is the module's name, a dot, and its dotted path inside the file (`src/util/dates.ts.Parser.parse`).

What is a symbol: functions (declared, or arrow functions and function expressions bound to a
name or to `exports.x`), classes (abstract too), methods, constructors, getters and setters,
class fields holding functions, interfaces and their method signatures, type aliases, enums,
namespaces, object literals bound to a name (with their methods), `X.prototype.m = function`
methods, and `export default` functions and classes (named `default` when anonymous).
Code in anonymous functions (callbacks) belongs to the named scope around them.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal

import tree_sitter as ts
import tree_sitter_javascript
import tree_sitter_typescript

from ...ids import path_module_name
from ...model import (
    Binding,
    CallSite,
    Dotted,
    ImportStatement,
    ParsedFile,
    ScopeNames,
    Symbol,
    SymbolKind,
    TypeUse,
)
from ...parsing.base import ModuleName
from ...parsing.treesitter import node_text as _text
from ...parsing.treesitter import syntax_issues

__all__ = [
    "JAVASCRIPT_SUFFIXES",
    "TYPESCRIPT_SUFFIXES",
    "EcmaScriptParser",
    "ecmascript_module_name",
    "ecmascript_module_names",
]

TYPESCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
JAVASCRIPT_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs")
_DECLARATION_FILE = re.compile(r"\.d\.[mc]?ts$")
_MAX_SIGNATURE = 300
_MAX_LINE = 5_000  # a longer line: a minified or generated bundle
_MAX_MEAN_LINE = 300  # a larger average line length over a file of more than 10 kB: the same
# wrappers whose argument is the type a value really has (`Promise<Foo>` awaited is a Foo)
_WRAPPERS = frozenset({"Promise", "PromiseLike", "Readonly", "Awaited", "NonNullable"})
_FUNCTION_NODES = frozenset(
    {"function_expression", "arrow_function", "generator_function", "function"}
)
_SCOPE_HEADS = {"this": "this", "super": "super()"}

Grammar = Literal["typescript", "tsx", "javascript"]


def ecmascript_module_name(path: str) -> str:
    """The qualified name of a TS/JS module: its path (`./name.ts` at the repository root)."""
    return path_module_name(path)


def ecmascript_module_names(
    paths: list[str], imported: frozenset[str], root_name: str | None
) -> dict[str, ModuleName]:
    return {path: ModuleName(ecmascript_module_name(path), False, "") for path in paths}


@cache
def _language(grammar: Grammar) -> ts.Language:
    if grammar == "typescript":
        return ts.Language(tree_sitter_typescript.language_typescript())
    if grammar == "tsx":
        return ts.Language(tree_sitter_typescript.language_tsx())
    return ts.Language(tree_sitter_javascript.language())


@cache
def _query(grammar: Grammar) -> ts.Query:
    queries = resources.files(__name__.rpartition(".")[0]).joinpath("queries")
    extra = "javascript.scm" if grammar == "javascript" else "typescript.scm"
    text = queries.joinpath("ecmascript.scm").read_text() + queries.joinpath(extra).read_text()
    query: ts.Query = ts.Query(_language(grammar), text)
    return query


def _grammar(path: str) -> tuple[Grammar, str]:
    """The grammar for a file and the `language` of its nodes."""
    if path.endswith(".tsx"):
        return "tsx", "typescript"
    if path.endswith(TYPESCRIPT_SUFFIXES):
        return "typescript", "typescript"
    return "javascript", "javascript"


def _unwrap(node: ts.Node) -> ts.Node:
    """The expression inside `(x)`, `x!`, `x as T`, `x satisfies T`, `await x`."""
    while node.type in (
        "parenthesized_expression", "non_null_expression", "as_expression",
        "satisfies_expression", "await_expression", "type_assertion",
    ) and node.named_child_count:  # fmt: skip
        inner = node.named_children[0] if node.type != "type_assertion" else node.named_children[-1]
        if inner is None:
            break
        node = inner
    return node


def _dotted(node: ts.Node) -> Dotted | None:
    """`a.b.c` -> ("a", "b", "c"); `this.x` -> ("this", "x"); None for other expressions."""
    node = _unwrap(node) if node.type == "non_null_expression" else node
    if node.type in ("identifier", "property_identifier", "type_identifier"):
        return (_text(node),)
    if node.type in _SCOPE_HEADS:
        return (_SCOPE_HEADS[node.type],)
    if node.type == "member_expression":
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if obj is None or prop is None or prop.type == "private_property_identifier":
            return None
        head = _dotted(obj)
        return None if head is None else (*head, _text(prop))
    if node.type in ("nested_identifier", "nested_type_identifier"):
        parts = _text(node).replace(" ", "").split(".")
        return tuple(parts) if all(parts) else None
    return None


def _callee(function: ts.Node) -> tuple[Dotted, Dotted | None]:
    """Dotted callee of a call's `function` node, and the receiver call when chained
    (`make().run()` -> ("run",) with receiver ("make",); `new A().m()` -> ("m",), ("A",))."""
    function = _unwrap(function) if function.type != "member_expression" else function
    if function.type == "super":
        return ("super()", "constructor"), None
    required = _required(function)
    if required is not None:  # require("./x")(…)
        return ("require()", required), None
    direct = _dotted(function)
    if direct is not None:
        return direct, None
    parts: list[str] = []
    node = function
    while node.type == "member_expression":
        prop = node.child_by_field_name("property")
        obj = node.child_by_field_name("object")
        if prop is None or obj is None:
            return ("<expr>",), None
        parts.append(_text(prop))
        node = _unwrap(obj)
        direct = _dotted(node)
        if direct is not None:
            return (*direct, *reversed(parts)), None
    parts.reverse()
    required = _required(node)
    if required is not None:  # require("./x").f(…)
        return ("require()", required, *parts), None
    inner: ts.Node | None = None
    if node.type == "call_expression":
        inner = node.child_by_field_name("function")
    elif node.type == "new_expression":
        inner = node.child_by_field_name("constructor")
    if inner is not None and parts:
        receiver, _ = _callee(inner)
        if receiver[0] != "<expr>":
            return tuple(parts), receiver
    return ("<expr>", *parts), None


def _required(node: ts.Node) -> str | None:
    """The specifier of a `require("x")` call."""
    if node.type != "call_expression":
        return None
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if function is None or function.type != "identifier" or _text(function) != "require":
        return None
    if arguments is None or arguments.named_child_count != 1:
        return None
    return _string(arguments.named_children[0])


def _type_names(node: ts.Node) -> list[Dotted]:
    """Every named type in a type expression (`Map<string, Foo>` -> Map, Foo)."""
    found: list[Dotted] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "type_identifier":
            found.append((_text(current),))
            continue
        if current.type == "nested_type_identifier":
            dotted = _dotted(current)
            if dotted is not None:
                found.append(dotted)
            continue
        if current.type in ("type_query", "literal_type", "predefined_type"):
            continue
        stack.extend(current.named_children)
    return found


def _single_type(node: ts.Node | None) -> Dotted | None:
    """The one class a type annotation names (`Foo`, `ns.Foo`, `Foo | null`, `Promise<Foo>`),
    or None for anything else (unions, arrays, object types)."""
    if node is None:
        return None
    if node.type == "type_annotation":
        return _single_type(node.named_children[0]) if node.named_child_count else None
    if node.type in ("type_identifier", "nested_type_identifier"):
        return _dotted(node)
    if node.type == "parenthesized_type":
        return _single_type(node.named_children[0]) if node.named_child_count else None
    if node.type == "union_type":
        kept = [
            child
            for child in node.named_children
            if not (child.type == "literal_type" and _text(child) in ("null", "undefined"))
            and not (child.type == "predefined_type" and _text(child) in ("undefined", "void"))
        ]
        return _single_type(kept[0]) if len(kept) == 1 else None
    if node.type == "generic_type":
        name = node.child_by_field_name("name")
        arguments = node.child_by_field_name("type_arguments")
        head = _dotted(name) if name is not None else None
        if head is None:
            return None
        if head[-1] in _WRAPPERS and arguments is not None and arguments.named_child_count == 1:
            return _single_type(arguments.named_children[0])
        return head  # Foo<Bar> is a Foo
    return None


def _jsdoc(node: ts.Node) -> str | None:
    """The `/** … */` comment right before a declaration (or the statement wrapping it)."""
    previous = node.prev_sibling
    while previous is not None and previous.type == "decorator":
        previous = previous.prev_sibling
    if previous is None or previous.type != "comment":
        return None
    text = _text(previous)
    if not text.startswith("/**") or previous.end_point[0] < node.start_point[0] - 1:
        return None
    return _clean_jsdoc(text)


_JSDOC_TAG = re.compile(
    r"@(param|arg|argument|returns?|type)\s*\{([^{}]+)\}\s*(\[?[\w$.]+)?", re.MULTILINE
)
_JSDOC_TYPE = re.compile(r"^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$")


def jsdoc_types(doc: str) -> dict[str, Dotted]:
    """The single class each JSDoc tag names: "param:NAME", "return", "type" -> dotted type
    (`@param {Suite} suite`, `@returns {?Runner}`, `{Foo|null}`, `{Promise<Foo>}`)."""
    found: dict[str, Dotted] = {}
    for match in _JSDOC_TAG.finditer(doc):
        tag, raw, name = match.group(1), match.group(2), match.group(3)
        parts = [p.strip().lstrip("?!").rstrip("=") for p in raw.split("|")]
        parts = [p for p in parts if p not in ("null", "undefined", "void", "")]
        if len(parts) != 1:
            continue
        text = parts[0]
        wrapped = re.match(r"^(?:Promise|PromiseLike)<(.+)>$", text)
        if wrapped:
            text = wrapped.group(1).strip()
        if not _JSDOC_TYPE.match(text) or text in ("Object", "Function", "Array", "string"):
            continue
        dotted = tuple(text.split("."))
        if tag in ("param", "arg", "argument") and name:
            found[f"param:{name.lstrip('[').split('.')[0]}"] = dotted
        elif tag.startswith("return"):
            found["return"] = dotted
        elif tag == "type":
            found["type"] = dotted
    return found


def _clean_jsdoc(text: str) -> str | None:
    body = text.removeprefix("/**").removesuffix("*/")
    lines = [re.sub(r"^\s*\* ?", "", line).rstrip() for line in body.splitlines()]
    cleaned = "\n".join(lines).strip()
    return cleaned or None


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


@dataclass
class _FileState:
    module: str
    grammar: Grammar
    def_scopes: dict[int, str] = field(default_factory=dict)  # scope node id -> qualified name
    scope_cache: dict[int, str] = field(default_factory=dict)
    kinds: dict[str, SymbolKind] = field(default_factory=dict)
    function_scopes: set[str] = field(default_factory=set)  # named function-like scopes


class EcmaScriptParser:
    """Parses one TypeScript or JavaScript file. Cheap to construct; not thread-safe."""

    def __init__(self) -> None:
        self._parsers: dict[Grammar, ts.Parser] = {}

    def skip_reason(self, path: str, source: bytes) -> str | None:
        name = path.rpartition("/")[2]
        if ".min." in name or name.endswith("-min.js"):
            return "minified bundle (*.min.*)"
        lines = source.count(b"\n") + 1
        longest = max((len(line) for line in source.split(b"\n")), default=0)
        if longest > _MAX_LINE:
            return f"minified or generated: a line of {longest} characters"
        if len(source) > 10_000 and len(source) / lines > _MAX_MEAN_LINE:
            return f"minified or generated: {len(source) // lines} characters a line on average"
        return None

    def parse(
        self, *, path: str, module: str, is_package: bool, source: bytes, sha256: str
    ) -> ParsedFile:
        grammar, language = _grammar(path)
        parser = self._parsers.get(grammar)
        if parser is None:
            parser = self._parsers[grammar] = ts.Parser(_language(grammar))
        tree = parser.parse(source)
        if tree.root_node.has_error:
            tree = _repaired(parser, tree, source)
        captures = {
            name: sorted(nodes, key=lambda node: (node.start_byte, -node.end_byte))
            for name, nodes in ts.QueryCursor(_query(grammar)).captures(tree.root_node).items()
        }
        state = _FileState(module=module, grammar=grammar)
        symbols = _Symbols(state, captures).build()
        declarations_only = bool(_DECLARATION_FILE.search(path))
        text = source.decode("utf-8", errors="replace")
        facts = _Facts(state, captures, symbols)
        return ParsedFile(
            path=path,
            module=module,
            is_package=False,
            language=language,
            sha256=sha256,
            loc=text.count("\n") + (0 if text.endswith("\n") or not text else 1),
            code=text,
            docstring=_module_doc(tree.root_node),
            symbols=symbols,
            imports=tuple(facts.imports()),
            calls=() if declarations_only else tuple(facts.calls()),
            bindings=tuple(facts.bindings()),
            type_uses=tuple(facts.type_uses()),
            scopes=tuple(facts.scope_names()),
            module_names=frozenset(facts.module_level_names()),
            all_names=None,
            issues=tuple(syntax_issues(tree.root_node)),
        )


_LINE_END = re.compile(rb"[\w$)\]>]\s*$")
_SIGNATURE_START = re.compile(rb"^\s*[<(]")


def _repaired(parser: ts.Parser, tree: ts.Tree, source: bytes) -> ts.Tree:
    """The tree of `source` with a `;` after each line that a call signature follows, when
    that parses with fewer errors. The grammar misreads members of an interface written
    without separators when the next one starts with `<` or `(`
    (`<T>(fn: T): T` then `<T>(name: string, fn: T): T`), and its error recovery can then
    swallow the whole file. Lines keep their numbers (the `;` ends a line)."""
    lines = source.split(b"\n")
    code = [i for i, line in enumerate(lines) if line.strip() and not _comment(line)]
    changed = False
    for here, following in itertools.pairwise(code):
        line = lines[here]
        if (
            _SIGNATURE_START.match(lines[following])
            and _LINE_END.search(line)
            and b"//" not in line
        ):
            lines[here] = line.rstrip() + b";"
            changed = True
    if not changed:
        return tree
    repaired = parser.parse(b"\n".join(lines))
    before = len(syntax_issues(tree.root_node))
    return repaired if len(syntax_issues(repaired.root_node)) < before else tree


def _comment(line: bytes) -> bool:
    stripped = line.lstrip()
    return stripped.startswith((b"//", b"/*", b"*"))


def _module_doc(root: ts.Node) -> str | None:
    """A leading `/** … */` comment set apart from the first statement (a file overview)."""
    first = root.named_children[0] if root.named_child_count else None
    if first is None or first.type != "comment" or not _text(first).startswith("/**"):
        return None
    following = first.next_named_sibling
    if following is not None and following.start_point[0] <= first.end_point[0] + 1:
        return None  # it documents the declaration that follows
    return _clean_jsdoc(_text(first))


def _scope_of(node: ts.Node, state: _FileState) -> str:
    """Qualified name of the named scope that runs `node` (anonymous functions are skipped)."""
    visited: list[int] = []
    current = node.parent
    scope = state.module
    while current is not None:
        cached = state.scope_cache.get(current.id)
        if cached is not None:
            scope = cached
            break
        visited.append(current.id)
        found = state.def_scopes.get(current.id)
        if found is not None:
            scope = found
            break
        current = current.parent
    for node_id in visited:
        state.scope_cache[node_id] = scope
    return scope


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


class _Symbols:
    """The declarations of one file, in source order, outer before inner."""

    def __init__(self, state: _FileState, captures: dict[str, list[ts.Node]]) -> None:
        self.state = state
        self.captures = captures
        self.seen: dict[str, int] = defaultdict(int)

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
        if name is None or value is None:
            return []
        if value.type == "class":
            return [_Def(node, value, _text(name), SymbolKind.CLASS, None, heritage=value)]
        declared = "arrow function" if value.type == "arrow_function" else "function expression"
        return [_Def(node, value, _text(name), SymbolKind.FUNCTION, declared, value)]

    def _object(self, node: ts.Node) -> list[_Def]:
        """`const api = { get() {…} }`: a symbol for the object when it holds functions."""
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or value is None or not _holds_functions(value):
            return []
        return [_Def(node, value, _text(name), SymbolKind.CLASS, "object literal")]

    def _object_member(self, node: ts.Node, label: str, function: ts.Node) -> list[_Def]:
        """A function in an object literal: a method of the object's symbol, or a module-level
        function of `module.exports = { … }`; other objects' functions are no symbols."""
        obj = node.parent
        owner = self.state.def_scopes.get(obj.id) if obj is not None else None
        if owner is not None:
            return [_Def(node, function, label, SymbolKind.METHOD, "object method", function)]
        if obj is not None and _is_module_exports(obj.parent, obj):
            return [_Def(node, function, label, SymbolKind.FUNCTION, None, function)]
        return []

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
        target = _dotted(left) if left is not None else None
        if target is None or right is None:
            return []
        if right.type == "object":
            if (len(target) == 2 and target[1] == "prototype") or target == ("module", "exports"):
                owner = self._known(node, target[0]) if target[0] != "module" else None
                if owner is not None:
                    self.state.def_scopes[right.id] = owner
            elif _is_exports(target) and len(target) in (2, 3) and _holds_functions(right):
                return [_Def(node, right, target[-1], SymbolKind.CLASS, "object literal")]
            return []
        kind = SymbolKind.CLASS if right.type == "class" else SymbolKind.FUNCTION
        if target == ("module", "exports"):
            own = right.child_by_field_name("name")
            return [_Def(node, right, _text(own) if own else "default", kind, None, right, right)]
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
        return []

    def _known(self, node: ts.Node, name: str) -> str | None:
        """The qualified name of function or class `name` declared in the scope of `node`."""
        qualified = f"{_scope_of(node, self.state)}.{name}"
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
        parent = definition.parent or _scope_of(definition.node, state)
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
        docstring = _jsdoc(span) or _jsdoc(definition.node)
        if function is not None:
            returns = _single_type(function.child_by_field_name("return_type"))
            if returns is None and state.grammar == "javascript" and docstring:
                returns = jsdoc_types(docstring).get("return")
            params = function.child_by_field_name("parameters")
            parameters = tuple(name for name, _type, _node in _parameters(params))
            if params is None:  # `x => …`: one parameter, no parentheses
                single = function.child_by_field_name("parameter")
                parameters = (_text(single),) if single is not None else ()
        is_async = function is not None and any(c.type == "async" for c in function.children)
        return Symbol(
            qualified_name=qualified,
            name=definition.name,
            kind=definition.kind,
            parent=parent,
            start_line=span.start_point[0] + 1,
            end_line=span.end_point[0] + 1,
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
            if value is not None and value.type in _FUNCTION_NODES:
                return True
    return False


def _is_module_exports(assignment: ts.Node | None, obj: ts.Node) -> bool:
    if assignment is None or assignment.type != "assignment_expression":
        return False
    left = assignment.child_by_field_name("left")
    return left is not None and _dotted(left) == ("module", "exports")


def _heritage(node: ts.Node) -> tuple[tuple[Dotted, ...], tuple[Dotted, ...]]:
    """(extends, implements) of a class or interface declaration."""
    bases: list[Dotted] = []
    implements: list[Dotted] = []
    for child in node.children:
        if child.type == "class_heritage":
            for clause in child.named_children:
                if clause.type == "extends_clause":
                    value = clause.child_by_field_name("value")
                    dotted = _dotted(value) if value is not None else None
                    if dotted is not None:
                        bases.append(dotted)
                elif clause.type == "implements_clause":
                    implements.extend(
                        d for t in clause.named_children if (d := _single_type(t)) is not None
                    )
                else:  # JavaScript: the expression itself
                    dotted = _dotted(clause)
                    if dotted is not None:
                        bases.append(dotted)
        elif child.type == "extends_type_clause":
            bases.extend(d for t in child.named_children if (d := _single_type(t)) is not None)
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
    if len(signature) > _MAX_SIGNATURE:
        signature = signature[: _MAX_SIGNATURE - 1] + "…"
    return signature


def _decorators(node: ts.Node, span: ts.Node) -> tuple[str, ...]:
    found = [c for c in (*span.children, *node.children) if c.type == "decorator"]
    previous = node.prev_sibling
    while previous is not None and previous.type == "decorator":
        found.append(previous)
        previous = previous.prev_sibling
    return tuple(sorted({_text(d).lstrip("@").strip() for d in found}))


def _parameters(params: ts.Node | None) -> list[tuple[str, ts.Node | None, ts.Node]]:
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


def _pattern_names(pattern: ts.Node) -> list[str]:
    """Names bound by a destructuring parameter (`{ a, b: c }`, `[x, y]`)."""
    names: list[str] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "shorthand_property_identifier_pattern"):
            names.append(_text(node))
        elif node.type in ("pair_pattern", "assignment_pattern", "object_assignment_pattern"):
            inner = node.child_by_field_name("value" if node.type == "pair_pattern" else "left")
            if inner is not None:
                stack.append(inner)
        elif node.type not in ("type_annotation", "property_identifier"):
            stack.extend(node.named_children)
    return names


class _Facts:
    """Imports, calls, bindings, type uses and scopes of one file (its symbols are known)."""

    def __init__(
        self,
        state: _FileState,
        captures: dict[str, list[ts.Node]],
        symbols: tuple[Symbol, ...],
    ) -> None:
        self.state = state
        self.captures = captures
        self.symbols = symbols

    def _scope(self, node: ts.Node) -> str:
        return _scope_of(node, self.state)

    def _declaring_scope(self, name: ts.Node) -> str:
        """The scope a declared name belongs to: a function's or class's own name is bound
        in the scope around it, not inside it."""
        parent = name.parent
        if parent is not None and parent.id in self.state.def_scopes:
            return self._scope(parent)
        return self._scope(name)

    # -- imports ------------------------------------------------------------------------------
    def imports(self) -> list[ImportStatement]:
        records: list[ImportStatement] = []
        for node in self.captures.get("import.es", []):
            records.extend(self._es_import(node))
        for node in self.captures.get("export", []):
            records.extend(self._reexport(node))
        for node in self.captures.get("import.require", []):
            records.extend(self._require(node))
        for node in self.captures.get("import.dynamic", []):
            records.extend(self._dynamic(node))
        records.sort(key=lambda r: (r.line, r.module, r.name or "", r.alias or ""))
        return records

    def _es_import(self, node: ts.Node) -> list[ImportStatement]:
        source = node.child_by_field_name("source")
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        require = next((c for c in node.named_children if c.type == "import_require_clause"), None)
        if require is not None:  # import fs = require("fs")
            source = require.child_by_field_name("source")
        specifier = _string(source)
        if specifier is None or source is None:
            return []
        scope = self._scope(node)
        line = source.start_point[0] + 1
        type_only = any(child.type == "type" for child in node.children)
        if require is not None:
            alias = next((c for c in require.named_children if c.type == "identifier"), None)
            bound = _text(alias) if alias is not None else None
            return [
                ImportStatement(scope, specifier, 0, None, bound, line, binds=bound is not None)
            ]
        if clause is None:
            return [ImportStatement(scope, specifier, 0, None, None, line, type_only, binds=False)]
        records = []
        for child in clause.named_children:
            if child.type == "identifier":
                records.append(
                    ImportStatement(scope, specifier, 0, "default", _text(child), line, type_only)
                )
            elif child.type == "namespace_import":
                alias = next((c for c in child.named_children if c.type == "identifier"), None)
                if alias is not None:
                    records.append(
                        ImportStatement(scope, specifier, 0, None, _text(alias), line, type_only)
                    )
            elif child.type == "named_imports":
                for spec in child.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias")
                    if name is None:
                        continue
                    typed = type_only or any(c.type == "type" for c in spec.children)
                    records.append(
                        ImportStatement(
                            scope, specifier, 0, _text(name).strip("'\""),
                            _text(alias) if alias is not None else None, line, typed,
                        )
                    )  # fmt: skip
        return records

    def _reexport(self, node: ts.Node) -> list[ImportStatement]:
        source = node.child_by_field_name("source")
        specifier = _string(source)
        if specifier is None or source is None:
            return []
        scope = self._scope(node)
        line = source.start_point[0] + 1
        type_only = any(child.type == "type" for child in node.children)
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        namespace = next((c for c in node.named_children if c.type == "namespace_export"), None)
        if namespace is not None:  # export * as ns from "./x"
            alias = next((c for c in namespace.named_children if c.type == "identifier"), None)
            return [
                ImportStatement(
                    scope, specifier, 0, None, _text(alias) if alias else None, line, type_only,
                    binds=alias is not None, exported=True,
                )
            ]  # fmt: skip
        if clause is None:  # export * from "./x"
            return [ImportStatement(scope, specifier, 0, "*", None, line, type_only, exported=True)]
        records = []
        for spec in clause.named_children:
            name = spec.child_by_field_name("name")
            alias = spec.child_by_field_name("alias")
            if spec.type != "export_specifier" or name is None:
                continue
            typed = type_only or any(c.type == "type" for c in spec.children)
            records.append(
                ImportStatement(
                    scope, specifier, 0, _text(name).strip("'\""),
                    _text(alias).strip("'\"") if alias is not None else None, line, typed,
                    exported=True,
                )
            )  # fmt: skip
        return records

    def _require(self, node: ts.Node) -> list[ImportStatement]:
        arguments = node.child_by_field_name("arguments")
        source = arguments.named_children[0] if arguments and arguments.named_child_count else None
        specifier = _string(source)
        if specifier is None or source is None:
            return []
        scope = self._scope(node)
        line = source.start_point[0] + 1
        parent = node.parent
        member: str | None = None
        if parent is not None and parent.type == "member_expression":  # require("x").y
            prop = parent.child_by_field_name("property")
            member = _text(prop) if prop is not None else None
            parent = parent.parent
        if parent is not None and parent.type == "variable_declarator":
            name = parent.child_by_field_name("name")
            if name is not None and name.type == "identifier":
                return [ImportStatement(scope, specifier, 0, member, _text(name), line)]
            if name is not None and name.type == "object_pattern" and member is None:
                return _destructured(scope, specifier, line, name)
        if parent is not None and parent.type == "assignment_expression":
            left = parent.child_by_field_name("left")
            target = _dotted(left) if left is not None else None
            if target == ("module", "exports") and member is None:
                return [ImportStatement(scope, specifier, 0, "*", None, line, exported=True)]
            if target is not None and len(target) >= 2 and _is_exports(target):
                return [
                    ImportStatement(scope, specifier, 0, member, target[-1], line, exported=True)
                ]
        return [ImportStatement(scope, specifier, 0, member, None, line, binds=False)]

    def _dynamic(self, node: ts.Node) -> list[ImportStatement]:
        arguments = node.child_by_field_name("arguments")
        source = arguments.named_children[0] if arguments and arguments.named_child_count else None
        specifier = _string(source)
        if specifier is None or source is None:
            return []
        line = source.start_point[0] + 1
        parent = node.parent
        if parent is not None and parent.type == "await_expression":
            parent = parent.parent
        name = parent.child_by_field_name("name") if parent is not None else None
        declarator = parent is not None and parent.type == "variable_declarator"
        if declarator and name is not None and name.type == "identifier":  # m = await import()
            return [
                ImportStatement(
                    self._scope(node), specifier, 0, None, _text(name), line, possible=True
                )
            ]
        return [
            ImportStatement(
                self._scope(node), specifier, 0, None, None, line, binds=False, possible=True
            )
        ]

    # -- calls --------------------------------------------------------------------------------
    def calls(self) -> list[CallSite]:
        sites: list[CallSite] = []
        for node in self.captures.get("call", []):
            function = node.child_by_field_name("function")
            if function is None or function.type == "import":
                continue
            if function.type == "identifier" and _text(function) == "require":
                continue
            callee, receiver = _callee(function)
            sites.append(CallSite(self._scope(node), callee, node.start_point[0] + 1, receiver))
        for node in self.captures.get("new", []):
            constructor = node.child_by_field_name("constructor")
            if constructor is None:
                continue
            callee, receiver = _callee(constructor)
            sites.append(CallSite(self._scope(node), callee, node.start_point[0] + 1, receiver))
        sites.sort(key=lambda site: site.line)
        return sites

    # -- bindings -----------------------------------------------------------------------------
    def bindings(self) -> list[Binding]:
        records: list[Binding] = []
        for node in self.captures.get("function.any", []):
            records.extend(self._parameter_bindings(node))
        for name in self.captures.get("bind.variable", []):
            declarator = name.parent
            if declarator is None:
                continue
            scope = self._scope(declarator)
            line = declarator.start_point[0] + 1
            annotation = _single_type(declarator.child_by_field_name("type"))
            if annotation is not None:
                records.append(Binding(scope, (_text(name),), annotation, "annotation", line))
                continue
            records.extend(_value_binding(scope, (_text(name),), declarator, line))
        for name in self.captures.get("bind.assign", []):
            assignment = name.parent
            if assignment is not None:
                scope = self._scope(assignment)
                line = assignment.start_point[0] + 1
                records.extend(_value_binding(scope, (_text(name),), assignment, line, "right"))
        for member in self.captures.get("bind.this", []):
            assignment = member.parent
            prop = member.child_by_field_name("property")
            if assignment is not None and prop is not None:
                scope = self._scope(assignment)
                line = assignment.start_point[0] + 1
                target = ("self", _text(prop))
                records.extend(_value_binding(scope, target, assignment, line, "right"))
        for node in self.captures.get("bind.field", []):
            records.extend(self._field_binding(node))
        for node in self.captures.get("bind.parameter_property", []):
            records.extend(self._parameter_property(node))
        records.extend(self._export_bindings())
        records.extend(self._opaque(records))
        records.sort(key=lambda b: (b.line, b.scope, b.target))
        return records

    def _symbol_of(self, qualified_name: str) -> Symbol | None:
        return next((s for s in self.symbols if s.qualified_name == qualified_name), None)

    def _function_scope(self, node: ts.Node) -> str:
        """A function's own scope when it is named, else the named scope around it."""
        return self.state.def_scopes.get(node.id) or self._scope(node)

    def _parameter_bindings(self, node: ts.Node) -> list[Binding]:
        scope = self._function_scope(node)
        records = []
        documented: dict[str, Dotted] = {}
        if self.state.grammar == "javascript" and node.id in self.state.def_scopes:
            # JavaScript: JSDoc `@param {Suite} suite` types a parameter, as for the checker
            symbol = self._symbol_of(self.state.def_scopes[node.id])
            if symbol is not None and symbol.docstring:
                documented = jsdoc_types(symbol.docstring)
        for name, annotation, param in _parameters(node.child_by_field_name("parameters")):
            value = _single_type(annotation) or documented.get(f"param:{name}")
            if value is not None:
                records.append(
                    Binding(scope, (name,), value, "annotation", param.start_point[0] + 1)
                )
        return records

    def _field_binding(self, node: ts.Node) -> list[Binding]:
        name = node.child_by_field_name("name") or node.child_by_field_name("property")
        if name is None or name.type not in ("property_identifier", "private_property_identifier"):
            return []
        scope = self._scope(node)
        if self.state.kinds.get(scope) != SymbolKind.CLASS:
            return []
        line = node.start_point[0] + 1
        label = _text(name).lstrip("#")
        annotation = _single_type(node.child_by_field_name("type"))
        if annotation is not None:
            return [Binding(scope, (label,), annotation, "annotation", line)]
        return _value_binding(scope, (label,), node, line)

    def _parameter_property(self, node: ts.Node) -> list[Binding]:
        """`constructor(private readonly repo: Repo)`: a field of the class."""
        pattern = node.child_by_field_name("pattern")
        annotation = _single_type(node.child_by_field_name("type"))
        params = node.parent
        constructor = params.parent if params is not None else None
        if pattern is None or annotation is None or constructor is None:
            return []
        owner = self.state.def_scopes.get(constructor.id)
        if owner is None:
            return []
        klass = owner.rpartition(".")[0]
        line = node.start_point[0] + 1
        return [Binding(klass, (_text(pattern),), annotation, "annotation", line)]

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
            line = node.start_point[0] + 1
            words = {child.type for child in node.children}
            declaration = node.child_by_field_name("declaration")
            value = node.child_by_field_name("value")
            if "default" in words and declaration is not None:
                name = declaration.child_by_field_name("name")
                if name is not None:
                    records.append(Binding(module, ("default",), (_text(name),), "export", line))
            elif "default" in words and value is not None and value.type not in _FUNCTION_NODES:
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
            target = _dotted(left) if left is not None else None
            if target is None or right is None or self._scope(name) != module:
                continue
            line = name.start_point[0] + 1
            if target == ("module", "exports") and right.type in _FUNCTION_NODES | {"class"}:
                own = right.child_by_field_name("name")
                label = _text(own) if own is not None else "default"
                records.append(Binding(module, target, (label,), "export", line))
            elif target == ("module", "exports") and right.type == "object":
                records.extend(_object_exports(module, right, line))
            elif right.type not in _FUNCTION_NODES | {"class", "object"}:
                if target == ("module", "exports"):
                    records.extend(_expression_binding(module, target, right, line, "export"))
                elif _is_exports(target) and len(target) in (2, 3):
                    records.extend(
                        _expression_binding(module, (target[-1],), right, line, "export")
                    )
        return records

    def _opaque(self, typed: list[Binding]) -> list[Binding]:
        """Untyped assignments to names that also have a typed binding in the same scope."""
        lines: dict[tuple[str, Dotted], set[int]] = defaultdict(set)
        for binding in typed:
            lines[(binding.scope, binding.target)].add(binding.line)
        opaque = []
        for node in self.captures.get("local", []) + self.captures.get("bind.assign", []):
            scope = self._declaring_scope(node)
            target = (_text(node),)
            known = lines.get((scope, target))
            line = node.start_point[0] + 1
            if known is not None and line not in known:
                opaque.append(Binding(scope, target, (), "opaque", line))
        return opaque

    # -- types --------------------------------------------------------------------------------
    def type_uses(self) -> list[TypeUse]:
        uses: list[TypeUse] = []
        for node in self.captures.get("type.annotation", []):
            parent = node.parent
            context: Literal["annotation", "return"] = "annotation"
            if parent is not None and node == parent.child_by_field_name("return_type"):
                context = "return"
            scope = self._scope(node)
            line = node.start_point[0] + 1
            uses.extend(TypeUse(scope, name, line, context) for name in _type_names(node))
        for capture, context_name in (("type.satisfies", "satisfies"), ("type.as", "annotation")):
            for node in self.captures.get(capture, []):
                if node.named_child_count < 2:
                    continue
                scope = self._scope(node)
                line = node.start_point[0] + 1
                for name in _type_names(node.named_children[-1]):
                    uses.append(TypeUse(scope, name, line, context_name))  # type: ignore[arg-type]
        for node in self.captures.get("instanceof", []):
            dotted = _dotted(node)
            if dotted is not None:
                uses.append(
                    TypeUse(self._scope(node), dotted, node.start_point[0] + 1, "isinstance")
                )
        uses.sort(key=lambda u: (u.line, u.scope, u.type_name))
        return uses

    # -- names per scope ----------------------------------------------------------------------
    def scope_names(self) -> list[ScopeNames]:
        names: dict[str, set[str]] = defaultdict(set)
        for node in self.captures.get("local", []):
            scope = self._declaring_scope(node)
            if scope in self.state.function_scopes:
                names[scope].add(_text(node))
        for node in self.captures.get("local.pattern", []):  # const { a, b: { c } } = …
            scope = self._declaring_scope(node)
            if scope in self.state.function_scopes:
                names[scope].update(_pattern_names(node))
        for node in self.captures.get("function.any", []):
            scope = self._function_scope(node)
            if scope not in self.state.function_scopes:
                continue
            params = node.child_by_field_name("parameters")
            single = node.child_by_field_name("parameter")
            if single is not None:
                names[scope].add(_text(single))
            for child in params.named_children if params is not None else []:
                names[scope].update(_pattern_names(child))
        for symbol in self.symbols:
            if symbol.qualified_name in self.state.function_scopes:
                names[symbol.qualified_name].update(symbol.parameters)
        for scope in names:
            names[scope].discard("this")
        return [ScopeNames(scope, frozenset(names[scope])) for scope in sorted(names)]

    def module_level_names(self) -> set[str]:
        names = {
            _text(node)
            for node in self.captures.get("local", [])
            if self._declaring_scope(node) == self.state.module
        }
        for node in self.captures.get("local.pattern", []):
            if self._declaring_scope(node) == self.state.module:
                names.update(_pattern_names(node))
        return names


def _string(node: ts.Node | None) -> str | None:
    if node is None or node.type not in ("string", "template_string"):
        return None
    if node.type == "template_string" and any(
        c.type == "template_substitution" for c in node.children
    ):
        return None
    return _text(node)[1:-1]


def _is_exports(target: Dotted) -> bool:
    return target[0] == "exports" or target[:2] == ("module", "exports")


def _destructured(scope: str, specifier: str, line: int, pattern: ts.Node) -> list[ImportStatement]:
    """`const { a, b: c } = require("x")`: one record a name."""
    records = []
    for child in pattern.named_children:
        if child.type == "shorthand_property_identifier_pattern":
            records.append(ImportStatement(scope, specifier, 0, _text(child), None, line))
        elif child.type == "pair_pattern":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if key is not None and value is not None and value.type == "identifier":
                records.append(ImportStatement(scope, specifier, 0, _text(key), _text(value), line))
    return records


def _expression_binding(
    scope: str,
    target: Dotted,
    value: ts.Node,
    line: int,
    kind: Literal["alias", "export"] = "alias",
) -> list[Binding]:
    """The binding of `target` to expression `value`, when its type may be inferred (to a
    name: `kind` "export" when an export declaration names it, which is exact)."""
    value = _unwrap(value)
    if value.type == "new_expression":
        constructor = value.child_by_field_name("constructor")
        dotted = _dotted(constructor) if constructor is not None else None
        return [Binding(scope, target, dotted, "call", line)] if dotted else []
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        if function is None or function.type == "import":
            return []
        callee, receiver = _callee(function)
        if receiver is None and callee[0] != "<expr>" and callee != ("require",):
            return [Binding(scope, target, callee, "call", line)]
        return []
    if value.type in ("identifier", "member_expression", "this"):
        dotted = _dotted(value)
        if dotted is not None and dotted != target:
            return [Binding(scope, target, dotted, kind, line)]
    return []


def _value_binding(
    scope: str, target: Dotted, node: ts.Node, line: int, field_name: str = "value"
) -> list[Binding]:
    """The binding an initialiser or assignment gives `target` (`as T` counts as annotated)."""
    value = node.child_by_field_name(field_name)
    if value is None:
        return []
    if value.type in ("as_expression", "satisfies_expression") and value.named_child_count == 2:
        annotated = _single_type(value.named_children[1])
        if annotated is not None and value.type == "as_expression":
            return [Binding(scope, target, annotated, "annotation", line)]
    if value.type in _FUNCTION_NODES | {"class", "object"}:
        return []
    return _expression_binding(scope, target, value, line)


def _object_exports(module: str, obj: ts.Node, line: int) -> list[Binding]:
    """`module.exports = { a, b: c }`: the module exports `b` as `c` (and `a` as itself)."""
    records = []
    for child in obj.named_children:
        if child.type == "pair":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if key is None or value is None or value.type in _FUNCTION_NODES:
                continue
            label = _text(key).strip("'\"")
            records.extend(_expression_binding(module, (label,), value, line, "export"))
    return records
