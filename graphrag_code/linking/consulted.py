"""`ConsultedKeys`: what linking one file read (modules, parts of other files' value flow),
kept as the sorted 64-bit hashes of its keys, for incremental runs to intersect with what
changed.

A file of a large repository consults thousands of keys (homeassistant 2024.12: 2,000 on
average, 15.2 M in all, 97 % of them `FLOWS_KEY` parts). As strings, unpickled once per file
from the link processes and from the state, they held 2 GB of the indexer's memory and
1.25 GB of its state. Hashes take 8 bytes each. Two keys with one hash can only make an
incremental run relink a file it did not need to, never skip one it needed.
"""

from __future__ import annotations

import hashlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["ConsultedKeys", "key_hash", "key_hashes"]

# keys repeat across the files one process links (Django: 12 k distinct keys for 0.9 M
# consulted): hashing each once is most of the cost; the memo is dropped when it grows past
# this many keys (a long-lived watcher would otherwise keep every key it ever met)
_MEMO_LIMIT = 2_000_000
_memo: dict[str, int] = {}


def key_hash(key: str) -> int:
    """A stable 64-bit hash of `key` (the same in every process and every run, unlike
    `hash()`, which is salted per process)."""
    found = _memo.get(key)
    if found is None:
        digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        found = int.from_bytes(digest, "little", signed=True)
        if len(_memo) >= _MEMO_LIMIT:
            _memo.clear()
        _memo[key] = found
    return found


def key_hashes(keys: Iterable[str]) -> frozenset[int]:
    return frozenset(key_hash(key) for key in keys)


def _sorted_hashes() -> array[int]:
    return array("q")


@dataclass(frozen=True)
class ConsultedKeys:
    """A set of keys, stored as their sorted hashes (pickled as one run of bytes)."""

    hashes: array[int] = field(default_factory=_sorted_hashes)

    @classmethod
    def of(cls, keys: Iterable[str]) -> ConsultedKeys:
        return cls(array("q", sorted({key_hash(key) for key in keys})))

    def __len__(self) -> int:
        return len(self.hashes)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._has(key_hash(key))

    def _has(self, value: int) -> bool:
        at = bisect_left(self.hashes, value)
        return at < len(self.hashes) and self.hashes[at] == value

    def meets(self, hashes: frozenset[int]) -> bool:
        """Whether any of these key hashes (`key_hashes` of what changed) is consulted."""
        if not hashes or not self.hashes:
            return False
        if len(hashes) * 16 < len(self.hashes):  # a few changes: look each one up
            return any(self._has(value) for value in hashes)
        return not hashes.isdisjoint(self.hashes)
