"""Go source -> `ParsedFile`, with tree-sitter-go.

Declarations: functions, methods (value and pointer receivers: the method's parent is its
receiver's type, wherever the package declares it), types (`declared_as` "struct",
"interface", "type" or "type alias"; `bases` the embedded types of a struct or interface, or
the type an alias stands for), interface methods, doc comments (the `//` lines right above).
Names follow `modules`. What the linker reads: imports (the path as `module`, an alias as
written: a name, "." or "_"), call sites (`syntax.callee_shape`; a call's line is the line of
the name it calls, as a type checker places the use), bindings of names to what types them
(receivers, parameters, `var x T`, `x := T{}` / `&T{}` / `new(T)` / `y.(T)` as "annotation";
`x := f()` as "call" for f's first result; `x := y` as "alias"; a type switch's variable per
case; struct fields as bindings of their type), and type uses. Code in function literals
belongs to the named function around them.
"""

from __future__ import annotations

from dataclasses import replace

import tree_sitter as ts
import tree_sitter_go

from ...model import (
    Binding,
    CallSite,
    Dotted,
    ImportStatement,
    ParsedFile,
    Symbol,
    SymbolKind,
    TypeUse,
)
from ...parsing.records import clipped_signature, line_count
from ...parsing.treesitter import node_text, remembered_texts, syntax_issues
from .modules import package_dir, package_name, qualify
from .syntax import (
    CALLED,
    ELEMENT,
    LITERAL_MARK,
    PACKAGE_MARK,
    RESULT,
    RETURNS,
    STRUCT_MARK,
    builtin_call,
    callee_shape,
    declared_type,
    doc_comment,
    element_of,
    literal_head,
    type_name,
)

__all__ = ["GO_SUFFIXES", "GoParser"]

GO_SUFFIXES = (".go",)
_LANGUAGE = ts.Language(tree_sitter_go.language())
_SKIPPED_FOLDERS = ("testdata", "vendor")


class GoParser:
    """Parses one Go file. Cheap to construct; not thread-safe."""

    def __init__(self) -> None:
        self._parser = ts.Parser(_LANGUAGE)

    def skip_reason(self, path: str, source: bytes) -> str | None:
        folders = path.split("/")[:-1]
        for folder in _SKIPPED_FOLDERS:
            if folder in folders:
                return f"Go `{folder}/` folder (the go tool builds nothing in it)"
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
            reader = _FileReader(path, module)
            reader.read(tree.root_node)
        return ParsedFile(
            path=path, module=module, is_package=False, language="go", sha256=sha256,
            loc=line_count(text), code=text, docstring=reader.docstring,
            symbols=tuple(reader.symbols), imports=tuple(reader.imports),
            calls=tuple(reader.calls), bindings=tuple(reader.bindings),
            type_uses=tuple(reader.type_uses), module_names=frozenset(reader.names),
            issues=tuple(syntax_issues(tree.root_node)),
        )  # fmt: skip


def _line(node: ts.Node) -> int:
    return node.start_point[0] + 1


