"""The language registry: which parser and which linker read which files.

A language plug-in is a parser (`parsing/<lang>.py` + `parsing/queries/<lang>*.scm`) and a
linker (`linking/<lang>.py`) that emit and consume the same records for every language; this
package joins the two, one `Language` entry each, and routes files to them by suffix or by
the interpreter of a shebang line. Nothing after linking knows a node's language except
through its `language` property.
"""

from __future__ import annotations

from .registry import (
    LANGUAGES,
    Language,
    Linker,
    interpreter_map,
    language_named,
    module_names,
    project_file_names,
    select_languages,
    suffix_map,
)

__all__ = [
    "LANGUAGES",
    "SUFFIXES",
    "Language",
    "Linker",
    "interpreter_map",
    "language_named",
    "module_names",
    "project_file_names",
    "select_languages",
    "suffix_map",
]

SUFFIXES: dict[str, str] = suffix_map(LANGUAGES)
"""File suffix -> language, for every supported language."""
