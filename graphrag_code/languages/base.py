"""What a language plug-in is: one `Language` record binding its files, parser, linker, module
naming and conventions. Each language folder declares its records in its `plugin.py`; the
registry lists them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..conventions import Conventions
from ..linking.base import Linker
from ..linking.rules import PLAIN_RULES, IndexRules
from ..parsing import ModuleName, SourceParser

__all__ = ["Language", "ModuleNamer", "block_comment"]

ModuleNamer = Callable[[list[str], frozenset[str], str | None], dict[str, ModuleName]]
"""Paths of a language's files, the module names the repository imports, the root folder's
name -> the module name of each file (its qualified-name scheme)."""


def block_comment(text: str) -> str:
    """`/** text */`: a documentation comment as the C family writes one."""
    return f"/** {text} */"


@dataclass(frozen=True)
class Language:
    """A language plug-in. `name` is the `language` property of its nodes; `aliases` are
    what `index --languages` accepts besides the name."""

    name: str
    aliases: tuple[str, ...]
    suffixes: tuple[str, ...]
    interpreters: tuple[str, ...]  # shebang programs of extension-less scripts
    parser: type[SourceParser]
    linker: Linker
    module_names: ModuleNamer
    conventions: Conventions  # its tests, fixtures and entry points
    # a paragraph of documentation as the language writes it beside code (context for LLMs)
    doc_comment: Callable[[str], str] = field(default=block_comment)
    # its linker stores the calls that may reach an override as CALLS edges (tier `dispatch`);
    # for the others, `callers` and `impact` derive them from INHERITS at query time
    dispatch_edges: bool = False
    # what it tells the repository's lookup tables (properties, overloads, signature buckets)
    index_rules: IndexRules = field(default=PLAIN_RULES)
