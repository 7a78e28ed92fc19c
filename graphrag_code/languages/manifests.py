"""What a project file declares for cross-repository links: the distributions a repository is
published as and those it depends on. Each language reads its own project files
(`Language.manifests`) and names the top-level packages its modules provide to other
repositories (`Language.packages`).

Names are normalised as PEP 503 does (`Billing_Lib` → `billing-lib`), whatever the
ecosystem, so a dependency and a distribution compare as equal strings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..text import package_name

__all__ = ["Declared", "ManifestReader", "PackageNamer", "declared", "no_packages"]


@dataclass(frozen=True)
class Declared:
    """What one project file declares, names normalised."""

    names: frozenset[str] = frozenset()  # the names the repository is published under
    dependencies: frozenset[str] = frozenset()  # the names it declares it needs


def declared(names: Iterable[str] = (), dependencies: Iterable[str] = ()) -> Declared:
    """A `Declared` of raw names (normalised here)."""
    return Declared(frozenset(map(package_name, names)), frozenset(map(package_name, dependencies)))


ManifestReader = Callable[[str], Declared]
"""The text of a project file -> what it declares (nothing for text it cannot read)."""

PackageNamer = Callable[[Mapping[str, str]], frozenset[str]]
"""The module names of a language's files (path -> module) -> the top-level packages other
repositories import from them."""


def no_packages(modules: Mapping[str, str]) -> frozenset[str]:
    """A language whose modules other repositories do not import by package name."""
    return frozenset()
