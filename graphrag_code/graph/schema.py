"""Create the graph schema (constraints, vector and full-text indexes); wait until ONLINE.

The indexes take the form the server allows: on Neo4j 2026.01+ the vector index carries
`repo` as a filter property (Cypher 25 `SEARCH` then filters inside the index search), and a
vector index created earlier without it is rebuilt once, keeping every vector. On every server
each repository also gets a full-text index of its own (`scoping.py`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from neo4j.exceptions import Neo4jError

from ..errors import EmbeddingMismatchError, GraphRAGCodeError, SchemaError
from ..text import split_statements
from .client import Neo4jClient
from .queries import load_query, paste_identifier
from .scoping import file_text_index, repo_label, repository_text_index, repository_vector_index

__all__ = [
    "SchemaConfig",
    "VectorIndexInfo",
    "check_fulltext_index",
    "check_vector_index",
    "ensure_repository_text_index",
    "ensure_repository_vector_index",
    "ensure_schema",
    "fulltext_index_properties",
    "schema_in_place",
    "vector_index_info",
    "wait_for_indexes",
]

_CLEAR_BATCH = 5000
# Another process created the same index or constraint in the same moment: `IF NOT EXISTS`
# looked before the other creation committed (two indexers starting on one server).
_ALREADY_CREATED = frozenset(
    {
        "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
        "Neo.ClientError.Schema.IndexAlreadyExists",
        "Neo.ClientError.Schema.IndexWithNameAlreadyExists",
        "Neo.ClientError.Schema.ConstraintAlreadyExists",
        "Neo.ClientError.Schema.ConstraintWithNameAlreadyExists",
    }
)


def _create(client: Neo4jClient, statement: str, parameters: dict[str, Any]) -> None:
    """Run one `CREATE … IF NOT EXISTS`; a rule another process has just created is what
    was wanted, so that error is not one."""
    try:
        client.write(statement, parameters)
    except GraphRAGCodeError as error:
        cause = error.__cause__
        if isinstance(cause, Neo4jError) and cause.code in _ALREADY_CREATED:
            return
        raise


@dataclass(frozen=True)
class SchemaConfig:
    """What the indexes must look like: names, and the embedder the vector index serves."""

    vector_index: str = "code_embedding"
    fulltext_index: str = "code_search_text"
    dimensions: int = 384
    model: str = "bge-small-en-v1.5-int8"  # the default embedder's name (JarEmbedder "bge-small")
    fulltext_analyzer: str = "english"
    # the vector index's quantization on Neo4j 2026.01+ (5.26 keeps its own default, int8).
    # NONE: exact scores; 2026's SCALAR scores are quantized (an identical vector scored .988)
    # and moved with the neighbours' vectors (the vector leg of 17 of 18 questions changed
    # beside Django, 2 with NONE), at no measured latency gain; 2026's default for a new index,
    # BINARY, loses recall (BENCHMARKS.md §9). NONE keeps 4 bytes a dimension in the index.
    vector_quantization: Literal["SCALAR", "NONE"] = "NONE"


def ensure_schema(
    client: Neo4jClient,
    config: SchemaConfig,
    *,
    reembed: bool = False,
    timeout: float = 300.0,
    repo: str | None = None,
) -> None:
    """Create what is missing, check the vector index matches the embedder, wait for ONLINE;
    with `repo`, also that repository's own full-text index (`ensure_repository_text_index`)
    and, on a server whose vector search cannot filter by repository inside the index, its
    own vector index (`ensure_repository_vector_index`).

    If the vector index was built for another model or dimension count, this raises
    `EmbeddingMismatchError` naming both — unless no vectors are stored yet or `reembed` is
    set, in which case the old index and vectors are dropped and a fresh index is created.

    On a server that can filter by `repo` inside the vector index (2026.01+), a vector index an
    earlier version created without that filter is dropped and created again: the vectors stay
    on the nodes, and rebuilding reads them all again (seconds for a package, about a minute
    for Django's 42k vectors on two cores); searches wait for it like for any index that is
    not ONLINE.
    """
    filtered = client.capabilities().vector_search_filters
    indexes = None if reembed else _indexes(client)
    shared, own = (
        (False, False)
        if indexes is None
        else schema_in_place(client, config, repo, filtered, indexes=indexes)
    )
    if not shared:
        _ensure_shared(client, config, reembed=reembed, filtered=filtered)
        indexes = None  # the shared part may drop or make indexes: read them again
    if repo is not None and not (shared and own):
        ensure_repository_text_index(client, config, repo, indexes=indexes)
        if not filtered:
            ensure_repository_vector_index(client, config, repo, indexes=indexes)
    if not (shared and own):
        wait_for_indexes(client, timeout=timeout)


def _ensure_shared(
    client: Neo4jClient, config: SchemaConfig, *, reembed: bool, filtered: bool
) -> None:
    """What every repository shares: constraints, indexes, the vector index of `config`'s
    model (in the form the server allows) and the model recorded for it."""
    _reconcile_vector_index(client, config, reembed=reembed)
    if filtered:
        _add_vector_filter(client, config)
    fulltext = {
        "fulltext_index": config.fulltext_index,
        "file_index": file_text_index(config.fulltext_index),
        "fulltext_analyzer": config.fulltext_analyzer,
    }
    for statement in split_statements(load_query("schema/create")):
        _create(client, statement, fulltext)
    _create(
        client,
        load_query("schema/create_vector_filtered" if filtered else "schema/create_vector"),
        {
            "vector_index": config.vector_index,
            "dimensions": config.dimensions,
            "vector_quantization": config.vector_quantization,
        },
    )
    _check_names(client, config)
    client.write(
        load_query("schema/record_embedding_model"),
        {"name": config.vector_index, "model": config.model, "dimensions": config.dimensions},
    )


_CREATED = re.compile(r"CREATE\s+(CONSTRAINT|(?:TEXT\s+|FULLTEXT\s+)?INDEX)\s+(\$?\w+)\s+IF")


def _indexes(client: Neo4jClient) -> dict[str, dict[str, Any]]:
    """Every index by name: its type, state, owning constraint, properties and dimensions."""
    return {str(row["name"]): row for row in client.read(load_query("schema/in_place"))}


def schema_in_place(
    client: Neo4jClient,
    config: SchemaConfig,
    repo: str | None,
    filtered: bool,
    *,
    indexes: Mapping[str, Mapping[str, Any]] | None = None,
) -> tuple[bool, bool]:
    """Whether what `ensure_schema` makes is there already, ONLINE: the shared part (the
    constraints and indexes, the vector index holding `config`'s model in the form the server
    allows) and `repo`'s own indexes (True without `repo`). Two reads (the indexes, the
    recorded model) then stand for the ~20 statements and reads of the full check that every
    `index` command sent (flask: 0.25 s of the server's CPU, 0.6 s of wall time); a new
    repository in a graph that has the rest sends its own indexes' statements alone.
    `indexes`: `_indexes` read already by the caller."""
    rows = _indexes(client) if indexes is None else indexes

    def online(name: str, owner: str | None = None) -> bool:
        row = rows.get(name)
        return row is not None and row["state"] == "ONLINE" and row["owningConstraint"] == owner

    def holds(name: str) -> bool:
        return online(name) and (rows[name]["type"], rows[name]["dimensions"]) == (
            "VECTOR",
            config.dimensions,
        )

    names = {
        "$fulltext_index": config.fulltext_index,
        "$file_index": file_text_index(config.fulltext_index),
    }
    own = repo is None or (
        online(repository_text_index(config.fulltext_index, repo))
        and online(file_text_index(config.fulltext_index, repo))
        and (filtered or holds(repository_vector_index(config.vector_index, repo)))
    )
    for statement in split_statements(load_query("schema/create")):
        found = _CREATED.search(statement)
        if found is not None:
            name = names.get(found.group(2), found.group(2))
            if not online(name, name if found.group(1) == "CONSTRAINT" else None):
                return False, own
    vectors = config.vector_index
    if not holds(vectors) or (filtered and "repo" not in (rows[vectors]["properties"] or ())):
        return False, own
    recorded = client.read(load_query("schema/embedding_model"), {"name": vectors})
    shared = bool(recorded) and (recorded[0]["model"], recorded[0]["dimensions"]) == (
        config.model,
        config.dimensions,
    )
    return shared, own


def ensure_repository_text_index(
    client: Neo4jClient,
    config: SchemaConfig,
    repo: str,
    *,
    indexes: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Create repository `repo`'s own full-text indexes when they are missing: its symbols'
    `search_text` and its files' `file_text`. Its nodes carry the repository's label from the
    writer on; nodes written before it get it here first (one pass over the repository's
    nodes), then the indexes are filled from them. `indexes` (`_indexes`, read by the caller)
    spares the two reads of which exist (issue 56: a repository new to the graph)."""
    name = repository_text_index(config.fulltext_index, repo)
    files = file_text_index(config.fulltext_index, repo)
    have_text, have_files = (
        _has(indexes, index, "FULLTEXT")
        if indexes is not None
        else fulltext_index_properties(client, index) is not None
        for index in (name, files)
    )
    if have_text and have_files:
        return
    label = repo_label(repo)
    if not have_text:
        write = load_query("schema/write_repo_label")
        parameters = {"repo": repo, "label": label, "limit": _CLEAR_BATCH}
        while int(client.write(write, parameters)[0]["written"]):
            pass
    analyzer = config.fulltext_analyzer
    _create_together(
        client,
        [
            (
                paste_identifier(load_query(query), "RepositoryLabel", label),
                {"name": index, "fulltext_analyzer": analyzer},
            )
            for index, query, present in (
                (name, "schema/create_repository_text", have_text),
                (files, "schema/create_repository_files", have_files),
            )
            if not present
        ],
    )


def _create_together(client: Neo4jClient, statements: list[tuple[str, dict[str, Any]]]) -> None:
    """Several `CREATE … IF NOT EXISTS` in one schema transaction (one commit instead of one
    each: issue 56); when another process made one of them in the same moment, each again on
    its own (`_create`)."""
    if len(statements) > 1:
        try:
            client.write_statements(statements)
            return
        except GraphRAGCodeError as error:
            cause = error.__cause__
            if not (isinstance(cause, Neo4jError) and cause.code in _ALREADY_CREATED):
                raise
    for statement, parameters in statements:
        _create(client, statement, parameters)


def _has(indexes: Mapping[str, Mapping[str, Any]], name: str, kind: str) -> bool:
    row = indexes.get(name)
    return row is not None and row["type"] == kind


def ensure_repository_vector_index(
    client: Neo4jClient,
    config: SchemaConfig,
    repo: str,
    *,
    indexes: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Create repository `repo`'s own vector index when it is missing, for servers whose
    vector search filters by repository only after the index search (5.26, 2025.x): over the
    repository's label (which `ensure_repository_text_index` gives nodes written before it),
    so a search in `repo` ranks its vectors alone. One of another dimension count (an earlier
    model) is dropped and created again from the vectors stored now. `indexes` (`_indexes`,
    read by the caller) spares the read of the index."""
    name = repository_vector_index(config.vector_index, repo)
    if indexes is not None:
        dimensions = indexes[name]["dimensions"] if _has(indexes, name, "VECTOR") else None
    else:
        info = vector_index_info(client, name)
        dimensions = info.dimensions if info is not None else None
    if dimensions is not None:
        if int(dimensions) == config.dimensions:
            return
        client.write(load_query("schema/drop_index"), {"name": name})
    create = paste_identifier(
        load_query("schema/create_repository_vector"), "RepositoryLabel", repo_label(repo)
    )
    _create(client, create, {"name": name, "dimensions": config.dimensions})


def repository_vector_indexes(client: Neo4jClient, vector_index: str) -> list[str]:
    """The names of the repositories' own vector indexes beside the shared `vector_index`."""
    rows = client.read(
        load_query("schema/repository_vector_indexes"), {"prefix": f"{vector_index}_"}
    )
    return [str(row["name"]) for row in rows]


@dataclass(frozen=True)
class VectorIndexInfo:
    """What a vector index was built for: its dimension count and the recorded model (None
    for an index created before models were recorded, which any model may use)."""

    name: str
    dimensions: int
    model: str | None
    properties: tuple[str, ...] = ("embedding",)  # + `repo` when it filters by repository

    @property
    def filters_by_repo(self) -> bool:
        """Whether a Cypher 25 `SEARCH` on this index can filter by `repo` inside it."""
        return "repo" in self.properties

    def serves(self, model: str, dimensions: int) -> bool:
        """Whether vectors of `model` with `dimensions` belong in this index."""
        return self.dimensions == dimensions and (not self.model or self.model == model)

    def mismatch(self, model: str, dimensions: int) -> EmbeddingMismatchError:
        return EmbeddingMismatchError(
            index=self.name,
            stored=f"model {self.model or 'unknown'} with {self.dimensions} dimensions",
            configured=f"model {model} with {dimensions} dimensions",
        )


def vector_index_info(client: Neo4jClient, name: str) -> VectorIndexInfo | None:
    """The vector index `name` and the model recorded for it; None when it does not exist."""
    info = client.read(load_query("schema/vector_info"), {"name": name})
    if not info:
        return None
    recorded = client.read(load_query("schema/embedding_model"), {"name": name})
    model = recorded[0]["model"] if recorded else None
    return VectorIndexInfo(
        name,
        int(info[0]["dimensions"]),
        str(model) if model else None,
        tuple(info[0]["properties"] or ()),
    )


def check_vector_index(client: Neo4jClient, name: str, *, model: str, dimensions: int) -> None:
    """Raise `SchemaError` when the vector index `name` does not exist, and
    `EmbeddingMismatchError` when it holds another model's vectors (a search then fails
    clearly instead of Neo4j rejecting the query vector)."""
    info = vector_index_info(client, name)
    if info is None:
        raise SchemaError(
            f"vector index {name!r} does not exist: index a repository first "
            "(`graphrag-code index PATH`)"
        )
    if not info.serves(model, dimensions):
        raise info.mismatch(model, dimensions)


def fulltext_index_properties(client: Neo4jClient, name: str) -> tuple[str, ...] | None:
    """The properties the full-text index `name` covers; None when it does not exist."""
    for row in client.read(load_query("schema/search_indexes")):
        if row["name"] == name and row["type"] == "FULLTEXT":
            return tuple(row["properties"] or ())
    return None


def check_fulltext_index(client: Neo4jClient, name: str) -> tuple[str, ...]:
    """The properties of the full-text index `name`; `SchemaError` when it does not exist
    (nothing was indexed yet), instead of a query failing inside
    `db.index.fulltext.queryNodes`."""
    properties = fulltext_index_properties(client, name)
    if properties is None:
        raise SchemaError(
            f"full-text index {name!r} does not exist: index a repository first "
            "(`graphrag-code index PATH`)"
        )
    return properties


def _reconcile_vector_index(client: Neo4jClient, config: SchemaConfig, *, reembed: bool) -> None:
    info = vector_index_info(client, config.vector_index)
    if info is None or info.serves(config.model, config.dimensions):
        return
    embedded = int(client.read(load_query("schema/count_embeddings"))[0]["embedded"])
    if embedded and not reembed:
        raise info.mismatch(config.model, config.dimensions)
    clear = load_query("schema/clear_embeddings")
    while int(client.write(clear, {"limit": _CLEAR_BATCH})[0]["cleared"]):
        pass
    client.write(load_query("schema/drop_index"), {"name": config.vector_index})
    for name in repository_vector_indexes(client, config.vector_index):
        client.write(load_query("schema/drop_index"), {"name": name})


def _add_vector_filter(client: Neo4jClient, config: SchemaConfig) -> None:
    """On a server with filtered vector search, drop a vector index of the configured model
    that lacks the `repo` filter property (the vectors stay on the nodes; the index is built
    again from them by `create_vector_filtered.cypher`)."""
    info = vector_index_info(client, config.vector_index)
    if info is None or info.filters_by_repo or not info.serves(config.model, config.dimensions):
        return
    client.write(load_query("schema/drop_index"), {"name": config.vector_index})


def _check_names(client: Neo4jClient, config: SchemaConfig) -> None:
    """`IF NOT EXISTS` is silent when another index already covers the same property."""
    indexes = client.read(load_query("schema/search_indexes"))
    names = {row["name"] for row in indexes}
    for wanted, kind, prop, setting in (
        (config.vector_index, "VECTOR", "embedding", "GRAPHRAG_CODE_VECTOR_INDEX"),
        (config.fulltext_index, "FULLTEXT", "search_text", "GRAPHRAG_CODE_FULLTEXT_INDEX"),
        (
            file_text_index(config.fulltext_index),
            "FULLTEXT",
            "file_text",
            "GRAPHRAG_CODE_FULLTEXT_INDEX",
        ),
    ):
        if wanted in names:
            continue
        others = [
            row["name"]
            for row in indexes
            if row["type"] == kind and "Code" in row["labels"] and prop in row["properties"]
        ]
        raise SchemaError(
            f"{kind.lower()} index {wanted!r} could not be created: index "
            f"{', '.join(map(repr, others)) or '(unknown)'} already covers :Code({prop}). "
            f"Set {setting} to its name, or drop it."
        )


def wait_for_indexes(client: Neo4jClient, *, timeout: float = 300.0) -> None:
    """Block until every index is ONLINE; raise `SchemaError` on FAILED or after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        states = client.read(load_query("schema/index_states"))
        failed = [row["name"] for row in states if row["state"] == "FAILED"]
        if failed:
            raise SchemaError(f"index(es) failed to build: {', '.join(failed)}")
        pending = [
            f"{row['name']} ({row['populationPercent']:.0f}%)"
            for row in states
            if row["state"] != "ONLINE"
        ]
        if not pending:
            return
        if time.monotonic() > deadline:
            raise SchemaError(f"indexes not ONLINE after {timeout:.0f} s: {', '.join(pending)}")
        time.sleep(0.2)
