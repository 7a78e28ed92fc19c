"""How a full-text query stays inside one repository: `repo_token`.

The full-text index covers every repository. Filtering its hits by repository afterwards
makes a repository's results depend on its neighbours (the top hits may all belong to a
larger one), so the index also holds `repo_token`, one word per repository, and a search in
one repository requires it (`+repo_token:…`, `search/hybrid_search.cypher`).

The repository name itself would not do: an analyzer splits `bench-django-5.1.4` into words,
drops stop words and stems, so two names could share a token, and a question word ("flask")
would match the repository's name. The token is consonants only (no vowel, no `s` or `y`):
no tokenizer splits it, no stop list holds it, no stemmer rule applies to it, and no question
word equals it.
"""

from __future__ import annotations

import hashlib

__all__ = ["repo_token"]

_LETTERS = "bcdfghjklmnpqrtvwxz"
_LENGTH = 16  # 19**16 ~ 2**68 values; the repository filter after the search still applies


def repo_token(repo: str) -> str:
    """The `repo_token` of repository `repo`: 16 lowercase consonants, a hash of the name.

    >>> repo_token("shop") == repo_token("shop") != repo_token("shop2")
    True
    """
    value = int.from_bytes(hashlib.blake2b(repo.encode("utf-8"), digest_size=10).digest(), "big")
    letters = []
    for _ in range(_LENGTH):
        value, digit = divmod(value, len(_LETTERS))
        letters.append(_LETTERS[digit])
    return "".join(letters)
