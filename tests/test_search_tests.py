"""Concept search on whole repositories (issue 55): the rule that leaves test code out of
concept questions, the option that overrides it in the library, the CLI and MCP, the filter
inside the one hybrid query (k hits still come back); and the graph leg's weight for concept
questions asked as questions."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_types import TextContent

from graphrag_code.cli.main import build_parser
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.errors import InvalidArgumentError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.mcp.freshness import FreshnessTracker
from graphrag_code.mcp.options import ServerOptions
from graphrag_code.mcp.tools import GraphTools
from graphrag_code.retrieval.question import Intent, analyse
from graphrag_code.retrieval.search import (
    ASKED_CONCEPT_WEIGHTS,
    DEFAULT_WEIGHTS,
    SearchOptions,
    SearchResult,
    _weights,
    fetch_without_tests,
    keeps_tests,
)
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe

LEDGER = Path(__file__).parent / "fixtures" / "ledger"
REPO = "ledger-tests"
EVERY_LEG = {"vector": 1.0, "text": 1.0, "graph": 1.0}


@pytest.mark.parametrize(
    ("question", "mentions"),
    [
        ("where are validators run", False),
        ("how is the account balance checked", False),  # "checked" is not "tested"
        ("which test checks the transfer", True),
        ("what do the tests of transfer cover", True),
        ("where is `test_deposit` defined", True),  # a name split into words
        ("how does testAccountWithdraw work", True),
        ("what does conftest.py provide", True),
        ("how are fixtures set up", True),
        ("latest contest results", False),  # words, not substrings
    ],
)
def test_a_question_mentions_tests_by_its_words(question: str, mentions: bool) -> None:
    assert analyse(question).mentions_tests is mentions


def test_concept_questions_leave_tests_out_unless_they_mention_them() -> None:
    default = SearchOptions()
    concept = analyse("where are validators run")
    assert concept.intent is Intent.CONCEPT
    assert not keeps_tests(concept, default)
    assert keeps_tests(analyse("which test checks that validators run"), default)
    # a test is a real caller, and what a change breaks; a named symbol is wanted wherever
    for question in ("what calls transfer", "what breaks if I change core.py",
                     "where is Account defined"):  # fmt: skip
        assert analyse(question).intent is not Intent.CONCEPT
        assert keeps_tests(analyse(question), default)


def test_the_option_overrides_the_default_both_ways() -> None:
    assert keeps_tests(analyse("where are validators run"), SearchOptions(tests=True))
    assert not keeps_tests(analyse("what calls transfer"), SearchOptions(tests=False))
    assert not keeps_tests(analyse("which test checks transfer"), SearchOptions(tests=False))


def test_a_tests_option_that_is_not_a_bool_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="tests must be True, False or None"):
        SearchOptions(tests="no")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("wanted", "nodes", "tests", "fetched"),
    [
        (10, 1000, 0, 10),  # no test code: nothing more
        (10, 1000, 500, 40),  # half tests: 2 x 10 / 0.5
        (10, 1000, 250, 27),  # ceil(20 / 0.75)
        (10, 1000, 990, 100),  # at most 10x
        (10, 1000, 1000, 100),  # only tests
        (10, 0, 0, 10),
    ],
)
def test_index_legs_fetch_more_by_the_share_of_test_code(
    wanted: int, nodes: int, tests: int, fetched: int
) -> None:
    assert fetch_without_tests(wanted, nodes, tests) == fetched


@pytest.mark.parametrize(
    ("flags", "tests"), [((), None), (("--tests",), True), (("--no-tests",), False)]
)
def test_the_cli_search_takes_tests_and_no_tests(flags: tuple[str, ...], tests: bool) -> None:
    args = build_parser().parse_args(["search", "where are validators run", *flags])
    assert args.tests is tests


class _RecordingGraph:
    """Stands in for `CodeGraph.search`: records the options an MCP call searched with."""

    def __init__(self) -> None:
        self.options: list[SearchOptions] = []

    def search(self, question: str, *, repo: str | None, options: SearchOptions) -> SearchResult:
        self.options.append(options)
        asked = analyse(question)
        return SearchResult(asked, [], [], {}, {}, tests=keeps_tests(asked, options))


@pytest.mark.parametrize("tests", [None, True, False])
def test_the_mcp_search_tool_passes_tests_on(tests: bool | None) -> None:
    graph = _RecordingGraph()
    tools = GraphTools(graph, ServerOptions(), FreshnessTracker(lambda: []))  # type: ignore[arg-type]
    result = tools.search("where are validators run", tests=tests)
    assert not result.is_error
    assert [options.tests for options in graph.options] == [tests]
    said = "\n".join(block.text for block in result.content if isinstance(block, TextContent))
    assert ("test code left out (tests=true keeps it)" in said) is (tests is not True)


# -- the filter inside the hybrid query, on a real Neo4j -----------------------------------------
@pytest.fixture(scope="module")
def ledger_graph(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[CodeGraph]:
    """The ledger fixture (its own pytest suite and a TypeScript test file included), indexed
    with the hashing embedder."""
    wipe(session_client)
    drop_search_indexes(session_client)
    root = tmp_path_factory.mktemp("ledger") / "ledger"
    shutil.copytree(LEDGER, root)
    settings = Settings(embedder="hashing", cache_dir=tmp_path_factory.mktemp("cache"))
    graph = CodeGraph(settings, client=session_client, embedder=HashingEmbedder())
    graph.index(root, REPO)
    yield graph
    drop_search_indexes(session_client)


def _test_code(graph: CodeGraph, ids: list[str]) -> set[str]:
    rows: list[dict[str, Any]] = graph.client.read(
        "MATCH (n:Code) WHERE n.id IN $ids AND n.test_code RETURN n.id AS id", {"ids": ids}
    )
    return {row["id"] for row in rows}


@pytest.mark.integration
def test_test_code_is_filtered_inside_the_query_and_k_hits_still_come_back(
    ledger_graph: CodeGraph,
) -> None:
    question = "deposit withdraw transfer account"
    kept = ledger_graph.search(question, repo=REPO, k=5, tests=True)
    assert _test_code(ledger_graph, [hit.id for hit in kept.hits])  # tests rank among them
    assert kept.tests
    for result in (
        ledger_graph.search(question, repo=REPO, k=5),  # a concept question: left out
        ledger_graph.search(  # the graph leg too
            question, repo=REPO, options=SearchOptions(k=5, tests=False, weights=EVERY_LEG)
        ),
    ):
        ids = [hit.id for hit in result.hits]
        assert not result.tests  # and says so
        assert len(ids) == 5
        assert not _test_code(ledger_graph, ids)
        for leg, leg_ids in result.legs.items():  # every leg filtered, not the fusion
            assert not _test_code(ledger_graph, leg_ids), leg
    asked = ledger_graph.search("which test checks " + question, repo=REPO, k=5)
    assert _test_code(ledger_graph, [hit.id for hit in asked.hits])


# -- concept questions asked as questions fuse the graph leg -------------------------------------
@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("how does rich measure the display width of a string in terminal cells", True),
        ("Where are validators run?", True),
        ("  which function parses dates", True),
        ("what renders the event dict as JSON", True),
        ("Return the display width of a string.", False),  # a docstring's first sentence
        ("When used with a `with` statement this opens a session transaction.", False),
        ("somehow the width is wrong", False),
    ],
)
def test_a_question_is_asked_when_it_opens_with_a_question_word(question: str, asks: bool) -> None:
    assert analyse(question).asks is asks


def test_asked_concept_questions_fuse_the_graph_leg_statements_do_not() -> None:
    asked = analyse("how does rich measure the display width of a string")
    stated = analyse("Return the display width of a string.")
    assert asked.intent is stated.intent is Intent.CONCEPT
    assert _weights(asked, SearchOptions()) == ASKED_CONCEPT_WEIGHTS
    assert ASKED_CONCEPT_WEIGHTS["graph"] > 0
    assert _weights(stated, SearchOptions()) == DEFAULT_WEIGHTS[Intent.CONCEPT]
    assert DEFAULT_WEIGHTS[Intent.CONCEPT]["graph"] == 0  # not run at all
    # the caller's weights and legs still decide
    assert _weights(asked, SearchOptions(weights={"vector": 1.0})) == {"vector": 1.0}
    assert _weights(asked, SearchOptions(legs=("vector", "text"))) == {"vector": 1.0, "text": 1.0}
    # relationship questions are not concept questions: their own weights
    callers = analyse("what calls transfer")
    assert _weights(callers, SearchOptions()) == DEFAULT_WEIGHTS[Intent.CALLERS]
