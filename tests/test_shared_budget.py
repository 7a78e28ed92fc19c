"""The budget of what a link process shares between files (`linking/shared_budget.py`)."""

from __future__ import annotations

import os

from graphrag_code.linking.shared_budget import MIN_SHARED_MB, SharedBudget, resident_mb


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


def _growth_at_first_drop(budget: SharedBudget, start: float) -> float:
    """Grow the process 4 MiB a file from `start` (a fake reading) until `budget` drops;
    how much it had grown then."""
    now = start
    budget.measure = lambda: now
    budget.begin()
    cache: dict[object, object] = {}
    while not budget.check(cache):
        cache[now] = now
        now += 4.0
        assert now < start + 10_000, "never dropped"
    return now - start


def test_a_ceiling_on_resident_memory_lowers_the_budget_but_not_below_its_floor() -> None:
    # far below the ceiling: the whole budget
    assert _growth_at_first_drop(SharedBudget(1024, ceiling_mb=1792), 600.0) == 1024.0
    # forked with 1,500 MiB of the indexer's pages: only up to the ceiling
    assert _growth_at_first_drop(SharedBudget(1024, ceiling_mb=1792), 1500.0) == 292.0
    # already near (or past) the ceiling: the floor, so that some results are still shared
    assert _growth_at_first_drop(SharedBudget(1024, ceiling_mb=1792), 1700.0) == MIN_SHARED_MB
    assert _growth_at_first_drop(SharedBudget(1024, ceiling_mb=1792), 4000.0) == MIN_SHARED_MB
    # no ceiling: the whole budget again
    assert _growth_at_first_drop(SharedBudget(1024, ceiling_mb=None), 1500.0) == 1024.0


def test_resident_memory_is_read_from_proc() -> None:
    found = resident_mb()
    assert found is not None
    assert 1 < found < 64 * 1024
