"""`Neo4jClient`: the one object that runs Cypher, whichever server it is.

It runs every query of the library: reads in read-only transactions routed as reads, writes
in managed write transactions, always on the configured database. Passwords are `SecretStr`s and
never appear in a repr, a log line or an error message.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import neo4j
from neo4j import Driver, GraphDatabase, NotificationDisabledClassification, RoutingControl
from neo4j.exceptions import (
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from ..errors import ConfigurationError
from ..runtime.endpoint import Neo4jEndpoint, redact_uri
from .capabilities import ServerCapabilities
from .failures import is_rate_limited, library_error
from .queries import load_query

__all__ = ["Neo4jClient"]

T = TypeVar("T")

# a read that meets a restarting server or a transient error is tried again after these pauses
_READ_RETRY_PAUSES = (0.1, 0.5, 2.0)
# after repeated wrong passwords Neo4j refuses every login for `dbms.security.auth_lock_time`
# (5 s by default): `verify` waits this long for the lock to pass before giving up
_RATE_LIMIT_WAIT = 6.5
_FAILURES = (Neo4jError, DriverError, OSError, UnicodeEncodeError)


_PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})


def _is_plain(value: Any) -> bool:
    kind = type(value)
    if kind is list:
        return all(_is_plain(item) for item in value)
    if kind is dict:
        return all(_is_plain(item) for item in value.values())
    return kind in _PLAIN_TYPES


def _as_dict(record: neo4j.Record) -> dict[str, Any]:
    """`record.data()`, without its recursive copy when nothing in the record is a node,
    relationship, path or other driver type (0.035 vs 0.19 ms for a hybrid search result)."""
    values = record.values()
    if all(_is_plain(value) for value in values):
        return dict(zip(record.keys(), values, strict=True))
    return record.data()


def _chunks(rows: Sequence[T], size: int, max_chars: int | None = None) -> Iterator[Sequence[T]]:
    """Runs of at most `size` rows and, when `max_chars` is given, of at most that much text
    (a row longer than it goes alone)."""
    if max_chars is None:
        for start in range(0, len(rows), size):
            yield rows[start : start + size]
        return
    start, chars = 0, 0
    for at, row in enumerate(rows):
        length = text_length(row)
        if at > start and (at - start >= size or chars + length > max_chars):
            yield rows[start:at]
            start, chars = at, 0
        chars += length
    if start < len(rows):
        yield rows[start:]


def text_length(value: Any) -> int:
    """Characters of text in a parameter value (strings inside dicts and lists counted)."""
    kind = type(value)
    if kind is str:
        return len(value)
    if kind is dict:
        return sum(text_length(item) for item in value.values())
    if kind is list or kind is tuple:
        return sum(text_length(item) for item in value)
    return 0


def _driver(endpoint: Neo4jEndpoint) -> Driver:
    try:
        return GraphDatabase.driver(
            endpoint.uri,
            auth=endpoint.auth(),
            max_connection_lifetime=600,
            connection_acquisition_timeout=60,
            # "property key does not exist" and friends are routine on a fresh or partial
            # graph; they would only alarm users and break warnings-as-errors test runs.
            notifications_disabled_classifications=[
                NotificationDisabledClassification.UNRECOGNIZED,
                NotificationDisabledClassification.HINT,
            ],
        )
    except (ValueError, DriverError) as exc:  # an unknown scheme, a malformed address
        raise ConfigurationError(
            f"NEO4J_URI {redact_uri(endpoint.uri)!r} is not a Neo4j address ({exc}); use e.g. "
            "bolt://localhost:7687 or neo4j+s://xxxx.databases.neo4j.io"
        ) from None


class Neo4jClient:
    """The driver plus the database name; the only object that talks to Neo4j.

    No I/O happens in the constructor; call `verify()` to check the server answers.
    """

    def __init__(self, endpoint: Neo4jEndpoint, *, driver: Driver | None = None) -> None:
        self.endpoint = endpoint
        self.database = endpoint.database
        self._driver = driver or _driver(endpoint)
        self._capabilities: ServerCapabilities | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def close(self) -> None:
        self._driver.close()

    def __enter__(self) -> Neo4jClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def verify(self) -> None:
        """Raise a clear error unless the server answers and accepts the credentials.

        Right after a wrong password Neo4j refuses even the right one for a few seconds; this
        waits that out instead of failing a run that has the right password.
        """
        deadline = time.monotonic() + _RATE_LIMIT_WAIT
        while True:
            try:
                self._driver.verify_connectivity()
                return
            except _FAILURES as exc:
                if is_rate_limited(exc) and time.monotonic() < deadline:
                    time.sleep(0.5)
                    continue
                raise library_error(exc, self.endpoint) from exc

    def capabilities(self) -> ServerCapabilities:
        """Version, edition and Cypher versions of the server, probed once and cached: the
        library picks the query forms of a server from them (e.g. Cypher 25 `SEARCH`)."""
        if self._capabilities is None:
            rows = self.read(load_query("schema/server_components"))
            self._capabilities = ServerCapabilities.from_row(rows[0] if rows else {})
        return self._capabilities

    def server_info(self) -> dict[str, Any]:
        """Version and edition (and the Cypher versions), probed once and cached."""
        info = self.capabilities()
        return {
            "version": info.version,
            "edition": info.edition,
            "cypher_versions": list(info.cypher_versions),
        }

    # -- queries -----------------------------------------------------------------------------
    def read(self, query: str, parameters: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a read query in a read-only transaction routed to a reader.

        An auto-commit transaction in a READ-mode session: the server rejects any write in it,
        like in a managed read transaction, but it needs one round trip where a managed one
        needs two (BEGIN+RUN+PULL, then COMMIT): 0.63 vs 0.80 ms per query here. Reads are
        idempotent, so transient failures are retried here instead of by the driver.
        """
        for retried, pause in enumerate(_READ_RETRY_PAUSES):
            try:
                return self._read_once(query, parameters)
            except (ServiceUnavailable, SessionExpired, TransientError):
                time.sleep(pause)
            except _FAILURES as exc:
                raise library_error(exc, self.endpoint, retried=retried) from exc
        try:
            return self._read_once(query, parameters)
        except _FAILURES as exc:
            raise library_error(exc, self.endpoint, retried=len(_READ_RETRY_PAUSES)) from exc

    def _read_once(self, query: str, parameters: Mapping[str, Any] | None) -> list[dict[str, Any]]:
        with self._driver.session(
            database=self.database,
            default_access_mode=neo4j.READ_ACCESS,
            # the bookmarks of `write` (execute_query): in a cluster a read sees them
            bookmark_manager=self._driver.execute_query_bookmark_manager,
        ) as session:
            return [_as_dict(record) for record in session.run(query, dict(parameters or {}))]

    def write(
        self, query: str, parameters: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Run a write query in one managed write transaction (retried on transient errors)."""
        try:
            records, _, _ = self._driver.execute_query(
                query,
                dict(parameters or {}),
                database_=self.database,
                routing_=RoutingControl.WRITE,
            )
        except _FAILURES as exc:  # the driver retried transient errors for 30 s already
            raise library_error(exc, self.endpoint, retried=1) from exc
        return [_as_dict(record) for record in records]

    def write_together(
        self,
        groups: Sequence[tuple[str, Sequence[Any], Mapping[str, Any]]],
        *,
        batch_size: int,
        max_chars: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Several `write_batches` runs, `(query, rows, extra)` in order: in ONE write
        transaction when their rows together are at most `batch_size` (and `max_chars` of
        text), else each as `write_batches` sends it. A small repository's nodes of every
        kind, or its edges of every kind, then cost one commit instead of one per kind and
        side (issue 56: flask's full index sent 14 write transactions of a few hundred rows)."""
        total = sum(len(rows) for _query, rows, _extra in groups)
        if total > batch_size or (
            max_chars is not None
            and sum(text_length(row) for _q, rows, _e in groups for row in rows) > max_chars
        ):
            return sum(
                self.write_batches(
                    query, rows, batch_size=batch_size, max_chars=max_chars, extra=extra,
                    progress=progress,
                )
                for query, rows, extra in groups
            )  # fmt: skip
        statements = [
            (query, {**extra, "rows": list(rows)}) for query, rows, extra in groups if rows
        ]
        try:
            self._write_in_one(statements)
        finally:
            for _query, parameters in statements:  # as `write_batches`: freed by refcount
                parameters["rows"].clear()
        if progress is not None and total:
            progress(total)
        return total

    def write_statements(self, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        """Run `statements` in order in one managed write transaction: a run's small steps
        that go together (its start and what it publishes) cost one commit, not one each."""
        self._write_in_one([(query, dict(parameters)) for query, parameters in statements])

    def _write_in_one(self, statements: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Run `statements` in order in one managed write transaction (the driver retries
        it whole on a transient error, as `write`'s)."""
        if not statements:
            return

        def work(tx: neo4j.ManagedTransaction) -> None:
            for query, parameters in statements:
                tx.run(query, parameters).consume()

        try:
            with self._driver.session(
                database=self.database,
                bookmark_manager=self._driver.execute_query_bookmark_manager,
            ) as session:
                session.execute_write(work)
        except _FAILURES as exc:  # the driver retried transient errors for 30 s already
            raise library_error(exc, self.endpoint, retried=1) from exc

    def write_batches(
        self,
        query: str,
        rows: Sequence[Any],
        *,
        batch_size: int = 1000,
        max_chars: int | None = None,
        extra: Mapping[str, Any] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Run `UNWIND $rows AS row ...` once per batch, each batch one write transaction
        (`progress` gets each batch's size once it is written). The library's one batching
        helper: an interruption loses at most one batch, and MERGE makes a rerun complete it.

        `max_chars` also bounds a batch's text: the driver holds several copies of a batch
        while it encodes it (Django's 2,895 module rows with their files' text, ~90 MB of
        strings in one batch, raised the indexer's peak memory by 440 MB)."""
        done = 0
        for batch in _chunks(rows, batch_size, max_chars):
            sent = list(batch)
            try:
                self.write(query, {**(extra or {}), "rows": sent})
            finally:
                # The driver keeps each query's parameters in reference cycles (its result
                # summary, session and transaction refer to each other) that only the cyclic
                # collector frees, and indexing pauses it (`ingest.state.paused_gc`): every
                # batch stayed alive for the rest of the run (Django's write stage: 228 MB,
                # 752k objects). Emptied here, the rows go by reference counting.
                sent.clear()
            done += len(batch)
            if progress is not None:
                progress(len(batch))
        return done
