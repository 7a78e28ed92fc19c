"""What a cross-repository pass did to other repositories' edges, said aloud (issue 55).

Indexing a copy of rich as `rich2` once cut another repository's 110 edges into rich with
only "38 name(s) left external" said. Each pass that may change cross edges (`index`,
`diff`, `watch`, `delete`) now counts them before and after, by the repository they leave,
the package they name and the repository they end at (`Bindings`), and reports the
difference as `CrossEdgeChange`s: edges added (an `:External` became another repository's
node), removed (back to `:External`) or moved (from one provider to another), and the
ambiguous bindings it kept (`CrossEdgeKept`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["Bindings", "CrossEdgeChange", "CrossEdgeKept", "binding_changes", "bindings_of"]

# (source repository, external package) -> {repository the edges end at: edge count}
Bindings = Mapping[tuple[str, str], Mapping[str, int]]


@dataclass(frozen=True)
class CrossEdgeChange:
    """`edges` cross edges of repository `repo` that ended at repository `before` now end at
    `after` (None: an `:External` node, so not linked)."""

    repo: str
    before: str | None
    after: str | None
    edges: int

    @property
    def kind(self) -> str:
        """ "added", "removed" or "moved"."""
        if self.before is None:
            return "added"
        return "removed" if self.after is None else "moved"

    def describe(self) -> str:
        if self.before is None:
            return f"{self.repo}: {self.edges} edge(s) into {self.after} added"
        if self.after is None:
            return f"{self.repo}: {self.edges} edge(s) into {self.before} removed (now external)"
        return f"{self.repo}: {self.edges} edge(s) moved from {self.before} to {self.after}"

    def as_dict(self) -> dict[str, object]:
        return {
            "repo": self.repo,
            "kind": self.kind,
            "from": self.before,
            "to": self.after,
            "edges": self.edges,
        }


@dataclass(frozen=True)
class CrossEdgeKept:
    """Repository `repo`'s edges into `package` stayed at repository `into`, which they were
    bound to, although `others` provide the package too and `repo`'s declared dependencies
    choose none of them (`crossrepo.choose_provider`)."""

    repo: str
    package: str
    into: str
    others: tuple[str, ...]
    edges: int

    def describe(self) -> str:
        return (
            f"{self.repo}: {self.edges} edge(s) into `{self.package}` kept at {self.into} "
            f"({', '.join(self.others)} also provide(s) it; declare the dependency to choose)"
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "repo": self.repo,
            "package": self.package,
            "into": self.into,
            "also_provided_by": list(self.others),
            "edges": self.edges,
        }


def bindings_of(rows: Iterable[Mapping[str, object]]) -> dict[tuple[str, str], dict[str, int]]:
    """`Bindings` from rows of {source, package, target, edges} (crossrepo/bindings.cypher)."""
    found: dict[tuple[str, str], dict[str, int]] = {}
    for row in rows:
        key = (str(row["source"]), str(row["package"]))
        edges = row["edges"]
        found.setdefault(key, {})[str(row["target"])] = int(edges) if isinstance(edges, int) else 0
    return found


def binding_changes(
    before: Bindings, after: Bindings, *, besides: str | None = None
) -> list[CrossEdgeChange]:
    """The changes from `before` to `after` of the edges of every repository but `besides`
    (a run's own edges are its own business), one row per (repository, from, to), largest
    first. Within one (repository, package), edges lost by one target and gained by another
    count as moved; the rest as removed or added."""
    totals: Counter[tuple[str, str | None, str | None]] = Counter()
    for key in sorted(set(before) | set(after)):
        source = key[0]
        if source == besides:
            continue
        old, new = before.get(key, {}), after.get(key, {})
        lost = {t: old.get(t, 0) - new.get(t, 0) for t in sorted(set(old) | set(new))}
        gained = {t: -n for t, n in lost.items() if n < 0}
        lost = {t: n for t, n in lost.items() if n > 0}
        for old_target in sorted(lost):
            for new_target in sorted(gained):
                moved = min(lost[old_target], gained[new_target])
                if moved:
                    totals[(source, old_target, new_target)] += moved
                    lost[old_target] -= moved
                    gained[new_target] -= moved
            if lost[old_target]:
                totals[(source, old_target, None)] += lost[old_target]
        for new_target, count in gained.items():
            if count:
                totals[(source, None, new_target)] += count
    changes = [CrossEdgeChange(s, b, a, n) for (s, b, a), n in totals.items()]
    return sorted(changes, key=lambda c: (-c.edges, c.repo, c.before or "", c.after or ""))
