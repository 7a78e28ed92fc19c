"""Which edge rows an incremental run must delete and write: a diff of link results.

A file is linked again when something it consulted changed (an imported module's interface,
a name it called). Most of its edges then come out the same: adding one function to a hub
module relinks every importer, yet changes a handful of their edges. Rewriting all of them
made an interface edit cost as much as re-indexing the importers (sympy `core/add.py`: 476
files relinked). Instead the state keeps, per file, a digest of each edge's properties keyed
by the edge's identity `(kind, source, target, external)`, and a run writes only the keys
whose digest changed or appeared, and deletes those that disappeared or changed.

Several link rows can share one key (the writer MERGEs them into one relationship, later rows
adding to the earlier ones' properties): the digest covers all of them in order, and a changed
key is deleted and written again whole, so the relationship ends as a clean write leaves it.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..linking.edges import FileLinks
from ..model import Edge
from .state import packed, unpacked

__all__ = ["EdgeChanges", "EdgeKey", "edge_changes"]

EdgeKey = tuple[str, str, str, bool]  # kind, source id, target id or external name, external
Digests = dict[EdgeKey, bytes]


@dataclass
class EdgeChanges:
    """What to delete and write, and the per-file digests the next state keeps."""

    # nodes whose outgoing resolved edges are all deleted (files with no digests to compare)
    wholesale_sources: set[str] = field(default_factory=set)
    delete: list[EdgeKey] = field(default_factory=list)
    write: list[Edge] = field(default_factory=list)
    digests: dict[str, bytes] = field(default_factory=dict)  # path -> packed Digests


def _key(edge: Edge) -> EdgeKey:
    return (edge.kind.value, edge.source, edge.target, edge.external)


def _grouped(edges: Iterable[Edge]) -> dict[EdgeKey, list[Edge]]:
    groups: dict[EdgeKey, list[Edge]] = defaultdict(list)
    for edge in edges:
        groups[_key(edge)].append(edge)
    return groups


def _digest(rows: list[Edge]) -> bytes:
    # repr of frozen dataclasses of strings, ints and tuples: stable across runs and processes
    return hashlib.blake2b(repr(rows).encode(), digest_size=8).digest()


def edge_changes(
    links: Mapping[str, FileLinks],
    relink: Iterable[str],
    removed: Iterable[str],
    node_ids: Mapping[str, list[str]],
    previous: Mapping[str, bytes] | None,
) -> EdgeChanges:
    """The edge rows to change for the files linked again (`relink`) and removed (`removed`).

    `previous` is the last state's digests (None on a full run: every relinked file's nodes
    lose their outgoing edges and all edges are written). Files not relinked keep their
    digests' bytes untouched.
    """
    changes = EdgeChanges()
    relinked = set(relink)
    before = previous or {}
    for path in sorted(relinked):
        groups = _grouped(links[path].edges)
        digests = {key: _digest(rows) for key, rows in groups.items()}
        changes.digests[path] = packed(digests)
        old_blob = before.get(path) if previous is not None else None
        if old_blob is None:
            changes.wholesale_sources.update(node_ids.get(path, ()))
            changes.write.extend(edge for rows in groups.values() for edge in rows)
            continue
        old: Digests = unpacked(old_blob)
        for key, digest in old.items():
            if digests.get(key) != digest:
                changes.delete.append(key)
        for key, rows in groups.items():
            if old.get(key) != digests[key]:
                changes.write.extend(rows)
    for path in sorted(set(removed) - relinked):
        blob = before.get(path)
        if blob is not None:
            changes.delete.extend(unpacked(blob))
    for path, blob in before.items():
        if path not in relinked and path in links:
            changes.digests[path] = blob
    return changes
