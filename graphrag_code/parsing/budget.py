"""A per-file budget of parsing time: what a parser does beyond the syntax tree (value flow,
call facts) stops when it is spent, and the file is kept with what was extracted so far and an
issue that says so. One hostile file (a 400 KB `return 1+1+…`, `g(g(…))` 20,000 deep: 255 s
and 49 s to parse, issue 57) must not hold up the index of the rest."""

from __future__ import annotations

import time

__all__ = ["PARSE_SECONDS", "Deadline"]

# seconds a file's extraction may take (the slowest ordinary files of Django parse in ~0.3 s)
PARSE_SECONDS = 5.0


class Deadline:
    """When a file's parsing budget is spent; `passed()` is cheap enough to ask per capture."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = PARSE_SECONDS if seconds is None else seconds
        self._at = time.monotonic() + self.seconds

    def passed(self) -> bool:
        return time.monotonic() >= self._at

    def message(self, what: str) -> str:
        """The issue a file cut short carries."""
        return f"{what} cut after the {self.seconds:g} s parse budget: kept in part"
