"""What every language's parser offers: one file's bytes in, one `ParsedFile` out; and the
module name each file gets from its language's naming scheme."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from ..model import ParsedFile

__all__ = ["ModuleName", "SourceParser", "imported_prefixes"]


@dataclass(frozen=True)
class ModuleName:
    """A file's module: its qualified name in the language's scheme, whether it names a
    package (a folder), and the import root it was named from ("" for the repository root)."""

    module: str
    is_package: bool
    root: str


def imported_prefixes(modules: Iterable[str]) -> frozenset[str]:
    """Every dotted prefix of the given absolute module names (`a.b.c` -> a, a.b, a.b.c)."""
    found: set[str] = set()
    for module in modules:
        parts = module.split(".")
        found.update(".".join(parts[: i + 1]) for i in range(len(parts)))
    return frozenset(found)


class SourceParser(Protocol):
    """A parser of one or more languages. Constructed without arguments in each worker process
    (cheap; not thread-safe); `parse` never raises on bad syntax, it keeps what parses."""

    def parse(
        self,
        *,
        path: str,
        module: str,
        is_package: bool,
        source: bytes,
        sha256: str,
        symbols_only: bool = False,
    ) -> ParsedFile:
        """One file's records. `symbols_only`: the caller reads only the file's symbols, its
        text, docstring, size and issues (`diff` comparing two sides); a parser may then leave
        out what only linking reads (calls, bindings, value flow), or ignore it."""
        ...

    def skip_reason(self, path: str, source: bytes) -> str | None:
        """Why this file should not be indexed at all (a minified bundle), else None."""
        ...
