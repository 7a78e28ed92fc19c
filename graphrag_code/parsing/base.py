"""What every language's parser offers: one file's bytes in, one `ParsedFile` out."""

from __future__ import annotations

from typing import Protocol

from ..model import ParsedFile

__all__ = ["SourceParser"]


class SourceParser(Protocol):
    """A parser of one or more languages. Constructed without arguments in each worker process
    (cheap; not thread-safe); `parse` never raises on bad syntax, it keeps what parses."""

    def parse(
        self, *, path: str, module: str, is_package: bool, source: bytes, sha256: str
    ) -> ParsedFile: ...

    def skip_reason(self, path: str, source: bytes) -> str | None:
        """Why this file should not be indexed at all (a minified bundle), else None."""
        ...
