"""`lookup_symbol()`: the definition a name refers to, and the other nodes it may mean.

Unlike `Relations.resolve`, an ambiguous name is an answer here, not an error: the candidates
are what a person (or an agent) needs to pick the qualified name they meant.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SymbolNotFoundError
from ..graph import Definition, GraphReader, SymbolRef

__all__ = ["SymbolLookup", "lookup_symbol"]


@dataclass(frozen=True)
class SymbolLookup:
    """The definition `name` names, when one matches best; the other matches, best first."""

    name: str
    definition: Definition | None  # None when several nodes match equally well
    candidates: list[SymbolRef]  # ambiguous: the equally good matches; else the weaker ones

    @property
    def ambiguous(self) -> bool:
        return self.definition is None


def lookup_symbol(
    reader: GraphReader, name: str, *, repo: str | None = None, limit: int = 10
) -> SymbolLookup:
    """Look `name` up (qualified name, short name, dotted suffix or a module's path).

    Raises `SymbolNotFoundError` when nothing matches.
    """
    matches = reader.resolve_symbol(name, repo=repo, limit=limit + 1)
    if not matches:
        raise SymbolNotFoundError(name, repo=repo)
    best = [match.symbol for match in matches if match.rank == matches[0].rank]
    if len(best) > 1:
        return SymbolLookup(name, None, best[:limit])
    definition = reader.describe([best[0].id]).get(best[0].id)
    if definition is None:  # deleted between the two reads (a watcher re-indexing)
        raise SymbolNotFoundError(name, repo=repo)
    others = [match.symbol for match in matches[1:]][:limit]
    return SymbolLookup(name, definition, others)
