"""`Location`: where a piece of code lives, and the one way it is written (`path:start-end`).

Every public result that points into a repository (hits, related symbols, path steps, entry
points, context citations) carries one, so a location reads the same everywhere: in tables, in
LLM context headers and in the citations an answer is checked against.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Location"]


@dataclass(frozen=True)
class Location:
    """A file, optionally narrowed to a line or a line range (lines count from 1).

    >>> str(Location("shop/api.py", 12, 30)), str(Location("shop/api.py", 12))
    ('shop/api.py:12-30', 'shop/api.py:12')
    """

    path: str
    start_line: int | None = None
    end_line: int | None = None

    def __str__(self) -> str:
        if self.start_line is None:
            return self.path
        if self.end_line is None:
            return f"{self.path}:{self.start_line}"
        return f"{self.path}:{self.start_line}-{self.end_line}"

    def __format__(self, spec: str) -> str:
        # f"{hit.location:40s}" pads like the string it used to be
        return format(str(self), spec)
