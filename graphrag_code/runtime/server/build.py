"""Build the Java launcher (pom.xml + Launcher.java shipped in the package) with Maven, once.

The build lands in `<cache_dir>/launcher/<neo4j version>-<source hash>/`; a later call with the
same version and sources reuses it. A file lock keeps two processes from building at once.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ...errors import LocalServerError
from ..folders import writable_folder
from .toolchain import JavaRuntime, find_maven

__all__ = ["LauncherBuild", "build_launcher"]

_SOURCES = ("pom.xml", "src/main/java/io/graphragcode/launcher/Launcher.java")
MAIN_CLASS = "io.graphragcode.launcher.Launcher"


@dataclass(frozen=True)
class LauncherBuild:
    directory: Path
    neo4j_version: str

    @property
    def jar(self) -> Path | None:
        """The launcher's own jar, which `mvn package` writes beside its classes (a class
        path of jars only can be archived for class-data sharing, `class_share.py`)."""
        jars = sorted((self.directory / "target").glob("graphrag-code-neo4j-launcher-*.jar"))
        return jars[-1] if jars else None

    @property
    def classpath(self) -> str:
        target = self.directory / "target"
        own = self.jar or target / "classes"
        return f"{own}{os.pathsep}{target / 'lib' / '*'}"


def _source_bytes() -> dict[str, bytes]:
    root = resources.files("graphrag_code").joinpath("launcher")
    return {name: root.joinpath(name).read_bytes() for name in _SOURCES}


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_launcher(
    neo4j_version: str, java: JavaRuntime, cache_dir: Path, *, quiet: bool = True
) -> LauncherBuild:
    """Build (or reuse) the launcher for `neo4j_version` and return where it lives."""
    sources = _source_bytes()
    digest = hashlib.sha256(b"".join(sources[name] for name in _SOURCES)).hexdigest()[:12]
    directory = cache_dir / "launcher" / f"{neo4j_version}-{digest}"
    stamp = directory / "target" / "BUILT"
    build = LauncherBuild(directory=directory, neo4j_version=neo4j_version)
    if stamp.exists():
        return build
    writable_folder(cache_dir / "launcher", setting="GRAPHRAG_CODE_CACHE_DIR")
    with _locked(cache_dir / "launcher" / ".build.lock"):
        if stamp.exists():  # another process finished the build while we waited
            return build
        mvn = find_maven()
        if directory.exists():
            shutil.rmtree(directory)
        for name, data in sources.items():
            target = directory / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        release = "21" if java.major >= 21 and not neo4j_version.startswith("5.") else "17"
        command = [
            str(mvn),
            "-B",
            "package",
            f"-Dneo4j.version={neo4j_version}",
            f"-Djava.release={release}",
        ]
        if quiet:
            command.insert(1, "-q")
        env = dict(os.environ, JAVA_HOME=str(java.home))
        log = directory / "build.log"
        with log.open("w") as out:
            result = subprocess.run(
                command, cwd=directory, env=env, stdout=out, stderr=subprocess.STDOUT, check=False
            )
        if result.returncode != 0:
            tail = log.read_text(errors="replace").splitlines()[-25:]
            raise LocalServerError(
                f"Maven could not build the Neo4j {neo4j_version} launcher (exit "
                f"{result.returncode}); full log: {log}\n" + "\n".join(tail)
            )
        stamp.write_text(neo4j_version)
    return build