class _FileReader:
    """Reads one file's tree into the records' lists."""

    def __init__(self, path: str, module: str) -> None:
        self.path = path
        self.module = module
        self.package = package_name(package_dir(module))
        self.docstring: str | None = None
        self.symbols: list[Symbol] = []
        self.imports: list[ImportStatement] = []
        self.calls: list[CallSite] = []
        self.bindings: list[Binding] = []
        self.type_uses: list[TypeUse] = []
        self.names: set[str] = set()
        self._seen: dict[str, int] = {}
        self._bound: dict[str, tuple[int, set[str]]] = {}  # `_declared`'s memo

    def read(self, root: ts.Node) -> None:
        for node in root.named_children:
            kind = node.type
            if kind == "package_clause":
                self._package(node)
            elif kind == "import_declaration":
                self._import_declaration(node)
            elif kind == "function_declaration":
                self._function(node)
            elif kind == "method_declaration":
                self._method(node)
            elif kind == "type_declaration":
                for spec in node.named_children:
                    if spec.type in ("type_spec", "type_alias"):
                        self._type(spec, node if len(node.named_children) == 1 else spec)
            elif kind in ("var_declaration", "const_declaration"):
                self._variables(node, self.module)
                for spec in node.named_children:
                    self.names.update(node_text(n) for n in spec.children_by_field_name("name"))

    # -- the file ------------------------------------------------------------------------
    def _package(self, node: ts.Node) -> None:
        self.docstring = doc_comment(node)
        name = node.named_children[0] if node.named_children else None
        if name is not None:
            self.names.add(PACKAGE_MARK + node_text(name))
        if name is not None and node_text(name).endswith("_test"):
            self.package = package_name(package_dir(self.module), external_test=True)

    def _import_declaration(self, node: ts.Node) -> None:
        specs = [n for n in node.named_children if n.type == "import_spec"]
        for group in node.named_children:
            if group.type == "import_spec_list":
                specs.extend(n for n in group.named_children if n.type == "import_spec")
        for spec in specs:
            path = spec.child_by_field_name("path")
            if path is None:
                continue
            name = spec.child_by_field_name("name")
            alias = node_text(name) if name is not None else None
            self.imports.append(
                ImportStatement(
                    scope=self.module, module=node_text(path).strip('"`'), level=0, name=None,
                    alias=alias, line=_line(spec), binds=alias != "_",
                )
            )  # fmt: skip

    # -- declarations --------------------------------------------------------------------
    def _add(self, symbol: Symbol) -> None:
        ordinal = self._seen.get(symbol.qualified_name, 0) + 1
        self._seen[symbol.qualified_name] = ordinal
        if ordinal > 1:
            symbol = Symbol(
                symbol.qualified_name, symbol.name, symbol.kind, symbol.parent,
                symbol.start_line, symbol.end_line, symbol.signature, symbol.docstring,
                (), symbol.code, bases=symbol.bases, returns=symbol.returns,
                parameters=symbol.parameters, ordinal=ordinal, declared_as=symbol.declared_as,
            )  # fmt: skip
        self.symbols.append(symbol)

    def _function(self, node: ts.Node) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = node_text(name_node)
        qualified = f"{self.module}.init" if name == "init" else qualify(self.package, name)
        self.names.add(name)
        self._callable(node, qualified, name, self.module, SymbolKind.FUNCTION)

    def _method(self, node: ts.Node) -> None:
        name_node = node.child_by_field_name("name")
        receiver = node.child_by_field_name("receiver")
        if name_node is None or receiver is None:
            return
        declared = [n for n in receiver.named_children if n.type == "parameter_declaration"]
        owner = type_name(declared[0].child_by_field_name("type")) if declared else None
        if owner is None or len(owner) != 1:
            return
        parent = qualify(self.package, owner[0])
        name = node_text(name_node)
        qualified = qualify(self.package, owner[0], name)
        self._callable(node, qualified, name, parent, SymbolKind.METHOD)
        self._parameters(receiver, qualified)

    def _callable(
        self, node: ts.Node, qualified: str, name: str, parent: str, kind: SymbolKind
    ) -> None:
        body = node.child_by_field_name("body")
        parameters = node.child_by_field_name("parameters")
        result = node.child_by_field_name("result")
        header_end = body.start_byte if body is not None else node.end_byte
        signature = (node.text or b"")[: header_end - node.start_byte].decode(errors="replace")
        names = self._parameters(parameters, qualified) if parameters is not None else ()
        self._add(
            Symbol(
                qualified, name, kind, parent, _line(node), node.end_point[0] + 1,
                clipped_signature(signature.strip()), doc_comment(node), (), node_text(node),
                returns=_first_result(result), parameters=names,
            )
        )  # fmt: skip
        if result is not None:
            self._type_uses_in(result, qualified)
            self._later_results(result, qualified)
        if body is not None:
            self._body(body, qualified)

    def _later_results(self, result: ts.Node, scope: str, value: Dotted = ()) -> None:
        """The types of a function's results after the first, as bindings of `#1`, `#2`, …
        in its scope (`Symbol.returns` holds the first); of a function value's, `(name, #1)`
        in the scope that binds it."""
        if result.type != "parameter_list":
            return
        position = 0
        for declaration in result.named_children:
            if declaration.type != "parameter_declaration":
                continue
            named = declared_type(declaration.child_by_field_name("type"))
            for _ in declaration.children_by_field_name("name") or [declaration]:
                if position and named is not None:
                    target = (*value, f"{RESULT}{position}")
                    line = _line(declaration)
                    self.bindings.append(Binding(scope, target, named, "annotation", line))
                position += 1

    def _parameters(self, parameters: ts.Node, scope: str) -> tuple[str, ...]:
        names: list[str] = []
        for declaration in parameters.named_children:
            if declaration.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            declared = declaration.child_by_field_name("type")
            named = declared_type(declared)
            if declaration.type != "parameter_declaration":  # `xs ...T`: a slice of T
                named = (ELEMENT, *named) if named is not None and named[0] != ELEMENT else None
            for name_node in declaration.children_by_field_name("name"):
                name = node_text(name_node)
                names.append(name)
                line = _line(name_node)
                self.bindings.append(
                    Binding(scope, (name,), named, "annotation", line)
                    if named is not None
                    else Binding(scope, (name,), (), "opaque", line)  # a func value, …
                )
            if not declaration.children_by_field_name("name"):
                names.append("_")  # `M(int)`: a parameter all the same (satisfaction counts)
            if declared is not None:
                self._type_uses_in(declared, scope)
        return tuple(names)

    def _type(self, spec: ts.Node, documented: ts.Node) -> None:
        name_node = spec.child_by_field_name("name")
        declared = spec.child_by_field_name("type")
        if name_node is None or declared is None:
            return
        name = node_text(name_node)
        qualified = qualify(self.package, name)
        self.names.add(name)
        bases: list[Dotted] = []
        if spec.type == "type_alias":
            kind = "type alias"
            aliased = type_name(declared)
            bases = [aliased] if aliased is not None else []
        elif declared.type == "struct_type":
            kind = "struct"
            bases = self._fields(declared, qualified)
        elif declared.type == "interface_type":
            kind = "interface"
            bases = self._interface(declared, qualified)
        else:
            kind = "type"
            underlying = declared_type(declared)  # `type Commands []*Command`: its elements
            bases = [underlying] if underlying is not None and underlying[0] == ELEMENT else []
        self._type_uses_in(declared, qualified)
        self._add(
            Symbol(
                qualified, name, SymbolKind.CLASS, self.module, _line(spec), spec.end_point[0] + 1,
                clipped_signature(node_text(spec).split("{", 1)[0].strip()),
                doc_comment(documented), (), node_text(spec), bases=tuple(bases),
                declared_as=kind,
            )
        )  # fmt: skip

    def _fields(self, struct: ts.Node, owner: str) -> list[Dotted]:
        embedded: list[Dotted] = []
        for fields in struct.named_children:
            for field in fields.named_children:
                if field.type != "field_declaration":
                    continue
                named = declared_type(field.child_by_field_name("type"))
                names = field.children_by_field_name("name")
                if not names and named is not None and named[0] != ELEMENT:
                    embedded.append(named)
                    self.bindings.append(
                        Binding(owner, (named[-1],), named, "annotation", _line(field))
                    )
                for name_node in names:
                    if named is not None:
                        self.bindings.append(
                            Binding(owner, (node_text(name_node),), named, "annotation",
                                    _line(name_node))
                        )  # fmt: skip
        return embedded

    def _interface(self, interface: ts.Node, owner: str) -> list[Dotted]:
        embedded: list[Dotted] = []
        for element in interface.named_children:
            if element.type == "type_elem" and len(element.named_children) == 1:
                named = type_name(element.named_children[0])
                if named is not None:
                    embedded.append(named)
            elif element.type == "method_elem":
                name_node = element.child_by_field_name("name")
                if name_node is None:
                    continue
                name = node_text(name_node)
                self._add(
                    Symbol(
                        f"{owner}.{name}", name, SymbolKind.METHOD, owner, _line(element),
                        element.end_point[0] + 1, clipped_signature(node_text(element)),
                        doc_comment(element), (), node_text(element),
                        returns=_first_result(element.child_by_field_name("result")),
                        parameters=_slots(element.child_by_field_name("parameters")),
                        declared_as="interface method",
                    )
                )  # fmt: skip
        return embedded

    # -- bodies --------------------------------------------------------------------------
    def _body(self, body: ts.Node, scope: str) -> None:
        """Calls, bindings and type uses of a function body (closures included)."""
        stack = [body]
        while stack:
            node = stack.pop()
            kind = node.type
            if kind == "call_expression":
                self._call(node, scope)
            elif kind == "short_var_declaration" or kind == "assignment_statement":
                self._assignment(node, scope)
            elif kind in ("var_declaration", "const_declaration"):
                self._variables(node, scope)
            elif kind == "type_switch_statement":
                self._type_switch(node, scope)
            elif kind == "range_clause":
                self._range(node, scope)
            elif kind == "func_literal":
                self._closure(node, scope)
            elif kind in ("composite_literal", "type_assertion_expression"):
                self._type_uses_in(node.child_by_field_name("type"), scope)
            stack.extend(reversed(node.named_children))

    def _closure(self, node: ts.Node, scope: str) -> None:
        """A function literal's parameters name its values only inside it: bound from the line
        after its opening brace, and what they shadow bound again on its last line
        (`r := NewRouter(); r.HandleFunc("/", func(w W, r *Request) {…}); r.Use(m)`: the
        router twice)."""
        parameters = node.child_by_field_name("parameters")
        if parameters is None:
            return
        start = len(self.bindings)
        names = set(self._parameters(parameters, scope))
        body = node.child_by_field_name("body")
        opened, last = (_line(body) if body is not None else 0), node.end_point[0] + 1
        if not names or last <= opened:
            return  # one line: its parameters from the start
        shadowed: dict[str, Binding] = {}
        for binding in self.bindings[:start]:
            if binding.scope == scope and binding.target[0] in names and len(binding.target) == 1:
                shadowed[binding.target[0]] = binding
        for position in range(start, len(self.bindings)):
            self.bindings[position] = replace(self.bindings[position], line=opened + 1)
        self.bindings.extend(replace(binding, line=last) for binding in shadowed.values())

    def _call(self, node: ts.Node, scope: str) -> None:
        function = node.child_by_field_name("function")
        if function is None:
            return
        callee, inner = callee_shape(function)
        if len(callee) == 1 and inner is None and builtin_call(callee[0]):
            if callee[0] == "new":
                arguments = node.child_by_field_name("arguments")
                if arguments is not None and arguments.named_children:
                    self._type_uses_in(arguments.named_children[0], scope)
            return
        if inner is not None:  # on a call's result: `NewT().M()` is ("NewT()", "M")
            chained = _chain(inner)
            callee = (*chained, *callee) if chained is not None else ("<expr>", *callee)
        self.calls.append(CallSite(scope, callee, _name_line(function), at=node.start_byte))

    def _assignment(self, node: ts.Node, scope: str) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return
        targets = left.named_children
        values = right.named_children
        declared = self._declared(scope) if node.type == "assignment_statement" else set()
        for position, target in enumerate(targets):
            if target.type != "identifier" or node_text(target) in declared | {"_"}:
                continue  # `x = v` leaves a declared x its type (`var l Level; l = 3`)
            value = values[position] if len(values) == len(targets) else None
            if value is None and len(values) == 1:
                value = values[0]
                if value.type not in ("call_expression", "type_assertion_expression") or (
                    position and value.type != "call_expression"
                ):
                    value = None  # `v, ok := m[k]`: a call's results, `y.(T)`'s T
            binding = self._binding(scope, node_text(target), value, _line(target))
            if position and value is not None and len(values) == 1:  # `a, b := f()`: b
                if binding.kind != "call":
                    binding = Binding(scope, binding.target, (), "opaque", binding.line)
                else:
                    position_mark = f"{RESULT}{position}"
                    binding = Binding(scope, binding.target, (*binding.value, position_mark),
                                      "call", binding.line)  # fmt: skip
            self.bindings.append(binding)

    def _declared(self, scope: str) -> set[str]:
        """The names bound in a scope so far."""
        known = self._bound.setdefault(scope, (0, set()))
        counted, names = known
        names.update(b.target[0] for b in self.bindings[counted:] if b.scope == scope)
        self._bound[scope] = (len(self.bindings), names)
        return names

    def _variables(self, node: ts.Node, scope: str) -> None:
        specs = list(node.named_children)
        for group in node.named_children:
            if group.type in ("var_spec_list", "const_spec_list"):
                specs.extend(group.named_children)
        carried: Dotted | None = None  # `const (A T = iota; B; C)`: B and C are Ts too
        for spec in specs:
            if spec.type not in ("var_spec", "const_spec"):
                continue
            declared = spec.child_by_field_name("type")
            named = self._shape(declared, scope)
            values_node = spec.child_by_field_name("value")
            if spec.type == "const_spec":
                if declared is None and values_node is None:
                    named = carried
                carried = named
            values = values_node.named_children if values_node is not None else []
            names = spec.children_by_field_name("name")
            if declared is not None:
                self._type_uses_in(declared, scope)
            for position, name_node in enumerate(names):
                name = node_text(name_node)
                if name == "_":
                    continue
                if named is not None:
                    binding = Binding(scope, (name,), named, "annotation", _line(name_node))
                else:
                    value = values[position] if len(values) == len(names) else None
                    binding = self._binding(scope, name, value, _line(name_node))
                self.bindings.append(binding)
            if scope == self.module:  # package-level initialisers
                for position, value in enumerate(values):
                    named_value = len(values) == len(names) and node_text(names[position]) != "_"
                    if value.type == "func_literal" and named_value:
                        self._function_value(node_text(names[position]), value)
                    else:
                        self._body(value, scope)

    def _function_value(self, name: str, literal: ts.Node) -> None:
        """`var handler = func(…) {…}`: a function of the package, its body's calls its own
        (as the type checker places them), its name still a variable (`handler = other`)."""
        self._callable(literal, qualify(self.package, name), name, self.module,
                       SymbolKind.FUNCTION)  # fmt: skip

    def _binding(self, scope: str, name: str, value: ts.Node | None, line: int) -> Binding:
        """What `name := value` tells of the name's type."""
        while value is not None and value.type == "parenthesized_expression":
            value = value.named_children[0] if value.named_children else None
        if value is None:
            return Binding(scope, (name,), (), "opaque", line)
        literal = literal_head(value)
        if literal is not None:
            return Binding(scope, (name,), tuple(literal[:-2].split(".")), "annotation", line)
        if value.type == "composite_literal":  # `[]T{…}`, `map[K]T{…}`
            shaped = self._shape(value.child_by_field_name("type"), scope)
            if shaped is not None:
                return Binding(scope, (name,), shaped, "annotation", line)
        kind = value.type
        if kind == "func_literal":  # `get := func() *T {…}`: what calling get gives
            result = value.child_by_field_name("result")
            returns = _first_result(result)
            if result is not None:
                self._later_results(result, scope, (name,))
            if returns is not None:
                return Binding(scope, (name,), (RETURNS, *returns), "annotation", line)
        if kind == "type_assertion_expression":
            named = type_name(value.child_by_field_name("type"))
            if named is not None:
                return Binding(scope, (name,), named, "annotation", line)
        elif kind == "call_expression":
            function = value.child_by_field_name("function")
            if function is not None:
                callee, inner = callee_shape(function)
                if callee in (("new",), ("make",)):
                    arguments = value.child_by_field_name("arguments")
                    first = (
                        arguments.named_children[0]
                        if arguments and arguments.named_children
                        else None
                    )
                    named = (type_name if callee == ("new",) else declared_type)(first)
                    if named is not None:
                        return Binding(scope, (name,), named, "annotation", line)
                elif "<expr>" not in callee:
                    chained = _chain(inner) if inner is not None else ()
                    if chained is not None:
                        return Binding(scope, (name,), (*chained, *callee), "call", line)
        elif kind == "index_expression" and (
            operand := _called(value.child_by_field_name("operand"))
        ):
            chained = _chain(operand)  # `c.Subs()[0]`: an element of the result
            if chained is not None:
                called = (*chained[:-1], chained[-1][: -len(CALLED)])
                return Binding(scope, (name,), (ELEMENT, *called), "call", line)
        elif kind in ("identifier", "selector_expression", "index_expression"):
            named = type_name(value) if kind != "index_expression" else element_of(value)
            if named is not None:
                return Binding(scope, (name,), named, "alias", line)
        return Binding(scope, (name,), (), "opaque", line)

    def _shape(self, node: ts.Node | None, scope: str) -> Dotted | None:
        """`declared_type`, and an anonymous struct type (or a container of one) by the name
        `STRUCT_MARK` gives it, its fields bound in `scope` (test tables:
        `for _, tc := range []struct{ cmd *Command }{…}` then `tc.cmd.Execute()`)."""
        contained = _CONTAINED.get(node.type) if node is not None else None
        inner = node.child_by_field_name(contained) if node and contained else None
        struct = inner if inner is not None and inner.type == "struct_type" else node
        if struct is None or struct.type != "struct_type":
            return declared_type(node)
        row, column = struct.start_point
        name = f"{STRUCT_MARK}{scope}@{row + 1}:{column}"
        for field, named in _struct_fields(struct):
            self.bindings.append(Binding(scope, (name, field), named, "annotation", row + 1))
        return (ELEMENT, name) if struct is not node else (name,)

    def _range(self, node: ts.Node, scope: str) -> None:
        """`for i, v := range xs`: v is an element of xs (a slice's, a map's value)."""
        left = node.child_by_field_name("left")
        names = left.named_children if left is not None else []
        right = node.child_by_field_name("right")
        for position, name in enumerate(names):
            if name.type != "identifier":
                continue
            binding = Binding(scope, (node_text(name),), (), "opaque", _line(name))
            if position == 1 and right is not None:
                whole = self._binding(scope, node_text(name), right, _line(name))
                if whole.kind == "annotation" and whole.value[:1] == (ELEMENT,):
                    binding = replace(whole, value=whole.value[1:])  # `range []T{…}`
                elif whole.kind in ("call", "alias"):
                    binding = Binding(scope, whole.target, (ELEMENT, *whole.value), whole.kind,
                                      whole.line)  # fmt: skip
            self.bindings.append(binding)

    def _type_switch(self, node: ts.Node, scope: str) -> None:
        alias = node.child_by_field_name("alias")
        names = [n for n in alias.named_children if n.type == "identifier"] if alias else []
        if len(names) != 1:
            return
        name = node_text(names[0])
        for case in node.named_children:
            if case.type != "type_case":
                continue
            types = case.children_by_field_name("type")
            named = type_name(types[0]) if len(types) == 1 else None
            self.bindings.append(
                Binding(scope, (name,), named or (), "annotation" if named else "opaque",
                        _line(case))
            )  # fmt: skip
            for declared in types:
                self._type_uses_in(declared, scope)

    def _type_uses_in(self, node: ts.Node | None, scope: str) -> None:
        """Every named type inside a type expression (`map[K]*V` names K and V)."""
        stack = [node] if node is not None else []
        while stack:
            current = stack.pop()
            if current.type in ("type_identifier", "qualified_type"):
                named = type_name(current)
                if named is not None:
                    self.type_uses.append(TypeUse(scope, named, _line(current), "annotation"))
                continue
            if current.type in ("literal_value", "block", "argument_list"):
                continue
            stack.extend(current.named_children)


