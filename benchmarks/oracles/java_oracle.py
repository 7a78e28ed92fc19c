"""Java oracle: javac's own answer for every import and call of a pinned Java code base.

The pinned code bases come first, in two sets (issue 52), chosen before any Java linking rule
was measured, by style and size alone (file and line counts of the ``-sources.jar``, comments
included; no graph output): ``JAVA_TUNING`` may be studied and linking rules tuned on it;
``JAVA_HELD_OUT`` is only measured — nobody tuning Java rules reads its code (a rule found on a
held-out code base moves it to the tuning set, and a new one chosen the same way takes its
place).

Maven Central's ``-sources.jar`` holds the main sources only (no tests): the main sources are
what is measured.

Usage (from the repository root; a JDK (javac >= 17) and ``mvn`` on PATH, Maven Central
reachable the first time)::

    python -m benchmarks.oracles.java_oracle                  # the tuning set: counts
    python -m benchmarks.oracles.java_oracle --set all        # or heldout; or names: gson jsoup

Per pinned code base: ``mvn dependency:copy`` fetches its ``-sources.jar``, its jar and the jars
of its compile dependencies into ``benchmarks/cache/oracles/java/jars/``; the sources jar's
sha256 is checked against the pin and its ``.java`` files are unpacked into
``benchmarks/cache/oracles/java/<name>-<version>/``; the oracle program
(``benchmarks/oracles/java/JavaOracle.java``, compiled once per version of its source into
``benchmarks/cache/java-oracle/<stamp>/``) attributes every file with javac, the dependency
jars on the class path, and writes ``<name>-<version>.v2.json`` beside that folder
(``OUTPUT_SUFFIX``). The format is in ``benchmarks/oracles/README.md``.

Never import ``graphrag_code`` from here: this oracle must stay independent of it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import zipfile
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import CACHE_DIR, ORACLE_OUT_DIR

JsonDict = dict[str, Any]

ORACLE_SOURCE = Path(__file__).resolve().parent / "java" / "JavaOracle.java"
"""The oracle program: one Java file, the JDK's own compiler API only."""
BUILD_DIR = CACHE_DIR / "java-oracle"
"""Where the oracle program is compiled: one folder per version of its source (a stamp)."""
JAVA_OUT_DIR = ORACLE_OUT_DIR / "java"
"""Unpacked sources, the fetched jars and the oracle's JSON files."""
JARS_DIR = JAVA_OUT_DIR / "jars"
OUTPUT_SUFFIX = ".v2.json"
"""The oracle output's version, part of its file name: v2 (stop 64) adds javac's implicit
`super()` calls (kind "super", "implicit": true) and places a record's implicit accessors at
their components; v1 (`<name>-<version>.json`, kept in the shared cache for whoever reads it)
had neither."""

_EXPORTS = ["--add-exports", "jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED"]
_DONE_MARKER = ".unpacked-ok"
_TIMEOUT_S = 1800


class OracleSetupError(RuntimeError):
    """java / javac / mvn is missing, a download or run failed, or a jar does not match its pin."""


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


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        hint = "install Maven" if name == "mvn" else "install a JDK (17 or later)"
        raise OracleSetupError(f"the Java oracle needs `{name}` on PATH: {hint}")
    return path


def _run(args: Sequence[str], cwd: Path, what: str) -> str:
    """Run a command; its stdout, or an OracleSetupError saying what failed."""
    completed = subprocess.run(
        list(args), cwd=cwd, capture_output=True, text=True, timeout=_TIMEOUT_S, check=False
    )
    if completed.returncode != 0:
        tail = (completed.stderr + completed.stdout).strip()[-2000:]
        raise OracleSetupError(f"{what} failed ({' '.join(args[:3])} ...):\n{tail}")
    return completed.stdout


def build_oracle() -> Path:
    """Compile the oracle program once per version of its source; the class folder."""
    stamp = hashlib.sha256(ORACLE_SOURCE.read_bytes()).hexdigest()
    folder = BUILD_DIR / stamp[:16]
    marker = folder / ".built"
    if marker.is_file() and marker.read_text(encoding="utf-8") == stamp:
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    print(f"compiling the Java oracle into {folder}")
    _run(
        [_tool("javac"), "-d", str(folder), *_EXPORTS, str(ORACLE_SOURCE)],
        folder,
        "compiling the Java oracle",
    )
    marker.write_text(stamp, encoding="utf-8")
    return folder


