"""The class-data-sharing archive of the launcher: written at one exit, adopted by a later
start only when a JVM maps it, never while a live server may still write it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphrag_code.runtime.server.build import LauncherBuild
from graphrag_code.runtime.server.class_share import class_share_options
from graphrag_code.runtime.server.processes import running_with_argument
from graphrag_code.runtime.server.toolchain import JavaRuntime, find_java, required_java_major

DUMP = "-XX:ArchiveClassesAtExit="
USE = "-XX:SharedArchiveFile="


@pytest.fixture
def java() -> JavaRuntime:
    return find_java(required_java_major("5.26.0"))


def _build(tmp_path: Path, *, jar: bool = True) -> LauncherBuild:
    target = tmp_path / "launcher" / "target"
    (target / "lib").mkdir(parents=True)
    if jar:
        (target / "graphrag-code-neo4j-launcher-1.jar").write_bytes(b"")
    return LauncherBuild(directory=tmp_path / "launcher", neo4j_version="5.26.0")


def _dump_path(options: list[str]) -> Path:
    (option,) = options
    assert option.startswith(DUMP)
    return Path(option.removeprefix(DUMP))


def test_a_class_path_with_a_folder_gets_no_archive(tmp_path: Path, java: JavaRuntime) -> None:
    build = _build(tmp_path, jar=False)
    assert build.classpath.startswith(str(build.directory / "target" / "classes"))
    assert class_share_options(build, java) == []


def test_each_start_without_an_archive_writes_its_own(tmp_path: Path, java: JavaRuntime) -> None:
    build = _build(tmp_path)
    assert build.jar is not None
    assert build.classpath.startswith(str(build.jar))
    first, second = (_dump_path(class_share_options(build, java)) for _ in range(2))
    assert first != second
    assert first.parent == second.parent == build.directory / "class-share"
    assert first.parent.stat().st_mode & 0o077 == 0


def test_a_finished_dump_that_does_not_map_is_dropped(tmp_path: Path, java: JavaRuntime) -> None:
    build = _build(tmp_path)
    truncated = _dump_path(class_share_options(build, java))
    truncated.write_bytes(b"\x00" * 4096)  # what a server killed while writing leaves
    options = class_share_options(build, java)
    assert not truncated.exists()
    assert _dump_path(options) != truncated  # a new dump, not the broken archive
    assert list(truncated.parent.glob("*.jsa")) == []


def test_a_dump_a_live_server_may_still_write_is_left_alone(
    tmp_path: Path, java: JavaRuntime
) -> None:
    build = _build(tmp_path)
    pending = _dump_path(class_share_options(build, java))
    pending.write_bytes(b"half written")
    writer = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)", f"{DUMP}{pending}"]
    )
    try:
        deadline = time.monotonic() + 30
        while not running_with_argument(f"{DUMP}{pending}") and time.monotonic() < deadline:
            time.sleep(0.05)  # until the process table shows it
        options = class_share_options(build, java)
    finally:
        writer.kill()
        writer.wait()
    assert pending.read_bytes() == b"half written"
    assert _dump_path(options) != pending


def test_an_archive_in_place_is_used_as_it_is(tmp_path: Path, java: JavaRuntime) -> None:
    build = _build(tmp_path)
    dump = _dump_path(class_share_options(build, java))
    archive = Path(str(dump).rsplit(".partial-", 1)[0])  # where a finished dump is adopted
    archive.write_bytes(b"mapped by the JVM, which checks it at every start")
    assert class_share_options(build, java) == [f"{USE}{archive}"]
