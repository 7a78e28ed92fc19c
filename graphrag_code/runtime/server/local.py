"""The managed local Neo4j Community server: start, stop and status of the Java launcher.

One server per data directory. `start` holds a lock on `<home>/launcher.lock` from its first
look until Bolt answers, so of two concurrent starts (two commands, two auto-starting
searches) one starts the server and the other waits and finds it. The pid and the launcher's
`launcher.state.json` in the data directory let `status` and `stop` work from any process;
when those files are gone, the launcher process is found by its command line. Bolt and
Browser bind to 127.0.0.1 only; file URLs (`LOAD CSV FROM 'file:///…'`) are refused. Auth is on
by default with a generated password kept in `<home>/password` (mode 0600); the data
directory is private to its user (mode 0700, files written with umask 077).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ...errors import LocalServerError, PrerequisiteMissingError
from ..folders import PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, writable_folder
from ..locks import exclusive_lock, is_locked
from .build import MAIN_CLASS, LauncherBuild, build_launcher
from .class_share import class_share_options
from .processes import LauncherProcess, find_launchers, launcher_process
from .toolchain import JavaRuntime, find_java, required_java_major

__all__ = ["LocalNeo4jServer", "ServerStatus", "free_port", "port_is_free"]

_HOST = "127.0.0.1"


@dataclass(frozen=True)
class ServerStatus:
    running: bool
    home: Path
    pid: int | None = None
    bolt_uri: str | None = None
    browser_url: str | None = None
    neo4j_version: str | None = None
    auth: bool = False

    def describe(self) -> str:
        if not self.running and self.pid is not None:
            return (
                f"not ready: launcher pid {self.pid} runs, but Bolt does not answer yet "
                f"(data: {self.home})"
            )
        if not self.running:
            return f"not running (data: {self.home})"
        parts = [f"running (pid {self.pid}, Neo4j {self.neo4j_version})", f"Bolt: {self.bolt_uri}"]
        if self.browser_url:
            parts.append(f"Browser: {self.browser_url}")
        parts.append(f"data: {self.home}")
        return "\n".join(parts)


def free_port(host: str = _HOST) -> int:
    """A TCP port nothing listens on right now (for throwaway servers)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_is_free(port: int, host: str = _HOST) -> bool:
    """True when nothing listens on host:port (so the launcher can bind it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((host, port)) != 0


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _private(path: Path, flags: int) -> int:
    """A descriptor for writing `path`, created readable by this user only."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | flags, PRIVATE_FILE_MODE)


# what the JVM prints when an exception ends a thread nothing catches it in
_MAIN_DIED = 'Exception in thread "main"'


class _StartupWatch:
    """Reads what a starting launcher appends to its log, from `start` on, for the line the
    JVM writes when the launcher's main thread dies."""

    def __init__(self, log: Path, start: int) -> None:
        self._log, self._at, self._partial = log, start, b""

    def main_thread_died(self) -> str | None:
        """That line (clipped), once it is in the log; else None."""
        try:
            with self._log.open("rb") as handle:
                handle.seek(self._at)
                data = handle.read()
        except OSError:
            return None
        self._at += len(data)
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()[-4096:]  # an unfinished line: read again with the rest
        for line in lines:
            text = line.decode(errors="replace").strip()
            if text.startswith(_MAIN_DIED):
                return text[:300]
        return None


def _hint(died: str, heap: str) -> str:
    if "OutOfMemoryError" in died:
        return f" (the Java heap, {heap}, is too small for this database: raise GRAPHRAG_CODE_HEAP)"
    return ""


