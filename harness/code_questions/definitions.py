"""A package's own classes, functions and methods as Python's `ast` sees them: the ground
truth of the concept, callers and definition questions (never our parser)."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["Definition", "DefinitionKind", "module_files", "scan_definitions", "searchable"]

DefinitionKind = Literal["class", "function", "method"]


@dataclass(frozen=True)
class Definition:
    """A class, function or method as Python's `ast` sees it."""

    qualified_name: str
    name: str
    kind: DefinitionKind
    module: str
    path: str  # relative to the import root, "/" separators
    line: int
    docstring: str | None
    nested: bool  # inside a function body (closures, local classes)
    overloaded: bool  # `@overload` stubs share their qualified name with the implementation

    @property
    def owner(self) -> str:
        """The enclosing class (methods) or module (the rest), as a short name."""
        return self.qualified_name.rsplit(".", 2)[-2]


def module_files(import_root: Path, package: str) -> dict[str, str]:
    """Module name -> path (relative to `import_root`) of every `.py` module of `package`,
    by Python's import rules (directories without `__init__.py` are namespace packages)."""
    found: dict[str, str] = {}
    for file in sorted((import_root / package).rglob("*.py")):
        relative = file.relative_to(import_root)
        parts = list(relative.with_suffix("").parts)
        if not all(part.isidentifier() for part in parts):
            continue
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = relative.as_posix()
    return found


def _is_overload(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in node.decorator_list:
        name = decorator.attr if isinstance(decorator, ast.Attribute) else None
        name = decorator.id if isinstance(decorator, ast.Name) else name
        if name == "overload":
            return True
    return False


def _definitions(
    body: Sequence[ast.stmt], module: str, path: str, scope: str, *, in_class: bool, nested: bool
) -> Iterator[Definition]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qualified = f"{scope}.{node.name}"
            is_class = isinstance(node, ast.ClassDef)
            kind: DefinitionKind = "class" if is_class else "method" if in_class else "function"
            yield Definition(
                qualified_name=qualified,
                name=node.name,
                kind=kind,
                module=module,
                path=path,
                line=node.lineno,
                docstring=ast.get_docstring(node),
                nested=nested,
                overloaded=not isinstance(node, ast.ClassDef) and _is_overload(node),
            )
            yield from _definitions(
                node.body, module, path, qualified, in_class=is_class, nested=nested or not is_class
            )
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            # definitions under `if TYPE_CHECKING:`, `try: ... except ImportError:`, ...
            for block in _blocks(node):
                yield from _definitions(
                    block, module, path, scope, in_class=in_class, nested=nested
                )


def _blocks(node: ast.If | ast.Try | ast.With | ast.For | ast.While) -> list[list[ast.stmt]]:
    blocks = [node.body, getattr(node, "orelse", [])]
    if isinstance(node, ast.Try):
        blocks += [handler.body for handler in node.handlers] + [node.finalbody]
    return blocks


def scan_definitions(import_root: Path, package: str) -> list[Definition]:
    """Every class, function and method of `package`, in module order."""
    found: list[Definition] = []
    for module, path in module_files(import_root, package).items():
        source = (import_root / path).read_text(encoding="utf-8", errors="replace")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # not Python 3; our indexer skips it too
        found.extend(_definitions(tree.body, module, path, module, in_class=False, nested=False))
    return found


def searchable(definition: Definition) -> bool:
    """Whether people ask for it by name: not nested in a function, not an `@overload` stub."""
    return not definition.nested and not definition.overloaded
