"""Every .cypher file in the repository (the package's and the harness's) runs against a
populated graph, so none can rot.

Each statement runs in its own transaction, which is rolled back: write and schema files are
planned and executed for real without changing the graph the other tests use. Parameters
come from the `:param` lines of Browser files, else from the table below; a file using a
parameter the table does not know fails this test until someone adds it.

Files written in Cypher 25 (`CYPHER 25` first: the filtered vector index and its `SEARCH`
leg) run where the server has filtered vector search (Neo4j 2026.01+) and are skipped, saying
so, on 5.26; every form of the hybrid query the connected server supports runs too.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.graph import VectorSearchForm, repo_label
from graphrag_code.graph.queries import load_query, query_names
from graphrag_code.graph.reader import hybrid_search_query
from graphrag_code.model import CERTAIN_TIERS, POSSIBLE_TIERS
from graphrag_code.text import split_statements
from harness import queries as harness_queries
from harness.documents import (
    Document,
    DocumentSchema,
    ensure_document_schema,
    ingest_documents,
)

from .shop_graph import REPO, shop_graph_fixture  # noqa: F401 - provides `shop_graph`

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_BROWSER_PARAM = re.compile(r"^//\s*:param\s+(\w+)\s*=>\s*(.+)$", re.MULTILINE)
DIMENSIONS = 256  # the hashing embedder of the shop fixture


def _values(dimensions: int) -> dict[str, Any]:
    vector = [1.0] + [0.0] * (dimensions - 1)
    return {
        # repositories, nodes, names
        "repo": REPO,
        "repos": [REPO],
        "repo_label": repo_label(REPO),
        "label": repo_label(REPO),
        "prefix": "code_embedding_",
        "labels": ["Module", repo_label(REPO)],
        "kind": "CALLS",
        "id": f"{REPO}:shop.storage.sqlite.SqliteStorage.save",
        "ids": [f"{REPO}:shop.storage.sqlite.SqliteStorage.save", f"{REPO}:shop.api"],
        # list parameters kept in a map, out of the plan cache key (impact/reach_back.cypher)
        "lists": {
            "ids": [f"{REPO}:shop.storage.sqlite.SqliteStorage.save", f"{REPO}:shop.api"],
            "resolutions": ["exact", "inferred"],
            "paths": ["shop/models.py"],
            "folders": ["src/shop/", ""],
            "rows": [],
            "repos": [REPO],
            "starters": ["subprocess.Popen", "os.system"],
            "entries": [f"{REPO}:shop.api.create_order_endpoint"],
        },
        "source": f"{REPO}:shop.api.create_order_endpoint",
        "target": f"{REPO}:shop.storage.sqlite.SqliteStorage.save",
        "name": "save",
        "names": ["shop.api.create_order_endpoint"],
        "short_names": ["save"],
        "stored": ["python"],  # languages whose dispatch calls are stored edges
        "dotted": ["SqliteStorage.save"],
        "paths": ["shop/models.py"],
        "folders": ["src/shop/", ""],
        "locations": [{"repo": REPO, "path": "shop/models.py"}],
        "root": "/tmp/shop",
        "head": None,
        "run": "test-run",
        "files": 11,
        "symbols": 29,
        "certain": True,
        "resolutions": ["exact", "inferred"],
        "starters": ["subprocess.Popen", "os.system"],  # `RunRules.starters`
        "scripts": ["console script "],  # `RunRules.script_reasons`
        "markers": ["__main__"],  # `RunRules.main_marker`
        "entries": [f"{REPO}:shop.api.create_order_endpoint"],
        "rows": [],
        "state": {},
        "packages": ["shop"],
        "repo_packages": ["shop"],
        "distributions": ["shop"],
        "dependencies": ["requests"],
        "into": REPO,
        "within": REPO,
        "stay_in_repo": True,
        "from": REPO,
        # indexes and search
        "vector_index": "code_embedding",
        "fulltext_index": "code_search_text",
        "file_index": "code_search_text_files",
        "file_lucene": "save record database",
        "file_candidates": 20,
        "dimensions": dimensions,
        "fulltext_analyzer": "english",
        "analyzer": "english",
        "quantization": True,
        "vector_quantization": "NONE",
        "model": "hashing-blake2b-256",
        "embedding": vector,
        "use_vector": True,
        "vector": vector,
        "lucene": "save record database",
        "target_lucene": "database",
        "k": 10,
        "candidates": 50,
        "text_candidates": 20,
        "tests": False,
        "limit": 10,
        "limit_per_node": 10,
        "fetch": 50,
        "depth": 10,
        "seed_k": 3,
        "seed_from_hits": True,
        "include_seeds": True,
        "trace": True,
        "types": ["CALLS", "IMPORTS"],
        "tiers": ["exact", "inferred"],
        "direction": "in",
        "max_hops": 2,
        "fanout": 25,
        "expand_cap": 200,
        "hub_degree": 200,
        "max_seeds": 8,
        "graph_k": 50,
        # documents
        "corpus": "cypher-files-test",
        "after": "",
        "before": "~",
    }


@pytest.fixture(scope="module")
def populated(shop_graph: CodeGraph) -> CodeGraph:
    """The shop graph, plus a tiny document corpus for the harness's documents/ files."""
    from graphrag_code.embedding import HashingEmbedder

    client = shop_graph.client
    schema = DocumentSchema(dimensions=DIMENSIONS)
    ensure_document_schema(client, schema)
    ingest_documents(
        client,
        "cypher-files-test",
        [Document("d1", "Sqlite storage", "Records are saved to the database.")],
        HashingEmbedder(),
    )
    return shop_graph


