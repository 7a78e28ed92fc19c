"""Where one Neo4j database is, and how to log in to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import unquote, urlsplit, urlunsplit

from pydantic import SecretStr

__all__ = ["EndpointSource", "Neo4jEndpoint", "redact_uri", "split_credentials"]

EndpointSource = Literal["env", "container", "local"]


@dataclass(frozen=True)
class Neo4jEndpoint:
    """Address and credentials of one Neo4j database."""

    uri: str
    username: str
    password: SecretStr | None = field(repr=False)
    database: str
    source: EndpointSource

    def auth(self) -> tuple[str, str] | None:
        if self.password is None:
            return None
        return (self.username, self.password.get_secret_value())


def split_credentials(uri: str) -> tuple[str, str | None, SecretStr | None]:
    """`bolt://user:secret@host:7687` -> (`bolt://host:7687`, "user", SecretStr("secret")).

    The driver takes credentials separately; keeping them out of the URI keeps them out of
    every message that names the server (issue 13: a URI password printed in a traceback).
    """
    try:
        parts = urlsplit(uri)
    except ValueError:
        return uri, None, None
    if "@" not in parts.netloc:
        return uri, None, None
    userinfo, _, host = parts.netloc.rpartition("@")
    user, has_password, password = userinfo.partition(":")
    clean = urlunsplit(parts._replace(netloc=host))
    secret = SecretStr(unquote(password)) if has_password else None
    return clean, unquote(user) or None, secret


def redact_uri(uri: str) -> str:
    """`uri` with any user and password in it replaced by `***`, for messages."""
    clean, user, password = split_credentials(uri)
    if user is None and password is None:
        return uri
    scheme, _, rest = clean.partition("://")
    return f"{scheme}://***@{rest}" if rest else "***"
