"""What the last successful run of one repository left behind, for incremental runs.

Kept on local disk next to the launcher cache, keyed by server, database and repository, and
tied to the graph by a token stored on the `:Repository` node: if the graph was wiped or
written by another machine, the tokens differ and the next run is a full one.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..linking.linker import FileLinks
from ..model import ParsedFile
from ..parsing import ModuleName

__all__ = ["IndexState", "StateStore", "strip_code"]

_FORMAT = 3


@dataclass
class IndexState:
    repo: str
    token: str
    files: dict[str, str] = field(default_factory=dict)  # path -> sha256
    modules: dict[str, ModuleName] = field(default_factory=dict)  # path -> module name
    parsed: dict[str, ParsedFile] = field(default_factory=dict)  # path -> parse, code stripped
    interfaces: dict[str, str] = field(default_factory=dict)  # path -> interface hash
    links: dict[str, FileLinks] = field(default_factory=dict)
    node_ids: dict[str, list[str]] = field(default_factory=dict)  # path -> its node ids
    stats: dict[str, dict[str, Any]] = field(default_factory=dict)  # node id -> stored stats
    shadowed: frozenset[str] = frozenset()
    format: int = _FORMAT


def strip_code(parsed: ParsedFile) -> ParsedFile:
    """A parse without source text: linking needs names, not code."""
    return replace(
        parsed,
        code="",
        symbols=tuple(replace(symbol, code="") for symbol in parsed.symbols),
    )


class StateStore:
    """Loads and atomically saves `IndexState` files."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, server: str, database: str, repo: str) -> Path:
        key = hashlib.sha256(f"{server}\n{database}\n{repo}".encode()).hexdigest()[:24]
        return self.directory / f"{repo}-{key}.pickle"

    def load(self, server: str, database: str, repo: str) -> IndexState | None:
        path = self._path(server, database, repo)
        try:
            with path.open("rb") as handle:
                state = pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError, ValueError):
            return None
        if not isinstance(state, IndexState) or state.format != _FORMAT or state.repo != repo:
            return None
        return state

    def save(self, server: str, database: str, state: IndexState) -> None:
        path = self._path(server, database, state.repo)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        with temporary.open("wb") as handle:
            pickle.dump(state, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)

    def delete(self, server: str, database: str, repo: str) -> None:
        self._path(server, database, repo).unlink(missing_ok=True)
