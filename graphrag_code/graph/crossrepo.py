"""Cross-repository edges: a call or import of one indexed repository that names a module or
symbol of another indexed repository is linked to that repository's node, not to an
`:External` one.

Linking writes `:External` targets as before (the linkers know one repository). This stage
then swaps each edge to an `:External` whose qualified name is a node of the repository that
provides its top-level package for an edge of the same type and properties (tier, lines)
to that node, which remembers the external it stands for (`external_name`,
`external_package`). Releasing turns such edges back, so deleting or re-indexing either side
never leaves a dangling or stale edge: every run first releases the cross edges it may
change, then resolves again.

Which repository provides a package (`choose_provider`), for the edges of one repository:

1. the only indexed repository that provides it (never the repository itself);
2. of several, the one the repository's declared dependencies name (by distribution or
   repository name);
3. of several that the declarations do not tell apart, the one the repository's edges into
   that package were bound to before this pass, if any: a second copy of a package (rich
   indexed again as `rich2`, a fork, a vendored copy) neither steals the edges nor cuts them.
   Issue 55: indexing a copy of rich released another repository's 110 edges into rich to
   `:External`, saying only "38 name(s) left external". The binding is per (repository,
   package), so a name the repository starts to use later follows its other edges there;
4. otherwise none: the edges stay `:External` and are counted as ambiguous.

So the graph is the same in every order of indexing except where (3) applies: there the
first provider linked keeps the edges until it is deleted (then the other, now the only one,
takes them) or a declared dependency chooses. Every pass counts other repositories' cross
edges before and after (`crossedges.py`) and reports what it added, removed or moved, and
each binding it kept under (3), naming the repositories and edge counts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..text import package_name
from .client import Neo4jClient
from .crossedges import Bindings, CrossEdgeChange, CrossEdgeKept, binding_changes, bindings_of
from .queries import load_query

__all__ = ["CrossRepoLinker", "CrossRepoResult", "Provider", "Touching", "choose_provider"]

_BATCH = 5000


@dataclass(frozen=True)
class Provider:
    """What the :Repository node says about a repository."""

    repo: str
    packages: frozenset[str]
    distributions: frozenset[str]
    dependencies: frozenset[str]

    def named(self, wanted: frozenset[str]) -> bool:
        """Whether `wanted` (normalised dependency names) names this repository."""
        return bool(self.distributions & wanted) or package_name(self.repo) in wanted


@dataclass(frozen=True)
class CrossRepoResult:
    linked: int  # edges linked to another repository's node in this pass
    ambiguous: int  # external names left unresolved: several providers, no declared choice
    edges: int  # cross-repository edges leaving or entering the repository afterwards
    # other repositories' cross edges this pass added, removed or moved
    changes: tuple[CrossEdgeChange, ...] = ()
    # bindings kept although several repositories provide the package (rule 3)
    kept: tuple[CrossEdgeKept, ...] = ()


def choose_provider(
    source: str, package: str, providers: Sequence[Provider], *, bound: str | None = None
) -> tuple[str | None, bool]:
    """The repository `source`'s references to `package` resolve into, and whether the choice
    was ambiguous (several providers, none, or more than one, among `source`'s declared
    dependencies): then `bound`, the repository `source`'s edges into `package` end at now,
    keeps them if it is one of those (an ambiguous choice with a target). A repository never
    provides to itself."""
    if any(p.repo == source and package in p.packages for p in providers):
        return None, False  # its own namespace: what it does not define is not another's
    candidates = [p for p in providers if package in p.packages and p.repo != source]
    if len(candidates) == 1:
        return candidates[0].repo, False
    if not candidates:
        return None, False
    own = next((p for p in providers if p.repo == source), None)
    declared = own.dependencies if own is not None else frozenset()
    chosen = [p for p in candidates if p.named(declared)]
    if len(chosen) == 1:
        return chosen[0].repo, False
    if bound is not None and any(p.repo == bound for p in chosen or candidates):
        return bound, True
    return None, True


@dataclass(frozen=True)
class Touching:
    """The cross-repository edges of one repository: how many leave it, and how many enter
    it by the external package they stand for."""

    leaving: int
    entering: Mapping[str, int]

    @property
    def total(self) -> int:
        return self.leaving + sum(self.entering.values())

    def entering_any(self, packages: Iterable[str]) -> bool:
        return any(self.entering.get(package, 0) for package in packages)


class CrossRepoLinker:
    """Keeps the cross-repository edges of one database true (one pass per indexed,
    re-indexed or deleted repository)."""

    def __init__(self, client: Neo4jClient) -> None:
        self.client = client

    def providers(self) -> list[Provider]:
        return [
            Provider(
                row["repo"],
                frozenset(row["packages"]),
                frozenset(row["distributions"]),
                frozenset(row["dependencies"]),
            )
            for row in self.client.read(load_query("crossrepo/providers"))
        ]

    def publish(
        self,
        repo: str,
        *,
        packages: Iterable[str],
        distributions: Iterable[str],
        dependencies: Iterable[str],
    ) -> None:
        """Record on `repo`'s node what it provides and what it depends on (before its nodes
        are written, so a concurrent run on another repository already counts it)."""
        self.client.write(
            *self.publish_statement(
                repo, packages=packages, distributions=distributions, dependencies=dependencies
            )
        )

    @staticmethod
    def publish_statement(
        repo: str,
        *,
        packages: Iterable[str],
        distributions: Iterable[str],
        dependencies: Iterable[str],
    ) -> tuple[str, dict[str, Any]]:
        """The statement `publish` sends, to send with others in one transaction."""
        return load_query("crossrepo/write_packages"), {
            "repo": repo,
            "packages": sorted(set(packages)),
            "distributions": sorted(set(distributions)),
            "dependencies": sorted(set(dependencies)),
        }

    def release(
        self,
        *,
        ids: Sequence[str] = (),
        into: str | None = None,
        packages: Sequence[str] | None = None,
        source: str | None = None,
    ) -> int:
        """Turn cross edges back into `:External` ones: those into the nodes `ids`, those
        into repository `into` for `packages` (None: all), those leaving repository
        `source`."""
        query = load_query("crossrepo/release")
        released = 0
        for start in range(0, max(len(ids), 1), _BATCH):
            parameters = {
                "ids": list(ids[start : start + _BATCH]),
                "into": into,
                "packages": None if packages is None else list(packages),
                "from": source,
                "limit": _BATCH,
            }
            while count := int(self.client.write(query, parameters)[0]["released"]):
                released += count
        return released

    def bindings(self, repo: str | None, packages: Iterable[str]) -> Bindings:
        """The cross edges leaving `repo` or naming one of `packages`, counted by source
        repository, package and target repository: what a pass compares before and after,
        and the bindings an ambiguous choice keeps."""
        rows = self.client.read(
            load_query("crossrepo/bindings"), {"repo": repo, "packages": sorted(set(packages))}
        )
        return bindings_of(rows)

    def link(
        self,
        repo: str,
        *,
        previous_packages: Iterable[str] = (),
        before: Bindings | None = None,
    ) -> CrossRepoResult:
        """After `repo` was written: resolve its own `:External` targets that another
        repository provides, and every repository's targets in the packages `repo` provides
        now or provided before (`previous_packages`). `before`: `bindings` of `repo` and
        those packages taken before the run wrote anything (its writes drop the cross edges
        of the files they rewrite); read here when not given."""
        providers = self.providers()
        if all(p.repo == repo for p in providers):
            return CrossRepoResult(0, 0, 0)  # alone in the database: nothing can cross
        own = next((p for p in providers if p.repo == repo), None)
        affected = sorted(set(previous_packages) | (set(own.packages) if own else set()))
        others = {pkg for p in providers if p.repo != repo for pkg in p.packages}
        if before is None:
            before = self.bindings(repo, affected)
        # every edge this pass may decide again goes back to :External first
        self.release(source=repo)
        for provider in providers:
            shared = sorted(set(affected) & provider.packages)
            if shared or provider.repo == repo:
                self.release(into=provider.repo, packages=affected)
        linked, ambiguous, kept = self._resolve(
            providers, packages=affected, repo=repo, repo_packages=sorted(others), bound=before
        )
        after = self.bindings(repo, affected)
        return CrossRepoResult(
            linked,
            ambiguous,
            self.edges(repo),
            tuple(binding_changes(before, after, besides=repo)),
            _kept(kept, after),
        )

    def forget(self, repo: str) -> CrossRepoResult:
        """Before `repo` is deleted: every cross edge into it goes back to `:External`; once
        it is gone (`relink`), another provider of its packages may take them."""
        return CrossRepoResult(self.release(into=repo), 0, 0)

    def relink(self, packages: Iterable[str], *, bound: Bindings | None = None) -> CrossRepoResult:
        """Resolve every repository's `:External` targets in `packages` again (`bound`: the
        bindings before, which an ambiguous choice keeps)."""
        linked, ambiguous, kept = self._resolve(
            self.providers(),
            packages=sorted(set(packages)),
            repo=None,
            repo_packages=[],
            bound=bound or {},
        )
        after = self.bindings(None, packages)
        return CrossRepoResult(linked, ambiguous, 0, (), _kept(kept, after))

    def edges(self, repo: str) -> int:
        """Cross-repository edges leaving or entering `repo`."""
        return self.touching(repo).total

    def touching(self, repo: str) -> Touching:
        rows = self.client.read(load_query("crossrepo/touching"), {"repo": repo})
        leaving = sum(int(row["edges"]) for row in rows if row["package"] is None)
        entering = {
            str(row["package"]): int(row["edges"]) for row in rows if row["package"] is not None
        }
        return Touching(leaving, entering)

    def _reexported(self, names: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """(external name, providing repository) -> the qualified name of the node a module
        of that repository re-exports under that name, for names that are no node there."""
        query = load_query("crossrepo/reexports")
        ordered = [{"name": name, "target": target} for name, target in sorted(names)]
        found: dict[tuple[str, str], str] = {}
        for start in range(0, len(ordered), _BATCH):
            for row in self.client.read(query, {"rows": ordered[start : start + _BATCH]}):
                found[(row["name"], row["target"])] = row["node"]
        return found

    def _resolve(
        self,
        providers: Sequence[Provider],
        *,
        packages: Sequence[str],
        repo: str | None,
        repo_packages: Sequence[str],
        bound: Bindings,
    ) -> tuple[int, int, list[tuple[str, str, str, tuple[str, ...]]]]:
        """Link the `:External` targets another repository provides: (edges linked, names
        left ambiguous, (source, package, kept target, other providers) of rule 3)."""
        names = self.client.read(
            load_query("crossrepo/names_to_resolve"),
            {"packages": list(packages), "repo": repo, "repo_packages": list(repo_packages)},
        )
        by_source: Mapping[tuple[str, str], list[str]] = defaultdict(list)
        for row in names:
            by_source[(row["repo"], row["package"])].append(row["name"])
        rows: list[dict[str, str | None]] = []
        ambiguous = 0
        kept: list[tuple[str, str, str, tuple[str, ...]]] = []
        for (source, package), externals in sorted(by_source.items()):
            earlier = bound.get((source, package), {})
            target, unsure = choose_provider(
                source, package, providers, bound=next(iter(earlier)) if len(earlier) == 1 else None
            )
            if unsure and target is None:
                ambiguous += len(externals)
            elif unsure and target is not None:
                others = sorted(
                    p.repo
                    for p in providers
                    if package in p.packages and p.repo not in (source, target)
                )
                kept.append((source, package, target, tuple(others)))
            if target is not None:
                rows.extend({"repo": source, "name": n, "target": target} for n in externals)
        nodes = self._reexported({(str(r["name"]), str(r["target"])) for r in rows})
        for row in rows:
            row["node"] = nodes.get((str(row["name"]), str(row["target"])))
        linked = 0
        query = load_query("crossrepo/resolve")
        for start in range(0, len(rows), _BATCH):
            result = self.client.write(query, {"rows": rows[start : start + _BATCH]})
            linked += int(result[0]["linked"])
        resolved = sorted({str(row["name"]) for row in rows})
        if resolved:
            self.client.write(
                load_query("ingest/delete_orphan_externals_named"), {"names": resolved}
            )
        return linked, ambiguous, kept


def _kept(
    kept: Iterable[tuple[str, str, str, tuple[str, ...]]], after: Bindings
) -> tuple[CrossEdgeKept, ...]:
    """The kept bindings with the edges they hold after the pass."""
    return tuple(
        CrossEdgeKept(
            source, package, target, others, after.get((source, package), {}).get(target, 0)
        )
        for source, package, target, others in kept
    )
