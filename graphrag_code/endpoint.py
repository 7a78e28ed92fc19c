"""Where one Neo4j database is, and how to log in to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import SecretStr

__all__ = ["EndpointSource", "Neo4jEndpoint"]

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
