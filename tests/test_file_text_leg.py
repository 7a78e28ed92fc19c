"""The whole-file leg of file-level search: module nodes' `file_text` in indexes of their own,
read by `search(unit="file")` in the one hybrid query, in a real Neo4j."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.errors import InvalidArgumentError
from graphrag_code.graph import file_text_index, fulltext_index_properties, repo_label
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.retrieval.search import FILE_TEXT, SearchOptions
from graphrag_code.retrieval.units import FileRanking
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe
from .shop_graph import embed_with_hashing

pytestmark = pytest.mark.integration

REPO = "filetext"
TEXT_INDEX = SchemaConfig().fulltext_index

# setup.py defines nothing: only its module node (and so only the whole-file leg, or the
# module's own statements) can find it; the library's many functions all mention parsing.
FILES = {
    "setup.py": (
        "from setuptools import setup\n\n"
        "setup(\n"
        '    name="tinyparse",\n'
        '    python_requires=">=3.9",\n'
        '    install_requires=["chardet>=3.0.2,<6", "charset_normalizer>=2,<4"],\n'
        '    classifiers=["Programming Language :: Python :: 3.9"],\n'
        ")\n"
    ),
    "tinyparse/__init__.py": '"""A tiny parser."""\n',
    "tinyparse/core.py": "".join(
        f'def parse_{n}(text):\n    """Parse {n} tokens of text."""\n    return text[{n}:]\n\n'
        for n in range(12)
    ),
}


@pytest.fixture(scope="module", name="file_graph")
def file_graph_fixture(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[CodeGraph]:
    root = tmp_path_factory.mktemp("filetext") / "tinyparse"
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    wipe(session_client)
    drop_search_indexes(session_client)
    embedder = HashingEmbedder()
    config = SchemaConfig(dimensions=embedder.dimensions, model=embedder.name)
    ensure_schema(session_client, config, repo=REPO)  # as `index` does, before writing
    build_graph(root, session_client, repo=REPO, state_dir=tmp_path_factory.mktemp("state"))
    embed_with_hashing(session_client, REPO, embedder)
    with CodeGraph(Settings(embedder="hashing"), client=session_client, embedder=embedder) as g:
        yield g
    drop_search_indexes(session_client)


def test_module_nodes_carry_their_whole_file_in_indexes_of_their_own(
    file_graph: CodeGraph, session_client: Neo4jClient
) -> None:
    rows = session_client.read(
        "MATCH (n:Code {repo: $repo}) WHERE n.file_text IS NOT NULL "
        "RETURN n.path AS path, n.kind AS kind, n.file_text AS text ORDER BY path",
        {"repo": REPO},
    )
    assert [(row["path"], row["kind"]) for row in rows] == [
        ("setup.py", "Module"),
        ("tinyparse/__init__.py", "Module"),
        ("tinyparse/core.py", "Module"),
    ]
    core = rows[2]["text"]
    assert "def parse_11(text):" in core  # the file as written (symbols' lines too)
    assert "parse 11" in core  # and its identifiers split into words
    assert fulltext_index_properties(session_client, file_text_index(TEXT_INDEX)) == ("file_text",)
    own = file_text_index(TEXT_INDEX, REPO)
    assert fulltext_index_properties(session_client, own) == ("file_text",)
    labels = session_client.read(
        "SHOW INDEXES YIELD name, labelsOrTypes WHERE name = $name RETURN labelsOrTypes",
        {"name": own},
    )
    assert labels[0]["labelsOrTypes"] == [repo_label(REPO)]


def test_file_search_fuses_the_whole_file_leg_with_its_weight(file_graph: CodeGraph) -> None:
    """setup.py defines nothing; the whole-file leg ranks it first and adds its weight's
    reciprocal rank to the file's score, on top of what its symbols' legs gave it."""
    question = "Allow chardet 5 and charset normalizer 3"
    result = file_graph.search(question, repo=REPO, unit="file")
    by_path = {hit.path: hit for hit in result.hits}
    setup = by_path["setup.py"]
    assert setup.ranks[FILE_TEXT] == 1
    assert FILE_TEXT in result.legs
    assert not result.warnings
    files = FileRanking()
    without = FileRanking(weights={**files.weights, FILE_TEXT: 0.0})
    before = file_graph.search(question, repo=REPO, unit="file", files=without)
    assert not before.legs[FILE_TEXT], "a leg weighted 0 is not run"
    old = {hit.path: hit for hit in before.hits}["setup.py"]
    gain = files.weights[FILE_TEXT] / (files.rrf_k + 1)
    assert setup.score == pytest.approx(old.score + gain)


def test_the_whole_file_leg_alone_ranks_files_by_bm25(file_graph: CodeGraph) -> None:
    options = SearchOptions(k=5, legs=(FILE_TEXT,))
    result = file_graph.search("parse tokens of text", repo=REPO, unit="file", options=options)
    assert [hit.path for hit in result.hits] == ["tinyparse/core.py"]
    assert set(result.hits[0].ranks) == {FILE_TEXT}
    symbols = file_graph.search("parse tokens of text", repo=REPO, k=3)
    assert FILE_TEXT not in symbols.legs, "symbol search never runs the whole-file leg"


def test_symbol_search_refuses_the_whole_file_leg(file_graph: CodeGraph) -> None:
    with pytest.raises(InvalidArgumentError, match="unit='file'"):
        file_graph.search("parse", repo=REPO, options=SearchOptions(legs=(FILE_TEXT,)))


def test_a_graph_without_the_index_ranks_files_by_symbols_and_says_so(
    file_graph: CodeGraph, session_client: Neo4jClient
) -> None:
    for name in (file_text_index(TEXT_INDEX, REPO), file_text_index(TEXT_INDEX)):
        session_client.write("DROP INDEX $name IF EXISTS", {"name": name})
    embedder = HashingEmbedder()
    with CodeGraph(Settings(embedder="hashing"), client=session_client, embedder=embedder) as old:
        result = old.search("parse tokens of text", repo=REPO, unit="file")
    assert result.hits[0].path == "tinyparse/core.py"
    assert all(FILE_TEXT not in hit.ranks for hit in result.hits)
    assert [w.kind for w in result.warnings] == ["no_file_index"]
    assert "whole-file text index" in result.warnings[0].text
    ensure_schema(
        session_client,
        SchemaConfig(dimensions=embedder.dimensions, model=embedder.name),
        repo=REPO,
    )
    assert fulltext_index_properties(session_client, file_text_index(TEXT_INDEX, REPO)) == (
        "file_text",
    )
