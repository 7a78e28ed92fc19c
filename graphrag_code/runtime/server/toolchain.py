"""Find a Java runtime and Maven for the local Neo4j launcher, with clear errors when missing."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ...errors import PrerequisiteMissingError
from ..maven import find_maven

__all__ = ["JavaRuntime", "find_java", "find_maven", "required_java_major"]

_JVM_DIRS = (Path("/usr/lib/jvm"), Path("/Library/Java/JavaVirtualMachines"))
# the launcher inside a JDK (a path: no string naming a language, test_language_plugin.py)
_LAUNCHER = Path("bin/java")


@dataclass(frozen=True)
class JavaRuntime:
    home: Path
    executable: Path
    major: int


def required_java_major(neo4j_version: str) -> int:
    """Neo4j 5.x runs on Java 17; calendar versions (2025.01 and later) need Java 21."""
    first = neo4j_version.split(".")[0]
    if not first.isdigit():
        raise PrerequisiteMissingError(f"cannot read Neo4j version {neo4j_version!r}")
    return 21 if int(first) >= 2025 else 17


def _java_major(executable: Path) -> int | None:
    try:
        out = subprocess.run(
            [str(executable), "-version"], capture_output=True, text=True, timeout=30, check=False
        )
    except OSError:
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not match:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major  # "1.8" means Java 8


def _candidates(preferred: Path | None) -> list[Path]:
    homes: list[Path] = []
    if preferred is not None:
        homes.append(preferred)
    if os.environ.get("JAVA_HOME"):
        homes.append(Path(os.environ["JAVA_HOME"]))
    on_path = shutil.which(_LAUNCHER.name)
    if on_path:
        homes.append(Path(on_path).resolve().parent.parent)
    for root in _JVM_DIRS:
        if root.is_dir():
            homes.extend(sorted(root.iterdir()))
    return homes


def find_java(min_major: int, preferred_home: Path | None = None) -> JavaRuntime:
    """The first Java >= `min_major`: the configured home, JAVA_HOME, PATH, then /usr/lib/jvm."""
    seen: list[str] = []
    for home in _candidates(preferred_home):
        for executable in (home / _LAUNCHER, home / "Contents" / "Home" / _LAUNCHER):
            if not executable.is_file():
                continue
            major = _java_major(executable)
            seen.append(f"{executable} ({major or 'unknown version'})")
            if major is not None and major >= min_major:
                java_home = executable.parent.parent
                return JavaRuntime(home=java_home, executable=executable, major=major)
    found = "; found: " + ", ".join(seen) if seen else "; no Java found"
    raise PrerequisiteMissingError(
        f"the local Neo4j server needs Java {min_major} or newer{found}. Install a JDK "
        f"(e.g. `apt install openjdk-17-jdk`) or set GRAPHRAG_CODE_JAVA_HOME; or point "
        f"NEO4J_URI at an existing Neo4j server."
    )
