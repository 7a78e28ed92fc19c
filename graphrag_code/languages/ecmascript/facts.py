"""The call sites, type uses and names per scope of one TypeScript / JavaScript file."""

from __future__ import annotations

from collections import defaultdict
from typing import Literal

from ...model import CallSite, ScopeNames, TypeUse
from ...parsing.treesitter import first_line
from ...parsing.treesitter import node_text as _text
from .derived import pattern_value
from .scopes import FileReader
from .syntax import callee_parts, dotted_name, misread_await, pattern_names
from .types import type_names

__all__ = ["Facts"]


class Facts(FileReader):
    """Calls, type uses and scopes of one file (its symbols are known)."""

    def calls(self) -> list[CallSite]:
        sites: list[CallSite] = []
        for node in self.captures.get("call", []):
            function = node.child_by_field_name("function")
            if function is None or function.type == "import":
                continue
            if function.type == "identifier" and _text(function) == "require":
                continue
            if misread_await(node) is not None:  # `await (x)`: no call
                continue
            callee, receiver = callee_parts(function)
            sites.append(CallSite(self._scope(node), callee, first_line(node), receiver))
        for node in self.captures.get("new", []):
            constructor = node.child_by_field_name("constructor")
            if constructor is None:
                continue
            callee, receiver = callee_parts(constructor)
            sites.append(CallSite(self._scope(node), callee, first_line(node), receiver))
        sites.sort(key=lambda site: site.line)
        return sites

    # -- types --------------------------------------------------------------------------------
    def type_uses(self) -> list[TypeUse]:
        uses: list[TypeUse] = []
        for node in self.captures.get("type.annotation", []):
            parent = node.parent
            context: Literal["annotation", "return"] = "annotation"
            if parent is not None and node == parent.child_by_field_name("return_type"):
                context = "return"
            scope = self._scope(node)
            line = first_line(node)
            uses.extend(TypeUse(scope, name, line, context) for name in type_names(node))
        for capture, context_name in (("type.satisfies", "satisfies"), ("type.as", "annotation")):
            for node in self.captures.get(capture, []):
                if node.named_child_count < 2:
                    continue
                scope = self._scope(node)
                line = first_line(node)
                for name in type_names(node.named_children[-1]):
                    uses.append(TypeUse(scope, name, line, context_name))  # type: ignore[arg-type]
        for node in self.captures.get("instanceof", []):
            dotted = dotted_name(node)
            if dotted is not None:
                uses.append(TypeUse(self._scope(node), dotted, first_line(node), "isinstance"))
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
                names[scope].update(pattern_names(node))
        for node in self.captures.get("function.any", []):
            scope = self._function_scope(node)
            if scope not in self.state.function_scopes:
                continue
            params = node.child_by_field_name("parameters")
            single = node.child_by_field_name("parameter")
            if single is not None:
                names[scope].add(_text(single))
            for child in params.named_children if params is not None else []:
                names[scope].update(pattern_names(child))
                pattern = child.child_by_field_name("pattern")
                if pattern is not None and pattern.type == "object_pattern":
                    names[scope].add(pattern_value(pattern))  # `f({ gen }: Cxt)` (derived)
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
                names.update(pattern_names(node))
        return names