def _chain(call: ts.Node, depth: int = 0) -> Dotted | None:
    """A call a value is taken off as dotted parts, its result marked by `CALLED`
    (`c.Root()` -> ("c", "Root()"), `a.B().C()` -> ("a", "B()", "C()")); None when a part
    is no name."""
    function = call.child_by_field_name("function")
    if function is None or depth > 8:
        return None
    callee, inner = callee_shape(function)
    if callee == ("new",) and inner is None:  # `new(T).M()`: a *T, as `(&T{}).M()`
        arguments = call.child_by_field_name("arguments")
        named = type_name(arguments.named_children[0]) if arguments else None
        return (".".join(named) + LITERAL_MARK,) if named is not None else None
    if "<expr>" in callee:
        return None
    head: Dotted = ()
    if inner is not None:
        found = _chain(inner, depth + 1)
        if found is None:
            return None
        head = found
    return (*head, *callee[:-1], callee[-1] + CALLED)


_CONTAINED = {"slice_type": "element", "array_type": "element",
               "implicit_length_array_type": "element", "map_type": "value"}  # fmt: skip


def _struct_fields(struct: ts.Node) -> list[tuple[str, Dotted]]:
    """The named fields of a struct type with the types they name."""
    found: list[tuple[str, Dotted]] = []
    for fields in struct.named_children:
        for field in fields.named_children:
            named = declared_type(field.child_by_field_name("type"))
            if field.type == "field_declaration" and named is not None:
                found.extend((node_text(n), named) for n in field.children_by_field_name("name"))
    return found


