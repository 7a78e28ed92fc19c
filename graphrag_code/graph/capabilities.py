"""What the connected Neo4j server can do, read once per client (`Neo4jClient.capabilities`).

Neo4j 5.26 LTS speaks Cypher 5 only; the calendar releases (2025.06+) also speak Cypher 25,
behind a `CYPHER 25` prefix while a database's default language is still Cypher 5. From
2026.01 a vector index can carry filter properties (`CREATE VECTOR INDEX … WITH [n.repo]`)
that the Cypher 25 `SEARCH` clause filters on inside the index search.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

__all__ = ["ServerCapabilities", "VectorSearchForm"]

_NUMBERS = re.compile(r"\d+")
# the first release whose vector indexes take filter properties and whose Cypher 25 has the
# vector `SEARCH` clause (Cypher manual, "Search indexes"; checked on 2026.08.1)
_VECTOR_FILTERS_SINCE = (2026, 1)


@dataclass(frozen=True)
class ServerCapabilities:
    """The server's kernel version, edition and the Cypher versions it accepts."""

    version: str  # "5.26.30", "2026.08.1", "5.27-aura"
    edition: str
    cypher_versions: tuple[str, ...] = ("5",)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ServerCapabilities:
        """From the row of `schema/server_components.cypher`."""
        return cls(
            version=str(row.get("version") or ""),
            edition=str(row.get("edition") or ""),
            cypher_versions=tuple(str(v) for v in row.get("cypher_versions") or ("5",)),
        )

    @property
    def release(self) -> tuple[int, ...]:
        """The version's numbers: (5, 26, 30), (2026, 8, 1); () when it has none."""
        return tuple(int(number) for number in _NUMBERS.findall(self.version.split("-")[0]))

    @property
    def cypher_25(self) -> bool:
        return "25" in self.cypher_versions

    @property
    def vector_search_filters(self) -> bool:
        """Whether the server runs Cypher 25 `SEARCH` over a vector index with a filter
        (`WHERE n.repo = $repo`) applied inside the index search, on indexes created with
        filter properties."""
        return self.cypher_25 and self.release >= _VECTOR_FILTERS_SINCE


class VectorSearchForm(Enum):
    """How the hybrid search's vector leg reads the vector index."""

    # `db.index.vector.queryNodes`, then the repository filter: every server; over-fetches by
    # the repository's share of the index and can still come back short
    PROCEDURE = "procedure"
    # Cypher 25 `SEARCH … WHERE node.repo = $repo`: the filter runs inside the index search
    # (2026.01+, on an index created with `WITH [n.repo]`)
    SEARCH = "search"
