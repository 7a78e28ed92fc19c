"""The budget of what a link process shares between files (`linking/shared_budget.py`)."""

from __future__ import annotations

import os

from graphrag_code.linking.shared_budget import SharedBudget, resident_mb


def test_the_cache_is_dropped_at_the_budget_then_at_the_size_it_had_there() -> None:
    """Memory freed by a drop is reused, not given back, so after the first drop the limit
    is the number of results the cache held when the process first grew by the budget."""
    memory = iter([100.0, 150.0, 260.0] + [260.0] * 10)  # MiB: at the start, then per file
    budget = SharedBudget(150, measure=lambda: next(memory))
    budget.begin()
    cache: dict[object, object] = {}
    dropped = []
    for file in range(8):
        cache.update({(file, n): n for n in range(3)})  # each file adds three results
        dropped.append(budget.check(cache))
    # grown 50 MiB after the 1st file, 160 after the 2nd (6 results): dropped there, then
    # whenever the cache holds 6 again (every second file), whatever memory says
    assert dropped == [False, True, False, True, False, True, False, True]
    assert budget.drops == 4
    assert len(cache) == 0


def test_no_budget_never_drops_and_a_forked_child_measures_its_own_growth() -> None:
    cache = {n: n for n in range(1000)}
    assert not SharedBudget(None).check(cache)
    assert len(cache) == 1000
    # the parent began at 1,000 MiB; the child, forked with its pages, is at 5,000
    readings = iter([1000.0, 5000.0, 5000.0, 5100.0])
    budget = SharedBudget(200, measure=lambda: next(readings))
    budget.begin()
    budget._pid = os.getpid() + 1  # as if begun in another process (the parent)
    assert not budget.check(cache)  # begins again here (5,000), grown 0
    assert not budget.check(cache)  # grown 100 < 200 (4,100 since the parent began)
    assert len(cache) == 1000


def test_resident_memory_is_read_from_proc() -> None:
    found = resident_mb()
    assert found is not None
    assert 1 < found < 64 * 1024
