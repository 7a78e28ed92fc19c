"""Find the launcher process that serves a data folder, from the process table.

`status` and `stop` normally read the pid file; this is how they still find a server whose pid
and state files are gone (deleted by hand, or by an older version racing two starts: issue
13), so a running server can always be reported and stopped.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LauncherProcess", "find_launchers", "launcher_process", "running_with_argument"]

_HAS_PROC = Path("/proc/self/cmdline").exists()


@dataclass(frozen=True)
class LauncherProcess:
    pid: int
    home: Path
    bolt_port: int | None
    http_port: int | None
    auth: bool


def _options(argv: list[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for index, arg in enumerate(argv):
        if arg.startswith("--"):
            following = argv[index + 1] if index + 1 < len(argv) else ""
            options[arg[2:]] = "" if following.startswith("--") else following
    return options


def _port(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def _parse(pid: int, argv: list[str], main_class: str) -> LauncherProcess | None:
    if main_class not in argv:
        return None
    options = _options(argv[argv.index(main_class) + 1 :])
    if not options.get("home"):
        return None
    return LauncherProcess(
        pid=pid,
        home=Path(options["home"]),
        bolt_port=_port(options.get("bolt-port")),
        http_port=_port(options.get("http-port")),
        auth="password-file" in options,
    )


def _proc_argv(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def _table() -> list[tuple[int, list[str]]]:
    """(pid, argv) of every process this user can see: /proc on Linux, else `ps`."""
    proc = Path("/proc")
    if _HAS_PROC:
        rows = []
        for entry in proc.iterdir():
            if entry.name.isdigit():
                argv = _proc_argv(int(entry.name))
                if argv:
                    rows.append((int(entry.name), argv))
        return rows
    try:  # macOS and other BSDs: arguments split on spaces (a home with spaces is missed)
        listing = subprocess.run(
            ["ps", "-axww", "-o", "pid=,command="],
            capture_output=True, text=True, timeout=10, check=False,
        ).stdout  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return []
    rows = []
    for line in listing.splitlines():
        pid, _, command = line.strip().partition(" ")
        if pid.isdigit():
            rows.append((int(pid), command.split()))
    return rows


def _same(a: Path, b: Path) -> bool:
    with contextlib.suppress(OSError):
        return a.resolve() == b.resolve()
    return a == b


def find_launchers(home: Path, main_class: str) -> list[LauncherProcess]:
    """Every live launcher process started for the data folder `home`."""
    found = []
    for pid, argv in _table():
        if pid == os.getpid():
            continue
        process = _parse(pid, argv, main_class)
        if process is not None and _same(process.home, home):
            found.append(process)
    return found


def launcher_process(pid: int, home: Path, main_class: str) -> LauncherProcess | None:
    """The launcher for `home` running as `pid`, or None (dead, recycled pid, another home)."""
    argv = _proc_argv(pid)
    if argv is None:
        if _HAS_PROC:
            return None
        matches = [process for process in find_launchers(home, main_class) if process.pid == pid]
        return matches[0] if matches else None
    process = _parse(pid, argv, main_class)
    return process if process is not None and _same(process.home, home) else None


def running_with_argument(argument: str) -> bool:
    """Whether a live process of this user was started with `argument` among its own."""
    return any(argument in argv for _pid, argv in _table())
