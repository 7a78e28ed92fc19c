"""JavaScript / TypeScript coverage imported against a real Neo4j (issue 54): the tiny
project of tests/fixtures/jscov indexed from a copy, the coverage its test files recorded
once, one folder per test file (V8 raw, and c8's Istanbul JSON), imported, then
read by `diff`, `tests_for`, `untested` and `dead_code`, before and after the code changes.

One module-scoped graph; the tests run in file order and the last one edits and commits."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.impact import CoverageImport, impact_markdown
from graphrag_code.runtime.git import git as run_git
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe

REPO = "jscov"
FIXTURE = Path(__file__).parent / "fixtures" / "jscov"
MATH, SHAPES, UNITS = "test/math.test.js", "test/shapes.test.js", "test/units.test.ts"
RAN = "MATCH (t:Code)-[:RAN]->(n:Code {repo: $repo}) RETURN t.path AS test, n.name AS code"


def git(root: Path, *args: str) -> str:
    return run_git(root, *args, config={"user.name": "t", "user.email": "t@example.com"}).stdout


def edit(root: Path, path: str, old: str, new: str) -> None:
    file = root / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def covered(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[CodeGraph, Path, CoverageImport]]:
    """The project indexed (not where its coverage was recorded), its V8 coverage imported."""
    root = tmp_path_factory.mktemp("jscov") / REPO
    shutil.copytree(FIXTURE / "project", root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    wipe(session_client)
    drop_search_indexes(session_client)
    settings = Settings(embedder="hashing", cache_dir=root.parent / "cache")
    graph = CodeGraph(settings, client=session_client, embedder=HashingEmbedder())
    graph.index(root, REPO, embed=False)
    done = graph.import_coverage(FIXTURE / "v8", repo=REPO)
    yield graph, root, done
    wipe(session_client)


def ran(graph: CodeGraph) -> set[tuple[str, str]]:
    return {(r["test"], r["code"]) for r in graph.client.read(RAN, {"repo": REPO})}


def test_import_stores_which_test_file_ran_which_function(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, done = covered
    js = {
        (MATH, "add"), (MATH, "div"), (SHAPES, "add"), (SHAPES, "constructor"),
        (SHAPES, "area"), (SHAPES, "describeShape"), (SHAPES, "label"),
    }  # fmt: skip
    # from each test file's module node; TypeScript back to its lines through the source
    # maps Node kept (tsx)
    assert ran(graph) == js | {(UNITS, "toCm")}
    assert (done.contexts, done.tests, done.edges, done.unknown_tests) == (3, 3, 8, ())
    assert done.commit == git(root, "rev-parse", "HEAD").strip()
    assert done.notes == ()
    # Istanbul JSON (c8 maps V8's offsets back with the same maps): the same edges
    done = graph.import_coverage(FIXTURE / "c8", repo=REPO)
    assert (done.tests, done.edges) == (3, 8)
    assert ran(graph) == js | {(UNITS, "toCm")}  # replaced, not added


def test_the_test_file_that_ran_a_change_comes_first(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, _ = covered
    edit(root, "src/math.js", "return a / b;", "return b / a;")
    edit(root, "src/units.ts", "return length.value;\n}", "return length.value + 0;\n}")
    # `shout` is on the branch the shapes test did not take: it reaches it, never ran it
    edit(root, "src/shapes.js", "return text.toUpperCase();", "return text.toLowerCase();")
    try:
        impact = graph.diff(path=root, repo=REPO)
    finally:
        git(root, "checkout", "--", ".")
    assert [(t.runner_id, t.reason.split(":")[0]) for t in impact.tests] == [
        (MATH, "ran it (coverage)"),
        (UNITS, "ran it (coverage)"),
        (SHAPES, "extra"),
    ]
    assert [t.runner_id for t in impact.to_run] == [MATH, UNITS]
    markdown = impact_markdown(impact)
    assert "2 test(s) ran the changed code" in markdown
    assert "old:" in markdown  # how old the coverage is
    assert SHAPES not in markdown.split("### Tests to run", 1)[1].split("Also predicted")[0]


def test_code_a_test_file_ran_is_tested_and_alive(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, _, _ = covered
    untested = {u.qualified_name.rpartition(".")[2] for u in graph.untested(REPO)}
    assert {"sub", "unused", "perimeter", "scale", "toIn"} <= untested  # the exported ones
    assert not {"add", "div", "area", "describeShape", "toCm"} & untested
    dead = {d.qualified_name.rpartition(".")[2] for d in graph.dead_code(REPO)}
    assert not {"add", "div", "area", "describeShape", "label", "toCm"} & dead


def test_changed_code_falls_back_to_the_static_prediction_and_says_so(
    covered: tuple[CodeGraph, Path, CoverageImport],
) -> None:
    graph, root, _ = covered
    edit(root, "src/math.js", "if (b === 0) {", "if (b == 0) {")
    git(root, "commit", "-q", "-am", "div: same rule, other words")
    graph.index(root, REPO, embed=False)  # incremental: unchanged code keeps its RAN edges
    assert [t.reason for t in graph.tests_for("src/math.js.add", repo=REPO).tests] == [
        "ran it (coverage)", "ran it (coverage)",
    ]  # fmt: skip
    edit(root, "src/math.js", "return a / b;", "return b / a;")
    impact = graph.diff(path=root, repo=REPO)
    assert not any(t.ran for t in impact.tests)  # div changed since the coverage
    assert [t.runner_id for t in impact.tests] == [MATH]  # predicted statically
    assert impact.coverage is not None
    assert impact.coverage.static == (("src/math.js.div", "changed"),)
    assert "predicted from the call graph" in impact_markdown(impact)
