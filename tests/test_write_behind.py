"""Graph writes handed to a background thread (`ingest/write_behind.py`): order, overlap,
and what happens after a failure."""

from __future__ import annotations

import threading
import time

import pytest

from graphrag_code.errors import Neo4jUnavailableError
from graphrag_code.ingest.write_behind import WriteBehind


def test_writes_run_in_order_on_another_thread_while_the_caller_goes_on() -> None:
    done: list[tuple[int, str]] = []
    started = threading.Event()

    def write(number: int) -> None:
        started.set()
        time.sleep(0.05)
        done.append((number, threading.current_thread().name))

    with WriteBehind() as writes:
        for number in range(5):
            writes.submit(write, number)
        assert started.wait(5)
        # the caller is not held up by the writes it handed over
        assert len(done) < 5
    assert [number for number, _thread in done] == [0, 1, 2, 3, 4]
    assert {thread for _number, thread in done} != {threading.current_thread().name}


def test_drain_waits_for_every_write() -> None:
    done: list[int] = []
    with WriteBehind() as writes:
        writes.submit(lambda: (time.sleep(0.1), done.append(1)))
        writes.submit(done.append, 2)
        writes.drain()
        assert done == [1, 2]
        writes.submit(done.append, 3)
    assert done == [1, 2, 3]


def test_a_failed_write_stops_the_writes_after_it_and_is_raised_where_the_run_waits() -> None:
    done: list[int] = []

    def fail() -> None:
        raise Neo4jUnavailableError("Neo4j went away", address="bolt://localhost:7687")

    writes = WriteBehind()
    writes.submit(done.append, 1)
    writes.submit(fail)
    writes.submit(done.append, 3)
    with pytest.raises(Neo4jUnavailableError, match="went away"):
        writes.drain()
    assert done == [1]  # nothing after the failure was written
    # and the next hand-over says so at once, as the context's exit does
    with pytest.raises(Neo4jUnavailableError):
        writes.submit(done.append, 4)
    with pytest.raises(Neo4jUnavailableError), writes:
        pass
    assert done == [1]


def test_a_failure_in_the_run_cancels_the_writes_not_yet_started() -> None:
    done: list[int] = []
    gate = threading.Event()

    def interrupted_run() -> None:
        with WriteBehind() as writes:
            writes.submit(lambda: (gate.wait(5), done.append(1)))
            writes.submit(done.append, 2)
            threading.Timer(0.2, gate.set).start()  # the first write ends after the interrupt
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted_run()
    # the write under way finished (a transaction is not cut in half); the next never ran
    assert done == [1]


def test_the_time_each_kind_of_write_took_is_kept_by_its_name() -> None:
    def create_nodes() -> None:
        time.sleep(0.06)

    def create_edges() -> None:
        time.sleep(0.02)

    with WriteBehind() as writes:
        writes.submit(create_nodes)
        writes.submit(create_edges)
        writes.submit(create_nodes)
    assert set(writes.seconds) == {"create_nodes", "create_edges"}
    assert writes.seconds["create_nodes"] >= 0.12
    assert 0.02 <= writes.seconds["create_edges"] < writes.seconds["create_nodes"]
