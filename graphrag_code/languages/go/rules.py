"""What Go tells the repository's lookup tables: the names an incremental run compares for a
changed file beyond its symbols' names, so that a file which looked one of them up is linked
again when another file starts or stops declaring it (a package spans files, and a new file
of the package is a module nobody consulted before).
"""

from __future__ import annotations

from ...linking.rules import IndexRules
from ...model import ParsedFile, SymbolKind
from .resolver import variable_key

__all__ = ["GO_RULES", "INTERFACES_KEY", "GoIndexRules"]

INTERFACES_KEY = "go:interfaces"
"""Offered once per interface a file declares; consulted by every file declaring a type
(which interfaces it satisfies depends on all of them)."""


class GoIndexRules(IndexRules):
    def offered_names(self, parsed: ParsedFile) -> list[str]:
        names = [
            variable_key(binding.target[0])
            for binding in parsed.bindings
            if binding.scope == parsed.module and len(binding.target) == 1
        ]
        names += [
            INTERFACES_KEY
            for symbol in parsed.symbols
            if symbol.kind == SymbolKind.CLASS and symbol.declared_as == "interface"
        ]
        return names


GO_RULES = GoIndexRules()
