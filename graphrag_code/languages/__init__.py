"""Languages: one folder each, and the registry that routes files to them.

A language folder (`python/`, `ecmascript/`) holds everything that knows the language: its
parser and tree-sitter queries, module naming, linker and resolvers, conventions. It emits and
consumes the records every stage shares (`model`), builds on the language-neutral cores
(`parsing`, `linking`, `conventions`), and declares its `Language` records in its
`plugin.py`; `declarations.py` repeats each one's names and files. The registry routes files
by suffix or by the interpreter of a shebang line from the declarations, and imports a
plug-in when its `Language` is first asked for. Nothing after linking knows a node's language
except through its `language` property; language folders never import each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .declarations import Declaration
from .registry import (
    declarations,
    dispatch_stored,
    index_rules,
    interpreter_map,
    language_named,
    languages,
    module_names,
    project_file_names,
    register,
    routes,
    select_declared,
    select_languages,
    suffix_map,
    unregister,
)

if TYPE_CHECKING:
    from ..linking.base import Linker
    from .base import Hook, Language

    LANGUAGES: tuple[Language, ...]

__all__ = [
    "LANGUAGES",
    "Declaration",
    "Hook",
    "Language",
    "Linker",
    "declarations",
    "dispatch_stored",
    "index_rules",
    "interpreter_map",
    "language_named",
    "languages",
    "module_names",
    "project_file_names",
    "register",
    "routes",
    "select_declared",
    "select_languages",
    "suffix_map",
    "unregister",
]


def __getattr__(name: str) -> object:
    """The plug-in records (`Language`, `Hook`, `Linker`) and `LANGUAGES` (every built-in
    plug-in, loaded), imported when first asked for: routing a file needs none of them."""
    if name in ("Hook", "Language"):
        from . import base

        return getattr(base, name)
    if name == "Linker":
        from ..linking.base import Linker

        return Linker
    if name == "LANGUAGES":
        from . import registry

        return registry.LANGUAGES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
