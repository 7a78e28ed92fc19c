"""Link files on several processes: forked children read the run's tables as the parent
built them (copy-on-write), link a contiguous share of the files each, and send back only
their `FileLinks`.

The parent links the first share itself while the children link the others. Shares are
runs of neighbouring paths, balanced by call sites, because files of one package consult
the same modules and the value-flow results a linking context shares (`PythonLinkContext`)
are then mostly computed once per process. Each file's links record what it consulted, so
the result does not depend on which process linked it (a test compares with one process).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..linking.linker import FileLinks
from ..model import ParsedFile

__all__ = ["MIN_FILES_PER_WORKER", "link_in_processes", "link_weight", "shares"]

# Below this many files per process, forking and sending links back costs more than it saves.
MIN_FILES_PER_WORKER = 300

LinkOne = Callable[[str], FileLinks]

_LINK: LinkOne | None = None  # set in a forked child only (by `_start`), never in the parent


def _start(link: LinkOne) -> None:
    global _LINK
    _LINK = link


def _link_share(paths: Sequence[str]) -> dict[str, FileLinks]:
    if _LINK is None:  # pragma: no cover - a child always ran `_start`
        raise RuntimeError("link worker started without its linker")
    return {path: _LINK(path) for path in paths}


def link_weight(parsed: ParsedFile) -> int:
    """About how long a file takes to link: its call sites and symbols (a parse kept in the
    incremental state holds no call sites: its size then)."""
    return 1 + len(parsed.calls) + len(parsed.symbols) if parsed.calls else 1 + parsed.loc // 8


def shares(paths: Sequence[str], weights: Sequence[int], parts: int) -> list[list[str]]:
    """`paths` (in order) cut into `parts` runs of neighbours of about equal total weight."""
    total = sum(weights) or 1
    cuts: list[list[str]] = [[] for _ in range(parts)]
    done = 0
    for path, weight in zip(paths, weights, strict=True):
        part = min(parts - 1, done * parts // total)
        cuts[part].append(path)
        done += weight
    return cuts


def link_in_processes(
    paths: Sequence[str],
    weights: Sequence[int],
    link: LinkOne,
    *,
    workers: int,
    advance: Callable[[int], None],
) -> dict[str, FileLinks]:
    """Every path's links, the work spread over `workers` processes (this one included);
    one process when fork is unavailable or the files are too few to pay for it."""
    parts = min(workers, len(paths) // MIN_FILES_PER_WORKER)
    if parts < 2 or "fork" not in multiprocessing.get_all_start_methods():
        links = {}
        for path in paths:
            links[path] = link(path)
            advance(1)
        return links
    cut = shares(paths, weights, parts)
    context = multiprocessing.get_context("fork")
    links = {}
    # fork: the children inherit `link` and everything it reaches without a copy being sent
    with ProcessPoolExecutor(
        parts - 1, mp_context=context, initializer=_start, initargs=(link,)
    ) as pool:
        futures: list[tuple[Future[dict[str, FileLinks]], int]] = [
            (pool.submit(_link_share, share), len(share)) for share in cut[1:]
        ]
        for path in cut[0]:
            links[path] = link(path)
            advance(1)
        for (future, size), share in zip(futures, cut[1:], strict=True):
            try:
                links.update(future.result())
            except BrokenProcessPool:
                # a child died (the kernel's out-of-memory killer): its share is linked here,
                # with the same links a child would have made (a file links the same anywhere)
                links.update({path: link(path) for path in share})
            advance(size)
    return {path: links[path] for path in paths}
