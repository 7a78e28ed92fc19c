"""Link files on several processes: forked children read the run's tables as the parent
built them (copy-on-write), link a contiguous share of the files each, and send back only
their `FileLinks`, a few files at a time. A child that is done with its share takes the
last chunks of the share with the most left (work stealing): the weights only estimate the
cost of linking a file, and on Django the two halves they made took 14.6 and 23.1 s.

Every share goes to a child; the parent only collects. Linking grows a process by the
value-flow results it shares between files (~800 MB for half of Django), and the parent goes
on to hold the run's links and write them: it should not carry those results as well.
Shares are runs of neighbouring paths, balanced by call sites, because files of one package
consult the same modules and the value-flow results a linking context shares
(`PythonLinkContext`) are then mostly computed once per process. Each file's links record
what it consulted, so the result does not depend on which process linked it (a test compares
with one process).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import cast

from ..linking.edges import FileLinks
from ..model import ParsedFile

__all__ = ["MIN_FILES_PER_WORKER", "link_in_processes", "link_weight", "shares"]

# Below this many files per process, forking and sending links back costs more than it saves.
MIN_FILES_PER_WORKER = 300
# A child sends its links back this many files at a time (the progress bar moves with them).
SEND_EVERY = 25
# Each share is cut into this many chunks of about equal weight, the units a child takes
# from its own share's front or steals from the back of another's.
CHUNKS_PER_SHARE = 16

LinkOne = Callable[[str], FileLinks]
Batch = list[tuple[str, FileLinks]]


class _Chunks:
    """The chunks of every share and, in memory shared with the children, how far each
    share has been taken from its front and from its back."""

    def __init__(self, context: BaseContext, cuts: list[list[list[str]]]) -> None:
        self.cuts = cuts
        self._lock = context.Lock()
        # share s: chunks [bounds[2s], bounds[2s+1]) are still to be taken
        self._bounds = context.RawArray("i", [n for c in cuts for n in (0, len(c))])

    def take(self, share: int) -> list[str] | None:
        """The next chunk for the child of `share`: its own share's front, else the back
        of the share with the most chunks left; None when all are taken."""
        with self._lock:
            bounds = self._bounds
            if bounds[2 * share] < bounds[2 * share + 1]:
                bounds[2 * share] += 1
                return self.cuts[share][bounds[2 * share] - 1]
            left = [bounds[2 * s + 1] - bounds[2 * s] for s in range(len(self.cuts))]
            victim = max(range(len(left)), key=left.__getitem__)
            if left[victim] <= 0:
                return None
            bounds[2 * victim + 1] -= 1
            return self.cuts[victim][bounds[2 * victim + 1]]


def _link_share(link: LinkOne, chunks: _Chunks, share: int, send: Connection) -> None:
    """A child's work: link the chunks it takes, in order, send the links in batches, then
    None.

    A file whose linking fails ends the child without a word (no traceback printed by
    `multiprocessing`): the parent links what no child sent itself, where that failure is
    raised again and handled as in a one-process run."""
    batch: Batch = []
    try:
        while (chunk := chunks.take(share)) is not None:
            for path in chunk:
                batch.append((path, link(path)))
                if len(batch) >= SEND_EVERY:
                    send.send(batch)
                    batch = []
        if batch:
            send.send(batch)
        send.send(None)
    except Exception:  # noqa: BLE001 - the parent redoes the work and meets it again
        os._exit(1)
    finally:
        send.close()


@dataclass
class _Child:
    process: BaseProcess
    receive: Connection


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
    """Every path's links, the work spread over `workers` forked processes; linked here
    when fork is unavailable or the files are too few to pay for it."""
    parts = min(workers, len(paths) // MIN_FILES_PER_WORKER)
    links: dict[str, FileLinks] = {}
    if parts < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for path in paths:
            links[path] = link(path)
            advance(1)
        return links
    context = multiprocessing.get_context("fork")
    weight_of = dict(zip(paths, weights, strict=True))
    cuts = [
        shares(share, [weight_of[p] for p in share], CHUNKS_PER_SHARE)
        for share in shares(paths, weights, parts)
    ]
    chunks = _Chunks(context, [[chunk for chunk in cut if chunk] for cut in cuts])
    children: list[_Child] = []
    for share in range(parts):
        receive, send = context.Pipe(duplex=False)
        # fork: the child inherits `link` and everything it reaches without a copy being sent
        process = context.Process(target=_link_share, args=(link, chunks, share, send), daemon=True)
        process.start()
        send.close()  # the child holds the sending end: its exit ends our reads
        children.append(_Child(process, receive))
    try:
        _collect(children, links, advance)
    finally:
        for child in children:
            child.receive.close()
            if child.process.is_alive():
                child.process.kill()
            child.process.join()
    # a child died (the kernel's out-of-memory killer, a failure to link a file): the files
    # it took and did not send are linked here, with the links a child would have made (a
    # file links the same anywhere)
    missing = [path for path in paths if path not in links]
    for path in missing:
        links[path] = link(path)
    advance(len(missing))
    return {path: links[path] for path in paths}


def _collect(
    children: list[_Child], links: dict[str, FileLinks], advance: Callable[[int], None]
) -> None:
    """Read the children's batches as they come, until each has finished or died."""
    open_ends = {child.receive: child for child in children}
    while open_ends:
        for end in wait(list(open_ends)):
            child = open_ends[cast(Connection, end)]
            try:
                batch: Batch | None = child.receive.recv()
            except (EOFError, OSError):
                batch = None  # died before saying it was done
            if batch is None:
                del open_ends[child.receive]
                continue
            links.update(batch)
            advance(len(batch))
