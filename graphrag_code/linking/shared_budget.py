"""`SharedBudget`: keeps the value-flow results one linking process shares between files
within a memory budget, by dropping them all when they reach it.

Sharing results is what makes value flow affordable (Django links in 38 s of CPU with it, 47 s
without), but what is shared grows with the repository: a link process of homeassistant held
2.7 GB, and indexing an 11k-file `site-packages` grew one past 12 GB until the kernel
killed it. A file links the same whatever the cache holds (a reused result costs and records what
computing it did: `values.py`), so dropping the cache between two files changes no link, only
the time the next files take to compute results again.

The budget is on the growth of the process's resident memory since it began linking. Memory
freed by a drop is reused by the results that come after, not given back to the system, so
resident memory is no measure of the cache after the first drop: the number of results the
cache held when the budget was first reached is the limit from then on.

A ceiling on the process's resident memory (default 1,792 MiB) can bring the budget down: a
process forked from a large indexer starts with its pages (homeassistant's after parsing:
~1.1 GB), and a full budget on top of those passed 2 GB (issue 20's limit per process). The
budget never falls below `MIN_SHARED_MB`, so a process that starts near or above the ceiling
still shares some results rather than none.
"""

from __future__ import annotations

import os
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DEFAULT_CEILING_MB",
    "DEFAULT_SHARED_MB",
    "MIN_SHARED_MB",
    "SharedBudget",
    "resident_mb",
]

# Set by hand, not tuned: a Django link process grows ~700 MB on its half of Django (two
# processes) and stays under it; homeassistant's grew ~1.6 GB.
DEFAULT_SHARED_MB = 1024
DEFAULT_CEILING_MB = 1792
"""Resident MiB a link process aims to stay under: 2 GB less a margin for the file being
linked when the ceiling is reached (a check runs after each file)."""
MIN_SHARED_MB = 256
"""The least a process may grow by, whatever the ceiling: below this the files of a large
repository compute their results again and again (Django one process: 38 s of CPU with
sharing, 47 s without)."""

_PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20 if hasattr(os, "sysconf") else 4096 / 2**20


def resident_mb() -> float | None:
    """This process's resident memory in MiB (None where `/proc` does not tell it)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_MB
    except (OSError, ValueError, IndexError):
        return None


@dataclass
class SharedBudget:
    """Drops a shared cache when the process has grown by `megabytes` since it began linking
    (None: never), or by less where that would take it past `ceiling_mb` (None: no ceiling),
    but not by less than `MIN_SHARED_MB`."""

    megabytes: int | None = DEFAULT_SHARED_MB
    ceiling_mb: int | None = DEFAULT_CEILING_MB
    measure: Callable[[], float | None] = resident_mb
    drops: int = 0
    _pid: int = field(default=0, repr=False)
    _start: float = field(default=0.0, repr=False)
    _growth: float = field(default=0.0, repr=False)
    _entries: int | None = field(default=None, repr=False)

    def begin(self) -> None:
        """Take this process's memory as the start. `check` calls it on a process's first
        file, so a forked child measures its own growth, not the parent's."""
        self._pid, self._start, self._entries = os.getpid(), self.measure() or 0.0, None
        self._growth = float(self.megabytes or 0)
        if self.ceiling_mb is not None:
            room = max(self.ceiling_mb - self._start, MIN_SHARED_MB)
            self._growth = min(self._growth, room)

    def check(self, shared: MutableMapping[Any, Any]) -> bool:
        """After a file: empty `shared` when it holds the budget; whether it did."""
        if self.megabytes is None:
            return False
        if self._pid != os.getpid():
            self.begin()
        if self._entries is None:
            now = self.measure()
            if now is None or now - self._start < self._growth:
                return False
            self._entries = max(len(shared), 1)
        if len(shared) < self._entries:
            return False
        shared.clear()
        self.drops += 1
        return True
