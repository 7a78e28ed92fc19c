"""The git-history benchmark: which commits become questions, file-level scoring by hand, and
a run end to end against the real Neo4j with the hashing embedder."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.errors import ConfigurationError
from graphrag_code.evaluation.history import (
    ABLATIONS,
    Commit,
    FileChange,
    HistoryOptions,
    HistoryQuestion,
    Revision,
    SkipReason,
    answer_paths,
    build_questions,
    export_tree,
    file_ranking,
    metric_names,
    parse_log,
    run_history_benchmark,
    score_files,
    select_ablations,
    skip_reason,
    write_history_report,
)
from graphrag_code.evaluation.history.bm25 import Bm25Index, tokens
from graphrag_code.evaluation.report import read_run_log, scores_from_run_log
from graphrag_code.evaluation.runlog import RunLog
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.location import Location
from graphrag_code.retrieval.search import Hit
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes
from .history_repo import KEPT_AT_PARENT, SKIPPED_AT_PARENT, HistoryRepo, make_history_repo

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end


@pytest.fixture(scope="module")
def history_repo(tmp_path_factory: pytest.TempPathFactory) -> HistoryRepo:
    return make_history_repo(tmp_path_factory.mktemp("history") / "store")


def _commit(subject: str, *paths: str, parents: int = 1, status: str = "M") -> Commit:
    return Commit(
        sha="f" * 40,
        parents=tuple("a" * 40 for _ in range(parents)),
        subject=subject,
        changes=tuple(FileChange(status, path) for path in paths),
    )


# -- which commits are questions ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("subject", "reason"),
    [
        ("Release the lock before closing the pool", None),
        ("Fix date format parsing in reports", None),
        ("Bump the retry counter on timeouts", SkipReason.RELEASE),  # conservative on "bump"
        ("Release 1.2.0", SkipReason.RELEASE),
        ("v2.0.1", SkipReason.RELEASE),
        ("Prepare the 3.0 release", SkipReason.RELEASE),
        ("Update version to 1.4", SkipReason.RELEASE),
        ("chore(release): 2.1.0", SkipReason.RELEASE),
        ("Version 0.35.1 (#2410)", SkipReason.RELEASE),  # starlette's release commits
        ("Version checks for Python 3.9 in setup", None),
        ("Run black on the package", SkipReason.FORMATTING),
        ("Apply isort and ruff fixes", SkipReason.FORMATTING),
        ("Fix typo in the docstring of parse", SkipReason.FORMATTING),
        ("style: sort the imports of cli", SkipReason.FORMATTING),
        ("Fix flake8 warnings", SkipReason.FORMATTING),
        ('Revert "Add caching to the loader"', SkipReason.REVERT),
        ("Fix it", SkipReason.UNINFORMATIVE),
    ],
)
def test_skip_reason_by_subject(subject: str, reason: SkipReason | None) -> None:
    assert skip_reason(_commit(subject, "pkg/core.py")) is reason


def test_skip_reason_by_shape() -> None:
    assert skip_reason(_commit("Merge pull request 12", "a.py", parents=2)) is SkipReason.MERGE
    many = [f"pkg/m{n}.py" for n in range(11)]
    assert skip_reason(_commit("Split the parser into modules", *many)) is SkipReason.HUGE
    assert skip_reason(_commit("Split the parser into modules", *many), max_files=11) is None
    assert skip_reason(_commit("Explain the parser in docs", "docs/a.md")) is SkipReason.NO_PYTHON
    version_only = _commit("Mark the package as stable", "pkg/_version.py")
    assert skip_reason(version_only) is SkipReason.RELEASE


def test_answer_paths_depend_on_the_searched_tree() -> None:
    commit = Commit(
        "f" * 40,
        ("a" * 40,),
        "Move the parser out of core",
        (
            FileChange("M", "pkg/core.py"),
            FileChange("A", "pkg/parser.py"),
            FileChange("D", "pkg/old.py"),
            FileChange("M", "README.md"),
        ),
    )
    # the parent had the modified and the deleted file, not the added one
    assert answer_paths(commit, Revision.PARENT) == ("pkg/core.py", "pkg/old.py")
    assert answer_paths(commit, Revision.HEAD) == ("pkg/core.py", "pkg/parser.py")
    # at HEAD, a file a later commit removed is no answer
    assert answer_paths(commit, Revision.HEAD, {"pkg/parser.py"}) == ("pkg/parser.py",)


def test_parse_log() -> None:
    text = (
        "\x1eaaa\x1fppp\x1fFix the parser\n\nM\tpkg/core.py\nA\tpkg/new file.py\n"
        "\x1ebbb\x1fp1 p2\x1fMerge branch 'x'\n"
    )
    first, merge = parse_log(text)
    assert first == Commit(
        "aaa",
        ("ppp",),
        "Fix the parser",
        (FileChange("M", "pkg/core.py"), FileChange("A", "pkg/new file.py")),
    )
    assert merge.parents == ("p1", "p2")
    assert merge.changes == ()


def test_questions_at_the_parent(history_repo: HistoryRepo) -> None:
    questions = build_questions(history_repo.root)
    found = {q.text: q.paths for q in questions.questions}
    assert found == KEPT_AT_PARENT
    assert {s.subject: s.reason.value for s in questions.skipped} == SKIPPED_AT_PARENT
    head = history_repo.git("rev-parse", "HEAD").strip()
    assert questions.head == head
    for question in questions.questions:
        parent = history_repo.git("rev-parse", f"{question.commit}^").strip()
        assert question.revision == parent


def test_questions_at_head_keep_new_files_and_the_root(history_repo: HistoryRepo) -> None:
    questions = build_questions(history_repo.root, HistoryOptions(revision=Revision.HEAD))
    found = {q.text: q.paths for q in questions.questions}
    assert found["Add a returns module for refunds"] == ("store/returns.py",)
    assert found["Add inventory, billing and shipping modules"] == (
        "store/__init__.py",
        "store/billing.py",
        "store/inventory.py",
        "store/shipping.py",
    )
    assert {q.revision for q in questions.questions} == {questions.head}
    assert "Add twelve generated fixture modules at once" not in found


def test_max_questions_takes_the_newest(history_repo: HistoryRepo) -> None:
    questions = build_questions(history_repo.root, HistoryOptions(max_questions=1))
    assert [q.text for q in questions.questions] in (
        [["Round invoice_total to whole cents"], ["Add an express option to shipping_label"]]
    )


def test_not_a_repository_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="git"):
        build_questions(tmp_path)
    with pytest.raises(ConfigurationError):
        HistoryOptions(rev="--output=/tmp/x")


def test_export_tree_leaves_the_checkout_alone(history_repo: HistoryRepo, tmp_path: Path) -> None:
    first = history_repo.git("rev-list", "--max-parents=0", "HEAD").strip()
    export_tree(history_repo.root, first, tmp_path / "tree")
    inventory = (tmp_path / "tree" / "store" / "inventory.py").read_text()
    assert "raise ValueError" not in inventory
    assert not (tmp_path / "tree" / "store" / "returns.py").exists()
    assert history_repo.git("status", "--porcelain") == ""
    with pytest.raises(ConfigurationError, match="git archive"):
        export_tree(history_repo.root, "0" * 40, tmp_path / "missing")


# -- scoring by hand ------------------------------------------------------------------------------
def _hit(node_id: str, path: str) -> Hit:
    return Hit(node_id, "function", node_id, Location(path, 1, 2), None, "r", 1.0)


def test_file_ranking_maps_symbols_to_their_module() -> None:
    modules = {"pkg/a.py": "r:pkg.a", "pkg/b.py": "r:pkg.b"}
    hits = [_hit("r:pkg.b.f", "pkg/b.py"), _hit("r:pkg.a", "pkg/a.py"), _hit("r:x", "x.py")]
    assert file_ranking(hits, modules) == ["r:pkg.b", "r:pkg.a", "r:x"]


def test_score_files_cuts_at_k_hits_not_k_files() -> None:
    # file b is only the 2nd distinct file, but the 6th hit
    ranking = ["a", "a", "a", "a", "a", "b", "c"]
    scores = score_files(ranking, {"b", "c"})
    assert scores["acc@1"] == scores["acc@5"] == 0.0
    assert scores["acc@10"] == scores["acc_all@10"] == 1.0
    assert scores["recall@10"] == 1.0
    assert scores["mrr@10"] == pytest.approx(1 / 6)
    partial = score_files(["b", "x", "y"], {"b", "c"})
    assert partial["acc@1"] == 1.0
    assert partial["acc_all@1"] == partial["acc_all@10"] == 0.0
    assert partial["recall@10"] == 0.5
    assert list(partial) == metric_names()


def test_bm25_tokens_and_ranking_by_hand() -> None:
    assert tokens("Fix getUser in the user_store") == [
        "fix", "getuser", "get", "user", "user_store", "user", "store"
    ]  # fmt: skip
    index = Bm25Index.build(
        [
            ("a.py", "def save_order(order): store order in database"),
            ("b.py", "def render(page): html page"),
            ("c.py", "order order order"),
        ]
    )
    assert index.search("save the order", k=3) == ["a.py", "c.py"]  # b.py matches nothing
    assert index.search("html", k=1) == ["b.py"]
    # idf: "order" is in 2 of 3 documents, "save" in 1 (Lucene's formula)
    assert math.isclose(index.document_frequency["order"], 2)
    assert index.search("nothing matches", k=5) == []


def test_select_ablations() -> None:
    assert [a.name for a in select_ablations(["hybrid", "full-text"])] == ["hybrid", "full-text"]
    with pytest.raises(ConfigurationError, match="unknown ablations"):
        select_ablations(["bm25"])
    prior = select_ablations(["hybrid+prior"])[0].options("Add a prior", k=10)
    assert prior.centrality_prior > 0
    assert prior.legs == ("vector", "text", "graph")


# -- end to end -----------------------------------------------------------------------------------
@pytest.mark.integration
def test_history_benchmark_end_to_end(
    neo4j: Neo4jClient, history_repo: HistoryRepo, tmp_path: Path
) -> None:
    drop_search_indexes(neo4j)
    questions = build_questions(history_repo.root)
    graph = CodeGraph(Settings(embedder="hashing", cache_dir=tmp_path / "cache"), client=neo4j)
    log = RunLog(tmp_path / "out" / "history.jsonl", context={"command": "test"})
    observed: list[tuple[str, str, tuple[str, ...]]] = []

    def observe(repo: str, question: HistoryQuestion, relevant: tuple[str, ...]) -> None:
        # the graph holds the question's tree while it is observed
        paths = {row["path"] for row in neo4j.read(
            "MATCH (m:Module {repo: $repo}) RETURN m.path AS path", {"repo": repo}
        )}  # fmt: skip
        assert set(relevant) <= paths
        observed.append((repo, question.text, relevant))

    result = run_history_benchmark(questions, graph, log=log, observe=observe)

    assert result.repo == "store-history"
    assert result.scored == 3
    assert not result.unindexed
    assert [a.ablation.name for a in result.ablations] == [a.name for a in ABLATIONS]
    for ablation in result.ablations:
        means = ablation.summary.overall.means
        assert set(means) == set(metric_names())
        assert all(0.0 <= value <= 1.0 for value in means.values())
        assert means["acc@1"] <= means["acc@5"] <= means["acc@10"]
        assert means["acc_all@10"] <= means["acc@10"]
        assert ablation.summary.by_category["single-file"].queries == 3
    # every subject names a function of the changed file: BM25 finds it in the top 5
    text = next(a for a in result.ablations if a.ablation.name == "full-text")
    for outcome in text.outcomes:
        assert outcome.scores["acc@5"] == 1.0, outcome.question.text
        assert all(hit.ranks.keys() == {"text"} for hit in outcome.hits)
    # the file-level rankings: BM25 over whole files (the baseline) and search(unit="file")
    for name in ("bm25-files", "files"):
        ranked = next(a for a in result.ablations if a.ablation.name == name)
        assert ranked.summary.overall.means["acc@5"] == 1.0, name
        for outcome in ranked.outcomes:
            assert len(set(outcome.files)) == len(outcome.files), "each file once"
    restock = next(o for o in text.outcomes if "restock_item" in o.question.text)
    assert restock.relevant == ("store-history:store.inventory",)
    assert len(observed) == 3
    assert {repo for repo, _, _ in observed} == {"store-history"}
    assert next(r for _, q, r in observed if "restock_item" in q) == ("store/inventory.py",)
    # each question was asked of its parent: the last tree indexed is the newest parent,
    # which has no returns module yet
    paths = {row["path"] for row in neo4j.read(
        "MATCH (m:Module {repo: 'store-history'}) RETURN m.path AS path"
    )}  # fmt: skip
    assert "store/inventory.py" in paths
    assert "store/returns.py" not in paths

    records = read_run_log(log.path)
    assert [r["type"] for r in records].count("evaluation") == len(ABLATIONS)
    assert [r["type"] for r in records].count("query") == 3 * len(ABLATIONS)
    first_query = next(r for r in records if r["type"] == "query")
    assert first_query["hits"]
    assert set(first_query["hits"][0]) == {"id", "file", "ranks"}
    assert scores_from_run_log(records)["full-text"]["acc@5"] == 1.0

    written = write_history_report(result, tmp_path / "out", command="test", run_log=log.path)
    assert [p.suffix for p in written] == [".md", ".json", ".png"]
    markdown = written[0].read_text()
    assert "| full-text |" in markdown
    assert "Reject negative quantities in restock_item" in markdown
    summary = json.loads(written[1].read_text())
    assert summary["questions"] == 3
    assert summary["results"]["full-text"]["acc@5"] == 1.0
    assert summary["run_log"] == "history.jsonl"
    assert written[2].read_bytes().startswith(b"\x89PNG")
    drop_search_indexes(neo4j)
