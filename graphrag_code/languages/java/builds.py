"""Which build module's declaration a name means, where several build modules declare it.

A multi-module build may hold one class in two modules (`core/src/main/java/p/Util.java` and
`web/src/main/java/p/Util.java`; `modules` names them apart). javac compiles a module against
its own sources and the modules it depends on, so `import p.Util;` in `web` means the one its
own sources declare, else the one of a sibling module it depends on (transitively, as Maven
and Gradle pass compile dependencies on), and is not evident otherwise. Dependencies are read
from the build files the linker is given: a `pom.xml`'s `<dependencies>` by artifactId against
the artifactIds its siblings declare, and a `build.gradle(.kts)`'s `project(':a:b')` as the
folder `a/b` (Gradle's default layout). A build file that does not parse is read as declaring
none: the importer's own module still comes first.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["BUILD_FILES", "Builds"]

BUILD_FILES = frozenset({"pom.xml", "build.gradle", "build.gradle.kts"})
_GRADLE_PROJECT = re.compile(r"""project\s*\(\s*(?:path\s*[:=]\s*)?["']:?([\w.:\-]+)["']""")


@dataclass(frozen=True)
class Builds:
    """Build module folder -> the sibling modules' folders it depends on, nearest first."""

    depends: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def read(cls, files: Mapping[str, str]) -> Builds:
        """From build files' texts by path (`core/pom.xml` -> the module `core`)."""
        artifacts: dict[str, str] = {}  # artifactId -> folder
        direct: dict[str, list[str]] = {}  # folder -> artifactIds or folders it names
        gradle: set[str] = set()
        for path, text in sorted(files.items()):
            folder, _, name = path.rpartition("/")
            if name == "pom.xml":
                own, needs = _pom(text)
                if own:
                    artifacts.setdefault(own, folder)
                direct.setdefault(folder, []).extend(needs)
            elif name in BUILD_FILES:
                gradle.add(folder)
                found = _GRADLE_PROJECT.findall(text)
                direct.setdefault(folder, []).extend(p.replace(":", "/") for p in found)
        named = {
            folder: [
                f for n in needs if (f := n if folder in gradle else artifacts.get(n)) is not None
            ]
            for folder, needs in direct.items()
        }
        return cls({folder: _closure(folder, named) for folder in named})

    def order(self, build: str, candidates: Sequence[tuple[str, str]]) -> list[str]:
        """Of candidates (declaration, its build module's folder), those `build` sees first:
        its own, else those of the nearest module it depends on; none when neither holds
        one (not evident)."""
        own = [name for name, folder in candidates if folder == build]
        if own:
            return own
        for needed in self.depends.get(build, ()):
            found = [name for name, folder in candidates if folder == needed]
            if found:
                return found
        return []


def _pom(text: str) -> tuple[str, list[str]]:
    """A `pom.xml`'s own artifactId and those of its `<dependencies>` (not those managed)."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return "", []
    for element in root.iter():
        element.tag = element.tag.rpartition("}")[2]  # drop the POM namespace
    own = root.findtext("artifactId") or ""
    needs = [d.findtext("artifactId") or "" for d in root.findall("dependencies/dependency")]
    return own.strip(), [n.strip() for n in needs if n.strip()]


def _closure(folder: str, named: Mapping[str, list[str]]) -> tuple[str, ...]:
    """`folder`'s dependencies and theirs, breadth first (the nearest first)."""
    order: list[str] = []
    queue = list(named.get(folder, ()))
    while queue:
        current = queue.pop(0)
        if current == folder or current in order:
            continue
        order.append(current)
        queue.extend(named.get(current, ()))
    return tuple(order)
