"""What a Neo4j driver exception means for a user, as a `GraphRAGCodeError` that says what to do.

The client converts every driver exception it lets out with `library_error`, so no caller
(the CLI least of all) sees a driver traceback, and no message names a password: addresses
pass through `redact_uri`.
"""

from __future__ import annotations

import re

from neo4j.exceptions import (
    AuthError,
    ClientError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from ..errors import (
    ConfigurationError,
    GraphRAGCodeError,
    InvalidArgumentError,
    Neo4jQueryError,
    Neo4jUnavailableError,
)
from ..runtime.endpoint import Neo4jEndpoint, redact_uri

__all__ = ["RATE_LIMIT_CODE", "UNAVAILABLE", "is_rate_limited", "library_error"]

RATE_LIMIT_CODE = "Neo.ClientError.Security.AuthenticationRateLimit"
_DATABASE_NOT_FOUND = "Neo.ClientError.Database.DatabaseNotFound"

UNAVAILABLE = (ServiceUnavailable, SessionExpired, OSError)
"""What a server that is down, restarting or unreachable raises."""


def is_rate_limited(error: BaseException) -> bool:
    """Neo4j locks a user out for `dbms.security.auth_lock_time` (5 s) after repeated wrong
    passwords; during that time even the right password is refused."""
    return isinstance(error, Neo4jError) and error.code == RATE_LIMIT_CODE


def _reason(error: BaseException) -> str:
    """The cause of a connection failure in a few words: the driver's message names each
    address it tried, with `(reason [Errno 111] Connection refused)` at the end."""
    text = str(error)
    found = re.findall(r"\(reason ([^)]*)\)", text)
    if found:
        return str(found[-1]).strip()
    first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
    return first[:200]


def _summary(error: Neo4jError) -> str:
    # str(error) of a server error is four `{key: value}` blocks; the message alone reads better
    return (error.message or str(error)).strip().rstrip(".")


def library_error(
    error: Neo4jError | DriverError | OSError | UnicodeEncodeError,
    endpoint: Neo4jEndpoint,
    *,
    retried: int = 0,
) -> GraphRAGCodeError:
    """The `GraphRAGCodeError` for a driver exception raised while talking to `endpoint`."""
    where = redact_uri(endpoint.uri)
    if isinstance(error, UnicodeEncodeError):  # Bolt strings are UTF-8: no lone surrogates
        bad = error.object[error.start : error.end]
        return InvalidArgumentError(
            f"a value is not valid Unicode ({bad!r} at position {error.start}), e.g. invalid "
            "UTF-8 bytes on the command line; no name in the graph can contain it"
        )
    if is_rate_limited(error):
        return ConfigurationError(
            f"Neo4j at {where} refuses logins of user {endpoint.username!r} for a few seconds "
            "after repeated wrong passwords; check NEO4J_PASSWORD, then try again"
        )
    if isinstance(error, AuthError):
        return ConfigurationError(
            f"Neo4j at {where} rejected the credentials of user {endpoint.username!r}; "
            "check NEO4J_USERNAME / NEO4J_PASSWORD"
        )
    if isinstance(error, Neo4jError) and error.code == _DATABASE_NOT_FOUND:
        return ConfigurationError(
            f"Neo4j at {where} has no database {endpoint.database!r}; check NEO4J_DATABASE "
            "(`SHOW DATABASES` in Neo4j Browser lists them)"
        )
    if isinstance(error, UNAVAILABLE):
        return Neo4jUnavailableError(
            f"Neo4j did not answer ({_reason(error)}); check that the server runs and that "
            "NEO4J_URI names it (unset, the managed local server is used)",
            address=where,
        )
    if isinstance(error, TransientError):
        tries = f" after {retried + 1} tries" if retried else ""
        return Neo4jQueryError(
            f"Neo4j at {where} could not finish a query{tries} ({error.code}: "
            f"{_summary(error)}); the server is busy or restarting: try again",
            code=error.code,
        )
    if isinstance(error, ClientError):
        return Neo4jQueryError(
            f"Neo4j at {where} rejected a query ({error.code}: {_summary(error)})",
            code=error.code,
        )
    if isinstance(error, Neo4jError):
        return Neo4jQueryError(
            f"Neo4j at {where} failed a query ({error.code}: {_summary(error)})",
            code=error.code,
        )
    return Neo4jUnavailableError(f"the Neo4j driver failed: {error}", address=where)
