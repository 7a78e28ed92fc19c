"""Every error graphrag_code raises on purpose.

    GraphRAGCodeError
    ├── ConfigurationError          a setting is invalid (names the setting), credentials are
    │                               rejected, a data or cache folder cannot be written
    ├── InvalidArgumentError        an argument cannot work: an empty question, k < 1
    │   └── RepositoryRootError         a repository name used from another folder than the
    │                                   one it is indexed from (names both, and the way out)
    ├── Neo4jUnavailableError       no server answers (names the address, never the password)
    ├── Neo4jQueryError             Neo4j rejected a query or kept failing it (names the code)
    ├── LocalServerError            the managed local server cannot be built, started or stopped
    │   └── PrerequisiteMissingError    Java >= 17 / Maven missing, or a port taken
    ├── SchemaError                 an index or constraint is in an unexpected state
    │   └── EmbeddingMismatchError      stored vectors come from another model / dimension count
    ├── QueryFileError              a .cypher file is missing or an identifier is invalid
    ├── IngestError                 indexing a repository failed (names the path)
    │   └── RepositoryNotFoundError     no repository of that name in the graph
    ├── EmbeddingError              an embedder failed (names the embedder); also a model
    │                               that Maven cannot fetch or whose sha256 is wrong
    ├── ArtifactUnavailableError    Maven could not fetch an artifact (names it)
    ├── SymbolNotFoundError         a symbol named in a question does not exist
    │   └── AmbiguousSymbolError        a short name matches several symbols (lists them)
    └── LLMError                    the chat model cannot be reached or is not configured

Catch `GraphRAGCodeError` to handle all of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from difflib import get_close_matches

__all__ = [
    "AmbiguousSymbolError",
    "ArtifactUnavailableError",
    "ConfigurationError",
    "EmbeddingError",
    "EmbeddingMismatchError",
    "GraphRAGCodeError",
    "IngestError",
    "InvalidArgumentError",
    "LLMError",
    "LocalServerError",
    "Neo4jQueryError",
    "Neo4jUnavailableError",
    "PrerequisiteMissingError",
    "QueryFileError",
    "RepositoryNotFoundError",
    "RepositoryRootError",
    "SchemaError",
    "SymbolNotFoundError",
    "nearest_names",
]


class GraphRAGCodeError(Exception):
    """Root of every error raised on purpose by graphrag_code."""


class ConfigurationError(GraphRAGCodeError):
    """A setting has a value that cannot work."""


class InvalidArgumentError(GraphRAGCodeError):
    """An argument of a call or command cannot work (an empty question, `k` below 1)."""


class RepositoryRootError(InvalidArgumentError):
    """A repository name is bound to the folder it was indexed from: indexing or diffing it
    from another folder is refused unless the caller moves it on purpose (`ingest/binding.py`)."""

    def __init__(self, message: str, *, repo: str, recorded: str, folder: str) -> None:
        super().__init__(message)
        self.repo = repo
        self.recorded = recorded
        self.folder = folder


class Neo4jUnavailableError(GraphRAGCodeError):
    """No Neo4j server answered at the configured address."""

    def __init__(self, message: str, *, address: str) -> None:
        super().__init__(f"{message} (server: {address})")
        self.address = address


class Neo4jQueryError(GraphRAGCodeError):
    """Neo4j rejected a query, or a transient failure outlasted the retries."""

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


class LocalServerError(GraphRAGCodeError):
    """The managed local Neo4j server could not be built, started or stopped."""


class PrerequisiteMissingError(LocalServerError):
    """Something the local server needs (Java, Maven, a free port) is not there."""


class SchemaError(GraphRAGCodeError):
    """An index or constraint is missing or in an unexpected state."""


class EmbeddingMismatchError(SchemaError):
    """The vector index holds vectors of another model or dimension count."""

    def __init__(self, *, index: str, stored: str, configured: str) -> None:
        super().__init__(
            f"vector index {index!r} was built for {stored}, but the configured embedder is "
            f"{configured}. Re-embed with `graphrag-code embed --reembed` (drops the old "
            f"vectors) or configure the embedder the index was built with."
        )
        self.index = index
        self.stored = stored
        self.configured = configured


class QueryFileError(GraphRAGCodeError):
    """A Cypher file is missing or an identifier failed validation."""


class IngestError(GraphRAGCodeError):
    """Indexing a repository failed."""


class RepositoryNotFoundError(IngestError):
    """No repository of this name is in the graph: the nearest names are offered, and the
    others counted, not listed (a typo listed ~140 names; issue 55). The CLI exits 2."""

    def __init__(
        self, repo: str, *, known: Sequence[str] = (), lister: str = "`graphrag-code repos`"
    ) -> None:
        self.repo = repo
        self.known = list(known)
        self.nearest = nearest_names(repo, known)
        guess = f": did you mean {_either(self.nearest)}?" if self.nearest else ""
        if not known:
            held = "it holds no repository"
        elif len(known) <= _LISTED:
            held = f"it holds {', '.join(sorted(known))}"
        else:
            held = f"it holds {len(known)}; {lister} lists them"
        super().__init__(
            f"no repository {repo!r} in the graph{guess} ({held}); index it first with "
            f"`graphrag-code index PATH --repo {repo}`"
        )


_LISTED = 3  # an error lists this many names at most


def nearest_names(name: str, known: Iterable[str], *, limit: int = _LISTED) -> list[str]:
    """The names in `known` nearest to `name`, nearest first, for a "did you mean": one that
    differs only in case, then those that start with `name` (`attrs` -> `attrs-24.2.0`) or
    that `name` starts with, shortest first, then difflib's close matches (`rihc` -> `rich`)."""
    names = sorted(set(known))
    folded = name.casefold()
    same = [n for n in names if n.casefold() == folded and n != name]
    prefixed = sorted(
        (n for n in names if n.casefold() != folded and _prefix(n.casefold(), folded)),
        key=lambda n: (len(n), n),
    )
    by_folded = {n.casefold(): n for n in names}
    close = [by_folded[n] for n in get_close_matches(folded, by_folded, n=limit, cutoff=0.6)]
    found = [n for n in dict.fromkeys([*same, *prefixed, *close]) if n != name]
    return found[:limit]


def _prefix(one: str, other: str) -> bool:
    """One starts with the other, and the shorter says something (not `r` for `rich`)."""
    shorter, longer = sorted((one, other), key=len)
    return len(shorter) >= 3 and longer.startswith(shorter)


def _either(names: Sequence[str]) -> str:
    quoted = [repr(name) for name in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


class EmbeddingError(GraphRAGCodeError):
    """An embedder could not produce vectors."""


class ArtifactUnavailableError(GraphRAGCodeError):
    """Maven could not fetch an artifact: offline, no such version, a proxy in the way."""


class SymbolNotFoundError(GraphRAGCodeError):
    """No symbol or module matches the given name."""

    def __init__(self, name: str, *, repo: str | None = None) -> None:
        where = f" in repository {repo!r}" if repo else ""
        super().__init__(f"no symbol or module named {name!r}{where}")
        self.name = name
        self.repo = repo


class AmbiguousSymbolError(SymbolNotFoundError):
    """A short name matches several symbols; the candidates are listed instead of guessing."""

    def __init__(self, name: str, candidates: Sequence[str]) -> None:
        GraphRAGCodeError.__init__(
            self,
            f"{name!r} is ambiguous; use a qualified name. Candidates: " + ", ".join(candidates),
        )
        self.name = name
        self.repo = None
        self.candidates = list(candidates)


class LLMError(GraphRAGCodeError):
    """The chat model is not configured or did not answer."""
