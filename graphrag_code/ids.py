"""Stable node ids: repository name + qualified name, so MERGE is idempotent across runs."""

from __future__ import annotations

__all__ = ["module_id", "path_module_name", "repository_of", "symbol_id"]


def path_module_name(path: str) -> str:
    """The qualified name of a module named by its file path (TypeScript, JavaScript): the
    path itself, `./name.ts` at the repository root. Such a name always holds a `/` and a
    Python module name never does, so `utils.ts` beside `utils.py` cannot collide."""
    return path if "/" in path else f"./{path}"


def module_id(repo: str, module: str, *, shadow_path: str | None = None) -> str:
    """Id of a module node. A file whose module name another file already claims (`a.py`
    beside `a/__init__.py`) keeps its own id through `shadow_path`."""
    suffix = f"@{shadow_path}" if shadow_path else ""
    return f"{repo}:{module}{suffix}"


def symbol_id(
    repo: str,
    qualified_name: str,
    *,
    ordinal: int = 1,
    shadow_path: str | None = None,
    clashes_with_module: bool = False,
) -> str:
    """Id of a class/function/method node. `ordinal` > 1 for a redefinition in the same file;
    `clashes_with_module` when a package defines a name equal to one of its submodules."""
    suffix = f"@{shadow_path}" if shadow_path else ""
    if clashes_with_module:
        suffix += "#def"
    if ordinal > 1:
        suffix += f"#{ordinal}"
    return f"{repo}:{qualified_name}{suffix}"


def repository_of(node_id: str) -> str:
    return node_id.split(":", 1)[0]