def _slots(parameters: ts.Node | None) -> tuple[str, ...]:
    """The parameters of an interface method: names, or "_" for an unnamed one."""
    slots: list[str] = []
    for declaration in parameters.named_children if parameters is not None else ():
        if declaration.type in ("parameter_declaration", "variadic_parameter_declaration"):
            names = declaration.children_by_field_name("name")
            slots.extend(node_text(n) for n in names) if names else slots.append("_")
    return tuple(slots)


def _called(node: ts.Node | None) -> ts.Node | None:
    """The call a node is, parentheses taken off; None for another node."""
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node if node is not None and node.type == "call_expression" else None


def _first_result(result: ts.Node | None) -> Dotted | None:
    """The type a function's (first) result names."""
    if result is None:
        return None
    if result.type == "parameter_list":
        declared = [n for n in result.named_children if n.type == "parameter_declaration"]
        return declared_type(declared[0].child_by_field_name("type")) if declared else None
    return declared_type(result)


def _name_line(function: ts.Node) -> int:
    """The line of the name a callee calls (`x.\\n\\tM()` is a use of M on M's line)."""
    while function.type == "parenthesized_expression" and function.named_children:
        function = function.named_children[0]
    if function.type == "selector_expression":
        field = function.child_by_field_name("field")
        if field is not None:
            return _line(field)
    return _line(function)
