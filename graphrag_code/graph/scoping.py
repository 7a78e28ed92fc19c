"""How a full-text search stays inside one repository: a full-text index of its own.

One full-text index over every repository cannot keep a repository's answers to itself, even
when a query is restricted to the repository's nodes: BM25 weighs each word by statistics of
the whole index (how many documents hold it, the average text length), so indexing a large
neighbour reorders the hits of every other repository (measured: the full-text leg of 33 of
35 questions on requests changed when Django was added; BENCHMARKS.md §9). So every
repository's nodes also carry a label of their own (`repo_label`) and a full-text index over
that label (`repository_text_index`) answers the questions asked in that repository, with
statistics of that repository alone. The shared index answers questions across all
repositories.

Names cannot be labels (`bench-django-5.1.4`), so both derive from `repo_token`, a hash of the
name spelt in 16 lowercase consonants.

Vectors work the same way on servers whose vector search cannot filter inside the index
(5.26, 2025.x): `queryNodes` ranks every repository's vectors and the repository filter
follows, so a large neighbour crowds a small repository's hits out of any over-fetch; a vector
index over the repository's label (`repository_vector_index`) holds its vectors alone. On
2026.01+ the shared index filters inside the search and none is created.

Module nodes also carry their whole file's text (`file_text`), indexed apart from the symbols'
`search_text` (`file_text_index`, shared and per repository alike), so that file-level search
can weigh a file as one document, as BM25 over files does.
"""

from __future__ import annotations

import hashlib

__all__ = [
    "file_text_index", "repo_label", "repo_token", "repository_text_index",
    "repository_vector_index",
]  # fmt: skip

_LETTERS = "bcdfghjklmnpqrtvwxz"
_LENGTH = 16  # 19**16 ~ 2**68 values; search still filters by the repository's name


def repo_token(repo: str) -> str:
    """16 lowercase consonants, a hash of the repository name.

    >>> repo_token("shop") == repo_token("shop") != repo_token("shop2")
    True
    """
    value = int.from_bytes(hashlib.blake2b(repo.encode("utf-8"), digest_size=10).digest(), "big")
    letters = []
    for _ in range(_LENGTH):
        value, digit = divmod(value, len(_LETTERS))
        letters.append(_LETTERS[digit])
    return "".join(letters)


def repo_label(repo: str) -> str:
    """The label every node of repository `repo` carries: `Repo_<token>`."""
    return f"Repo_{repo_token(repo)}"


def repository_text_index(fulltext_index: str, repo: str) -> str:
    """The name of repository `repo`'s own full-text index, beside the shared one."""
    return f"{fulltext_index}_{repo_token(repo)}"


def repository_vector_index(vector_index: str, repo: str) -> str:
    """The name of repository `repo`'s own vector index, beside the shared one (servers
    whose vector search cannot filter by repository inside the index: `schema.py`)."""
    return f"{vector_index}_{repo_token(repo)}"


def file_text_index(fulltext_index: str, repo: str | None = None) -> str:
    """The name of the whole-file text index beside `fulltext_index`: the shared one, or with
    `repo` that repository's own."""
    shared = f"{fulltext_index}_files"
    return shared if repo is None else f"{shared}_{repo_token(repo)}"
