"""Answers lean on certain edges (issue 50): callers, impact and diff use exact and inferred
edges by default, possible ones (here name matches) only when asked or when nothing certain
exists, labelled as such, and never ranked above a certain answer. Against a real Neo4j, on
a package of five functions:

    certain_caller --exact--> target <--name-- guess_caller --name--> lonely
    far_caller --exact--> certain_caller;  guess_far --exact--> guess_caller
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_code.cli import main as cli_main
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.retrieval.search import SearchOptions
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe
from .test_impact import commit, edit, git

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end

REPO = "lean"
FILES = {
    "lean/__init__.py": "",
    "lean/core.py": "def target():\n    return 1\n\n\ndef lonely():\n    return 2\n",
    "lean/use.py": (
        "from .core import target\n\n\n"
        "def certain_caller():\n    return target()\n\n\n"
        "def far_caller():\n    return certain_caller()\n\n\n"
        "def guess_caller(thing):\n    thing.target()\n    return thing.lonely()\n\n\n"
        "def guess_far():\n    return guess_caller(None)\n"
    ),
    "tests/test_lean.py": (
        "from lean.use import far_caller, guess_far\n\n\n"
        "def test_far():\n    assert far_caller() == 1\n\n\n"
        # named after the changed function: affinity alone would put it first
        "def test_target_guessed():\n    guess_far()\n"
    ),
}


@pytest.fixture(scope="module")
def lean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lean") / REPO
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    git(root, "init", "-q", "-b", "main")
    commit(root, "base")
    return root


@pytest.fixture(scope="module")
def graph(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory, lean: Path
) -> CodeGraph:
    """One index for the module: the tests read it; the diff test's body edit leaves every
    edge as it was."""
    wipe(session_client)
    drop_search_indexes(session_client)
    settings = Settings(embedder="hashing", cache_dir=tmp_path_factory.mktemp("cache"))
    graph = CodeGraph(settings, client=session_client, embedder=HashingEmbedder())
    graph.index(lean, REPO, embed=False)
    return graph


def names(related: list) -> list[str]:  # type: ignore[type-arg]
    return [r.qualified_name for r in related]


def test_callers_leave_a_name_match_out_where_a_certain_caller_exists(graph: CodeGraph) -> None:
    default = graph.callers("lean.core.target", repo=REPO)
    assert names(default.certain) == ["lean.use.certain_caller"]
    assert (default.possible, default.leaned_on, default.leaning) == ([], "certain", None)
    asked = graph.callers("lean.core.target", repo=REPO, possible=True)
    assert names(asked.certain) == ["lean.use.certain_caller"]
    assert names(asked.possible) == ["lean.use.guess_caller"]
    assert asked.possible[0].resolution == "name"
    assert asked.leaned_on == "possible"
    deeper = graph.related("callers", "lean.core.target", depth=2, repo=REPO)
    assert set(names(deeper.certain)) == {"lean.use.certain_caller", "lean.use.far_caller"}
    assert deeper.possible == []  # guess_far is two hops away through a name match only


def test_callers_fall_back_on_possible_ones_when_none_is_certain(graph: CodeGraph) -> None:
    result = graph.callers("lean.core.lonely", repo=REPO)
    assert result.certain == []
    assert names(result.possible) == ["lean.use.guess_caller"]
    assert result.fallback
    assert result.leaned_on == "fallback"
    assert result.leaning == (
        "no certain callers; possible ones (name matches, dispatch to overrides) below"
    )
    # nothing at all, certain or possible: an empty answer, not a fallback
    nothing = graph.callers("tests.test_lean.test_far", repo=REPO)
    assert (nothing.certain, nothing.possible, nothing.leaned_on) == ([], [], "certain")


@pytest.mark.usefixtures("cli_env")
def test_the_command_line_says_what_an_answer_leans_on(
    graph: CodeGraph, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert cli_main(["callers", "lean.core.lonely", "--repo", REPO]) == 0
    out = capsys.readouterr().out
    assert "no certain callers; possible ones (name matches, dispatch to overrides) below" in out
    assert "lean.use.guess_caller" in out
    assert cli_main(["callers", "lean.core.target", "--repo", REPO]) == 0
    out = capsys.readouterr().out
    assert "lean.use.certain_caller" in out
    assert "lean.use.guess_caller" not in out
    assert "--possible adds name matches" in out
    assert cli_main(["callers", "lean.core.target", "--repo", REPO, "--possible"]) == 0
    assert "lean.use.guess_caller" in capsys.readouterr().out


def test_the_graph_leg_ranks_a_possible_caller_after_the_certain_ones(graph: CodeGraph) -> None:
    # guess_caller is a possible caller of both seeds (more support than certain_caller, a
    # certain caller of one): support must not lift it above the certain hit
    result = graph.search(
        "what calls lean.core.target or lean.core.lonely?",
        repo=REPO,
        options=SearchOptions(k=10, legs=("graph",)),
    )
    reached = [(hit.qualified_name, hit.possible) for hit in result.hits]
    assert reached[:2] == [("lean.use.certain_caller", False), ("lean.use.guess_caller", True)]


# last: it edits the module's working tree (a body edit; the edges stay as they were)
def test_diff_lists_possible_reach_after_the_certain_and_walks_no_further(
    graph: CodeGraph, lean: Path
) -> None:
    edit(lean, "lean/core.py", "    return 1\n", "    return 3\n")
    impact = graph.diff(path=lean, repo=REPO)
    affected = [(a.qualified_name, a.certain, a.distance) for a in impact.affected]
    # the possible caller one hop away ranks after the certain ones two hops away, and the
    # walk does not go on from it (guess_far) unless asked
    assert sorted(affected[:3]) == [
        ("lean.use", True, 1),  # imports `target` by name
        ("lean.use.certain_caller", True, 1),
        ("lean.use.far_caller", True, 2),
    ]
    assert affected[3:] == [("lean.use.guess_caller", False, 1)]
    tests = [(t.runner_id, t.certain) for t in impact.tests]
    assert tests == [
        ("tests/test_lean.py::test_far", True),
        ("tests/test_lean.py::test_target_guessed", False),
    ]
    fanned = graph.diff(path=lean, repo=REPO, update=False, possible=True)
    assert [(a.qualified_name, a.certain) for a in fanned.affected][-2:] == [
        ("lean.use.guess_caller", False),
        ("lean.use.guess_far", False),
    ]
