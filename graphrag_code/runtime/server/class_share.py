"""The JVM options that keep the launcher's loaded classes in a class-data-sharing archive.

A Neo4j start spends much of its CPU loading and verifying the same ~10,000 classes from
200 jars. A dynamic CDS archive, written when one server exits and mapped by the next, cut a
start's CPU by ~27 % here (start + stop: 17.6-19.3 s → 12.8-14.1 s on a loaded machine),
which every auto-starting command and every test server gains.

The JVM writes an archive only at exit (`ArchiveClassesAtExit`), and a server killed while
writing leaves a truncated file that crashes the next JVM mapping it (SIGBUS, seen on Java
17). So each start that finds no archive has its own written under a name of its own (two
servers exiting at once cannot mix their bytes), and a later start adopts a finished one only
after a JVM has mapped it with `-Xshare:on` (which fails instead of running without it).
The JVM checks an adopted archive at every start (its own build, each jar's size and time)
and runs without it where it no longer fits.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import subprocess
from pathlib import Path

from .build import LauncherBuild
from .processes import running_with_argument
from .toolchain import JavaRuntime

__all__ = ["class_share_options"]

_PARTIAL = ".partial-"
_DUMP_AT_EXIT = "-XX:ArchiveClassesAtExit="


def class_share_options(build: LauncherBuild, java: JavaRuntime) -> list[str]:
    """JVM options for `java` running `build`; none where the class path holds a folder
    (the JVM refuses to archive classes loaded from one)."""
    if build.jar is None:
        return []
    archive = _archive_path(build, java)
    archive.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not archive.exists():
        _adopt_finished_dump(archive, build, java)
    if archive.exists():
        return [f"-XX:SharedArchiveFile={archive}"]
    return [f"{_DUMP_AT_EXIT}{archive}{_PARTIAL}{secrets.token_hex(6)}"]


def _archive_path(build: LauncherBuild, java: JavaRuntime) -> Path:
    """One archive per Java installation: a JDK updated in place gets a new one."""
    executable = java.executable.resolve()
    try:
        stamp = f"{executable}:{executable.stat().st_mtime_ns}"
    except OSError:
        stamp = str(executable)
    digest = hashlib.sha256(stamp.encode()).hexdigest()[:12]
    return build.directory / "class-share" / f"jvm{java.major}-{digest}.jsa"


def _adopt_finished_dump(archive: Path, build: LauncherBuild, java: JavaRuntime) -> None:
    """Move the newest finished dump that maps cleanly into place; drop the others."""
    finished = [
        candidate
        for candidate in archive.parent.glob(f"{archive.name}{_PARTIAL}*")
        # a dump still named in a live command line is being written (or will be, at exit)
        if not running_with_argument(f"{_DUMP_AT_EXIT}{candidate}")
    ]
    # another start may adopt or drop the same files meanwhile: either outcome is fine
    with contextlib.suppress(OSError):
        finished.sort(key=lambda path: path.stat().st_mtime_ns, reverse=True)
        for candidate in finished:
            if not archive.exists() and _maps_cleanly(candidate, build, java):
                os.replace(candidate, archive)
            else:
                candidate.unlink(missing_ok=True)


def _maps_cleanly(candidate: Path, build: LauncherBuild, java: JavaRuntime) -> bool:
    """Whether a JVM maps `candidate` for `build`'s class path (half a second)."""
    command = [
        str(java.executable), "-Xshare:on", f"-XX:SharedArchiveFile={candidate}",
        # a crash must not leave hs_err files in the user's working folder
        "-XX:ErrorFile=/dev/null", "-XX:-CreateCoredumpOnCrash",
        "-cp", build.classpath, "-version",
    ]  # fmt: skip
    try:
        checked = subprocess.run(command, capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return checked.returncode == 0
