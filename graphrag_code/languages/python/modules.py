"""Dotted module names for Python files: relative to the right import root.

Roots: the repository root and a top-level `src/` (src layout). A regular package (a folder
with `__init__.py`) nested deeper, e.g. `python/mypkg/__init__.py` or Django's
`tests/admin_views/__init__.py`, is named from the folder above its top package (`mypkg.x`,
`admin_views.tests`), unless the repository's own imports name it through the folders above it
(`google/cloud/storage/` imported as `google.cloud.storage`: namespace packages).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath

from ...parsing.base import ModuleName
from ..base import looks_like_test

__all__ = ["guess_module", "looks_like_test_module", "module_names"]

_EXPLICIT_ROOTS = ("src",)


def _explicit_root(path: PurePosixPath, src_exists: bool) -> PurePosixPath:
    if src_exists and path.parts and path.parts[0] in _EXPLICIT_ROOTS:
        return PurePosixPath(path.parts[0])
    return PurePosixPath("")


def _dotted(path: PurePosixPath, root: PurePosixPath) -> tuple[str, bool]:
    relative = path.relative_to(root) if str(root) not in ("", ".") else path
    parts = list(relative.with_suffix("").parts)
    is_package = bool(parts) and parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def module_names(
    paths: Iterable[str],
    imported: frozenset[str] = frozenset(),
    *,
    root_name: str | None = None,
) -> dict[str, ModuleName]:
    """Module name of each Python path. `imported`: every dotted prefix of the absolute imports
    found in the repository (evidence for namespace packages, see `imported_prefixes`). The
    repository folder's name, used when the folder is itself a package (has `__init__.py`)."""
    python = sorted(paths)  # the registry passes Python's files only (a script may lack .py)
    if root_name and "__init__.py" in python and root_name.isidentifier():
        prefixed = module_names([f"{root_name}/{p}" for p in python], imported, root_name=None)
        return {p: prefixed[f"{root_name}/{p}"] for p in python}
    package_dirs = {
        str(PurePosixPath(p).parent) for p in python if PurePosixPath(p).stem == "__init__"
    }
    src_exists = any(p.startswith("src/") for p in python)
    names: dict[str, ModuleName] = {}
    for raw in python:
        path = PurePosixPath(raw)
        explicit = _explicit_root(path, src_exists)
        root = explicit
        top = path.parent
        if str(top) in package_dirs:
            while str(top.parent) in package_dirs and top.parent != top:
                top = top.parent
            package_root = top.parent
            if package_root != explicit and _is_below(package_root, explicit):
                namespaced, _ = _dotted(top / "__init__.py", explicit)
                root = explicit if namespaced in imported else package_root
        module, is_package = _dotted(path, root)
        names[raw] = ModuleName(module=module, is_package=is_package, root=str(root))
    return names


def _is_below(path: PurePosixPath, root: PurePosixPath) -> bool:
    if str(root) in ("", "."):
        return str(path) not in ("", ".")
    return root in path.parents


def guess_module(path: str, neighbours: Mapping[str, str]) -> ModuleName:
    """The module of a file the graph does not hold: its folder's package (read from a
    neighbour's module name) plus its stem, else its path dotted below a `src/` folder."""
    stem = path.rpartition("/")[2].removesuffix(".py")
    is_package = stem == "__init__"
    for sibling, qualified in sorted(neighbours.items()):
        package = qualified if sibling.endswith("__init__.py") else qualified.rpartition(".")[0]
        if is_package:
            return ModuleName(package, True, "")
        return ModuleName(f"{package}.{stem}" if package else stem, False, "")
    dotted = path.removesuffix(".py").replace("/", ".").removeprefix("src.")
    return ModuleName(dotted.removesuffix(".__init__"), is_package, "")


def looks_like_test_module(path: str) -> bool:
    """`looks_like_test`, and pytest's `*_test.py` modules and `conftest.py` files."""
    return looks_like_test(path) or path.endswith(("_test.py", "conftest.py"))
