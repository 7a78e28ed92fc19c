"""Python import statements -> `ImportStatement` records (relative levels, aliases, and
whether an import only runs for the type checker)."""

from __future__ import annotations

import tree_sitter as ts

from ...model import ImportStatement
from ...parsing.treesitter import first_line, node_text
from .scopes import FileState

__all__ = ["imports"]


def imports(captures: dict[str, list[ts.Node]], state: FileState) -> list[ImportStatement]:
    """The import statements of a file, in source order."""
    records: list[ImportStatement] = []
    for node in captures.get("import.plain", []):
        scope = state.scope_of(node)
        checking = _under_type_checking(node)
        for child in node.children_by_field_name("name"):
            module, alias = _name_and_alias(child)
            if module:
                records.append(
                    ImportStatement(scope, module, 0, None, alias, first_line(node), checking)
                )
    for node in captures.get("import.from", []):
        scope = state.scope_of(node)
        checking = _under_type_checking(node)
        module_node = node.child_by_field_name("module_name")
        if module_node is None:
            continue
        level, module = _relative(module_node)
        line = first_line(node)
        if any(child.type == "wildcard_import" for child in node.children):
            records.append(ImportStatement(scope, module, level, "*", None, line, checking))
            continue
        for child in node.children_by_field_name("name"):
            name, alias = _name_and_alias(child)
            if name:
                records.append(ImportStatement(scope, module, level, name, alias, line, checking))
    records.sort(key=lambda r: (r.line, r.module, r.name or ""))
    return records


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
