"""Languages: one folder each, and the registry that routes files to them.

A language folder (`python/`, `ecmascript/`) holds everything that knows the language: its
parser and tree-sitter queries, module naming, linker and resolvers, conventions. It emits and
consumes the records every stage shares (`model`), builds on the language-neutral cores
(`parsing`, `linking`, `conventions`), and declares its `Language` records in its
`plugin.py`. The registry lists them and routes files by suffix or by the interpreter of a
shebang line. Nothing after linking knows a node's language except through its `language`
property; language folders never import each other.
"""

from __future__ import annotations

from .base import Hook
from .registry import (
    LANGUAGES,
    Language,
    Linker,
    dispatch_stored,
    index_rules,
    interpreter_map,
    language_named,
    languages,
    module_names,
    project_file_names,
    register,
    routes,
    select_languages,
    suffix_map,
    unregister,
)

__all__ = [
    "LANGUAGES",
    "Hook",
    "Language",
    "Linker",
    "dispatch_stored",
    "index_rules",
    "interpreter_map",
    "language_named",
    "languages",
    "module_names",
    "project_file_names",
    "register",
    "routes",
    "select_languages",
    "suffix_map",
    "unregister",
]
