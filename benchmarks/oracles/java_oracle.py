"""Java oracle: javac's own answer for every import and call of a pinned Java code base.

The pinned code bases come first, in two sets (issue 52), chosen before any Java linking rule
was measured, by style and size alone (file and line counts of the ``-sources.jar``, comments
included; no graph output): ``JAVA_TUNING`` may be studied and linking rules tuned on it;
``JAVA_HELD_OUT`` is only measured — nobody tuning Java rules reads its code (a rule found on a
held-out code base moves it to the tuning set, and a new one chosen the same way takes its
place).

Maven Central's ``-sources.jar`` holds the main sources only (no tests): the main sources are
what is measured.

Never import ``graphrag_code`` from here: this oracle must stay independent of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class PinnedJar:
    """One Java code base from Maven Central, pinned by version and its sources' sha256."""

    name: str
    """Short name for the command line and the cache folder (``gson``)."""
    group: str
    artifact: str
    version: str
    sources_sha256: str
    """sha256 of ``<artifact>-<version>-sources.jar``."""
    style: str
    """What kind of code it is and how big (files / lines of .java in the sources jar)."""
    deps: tuple[str, ...] = ()
    """``group:artifact:version`` of the jars its main sources compile against."""

    @property
    def coordinates(self) -> str:
        """``group:artifact:version``, as Maven writes it."""
        return f"{self.group}:{self.artifact}:{self.version}"

    @property
    def root_name(self) -> str:
        """Folder name of the unpacked sources: ``gson-2.11.0``."""
        return f"{self.name}-{self.version}"


#: Rules may be studied and tuned on these.
JAVA_TUNING: tuple[PinnedJar, ...] = (
    PinnedJar(
        "gson",
        "com.google.code.gson",
        "gson",
        "2.11.0",
        "49a853f71bc874ee1898a4ad5009b57d0c536e5a998b3890253ffbf4b7276ad3",
        style="JSON binding: TypeAdapter / TypeAdapterFactory abstractions, reflection, many "
        "anonymous and nested classes, generics; 84 files / 18.6k lines",
        deps=("com.google.errorprone:error_prone_annotations:2.27.0",),
    ),
    PinnedJar(
        "jsoup",
        "org.jsoup",
        "jsoup",
        "1.18.1",
        "e145c1a259fe76a3570ea2d2e8e779367f4e5eb1ca86295990a5dfabe87e4d0e",
        style="HTML parser and DOM: a Node / Element / TextNode class tree with overrides, "
        "fluent overloaded builders, a tokeniser state machine as enum constants with bodies; "
        "75 files / 24.0k lines",
        deps=("org.jspecify:jspecify:0.3.0",),
    ),
)

#: Measured only; no Java linking rule is tuned on these and their code is not read to tune.
JAVA_HELD_OUT: tuple[PinnedJar, ...] = (
    PinnedJar(
        "commons-lang3",
        "org.apache.commons",
        "commons-lang3",
        "3.17.0",
        "5fdcac21ad329766054a95367d7583dfcdca737d221d5e01a5f2a198c04c6b18",
        style="large utility library: static helpers with many overloads per name "
        "(ArrayUtils, StringUtils), builders, functional interfaces; 249 files / 97.6k lines",
    ),
    PinnedJar(
        "commons-collections4",
        "org.apache.commons",
        "commons-collections4",
        "4.4",
        "93b4ff13ee810830a247dfa83bf5b73c401a591af4c11f3efb9b9da581e70452",
        style="collections built on heavy interface use (Bag, BidiMap, MultiValuedMap, "
        "Transformer / Predicate / Closure) with abstract decorators and many implementations; "
        "326 files / 70.2k lines",
    ),
)

JAVA_CODE_BASES: tuple[PinnedJar, ...] = JAVA_TUNING + JAVA_HELD_OUT

#: The sets ``--set`` names.
JAVA_SETS: Mapping[str, tuple[PinnedJar, ...]] = {
    "tuning": JAVA_TUNING,
    "heldout": JAVA_HELD_OUT,
    "all": JAVA_CODE_BASES,
}
