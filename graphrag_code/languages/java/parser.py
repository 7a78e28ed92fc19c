"""Java source -> `ParsedFile`, with tree-sitter-java.

Declarations: classes, interfaces, enums, records and annotation types (`declared_as` says
which; "enum constant" for a constant with a body, an anonymous subclass of its enum), nested
ones (qualified by their enclosing type), local ones (by their method), anonymous ones
(`$1`, `$2` … counted per enclosing type, as javac counts them); methods, constructors
(named as the class, `declared_as` "constructor"), annotation elements; fields as bindings of
their class. A symbol's `start_line` is the line of its name, as javac places a declaration;
Javadoc is the `/** */` comment right above (before or after the annotations); `decorators`
are the annotations as written, without `@`.

**Overloads** are separate nodes. A method whose name is declared once in its type keeps
the plain name (`shop.Cart.add`), so `callers Cart.add` finds it and a name stays put while a
class has one method of it (the common case); a name declared more than once in one type
names each declaration with its parameter types, as written with type arguments dropped
(`shop.Cart.add(Item)`, `shop.Cart.add(String,int)`, varargs as `[]`), a type variable as
its erasure (`Validate.notEmpty(Collection)` for `<T extends Collection<?>> T notEmpty(T c)`,
`Box.put(Object)` for an unbounded `T`; why: `erasure`): close to the form javadoc and IDEs
show, readable, unique within a type for every pair of overloads javac accepts (it rejects
two of one erasure), and free of `.` so the name stays one segment of the dotted name
(`Cart.add(Item)`). The linker chooses among them by the same parameter types
(`overloads`). An ordinal (`add#2`) was the other choice: it says nothing of which overload
it is and shifts when one is added above; it serves only a name declared again in one file
all the same (code javac rejects, two local classes of one name): `Symbol.ordinal`, so no
two nodes ever share an id.

What the linker reads besides: imports (`module` the qualifier, `name` the last part or
`*`; a static import looks the same: the linker tells a member from a nested type), call
sites (`syntax.expression` records as `CallSite.value`; `new T(…)` has callee ("new", T…),
its value's callee `InstanceOf(T)` where it declares an anonymous class; `this(…)` /
`super(…)` ("this",) / ("super",), javac's implicit `super()` ("<super>",): `implicit`; a
call's line is its name's), bindings of
names to declared types (parameters, locals, fields, `for`, `catch`, resources,
`instanceof` patterns; `var x = new T()` / a cast / a literal as "annotation", `var x =
f()` as "call" of the site's callee, `var x = y` as "alias"), the package as the module's
binding `<package>`, and type uses. Code in lambdas belongs to the method around them;
method references and lambdas' untyped parameters: `functional`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import tree_sitter as ts
import tree_sitter_java

from ...model import (
    Binding,
    Call,
    CallSite,
    DeclaredAs,
    Dotted,
    Expr,
    ImportStatement,
    InstanceOf,
    Name,
    ParsedFile,
    Symbol,
    SymbolKind,
    TypeUse,
)
from ...parsing.records import clipped_signature, line_count
from ...parsing.treesitter import first_line, last_line, node_text, remembered_texts, syntax_issues
from .erasure import erased, sees_outer_variables, type_variables
from .functional import lambda_bindings, reference_site
from .implicit import constructor_super, default_super, record_accessors
from .modules import module_qualifier
from .syntax import (
    ITEM,
    NEW,
    arguments,
    callee,
    element_type,
    expression,
    javadoc,
    type_dotted,
)

__all__ = ["JAVA_SUFFIXES", "PACKAGE", "JavaParser"]

JAVA_SUFFIXES = (".java",)
PACKAGE = "<package>"  # the module binding that holds the file's declared package
_LANGUAGE = ts.Language(tree_sitter_java.language())

_TYPES = {
    "class_declaration": None,
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "record_declaration": "record",
    "annotation_type_declaration": "annotation",
}
_METHODS = frozenset(
    {"method_declaration", "constructor_declaration", "compact_constructor_declaration",
     "annotation_type_element_declaration"}
)  # fmt: skip
_BODIES = frozenset(
    {"class_body", "interface_body", "enum_body", "annotation_type_body",
     "enum_body_declarations"}
)  # fmt: skip
_INITIALISERS = frozenset(
    {"static_initializer", "block", "field_declaration", "constant_declaration"}
)
_TYPE_NODES = frozenset({"type_identifier", "scoped_type_identifier"})


class JavaParser:
    """Parses one Java file. Cheap to construct; not thread-safe."""

    def __init__(self) -> None:
        self._parser = ts.Parser(_LANGUAGE)

    def skip_reason(self, path: str, source: bytes) -> str | None:
        return None

    def parse(
        self,
        *,
        path: str,
        module: str,
        is_package: bool,
        source: bytes,
        sha256: str,
        symbols_only: bool = False,
    ) -> ParsedFile:
        tree = self._parser.parse(source)
        text = source.decode("utf-8", errors="replace")
        with remembered_texts():
            reader = _FileReader(module)
            reader.read(tree.root_node)
            issues = tuple(syntax_issues(tree.root_node))
        return ParsedFile(
            path=path, module=module, is_package=False, language="java", sha256=sha256,
            loc=line_count(text), code=text, docstring=None, symbols=tuple(reader.symbols),
            imports=tuple(reader.imports), calls=tuple(reader.calls),
            bindings=tuple(reader.bindings), type_uses=tuple(reader.type_uses),
            module_names=frozenset(reader.top_level), issues=issues,
        )  # fmt: skip


@dataclass
class _FileReader:
    module: str
    package: str = ""
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[ImportStatement] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)
    bindings: list[Binding] = field(default_factory=list)
    type_uses: list[TypeUse] = field(default_factory=list)
    top_level: list[str] = field(default_factory=list)
    anonymous: Counter[str] = field(default_factory=Counter)  # type -> anonymous classes
    # a type's or method's type variables in scope -> their erasures (`T` -> "Collection")
    variables: dict[str, dict[str, str]] = field(default_factory=dict)
    seen: Counter[str] = field(default_factory=Counter)  # qualified names given so far
    sites: dict[tuple[int, int], CallSite] = field(default_factory=dict)  # by call node bytes

    def read(self, root: ts.Node) -> None:
        for node in root.named_children:
            if node.type == "package_declaration":
                self._package(node)
            elif node.type == "import_declaration":
                self._import(node)
            elif node.type in _TYPES:
                qualified = self._type(node, self.module, self._top_qualifier())
                if qualified is not None:
                    self.top_level.append(qualified.rpartition(".")[2])

    def _top_qualifier(self) -> str:
        """What a top-level type's name follows: the package, after the build module's
        folder where the file's name has one (`core/p`; `core/` in the default package)."""
        build = module_qualifier(self.module)
        return f"{build}/{self.package}" if build else self.package

    def _package(self, node: ts.Node) -> None:
        name = next((c for c in node.named_children if c.type != "annotation"), None)
        if name is None:
            return
        self.package = node_text(name).replace(" ", "")
        self.bindings.append(
            Binding(self.module, (PACKAGE,), tuple(self.package.split(".")), "alias",
                    first_line(node))
        )  # fmt: skip

    def _import(self, node: ts.Node) -> None:
        names = [c for c in node.named_children if c.type in ("identifier", "scoped_identifier")]
        if not names:
            return
        dotted = node_text(names[0]).replace(" ", "")
        star = any(c.type == "asterisk" for c in node.named_children)
        module, _, name = (dotted, "", "*") if star else dotted.rpartition(".")
        self.imports.append(ImportStatement(self.module, module, 0, name, None, first_line(node)))

    # -- declarations -------------------------------------------------------------------------
    def _type(self, node: ts.Node, parent: str, qualifier: str) -> str | None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        name = node_text(name_node)
        qualified = (
            name if not qualifier else qualifier + ("" if qualifier[-1] == "/" else ".") + name
        )
        outer = self.variables.get(parent, {}) if sees_outer_variables(node) else {}
        self.variables[qualified] = type_variables(node, outer)
        bases: list[Dotted] = []
        implements: list[Dotted] = []
        superclass = node.child_by_field_name("superclass")
        if superclass is not None:
            bases.extend(self._types_in(superclass, qualified, direct=True))
        for child in node.named_children:
            if child.type == "super_interfaces":
                implements.extend(self._types_in(child, qualified, direct=True))
            elif child.type == "extends_interfaces":
                bases.extend(self._types_in(child, qualified, direct=True))
        components: tuple[str, ...] = ()
        component_kinds = ""
        if node.type == "record_declaration":  # the canonical constructor's parameters
            _, names, component_kinds = _parameter_types(
                node.child_by_field_name("parameters"), self.variables[qualified]
            )
            components = tuple(names)
        self.symbols.append(
            self._symbol(node, qualified, name, SymbolKind.CLASS, parent, name_node,
                         declared_as=_TYPES.get(node.type), bases=tuple(bases),
                         implements=tuple(implements), parameters=components,
                         parameter_kinds=component_kinds)
        )  # fmt: skip
        if node.type == "record_declaration":
            self._parameters(node.child_by_field_name("parameters"), qualified)
        body = node.child_by_field_name("body")
        if body is not None:
            self._body(body, qualified, node)
        if (site := default_super(node, qualified)) is not None:
            self.calls.append(site)
        return qualified

    def _body(self, body: ts.Node, cls: str, owner: ts.Node | None) -> None:
        members = [c for c in body.named_children]
        for child in body.named_children:
            if child.type == "enum_body_declarations":
                members.extend(child.named_children)
        counts = Counter(_method_name(m) for m in members if m.type in _METHODS)
        accessors = record_accessors(owner, members)
        counts.update(node_text(name) for _, name in accessors)
        for component, name in accessors:
            self._accessor(component, name, cls, counts)
        for member in members:
            kind = member.type
            if kind in _METHODS:
                self._method(member, cls, counts, owner)
            elif kind in _TYPES:
                self._type(member, cls, cls)
            elif kind == "enum_constant":
                self._enum_constant(member, cls)
            elif kind in ("field_declaration", "constant_declaration"):
                self._field(member, cls)
            elif kind in _INITIALISERS:
                self._code(member, cls, cls)

    def _method(self, node: ts.Node, cls: str, counts: Counter[str], owner: ts.Node | None) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = node_text(name_node)
        params = node.child_by_field_name("parameters")
        if node.type == "compact_constructor_declaration" and owner is not None:
            params = owner.child_by_field_name("parameters")
        variables = type_variables(node, self.variables.get(cls, {}))
        types, names, kinds = _parameter_types(params, variables)
        qualified = f"{cls}.{name}"
        if counts[name] > 1:
            qualified += f"({','.join(types)})"
        self.variables[qualified] = variables
        constructor = node.type != "method_declaration" and node.type != (
            "annotation_type_element_declaration"
        )
        returns = None if constructor else type_dotted(node.child_by_field_name("type"))
        body = node.child_by_field_name("body")
        declared = "constructor" if constructor else ("abstract" if body is None else None)
        self.symbols.append(
            self._symbol(node, qualified, name, SymbolKind.METHOD, cls, name_node,
                         declared_as=declared, returns=returns, parameters=tuple(names),
                         parameter_kinds=kinds)
        )  # fmt: skip
        if node.type != "compact_constructor_declaration":
            self._parameters(params, qualified)
        if returns is not None:
            self._type_uses(node.child_by_field_name("type"), qualified, "return")
        if body is not None:
            self._code(body, qualified, cls)
        if (site := constructor_super(node, qualified, owner)) is not None:
            self.calls.append(site)

    def _accessor(
        self, component: ts.Node, name_node: ts.Node, cls: str, counts: Counter[str]
    ) -> None:
        """The accessor javac makes for a record component its body does not declare."""
        name = node_text(name_node)
        qualified = f"{cls}.{name}" + ("()" if counts[name] > 1 else "")
        declared = next((c for c in component.named_children if c.type != "modifiers"), None)
        returns = type_dotted(component.child_by_field_name("type") or declared)
        if returns is not None and component.type == "spread_parameter":
            returns = (*returns[:-1], returns[-1] + "[]")
        self.variables[qualified] = self.variables.get(cls, {})
        self.symbols.append(
            self._symbol(component, qualified, name, SymbolKind.METHOD, cls, name_node,
                         declared_as="accessor", returns=returns)
        )  # fmt: skip

    def _enum_constant(self, node: ts.Node, enum: str) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        line = first_line(name_node)
        enum_name = enum.rpartition(".")[2]
        args = node.child_by_field_name("arguments")
        self.calls.append(
            CallSite(enum, (NEW, enum_name), line, at=node.start_byte,
                     value=Call(_new_callee((enum_name,)), arguments(args)))
        )  # fmt: skip
        self.bindings.append(
            Binding(enum, (node_text(name_node),), (enum_name,), "annotation", line)
        )
        if args is not None:
            self._code(args, enum, enum)
        body = node.child_by_field_name("body")
        if body is None:
            return
        qualified = f"{enum}.{node_text(name_node)}"
        self.symbols.append(
            self._symbol(node, qualified, node_text(name_node), SymbolKind.CLASS, enum,
                         name_node, declared_as="enum constant", bases=((enum_name,),))
        )  # fmt: skip
        self._body(body, qualified, None)

    def _field(self, node: ts.Node, cls: str) -> None:
        declared = node.child_by_field_name("type")
        dotted = type_dotted(declared)
        self._type_uses(declared, cls, "annotation")
        for declarator in node.children_by_field_name("declarator"):
            name = declarator.child_by_field_name("name")
            if name is not None and dotted is not None:
                self._bind(cls, node_text(name), dotted, declared, first_line(name))
            value = declarator.child_by_field_name("value")
            if value is not None:
                self._code(value, cls, cls)

    def _parameters(self, params: ts.Node | None, scope: str) -> None:
        if params is None:
            return
        for param in params.named_children:
            declared = param.child_by_field_name("type")
            name = param.child_by_field_name("name")
            if param.type == "spread_parameter":
                declared = next((c for c in param.named_children if c.type != "modifiers"), None)
                declarator = next(
                    (c for c in param.named_children if c.type == "variable_declarator"), None
                )
                name = declarator.child_by_field_name("name") if declarator else None
                dotted = type_dotted(declared)
                dotted = (*dotted[:-1], dotted[-1] + "[]") if dotted else None
            else:
                dotted = type_dotted(declared)
            self._type_uses(declared, scope, "annotation")
            if name is not None and dotted is not None:
                self._bind(scope, node_text(name), dotted, declared, first_line(name))

    def _bind(
        self, scope: str, name: str, dotted: Dotted, declared: ts.Node | None, line: int
    ) -> None:
        """A name's declared type, and its elements' (`<item>`) where the type has type
        arguments (`List<Node>`: Node; `Map<K, V>`: V)."""
        self.bindings.append(Binding(scope, (name,), dotted, "annotation", line))
        item = element_type(declared)
        if item is not None:
            self.bindings.append(Binding(scope, (name, ITEM), item, "annotation", line))

    def _symbol(
        self, node: ts.Node, qualified: str, name: str, kind: SymbolKind, parent: str,
        name_node: ts.Node, **extra: object,
    ) -> Symbol:  # fmt: skip
        """A declaration; a name this file already declared gets the next `ordinal` (its node
        id `…#2`): code javac rejects, or two local classes of one name in one method's
        blocks, which javac accepts. One node per declaration, since a repeated id fails the
        whole index's write."""
        self.seen[qualified] += 1
        body = node.child_by_field_name("body")
        header = node_text(node)
        if body is not None:
            header = header[: body.start_byte - node.start_byte]
        return Symbol(
            qualified, name, kind, parent, first_line(name_node), last_line(node),
            clipped_signature(" ".join(header.split())), _doc_of(node),
            _annotations(node), node_text(node), ordinal=self.seen[qualified],
            **extra,  # type: ignore[arg-type]
        )  # fmt: skip

    # -- code: calls, local types, nested classes ----------------------------------------------
    def _code(self, root: ts.Node, scope: str, cls: str) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            kind = node.type
            if kind in _TYPES:
                self._type(node, scope, scope)
                continue
            if kind == "method_invocation":
                self._invocation(node, scope)
            elif kind == "object_creation_expression":
                if self._creation(node, scope, cls):
                    continue
            elif kind == "explicit_constructor_invocation":
                target = node.child_by_field_name("constructor")
                word = node_text(target) if target is not None else "this"
                self.calls.append(
                    CallSite(scope, (word,), first_line(target or node), at=node.start_byte,
                             value=Call(Name((word,)),
                                        arguments(node.child_by_field_name("arguments"))))
                )  # fmt: skip
            elif kind in ("local_variable_declaration", "resource"):
                self._local(node, scope)
            elif kind in ("enhanced_for_statement", "catch_formal_parameter", "formal_parameter"):
                self._declared(node, scope)
            elif kind == "instanceof_expression":
                self._instanceof(node, scope)
            elif kind == "cast_expression":
                self._type_uses(node.child_by_field_name("type"), scope, "annotation")
            elif kind == "method_reference":
                site = reference_site(node, scope)
                if site is not None:
                    self.calls.append(site)
            elif kind == "lambda_expression":
                self.bindings.extend(lambda_bindings(node, scope, self.sites))
            elif kind == "class_body":
                continue
            stack.extend(reversed(node.named_children))

    def _invocation(self, node: ts.Node, scope: str) -> None:
        name = node.child_by_field_name("name")
        if name is None:
            return
        value = Call(callee(node), arguments(node.child_by_field_name("arguments")))
        site = CallSite(scope, _callee_dotted(node), first_line(name), at=node.start_byte,
                        value=value)  # fmt: skip
        self.calls.append(site)
        self.sites[(node.start_byte, node.end_byte)] = site

    def _creation(self, node: ts.Node, scope: str, cls: str) -> bool:
        """A `new T(…)` call site; True when it declares an anonymous class (read here)."""
        declared = node.child_by_field_name("type")
        created = type_dotted(declared)
        if created is None:
            return False
        self._type_uses(declared, scope, "annotation")
        body = next((c for c in node.named_children if c.type == "class_body"), None)
        # an anonymous class's creation: its callee the instance, not the type's constructor
        made = _new_callee(created) if body is None else InstanceOf(Name(created))
        site = CallSite(
            scope,
            (NEW, *created),
            first_line(node),
            at=node.start_byte,
            value=Call(made, arguments(node.child_by_field_name("arguments"))),
        )
        self.calls.append(site)
        self.sites[(node.start_byte, node.end_byte)] = site  # fmt: skip
        if body is None:
            return False
        for child in node.named_children:
            if child is not body:
                self._code(child, scope, cls)
        self.anonymous[cls] += 1
        number = self.anonymous[cls]
        qualified = f"{cls}.${number}"
        self.variables[qualified] = self.variables.get(scope, {})
        type_node = declared or node
        self.symbols.append(
            self._symbol(node, qualified, f"${number}", SymbolKind.CLASS, scope, type_node,
                         declared_as="anonymous class", bases=(created,))
        )  # fmt: skip
        self._body(body, qualified, None)
        return True

    def _local(self, node: ts.Node, scope: str) -> None:
        declared = node.child_by_field_name("type")
        dotted = type_dotted(declared)
        self._type_uses(declared, scope, "annotation")
        declarators = node.children_by_field_name("declarator") or [node]
        for declarator in declarators:
            name = declarator.child_by_field_name("name")
            if name is None:
                continue
            target = (node_text(name),)
            line = first_line(name)
            if dotted is not None:
                self._bind(scope, target[0], dotted, declared, line)
                continue
            value = declarator.child_by_field_name("value")
            binding = _inferred(scope, target, value, line)
            if binding is not None:
                self.bindings.append(binding)

    def _declared(self, node: ts.Node, scope: str) -> None:
        declared = node.child_by_field_name("type")
        if declared is None and node.type == "catch_formal_parameter":
            types = next((c for c in node.named_children if c.type == "catch_type"), None)
            declared = types.named_children[0] if types and types.named_children else None
            self._type_uses(types, scope, "annotation")
        else:
            self._type_uses(declared, scope, "annotation")
        name = node.child_by_field_name("name")
        dotted = type_dotted(declared)
        if name is not None and dotted is not None:
            self._bind(scope, node_text(name), dotted, declared, first_line(name))

    def _instanceof(self, node: ts.Node, scope: str) -> None:
        declared = node.child_by_field_name("right")
        self._type_uses(declared, scope, "isinstance")
        name = node.child_by_field_name("name")
        dotted = type_dotted(declared)
        if name is not None and dotted is not None:
            self.bindings.append(
                Binding(scope, (node_text(name),), dotted, "annotation", first_line(name))
            )

    def _types_in(self, node: ts.Node, scope: str, *, direct: bool) -> list[Dotted]:
        """The types a list of types names (`extends A, B`), recorded as type uses."""
        found: list[Dotted] = []
        for child in node.named_children:
            target = child.named_children if child.type == "type_list" else [child]
            for item in target:
                dotted = type_dotted(item)
                if dotted is not None:
                    found.append(dotted)
                self._type_uses(item, scope, "annotation")
        return found

    def _type_uses(self, node: ts.Node | None, scope: str, context: str) -> None:
        """Every type a type names, type arguments included (`Map<K, List<V>>`)."""
        if node is None:
            return
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type in _TYPE_NODES:
                dotted = type_dotted(current)
                if dotted is not None:
                    self.type_uses.append(
                        TypeUse(scope, dotted, first_line(current), context)  # type: ignore[arg-type]
                    )
                continue
            stack.extend(current.named_children)


