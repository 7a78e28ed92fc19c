"""What the code of a Python file does, once its definitions are known: its call sites, the
bindings that type its names, the types it mentions, and the names each scope binds."""

from __future__ import annotations

from collections import defaultdict
from typing import Literal

import tree_sitter as ts

from ...model import Binding, CallSite, ScopeNames, Symbol, SymbolKind, TypeUse
from ...parsing.records import opaque_bindings
from ...parsing.treesitter import first_line, node_text
from .annotations import annotation_names, annotation_type, class_annotation
from .flows import FlowExtractor
from .scopes import FileState
from .symbols import parameters_of
from .syntax import callee_parts, dotted_name, string_value

__all__ = ["all_names", "bindings", "call_sites", "module_names", "scope_names", "type_uses"]


def call_sites(nodes: list[ts.Node], state: FileState, flows: FlowExtractor) -> list[CallSite]:
    """The calls of a file, each with its callee's dotted name (or its value flow)."""
    sites = []
    for node in nodes:
        function = node.child_by_field_name("function")
        if function is None:
            continue
        callee, receiver = callee_parts(function)
        value = None if dotted_name(function) is not None else flows.value(function)
        sites.append(
            CallSite(
                state.scope_of(node), callee, first_line(node), receiver,
                node.start_byte, flows.block_of(node), value,
            )
        )  # fmt: skip
    return sites


def bindings(
    captures: dict[str, list[ts.Node]],
    state: FileState,
    symbols: tuple[Symbol, ...],
) -> list[Binding]:
    """What types a name: annotations, constructor calls, aliases, `with … as`."""
    records: list[Binding] = []
    for node in captures.get("definition.function", []):
        params = node.child_by_field_name("parameters")
        qualified = state.def_scopes.get(node.id)
        if params is None or qualified is None:
            continue
        for name, type_node in parameters_of(params):
            if type_node is None:
                continue
            line = first_line(node)
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
        target_parts = dotted_name(target)
        if target_parts is None:
            continue
        scope = state.scope_of(assignment)
        line = first_line(assignment)
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
                callee, receiver = callee_parts(function)
                if receiver is None and callee[0] != "<expr>":
                    records.append(Binding(scope, target_parts, callee, "call", line))
        elif right is not None and right.type in ("identifier", "attribute"):
            value = dotted_name(right)
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
        callee, receiver = callee_parts(function)
        if receiver is None and callee[0] != "<expr>":
            scope = state.scope_of(call)
            records.append(Binding(scope, (node_text(target),), callee, "enter", first_line(call)))
    records.extend(_opaque_bindings(captures, state, records))
    records.sort(key=lambda b: (b.line, b.scope, b.target))
    return records


def _opaque_bindings(
    captures: dict[str, list[ts.Node]], state: FileState, typed: list[Binding]
) -> list[Binding]:
    """Untyped assignments to names that also have a typed binding in the same scope."""
    assigned = captures.get("local", [])
    return opaque_bindings(
        typed, ((state.scope_of(node), (node_text(node),), first_line(node)) for node in assigned)
    )


def type_uses(captures: dict[str, list[ts.Node]], state: FileState) -> list[TypeUse]:
    """The types annotations and `isinstance` checks name."""
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
            scope = state.scope_of(node)
        line = first_line(node)
        uses.extend(TypeUse(scope, name, line, context) for name in annotation_names(node))
    for node in captures.get("isinstance", []):
        scope = state.scope_of(node)
        line = first_line(node)
        candidates = node.named_children if node.type == "tuple" else [node]
        for candidate in candidates:
            dotted = dotted_name(candidate)
            if dotted is not None:
                uses.append(TypeUse(scope, dotted, line, "isinstance"))
    uses.sort(key=lambda u: (u.line, u.scope, u.type_name))
    return uses


def scope_names(
    captures: dict[str, list[ts.Node]],
    state: FileState,
    symbols: tuple[Symbol, ...],
) -> list[ScopeNames]:
    """The local and `global` names of each function."""
    functions = {
        s.qualified_name for s in symbols if s.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)
    }
    names: dict[str, set[str]] = defaultdict(set)
    declared: dict[str, set[str]] = defaultdict(set)
    for node in captures.get("local", []):
        scope = state.scope_of(node)
        if scope in functions:
            names[scope].add(node_text(node))
    for node in captures.get("global", []):
        scope = state.scope_of(node)
        if scope in functions:
            declared[scope].add(node_text(node))
    for symbol in symbols:
        if symbol.kind in (SymbolKind.FUNCTION, SymbolKind.METHOD):
            names[symbol.qualified_name].update(symbol.parameters)
    return [
        ScopeNames(scope, frozenset(names[scope] - declared[scope]), frozenset(declared[scope]))
        for scope in sorted(names.keys() | declared.keys())
    ]


def module_names(captures: dict[str, list[ts.Node]], state: FileState) -> set[str]:
    """The names the module's own code binds."""
    return {
        node_text(node)
        for node in captures.get("local", [])
        if state.scope_of(node) == state.module
    }


def all_names(root: ts.Node) -> tuple[str, ...] | None:
    """The literal `__all__` of a module, if it has one."""
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
        values = [string_value(item) for item in right.named_children]
        if all(isinstance(v, str) for v in values):
            return tuple(v for v in values if v is not None)
    return None
