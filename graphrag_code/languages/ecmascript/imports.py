"""TypeScript / JavaScript imports -> `ImportStatement` records: ES `import` and re-exports,
`require` (destructured too, or assigned to `exports`), dynamic `import()`."""

from __future__ import annotations

import tree_sitter as ts

from ...model import ImportStatement
from ...parsing.treesitter import first_line
from ...parsing.treesitter import node_text as _text
from .scopes import FileReader
from .syntax import dotted_name, is_exports, specifier_names, string_literal

__all__ = ["Imports"]


class Imports(FileReader):
    """The imports of one file."""

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
        records.extend(self._defined_exports(records))
        records.sort(key=lambda r: (r.line, r.module, r.name or "", r.alias or ""))
        return records

    def _es_import(self, node: ts.Node) -> list[ImportStatement]:
        source = node.child_by_field_name("source")
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        require = next((c for c in node.named_children if c.type == "import_require_clause"), None)
        if require is not None:  # import fs = require("fs")
            source = require.child_by_field_name("source")
        specifier = string_literal(source)
        if specifier is None or source is None:
            return []
        scope = self._scope(node)
        line = first_line(source)
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
                    imported, local = specifier_names(spec)
                    if imported is None:
                        continue
                    typed = type_only or any(c.type == "type" for c in spec.children)
                    records.append(
                        ImportStatement(scope, specifier, 0, imported, local, line, typed)
                    )
        return records

    def _reexport(self, node: ts.Node) -> list[ImportStatement]:
        source = node.child_by_field_name("source")
        specifier = string_literal(source)
        if specifier is None or source is None:
            return []
        scope = self._scope(node)
        line = first_line(source)
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
            if spec.type != "export_specifier":
                continue
            imported, exported = specifier_names(spec)
            if imported is None:
                continue
            typed = type_only or any(c.type == "type" for c in spec.children)
            records.append(
                ImportStatement(scope, specifier, 0, imported, exported, line, typed, exported=True)
            )
        return records

    def _require(self, node: ts.Node) -> list[ImportStatement]:
        arguments = node.child_by_field_name("arguments")
        source = arguments.named_children[0] if arguments and arguments.named_child_count else None
        specifier = string_literal(source)
        if specifier is None or source is None:
            return []
        scope = self._scope(node)
        line = first_line(source)
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
            target = dotted_name(left) if left is not None else None
            if target == ("module", "exports") and member is None:
                return [ImportStatement(scope, specifier, 0, "*", None, line, exported=True)]
            if target is not None and len(target) >= 2 and is_exports(target):
                return [
                    ImportStatement(scope, specifier, 0, member, target[-1], line, exported=True)
                ]
        return [ImportStatement(scope, specifier, 0, member, None, line, binds=False)]

    def _defined_exports(self, required: list[ImportStatement]) -> list[ImportStatement]:
        """tsc's CommonJS form of `export { error } from "./error"`: `var error_1 =
        require("./error"); Object.defineProperty(exports, "error", { enumerable: true, get:
        function () { return error_1.error; } })`, a re-export of the required module's name."""
        modules = {
            r.alias: r.module
            for r in required
            if r.scope == self.state.module and r.name is None and r.alias is not None
        }
        records = []
        for node in self.captures.get("call", []):
            found = _defined_export(node)
            if found is None or found[1][0] not in modules:
                continue
            exported, (local, name), line = found
            records.append(
                ImportStatement(self.state.module, modules[local], 0, name, exported, line,
                                exported=True)
            )  # fmt: skip
        return records

    def _dynamic(self, node: ts.Node) -> list[ImportStatement]:
        arguments = node.child_by_field_name("arguments")
        source = arguments.named_children[0] if arguments and arguments.named_child_count else None
        specifier = string_literal(source)
        if specifier is None or source is None:
            return []
        line = first_line(source)
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


def _defined_export(call: ts.Node) -> tuple[str, tuple[str, str], int] | None:
    """(exported name, (module variable, its name), line) of `Object.defineProperty(exports,
    "x", { get: function () { return m_1.y; } })` at a module's top level; None otherwise."""
    function = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if function is None or dotted_name(function) != ("Object", "defineProperty"):
        return None
    args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
    if len(args) != 3 or _text(args[0]) != "exports" or args[2].type != "object":
        return None
    exported = string_literal(args[1])
    getter = next(
        (
            pair.child_by_field_name("value")
            for pair in args[2].named_children
            if pair.type == "pair" and _text(pair.child_by_field_name("key") or pair) == "get"
        ),
        None,
    )
    body = getter.child_by_field_name("body") if getter is not None else None
    if body is not None and body.type == "statement_block":
        statements = [c for c in body.named_children if c.type != "comment"]
        only = statements[0] if len(statements) == 1 else None
        body = only.named_children[0] if only and only.type == "return_statement" else None
    read = dotted_name(body) if body is not None else None
    if exported is None or read is None or len(read) != 2:
        return None
    return exported, (read[0], read[1]), first_line(call)