def _method_name(node: ts.Node) -> str:
    name = node.child_by_field_name("name")
    return node_text(name) if name is not None else ""


def _parameter_types(
    params: ts.Node | None, variables: dict[str, str]
) -> tuple[list[str], list[str], str]:
    """Each parameter's type as an overload's name writes it (a type variable as its
    erasure), the names, the kinds ("p" one value, "*" varargs)."""
    types: list[str] = []
    names: list[str] = []
    kinds = ""
    for param in params.named_children if params is not None else ():
        if param.type == "formal_parameter":
            types.append(erased(param.child_by_field_name("type"), variables))
            name = param.child_by_field_name("name")
            names.append(node_text(name) if name is not None else "")
            kinds += "p"
        elif param.type == "spread_parameter":
            declared = next((c for c in param.named_children if c.type != "modifiers"), None)
            types.append(erased(declared, variables, varargs=True))
            declarator = next(
                (c for c in param.named_children if c.type == "variable_declarator"), None
            )
            name = declarator.child_by_field_name("name") if declarator else None
            names.append(node_text(name) if name is not None else "")
            kinds += "*"
    return types, names, kinds


def _callee_dotted(node: ts.Node) -> Dotted:
    name = node_text(node.child_by_field_name("name") or node)
    obj = node.child_by_field_name("object")
    if obj is None:
        return (name,)
    value = expression(obj)
    return (*value.dotted, name) if isinstance(value, Name) else ("<expr>", name)


