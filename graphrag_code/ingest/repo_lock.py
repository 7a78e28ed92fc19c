"""One indexing run per repository at a time, on this machine.

Two runs of one repository used to contend with deadlock retries (issue 13); now the second
waits for the first, says so, and then runs incrementally on what the first wrote. The lock is
a file beside the incremental state, keyed like the state by server, database and repository.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..graph.client import Neo4jClient
from ..runtime.folders import writable_folder
from ..runtime.locks import exclusive_lock

__all__ = ["repository_lock"]


@contextmanager
def repository_lock(
    folder: Path, client: Neo4jClient, repo: str, *, on_wait: Callable[[str], None]
) -> Iterator[bool]:
    """Hold the indexing lock of `repo` in `client`'s database; yields whether it waited.

    Also proves `folder` (the state folder) writable before any work starts.
    """
    writable_folder(folder, setting="GRAPHRAG_CODE_CACHE_DIR")
    key = hashlib.sha256(f"{client.endpoint.uri}\n{client.database}\n{repo}".encode()).hexdigest()
    message = (
        f"another run is indexing repository {repo!r} into this database; waiting for it to finish"
    )
    with exclusive_lock(folder / f"{repo}-{key[:24]}.lock", on_wait=lambda: on_wait(message)) as w:
        yield w
