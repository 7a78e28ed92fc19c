"""The managed local server: start / status, one server per home, clear errors. The running
server is the tests' spare one (conftest), shared to start fewer servers; its stop and restart
on the same data are tested with the restart in the middle of an index (test_ingest_restart)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graphrag_code.errors import LocalServerError, PrerequisiteMissingError
from graphrag_code.runtime.server.local import LocalNeo4jServer, free_port
from graphrag_code.runtime.server.toolchain import find_java, required_java_major
from graphrag_code.settings import Settings


def _server(home: Path, settings: Settings, **overrides: object) -> LocalNeo4jServer:
    options: dict[str, object] = {
        "cache_dir": settings.cache_dir,
        "neo4j_version": settings.neo4j_version,
        "bolt_port": free_port(),
        "http_port": free_port(),
        "pagecache": "64m",
        "heap": "512m",
    }
    options.update(overrides)
    return LocalNeo4jServer(home, **options)  # type: ignore[arg-type]


def test_a_second_start_finds_the_running_server(spare_server: LocalNeo4jServer) -> None:
    status = spare_server.start(attached=True)
    assert status.running
    assert status.bolt_uri == f"bolt://127.0.0.1:{spare_server.bolt_port}"
    assert status.auth
    assert (spare_server.password_file.stat().st_mode & 0o777) == 0o600
    again = spare_server.start(attached=True)
    assert again.pid == status.pid


def test_browser_is_served_on_loopback(spare_server: LocalNeo4jServer) -> None:
    import urllib.request

    status = spare_server.start(attached=True)
    assert status.browser_url is not None
    with urllib.request.urlopen(status.browser_url, timeout=10) as response:
        page = response.read().decode()
    assert "<html" in page.lower()
    request = urllib.request.Request(
        f"http://127.0.0.1:{spare_server.http_port}/", headers={"Accept": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        discovery = response.read().decode()
    assert f"bolt://127.0.0.1:{spare_server.bolt_port}" in discovery


def test_wrong_password_is_rejected(spare_server: LocalNeo4jServer) -> None:
    from neo4j.exceptions import AuthError

    status = spare_server.start(attached=True)
    with (
        GraphDatabase.driver(status.bolt_uri or "", auth=("neo4j", "wrong")) as driver,
        pytest.raises(AuthError),
    ):
        driver.verify_connectivity()


def test_taken_port_gives_a_clear_error(tmp_path: Path, settings: Settings) -> None:
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]
        server = _server(tmp_path / "home", settings, bolt_port=port)
        with pytest.raises(PrerequisiteMissingError, match=f"port {port}.*in use"):
            server.start()


def test_missing_java_gives_a_clear_error() -> None:
    with pytest.raises(PrerequisiteMissingError, match="Java 99 or newer"):
        find_java(99)


def test_java_requirement_follows_the_neo4j_version() -> None:
    assert required_java_major("5.26.30") == 17
    assert required_java_major("2026.08.1") == 21


# what a JVM prints when Neo4j's recovery runs out of heap, then lives on with Neo4j's threads
_MAIN_DIES = """
import time
print("Starting Neo4j", flush=True)
print('Exception in thread "main" java.lang.OutOfMemoryError: Java heap space', flush=True)
print("\\tat org.neo4j.kernel.recovery.Recovery.performRecovery(Recovery.java:1)", flush=True)
time.sleep(120)
"""


def test_a_launcher_whose_main_thread_died_is_reported_in_seconds(tmp_path: Path) -> None:
    """Issue 57, fault 10: `neo4j start` waited its whole 180 s for a JVM whose main thread
    had died in start-up (recovery out of heap); now it stops it and says why."""
    home = tmp_path / "home"
    home.mkdir()
    server = LocalNeo4jServer(
        home, cache_dir=tmp_path, neo4j_version="5.26.0", bolt_port=free_port(), heap="512m"
    )
    server.log_file.parent.mkdir()
    server.log_file.write_text("an earlier start's lines: not read again\n")
    server._log_start = server.log_file.stat().st_size
    with server.log_file.open("ab") as log:
        fake = subprocess.Popen([sys.executable, "-c", _MAIN_DIES], stdout=log, stderr=log)
    server._child = fake
    started = time.monotonic()
    with pytest.raises(LocalServerError) as raised:
        server._wait_ready(180)
    assert time.monotonic() - started < 15
    message = " ".join(str(raised.value).split())
    assert message.startswith(
        'Neo4j failed during start-up: Exception in thread "main" java.lang.OutOfMemoryError: '
        "Java heap space (the Java heap, 512m, is too small for this database: raise "
        "GRAPHRAG_CODE_HEAP)"
    )
    assert "Recovery.performRecovery" in message  # the log's last lines
    assert fake.poll() is not None  # stopped, not left running
