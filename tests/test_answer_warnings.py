"""The warnings every answer carries (issue 55): which state of a repository gives which
warning, and how an MCP answer shows them. Offline: the state is given, not read."""

from __future__ import annotations

from datetime import datetime, timezone

from graphrag_code.graph import AnswerWarning, Completeness, RepositoryInfo, answer_warnings
from graphrag_code.mcp.freshness import FreshnessTracker
from graphrag_code.mcp.render import freshness_lines

COMPLETE = Completeness("shop", "complete", nodes=8013, vectors=8013, root="/src/shop")


def kinds(warnings: tuple[AnswerWarning, ...]) -> list[tuple[str, str | None]]:
    return [(w.kind, w.repo) for w in warnings]


def test_a_complete_repository_with_every_vector_gives_no_warning() -> None:
    assert answer_warnings([COMPLETE], vectors=True) == ()


def test_an_interrupted_run_warns_every_answer_and_names_the_command() -> None:
    stopped = Completeness("shop", "indexing", nodes=500, vectors=500, root="/src/my shop")
    for vectors in (False, True):
        (warning,) = answer_warnings([stopped], vectors=vectors)
        assert (warning.kind, warning.repo) == ("incomplete", "shop")
        assert "not completely indexed" in warning.text
        assert "`graphrag-code index '/src/my shop' --repo shop` again" in warning.text
        assert str(warning) == warning.text


def test_partial_vectors_say_how_many_and_only_where_vectors_were_used() -> None:
    partial = Completeness("shop", "complete", nodes=8013, vectors=5376)
    (warning,) = answer_warnings([partial], vectors=True)
    assert warning.kind == "vectors_partial"
    assert "only 5,376 of the 8,013 code nodes of repository 'shop' have a vector" in warning.text
    assert "the other 2,637" in warning.text
    assert "`graphrag-code embed --repo shop`" in warning.text
    assert answer_warnings([partial], vectors=False) == ()  # callers, paths: no vector used


def test_no_vectors_hint_embed_and_an_unread_count_says_nothing() -> None:
    bare = Completeness("rich", "complete", nodes=3000, vectors=0)
    (warning,) = answer_warnings([bare], vectors=True)
    assert warning.kind == "vectors_absent"
    assert "--no-embeddings" in warning.text
    assert warning.text.endswith("run `graphrag-code embed --repo rich`")
    assert answer_warnings([Completeness("rich", "complete", 3000, None)], vectors=True) == ()
    assert answer_warnings([Completeness("empty", "complete", 0, 0)], vectors=True) == ()


def test_both_kinds_for_several_repositories_in_order() -> None:
    states = [
        Completeness("a", "indexing", nodes=10, vectors=4),
        COMPLETE,
        Completeness("b", "complete", nodes=10, vectors=0),
    ]
    assert kinds(answer_warnings(states, vectors=True)) == [
        ("incomplete", "a"),
        ("vectors_partial", "a"),
        ("vectors_absent", "b"),
    ]


def _info(name: str, status: str, vectors: int | None) -> RepositoryInfo:
    return RepositoryInfo(
        name=name, root=None, status=status, head=None,
        indexed_at=datetime(2026, 1, 2, tzinfo=timezone.utc), files=2, symbols=8,
        nodes={("python", "Module"): 2, ("python", "Function"): 8}, vectors=vectors,
    )  # fmt: skip


def test_mcp_answers_show_the_warnings_of_their_repositories() -> None:
    """The MCP server reads them from the repository listing it holds anyway (no extra read);
    a callers answer leaves out what only matters to search."""
    infos = [_info("shop", "indexing", 6), _info("ok", "complete", 10)]
    tracker = FreshnessTracker(lambda: infos)
    shop, ok = tracker.of(["shop", "ok"])
    assert ok.warnings == ()
    assert kinds(shop.warnings) == [("incomplete", "shop"), ("vectors_partial", "shop")]
    callers = freshness_lines([shop, ok])
    assert [line.split(":")[0] for line in callers] == ["warning", "graph freshness"]
    assert "not completely indexed" in callers[0]
    assert "the graph may miss files" not in callers[-1]  # said once, by the warning
    search = freshness_lines([shop], vectors=True)
    assert "only 6 of the 10 code nodes" in search[1]
