"""`VectorStore`: the reads and writes of the embedding stage, for one repository (or all).

Ids are "<repo>:<qualified name>" and repository names are ASCII letters, digits and ".-_"
(see `valid_repo_name`), so one repository is one range of the unique id index, and every id
sorts below DEL (0x7f): each query bounds the ids by that range and pages through it in id
order (keyset pagination), so a chunk read once is never read again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .client import Neo4jClient
from .queries import load_query

__all__ = ["VectorStore"]

_ALL_IDS = ("", "\x7f")


class VectorStore:
    """The vectors of `repo`'s :Code nodes (every repository's when None), from `model`."""

    def __init__(self, client: Neo4jClient, repo: str | None, model: str) -> None:
        self.client = client
        self.repo = repo
        self.model = model
        self.after, self.before = (f"{repo}:", f"{repo};") if repo is not None else _ALL_IDS

    def _scope(self) -> dict[str, Any]:
        return {"repo": self.repo, "model": self.model, "after": self.after, "before": self.before}

    def count_pending(self) -> int:
        """How many nodes lack an up-to-date vector from the model."""
        return int(self.client.read(load_query("embed/count_pending"), self._scope())[0]["pending"])

    def read_pending(self, after: str, limit: int) -> list[dict[str, Any]]:
        """Up to `limit` nodes lacking an up-to-date vector, in id order after the id `after`.

        Plain rows (id, content_hash, kind, path, qualified_name, signature, docstring, code,
        cached): the embedding stage turns each at once into a ghost text or, when `cached`
        holds a vector the model already computed for the same content, reuses that vector
        (docstring and code are then not sent).
        """
        parameters = {**self._scope(), "after": after, "limit": limit}
        return self.client.read(load_query("embed/read_pending"), parameters)

    def write(self, rows: Sequence[dict[str, Any]]) -> int:
        """Store one chunk of vectors (`id`, `content_hash`, `embedding` each) in ONE write
        transaction; a node whose content changed since it was read is left pending.
        Returns how many were written."""
        result = self.client.write(
            load_query("embed/write_vectors"), {"rows": list(rows), "model": self.model}
        )
        return int(result[0]["written"])

    def forget(self, *, batch: int = 5000) -> int:
        """Mark every vector in scope, of any model, as out of date (`batch` nodes per write
        transaction); the old vectors stay searchable until recomputed. Returns how many."""
        query = load_query("embed/forget_hashes")
        parameters = {**self._scope(), "limit": batch}
        total = 0
        while forgotten := int(self.client.write(query, parameters)[0]["forgotten"]):
            total += forgotten
        return total