class LocalNeo4jServer:
    """Build-on-first-use, start, stop and inspect the embedded Neo4j in `home`."""

    def __init__(
        self,
        home: Path,
        *,
        cache_dir: Path,
        neo4j_version: str,
        bolt_port: int = 7687,
        http_port: int = 7474,
        auth: bool = True,
        heap: str = "1g",
        pagecache: str = "512m",
        tx_log_retention: str = "256M size",
        java_home: Path | None = None,
        jvm_options: Sequence[str] = (),
    ) -> None:
        self.home = home
        self.cache_dir = cache_dir
        self.neo4j_version = neo4j_version
        self.bolt_port = bolt_port
        self.http_port = http_port
        self.auth = auth
        self.heap = heap
        self.pagecache = pagecache
        self.tx_log_retention = tx_log_retention
        self.java_home = java_home
        self.jvm_options = tuple(jvm_options)
        self._child: subprocess.Popen[bytes] | None = None
        self._log_start = 0  # where in the log the last start of ours began

    # -- files --------------------------------------------------------------------------------
    @property
    def pid_file(self) -> Path:
        return self.home / "launcher.pid"

    @property
    def state_file(self) -> Path:
        return self.home / "launcher.state.json"

    @property
    def password_file(self) -> Path:
        return self.home / "password"

    @property
    def log_file(self) -> Path:
        return self.home / "logs" / "launcher.out"

    @property
    def lock_file(self) -> Path:
        return self.home / "launcher.lock"

    def password(self) -> str | None:
        """The generated password of the `neo4j` user (None when auth is off)."""
        if not self.auth or not self.password_file.exists():
            return None
        return self.password_file.read_text(encoding="utf-8").strip()

    # -- status -------------------------------------------------------------------------------
    def status(self) -> ServerStatus:
        process = self._launcher()
        if process is None:
            return ServerStatus(running=False, home=self.home)
        state = self._read_state(process.pid)
        if state is not None:
            http_port = int(state.get("http_port", 0))
            return ServerStatus(
                running=True,
                home=self.home,
                pid=process.pid,
                bolt_uri=f"bolt://{_HOST}:{state['bolt_port']}",
                browser_url=(
                    f"http://{_HOST}:{http_port}/browser/" if state.get("browser") else None
                ),
                neo4j_version=str(state.get("neo4j_version")),
                auth=bool(state.get("auth")),
            )
        # Neither the state file nor the log says it is ready: it is starting (a `start`
        # holds the lock), or those files were removed. Bolt answers before the password is
        # set, so only a launcher nobody is starting counts as running by its port.
        starting = is_locked(self.lock_file)
        if starting or process.bolt_port is None or port_is_free(process.bolt_port):
            return ServerStatus(running=False, home=self.home, pid=process.pid)
        browser = process.http_port and not port_is_free(process.http_port)
        return ServerStatus(
            running=True,
            home=self.home,
            pid=process.pid,
            bolt_uri=f"bolt://{_HOST}:{process.bolt_port}",
            browser_url=f"http://{_HOST}:{process.http_port}/browser/" if browser else None,
            neo4j_version=self.neo4j_version,
            auth=process.auth,
        )

    def _launcher(self) -> LauncherProcess | None:
        """The live launcher process of this data directory: the one the pid file names,
        else one found in the process table (the files can be gone while it runs)."""
        pid = self._read_pid()
        if pid is not None:
            process = launcher_process(pid, self.home, MAIN_CLASS)
            if process is not None:
                return process
        found = find_launchers(self.home, MAIN_CLASS)
        return found[0] if found else None

    def _read_pid(self) -> int | None:
        try:
            return int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None

    def _read_state(self, pid: int) -> dict[str, Any] | None:
        """What the launcher `pid` announced when it became ready: its state file, else its
        "READY {json}" line in the log (the state file may have been removed)."""
        try:
            data = json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            data = None
        if isinstance(data, dict) and data.get("pid") == pid:
            return data
        for line in reversed(self._log_tail(200).splitlines()):
            if line.startswith("READY "):
                try:
                    announced = json.loads(line.removeprefix("READY "))
                except ValueError:
                    continue
                if isinstance(announced, dict) and announced.get("pid") == pid:
                    return announced
        return None

    # -- start --------------------------------------------------------------------------------
    def start(
        self,
        *,
        timeout: float = 180.0,
        attached: bool = False,
        on_wait: Callable[[str], None] | None = None,
    ) -> ServerStatus:
        """Start the server (or return the one already running) and wait until Bolt answers.

        `attached=True` ties the server's life to this process (used by tests): it stops when
        this process exits, even without a clean `stop()`. When another process is starting
        this server, `on_wait` gets a message and this waits for that start instead.
        """
        current = self.status()
        if current.running:
            return current
        writable_folder(self.home, setting="GRAPHRAG_CODE_DATA_DIR")
        message = f"another process is starting the Neo4j server in {self.home}; waiting for it"
        with exclusive_lock(
            self.lock_file, on_wait=(lambda: on_wait(message)) if on_wait else None
        ):
            current = self.status()  # the process we waited for may have started it
            if current.running:
                return current
            if current.pid is not None:  # a launcher is starting without anyone watching it
                return self._wait_ready(timeout, pid=current.pid)
            java = find_java(required_java_major(self.neo4j_version), self.java_home)
            self._check_ports()
            build = build_launcher(self.neo4j_version, java, self.cache_dir)
            self._prepare_home()
            self._spawn(java, build, attached=attached)
            return self._wait_ready(timeout)

    def _check_ports(self) -> None:
        for name, port in (("Bolt", self.bolt_port), ("HTTP (Browser)", self.http_port)):
            if port and not port_is_free(port):
                setting = "GRAPHRAG_CODE_BOLT_PORT" if name == "Bolt" else "GRAPHRAG_CODE_HTTP_PORT"
                raise PrerequisiteMissingError(
                    f"{name} port {port} on {_HOST} is already in use by another process; "
                    f"stop it or choose another port with {setting}"
                )

    def _prepare_home(self) -> None:
        self.home.chmod(PRIVATE_DIR_MODE)  # a home made by an older version may be 0755
        (self.home / "logs").mkdir(mode=PRIVATE_DIR_MODE, exist_ok=True)
        self.state_file.unlink(missing_ok=True)
        if self.auth and not self.password_file.exists():
            if (self.home / "data").exists():
                raise LocalServerError(
                    f"{self.home} holds a database whose password file is missing; restore "
                    f"{self.password_file} or start with an empty data directory"
                )
            fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(24))

    def _spawn(self, java: JavaRuntime, build: LauncherBuild, *, attached: bool) -> None:
        command = [
            str(java.executable), f"-Xmx{self.heap}", "-XX:+UseG1GC", *self.jvm_options,
            *class_share_options(build, java),
            "-cp", build.classpath, MAIN_CLASS,
            "--home", str(self.home.resolve()),
            "--bolt-port", str(self.bolt_port),
            "--http-port", str(self.http_port),
            "--pagecache", self.pagecache,
            "--tx-log-retention", self.tx_log_retention,
        ]  # fmt: skip
        if java.major >= 21:
            command.insert(1, "--enable-native-access=ALL-UNNAMED")
        if self.auth:
            command += ["--password-file", str(self.password_file)]
        if attached:
            command.append("--stop-on-stdin-eof")
        log: IO[bytes] = os.fdopen(_private(self.log_file, os.O_APPEND), "ab")
        self._log_start = os.fstat(log.fileno()).st_size  # what this start writes comes after
        try:
            self._child = subprocess.Popen(
                command,
                stdin=subprocess.PIPE if attached else subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=not attached,
                env=dict(os.environ, JAVA_HOME=str(java.home)),
                umask=0o077,  # the store, logs and state: readable by this user only
            )
        finally:
            log.close()
        with os.fdopen(_private(self.pid_file, os.O_TRUNC), "w") as pid_file:
            pid_file.write(str(self._child.pid))

    def _wait_ready(self, timeout: float, *, pid: int | None = None) -> ServerStatus:
        """Wait for our child (or for the launcher `pid` another process spawned)."""
        deadline = time.monotonic() + timeout
        # the launcher we spawned: its log says when its main thread dies
        watch = _StartupWatch(self.log_file, self._log_start) if pid is None else None
        while time.monotonic() < deadline:
            exit_code = self._child.poll() if self._child is not None else None
            if exit_code is not None or (pid is not None and not _process_alive(pid)):
                raise LocalServerError(
                    f"the Neo4j launcher exited during start-up (code {exit_code}); last lines "
                    f"of {self.log_file}:\n{self._log_tail()}"
                )
            died = watch.main_thread_died() if watch is not None else None
            if died is not None:
                # The JVM outlives its main thread while Neo4j's own threads run: it would
                # never say READY, and `start` waited its whole timeout (issue 57).
                self._abandon()
                raise LocalServerError(
                    f"Neo4j failed during start-up: {died}{_hint(died, self.heap)}; last lines "
                    f"of {self.log_file}:\n{self._log_tail()}"
                )
            status = self.status()
            if status.running and status.bolt_uri is not None:
                return status
            time.sleep(0.25)
        self.stop()
        raise LocalServerError(
            f"Neo4j did not become ready within {timeout:.0f} s; last lines of "
            f"{self.log_file}:\n{self._log_tail()}"
        )

    def _abandon(self) -> None:
        """Stop a launcher that cannot start: as `stop` does, and our child even when it is no
        longer recognisable as a launcher."""
        child = self._child
        if child is not None and child.poll() is None:
            child.terminate()  # as `stop` does: Neo4j's threads shut down
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(timeout=10)
        self.stop(timeout=10)

    def _log_tail(self, lines: int = 20) -> str:
        try:
            with self.log_file.open("rb") as log:
                log.seek(max(0, log.seek(0, os.SEEK_END) - 64 * 1024))
                text = log.read().decode(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    # -- stop ---------------------------------------------------------------------------------
    def stop(self, *, timeout: float = 60.0) -> bool:
        """Stop the server cleanly (SIGTERM, then SIGKILL after `timeout`). False if not running."""
        process = self._launcher()
        if process is None:
            self._release_child()
            self._cleanup_files()
            return False
        pid = process.pid
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._child is not None and self._child.pid == pid:
                if self._child.poll() is not None:
                    break
            elif not _process_alive(pid):
                break
            time.sleep(0.2)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self._release_child()
        self._cleanup_files()
        return True

    def _release_child(self) -> None:
        """Reap the launcher we spawned and close our end of its stdin pipe."""
        if self._child is None:
            return
        if self._child.stdin is not None:
            self._child.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._child.wait(timeout=10)
        self._child = None

    def _cleanup_files(self) -> None:
        for path in (self.pid_file, self.state_file):
            with contextlib.suppress(OSError):  # gone already, or the data path is a file
                path.unlink(missing_ok=True)
