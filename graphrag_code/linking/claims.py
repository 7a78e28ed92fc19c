"""Edges into a module name that files under several import roots claim (`src/dup/util.py` and
`lib/dup/util.py` are both `dup.util`).

The lookup tables index one of them (`RepositoryIndex.shadowed_files` holds the others), so
every linker resolves `from dup.util import helper` to that one, from whichever root. Which
file Python imports depends on the order of `sys.path`; the one in the importer's own root is
the likely one, and only an edge from that root to its own file may stay certain (issue 57:
`src`'s call got an `exact` edge to `lib`'s helper). So an edge into a claimed module from
another root is moved to the same name in the importer's own root, or, where its root holds
none, kept as a `name` match that says why.
"""

from __future__ import annotations

from dataclasses import replace
from weakref import WeakKeyDictionary

from ..model import Edge, ParsedFile, Resolution
from .edges import FileLinks, NodeIds
from .index import RepositoryIndex

__all__ = ["import_root", "settle_claims"]


def import_root(parsed: ParsedFile) -> str | None:
    """The folder a file's module name counts from (`src` for `src/dup/util.py` named
    `dup.util`, "" at the repository root); None when its path does not end in its module
    name (a name not made of folders)."""
    folders = parsed.path.split("/")[:-1]
    parts = parsed.module.split(".")
    if not parsed.is_package:
        parts = parts[:-1]  # the file's own name
    start = len(folders) - len(parts)
    if start < 0 or folders[start:] != parts:
        return None
    return "/".join(folders[:start])


def settle_claims(
    links: FileLinks, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds
) -> FileLinks:
    """`links` of `parsed` with each edge into a claimed module from another root moved to
    the importer's own root, or made a `name` match (unchanged when no name is claimed
    twice)."""
    if not index.shadowed_files:
        return links
    targets = _claimed_targets(index, ids)
    if not any(not e.external and e.target in targets for e in links.edges):
        return links
    root = import_root(parsed)
    settled: dict[tuple[str, str, str], Edge] = {}
    for edge in links.edges:
        claimed = None if edge.external else targets.get(edge.target)
        if claimed is not None:
            edge = _settled(edge, claimed, root, index, ids)
        key = (edge.kind.value, edge.source, edge.target)
        kept = settled.get(key)
        settled[key] = edge if kept is None else _merged(kept, edge)
    return links.with_edges(list(settled.values()))


# per run (its `NodeIds`), the claimed targets: worked out once, not once a file
_TARGETS: WeakKeyDictionary[NodeIds, dict[str, tuple[str, str]]] = WeakKeyDictionary()


def _claimed_targets(index: RepositoryIndex, ids: NodeIds) -> dict[str, tuple[str, str]]:
    """Node id -> (module, qualified name) of every node of an indexed claimed module."""
    known = _TARGETS.get(ids)
    if known is not None and ids.index is index:
        return known
    targets: dict[str, tuple[str, str]] = {}
    for module in index.shadowed_files:
        winner = index.modules[module].parsed
        targets[ids.of_target(module)] = (module, module)
        for symbol in winner.symbols:
            if symbol.ordinal == 1 and symbol.qualified_name != module:
                targets[ids.of_target(symbol.qualified_name)] = (module, symbol.qualified_name)
    _TARGETS[ids] = targets
    return targets


def _settled(
    edge: Edge,
    claimed: tuple[str, str],
    root: str | None,
    index: RepositoryIndex,
    ids: NodeIds,
) -> Edge:
    module, name = claimed
    winner = index.modules[module].parsed
    if root is not None and import_root(winner) == root:
        return edge  # its own root's file
    for twin in index.shadowed_files[module]:
        if root is None or import_root(twin) != root:
            continue
        if name == module:
            return replace(edge, target=ids.of_module(twin))
        if any(s.qualified_name == name and s.ordinal == 1 for s in twin.symbols):
            return replace(edge, target=ids.of_symbol(name, path=twin.path))
    if edge.resolution is None or edge.resolution.rank < Resolution.INFERRED.rank:
        return edge
    paths = ", ".join(sorted([winner.path, *(f.path for f in index.shadowed_files[module])]))
    return replace(
        edge, resolution=Resolution.NAME, via=f"`{module}` is the module of several files: {paths}"
    )


def _merged(kept: Edge, edge: Edge) -> Edge:
    """Two edges that came to join the same nodes: lines together, the surer resolution."""
    surer = kept
    if edge.resolution is not None and (
        kept.resolution is None or edge.resolution.rank > kept.resolution.rank
    ):
        surer = edge
    return replace(surer, lines=tuple(sorted(set(kept.lines) | set(edge.lines))))
