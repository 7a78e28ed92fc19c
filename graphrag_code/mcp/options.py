"""What one MCP server may do and how much it may say: `ServerOptions`, and the rule for
binding the HTTP transport (`check_http_bind`)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigurationError, InvalidArgumentError

__all__ = ["TOKEN_VARIABLE", "ServerOptions", "check_http_bind", "is_loopback"]

TOKEN_VARIABLE = "GRAPHRAG_CODE_MCP_TOKEN"
"""The environment variable holding the HTTP bearer token (never a flag: `ps` shows flags)."""


@dataclass(frozen=True)
class ServerOptions:
    """One server's limits. `repos` None serves every repository of the graph."""

    repos: frozenset[str] | None = None
    allow_write: bool = False  # the `index` and `refresh` tools
    # folders (resolved) under which `index` may add a new repository; without any, the
    # write tools only re-index repositories at the roots the graph records (`confine.py`)
    write_roots: tuple[Path, ...] = ()
    watch: Path | None = None  # keep this repository's graph fresh while serving
    watch_repo: str | None = None  # its name in the graph (default: the folder's name)
    # the token guard: no answer is longer (lists are cut, with a note saying what was left
    # out), no question or name is longer
    max_answer_tokens: int = 2500
    max_question_tokens: int = 300
    max_name_chars: int = 300
    freshness_ttl_s: float = 5.0  # how long a freshness reading is reused

    def __post_init__(self) -> None:
        for name in ("max_answer_tokens", "max_question_tokens", "max_name_chars"):
            if getattr(self, name) < 50:
                raise InvalidArgumentError(f"{name} must be at least 50, not {getattr(self, name)}")
        if self.repos is not None and not self.repos:
            raise InvalidArgumentError("--repo names no repository")
        if self.write_roots and not self.allow_write:
            raise InvalidArgumentError("write roots without allow_write")

    def allows(self, repo: str) -> bool:
        return self.repos is None or repo in self.repos


def is_loopback(host: str) -> bool:
    """True for an address only this machine reaches: 127.0.0.0/8, ::1, `localhost`."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def check_http_bind(host: str, token: str | None) -> None:
    """Refuse to serve HTTP beyond loopback without a bearer token: any machine that reaches
    the port could otherwise read the code graph (and, with --allow-write, index folders)."""
    if token is not None and len(token) < 16:
        raise ConfigurationError(
            f"{TOKEN_VARIABLE} is too short: use at least 16 random characters "
            '(python -c "import secrets; print(secrets.token_urlsafe(32))")'
        )
    if token is None and not is_loopback(host):
        raise ConfigurationError(
            f"refusing to serve MCP over HTTP on {host}, which other machines may reach, "
            f"without a bearer token: set {TOKEN_VARIABLE} (clients then send "
            "'Authorization: Bearer <token>'), or bind to 127.0.0.1"
        )