def _new_callee(created: Dotted) -> Expr:
    return Name((NEW, *created))


def _inferred(scope: str, target: Dotted, value: ts.Node | None, line: int) -> Binding | None:
    """What `var x = value` types x by (see the module's docstring)."""
    if value is None:
        return None
    while value.type == "parenthesized_expression" and value.named_children:
        value = value.named_children[0]
    kind = value.type
    if kind in ("object_creation_expression", "cast_expression"):
        created = type_dotted(value.child_by_field_name("type"))
        return Binding(scope, target, created, "annotation", line) if created else None
    if kind == "method_invocation":
        return Binding(scope, target, _callee_dotted(value), "call", line)
    if kind == "identifier":
        return Binding(scope, target, (node_text(value),), "alias", line)
    found = expression(value)
    if isinstance(found, DeclaredAs):
        return Binding(scope, target, found.classes[0], "annotation", line)
    return None


def _doc_of(node: ts.Node) -> str | None:
    """The Javadoc right above a declaration, or between its annotations and the rest."""
    previous = node.prev_named_sibling
    if previous is not None and previous.type == "block_comment":
        text = node_text(previous)
        if text.startswith("/**") and first_line(node) - last_line(previous) <= 1:
            return javadoc(text) or None
    modifiers = next((c for c in node.named_children if c.type == "modifiers"), None)
    for child in modifiers.named_children if modifiers is not None else ():
        if child.type == "block_comment" and node_text(child).startswith("/**"):
            return javadoc(node_text(child)) or None
    return None


def _annotations(node: ts.Node) -> tuple[str, ...]:
    modifiers = next((c for c in node.named_children if c.type == "modifiers"), None)
    if modifiers is None:
        return ()
    return tuple(
        node_text(c).removeprefix("@").strip()
        for c in modifiers.named_children
        if c.type in ("annotation", "marker_annotation")
    )
