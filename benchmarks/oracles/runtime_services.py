"""Servers a package's test suite expects to find, started for one run and stopped after.

huey's suite talks to Redis at ``Redis()``'s default, 127.0.0.1:6379, with no way to point it
elsewhere. ``redis_server`` starts a throwaway ``redis-server`` there (loopback only, nothing
saved to disk) if the port is free, and refuses rather than use a server someone else runs:
the suite flushes its databases.

Never import ``graphrag_code`` from here.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REDIS_HOST = "127.0.0.1"
REDIS_PORT = 6379
_START_TIMEOUT_S = 10.0


def answers_ping(host: str, port: int) -> bool:
    """Whether a Redis server answers ``PING`` on ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def port_in_use(host: str, port: int) -> bool:
    """Whether something accepts connections on ``host:port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        return probe.connect_ex((host, port)) == 0


@contextmanager
def redis_server(work: Path) -> Iterator[None]:
    """A private ``redis-server`` on 127.0.0.1:6379 for the duration of the block.

    Its log goes to ``work/redis.log``. Raises if the binary is missing (``apt-get install
    redis-server``) or the port is taken.
    """
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not on PATH: apt-get install -y redis-server")
    if port_in_use(REDIS_HOST, REDIS_PORT):
        raise RuntimeError(
            f"{REDIS_HOST}:{REDIS_PORT} is in use; the suite flushes Redis, so it will not "
            "share a server someone else runs: stop that one first"
        )
    work.mkdir(parents=True, exist_ok=True)
    command = [
        binary,
        "--bind", REDIS_HOST,
        "--port", str(REDIS_PORT),
        "--save", "",
        "--appendonly", "no",
        "--dir", str(work),
        "--logfile", str(work / "redis.log"),
    ]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + _START_TIMEOUT_S
        while not answers_ping(REDIS_HOST, REDIS_PORT):
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start: see {work / 'redis.log'}")
            time.sleep(0.1)
        yield
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