def _browser_parameters(text: str) -> dict[str, Any]:
    return {name: ast.literal_eval(value.strip()) for name, value in _BROWSER_PARAM.findall(text)}


def _run_rolled_back(graph: CodeGraph, statement: str, parameters: dict[str, Any]) -> None:
    driver = graph.client._driver  # the test needs an explicit transaction to roll back
    with driver.session(database=graph.client.database) as session:
        transaction = session.begin_transaction()
        try:
            transaction.run(statement, parameters).consume()  # type: ignore[arg-type]
        finally:
            transaction.rollback()


ALL_FILES = query_names()
HARNESS = "harness:"
"""Prefix of the harness's files (`harness/cypher/`) among the names tested."""
HARNESS_FILES = [HARNESS + name for name in harness_queries.query_names()]


def _text(name: str) -> str:
    if name.startswith(HARNESS):
        return harness_queries.load_query(name.removeprefix(HARNESS))
    return load_query(name)


def test_there_are_cypher_files_to_check() -> None:
    assert "search/hybrid_search" in ALL_FILES
    assert "browser/callers" in ALL_FILES
    assert "harness:documents/search" in HARNESS_FILES
    assert not any(name.startswith("documents") for name in ALL_FILES)  # not shipped


def _skip_unless_supported(graph: CodeGraph, text: str) -> None:
    """Skip a Cypher 25 file (filtered vector index, `SEARCH`) on a server without them."""
    if text.lstrip("\n").split("\n", 1)[0].strip() == "CYPHER 25" or "\nCYPHER 25\n" in text:
        capabilities = graph.client.capabilities()
        if not capabilities.vector_search_filters:
            pytest.skip(
                f"Cypher 25 filtered vector search needs Neo4j 2026.01+; "
                f"this server is {capabilities.version}"
            )


def _execute(graph: CodeGraph, name: str, text: str) -> None:
    values = {**_values(DIMENSIONS), **_browser_parameters(text)}
    for statement in split_statements(text):
        wanted = set(_PARAM.findall(statement))
        unknown = wanted - set(values)
        assert not unknown, f"{name}: add test values for {sorted(unknown)}"
        _run_rolled_back(graph, statement, {key: values[key] for key in wanted})


@pytest.mark.parametrize("name", ALL_FILES + HARNESS_FILES)
def test_cypher_file_executes(populated: CodeGraph, name: str) -> None:
    text = _text(name)
    _skip_unless_supported(populated, text)
    _execute(populated, name, text)


@pytest.mark.parametrize("in_repo", [True, False], ids=["in_repo", "all_repos"])
@pytest.mark.parametrize("form", list(VectorSearchForm), ids=lambda form: form.value)
def test_every_form_of_the_hybrid_query_executes(
    populated: CodeGraph, form: VectorSearchForm, in_repo: bool
) -> None:
    """The texts the searcher runs, spliced per form and scope, on the server that has them."""
    text = hybrid_search_query(form, in_repo=in_repo, vector_index="code_embedding")
    _skip_unless_supported(populated, text)
    _execute(populated, f"hybrid_search ({form.value})", text)


@pytest.mark.parametrize("name", query_names("browser"))
def test_browser_files_name_their_parameters(name: str) -> None:
    text = load_query(name)
    used = set(_PARAM.findall(text))
    declared = set(_browser_parameters(text))
    assert used == declared, f"{name}: declare every parameter with a `// :param` line"


_TIER_LIST = re.compile(r"resolution IN \[([^\]]*)\]")


def test_possible_tier_lists_match_the_model() -> None:
    """A Cypher list of tiers is either the certain ones or every possible one: a tier added
    to `Resolution` (such as `many`) must reach each query that ranks possible edges last."""
    lists = [
        tuple(part.strip().strip("'") for part in found.split(","))
        for name in ALL_FILES
        for found in _TIER_LIST.findall(_text(name))
    ]
    assert lists, "no tier list found: the pattern no longer matches the queries"
    for tiers in lists:
        assert tiers in (CERTAIN_TIERS, POSSIBLE_TIERS), tiers
    assert POSSIBLE_TIERS in lists