def _jar(coordinates: str, classifier: str = "") -> Path:
    """Fetch one artifact from Maven Central into JARS_DIR (once); its path."""
    _group, artifact, version = coordinates.split(":")
    name = f"{artifact}-{version}{'-' + classifier if classifier else ''}.jar"
    path = JARS_DIR / name
    if path.is_file():
        return path
    JARS_DIR.mkdir(parents=True, exist_ok=True)
    spec = f"{coordinates}:jar:{classifier}" if classifier else coordinates
    _run(
        [
            _tool("mvn"),
            "-q",
            "-B",
            "dependency:copy",
            f"-Dartifact={spec}",
            f"-DoutputDirectory={JARS_DIR}",
        ],
        JARS_DIR,
        f"fetching {spec} from Maven Central",
    )
    if not path.is_file():
        raise OracleSetupError(f"mvn dependency:copy of {spec} left no {path}")
    return path


def source_root(entry: PinnedJar) -> Path:
    """Where the unpacked sources live (whether or not they are there yet)."""
    return JAVA_OUT_DIR / entry.root_name


def fetch(entry: PinnedJar) -> tuple[Path, list[Path]]:
    """Fetch, check and unpack the sources, fetch the jars; (source root, class path)."""
    target = source_root(entry)
    class_path = [_jar(dep) for dep in entry.deps]
    _jar(entry.coordinates)  # the compiled jar: fetched for reference, not on the class path
    if (target / _DONE_MARKER).is_file():
        return target, class_path
    sources = _jar(entry.coordinates, "sources")
    digest = hashlib.sha256(sources.read_bytes()).hexdigest()
    if digest != entry.sources_sha256:
        raise OracleSetupError(
            f"{sources.name}: sha256 {digest} is not the pinned {entry.sources_sha256}"
        )
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    with zipfile.ZipFile(sources) as archive:
        for member in archive.namelist():
            if (
                member.endswith(".java")
                and not member.startswith(("/", ".."))
                and ".." not in member
            ):
                archive.extract(member, target)
    (target / _DONE_MARKER).write_text(digest, encoding="utf-8")
    return target, class_path


def output_path(entry: PinnedJar) -> Path:
    """The JSON file the oracle writes for `entry`."""
    return JAVA_OUT_DIR / f"{entry.root_name}{OUTPUT_SUFFIX}"


def run_oracle(entry: PinnedJar, *, force: bool = False) -> JsonDict:
    """The oracle's output for one code base, computed once and cached."""
    path = output_path(entry)
    if force or not path.is_file():
        classes = build_oracle()
        root, class_path = fetch(entry)
        print(f"attributing {entry.coordinates} with javac")
        _run(
            [
                _tool("java"),
                "-cp",
                str(classes),
                *_EXPORTS,
                "JavaOracle",
                str(root),
                os.pathsep.join(str(jar) for jar in class_path),
                str(path),
            ],
            root,
            f"the Java oracle on {entry.coordinates}",
        )
    loaded: JsonDict = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def pinned(name: str) -> PinnedJar:
    """The pinned code base called `name` (short name, coordinates or folder name)."""
    for entry in JAVA_CODE_BASES:
        if name in (entry.name, entry.coordinates, entry.root_name):
            return entry
    known = ", ".join(entry.name for entry in JAVA_CODE_BASES)
    raise OracleSetupError(f"{name!r} is not a pinned Java code base (pinned: {known})")


def summarize(output: JsonDict) -> JsonDict:
    """Counts for the summary table."""
    calls = output["calls"]
    kinds = Counter(call["kind"] for call in calls)
    sites = output["dispatch"]
    return {
        "files": len(output["files"]),
        "decls": len(output["decls"]),
        "imports": len(output["imports"]),
        "calls": len(calls),
        "in_sources_callee": sum(1 for c in calls if c["callee"] and "file" in c["callee"]),
        "unresolved": sum(1 for c in calls if c["callee"] is None),
        **{f"kind_{kind}": count for kind, count in sorted(kinds.items())},
        "dispatch_sites": len(sites),
        "dispatch_sites_with_targets": sum(1 for site in sites if site["targets"]),
        "errors": len(output["errors"]),
        "wall_time_s": output["wall_time_s"],
    }


def main(argv: list[str] | None = None) -> int:
    """Command line: run the oracle on pinned code bases and print their counts."""
    parser = argparse.ArgumentParser(description="javac's Trees API as an oracle")
    parser.add_argument("names", nargs="*", metavar="NAME", help="pinned code bases")
    parser.add_argument("--set", choices=sorted(JAVA_SETS), default="tuning")
    parser.add_argument("--force", action="store_true", help="recompute cached outputs")
    args = parser.parse_args(argv)
    try:
        entries = [pinned(name) for name in args.names] or list(JAVA_SETS[args.set])
        for entry in entries:
            summary = summarize(run_oracle(entry, force=args.force))
            print(f"{entry.coordinates}: " + ", ".join(f"{k}={v}" for k, v in summary.items()))
    except OracleSetupError as error:
        print(f"error: {error}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
