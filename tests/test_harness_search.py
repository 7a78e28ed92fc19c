"""Pure parts of the document search: Lucene escaping, fusion with per-leg ranks, BEIR files."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_code.errors import ConfigurationError
from harness.beir import load_beir
from harness.passes import Fusion
from harness.search import FULLTEXT, VECTOR, LegHit, Legs, fuse, lucene_query


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain words", "plain words"),
        ("foo) OR (", r'foo\) "OR" \('),
        ("a/b", r"a\/b"),
        ('~^"', r"\~\^\""),
        ("title:", r"title\:"),
        ("a && b || !c", r"a \&\& b \|\| \!c"),
        ("\\", "\\\\"),
        ("[1 TO 5]", r'\[1 "TO" 5\]'),
        ("and or", "and or"),  # lowercase words are plain terms in Lucene
    ],
)
def test_every_special_character_is_escaped(text: str, expected: str) -> None:
    assert lucene_query(text) == expected


def test_empty_queries_have_no_lucene_query() -> None:
    assert lucene_query("") is None
    assert lucene_query(" \t\n") is None


def test_field_boosts_repeat_the_terms_per_field() -> None:
    query = lucene_query("a:b c", field_boosts={"title": 2.0, "text": 1.0})
    assert query == r"title:(a\:b c)^2 text:(a\:b c)^1"
    with pytest.raises(ConfigurationError):
        lucene_query("x", field_boosts={"title": 0.0})


def test_fuse_reports_ranks_per_leg() -> None:
    legs = Legs(
        fulltext=(LegHit("a", 9.0), LegHit("b", 5.0)),
        vector=(LegHit("b", 0.9), LegHit("c", 0.8), LegHit("a", 0.1)),
        seconds=0.0,
    )
    fused = fuse(legs)
    assert [hit.id for hit in fused] == ["b", "a", "c"]
    assert fused[0].ranks == {FULLTEXT: 2, VECTOR: 1}
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert fused[2].ranks == {VECTOR: 2}
    # A weight of 0 switches a leg off: the other leg's order comes back unchanged.
    only_text = fuse(legs, weights={FULLTEXT: 1.0, VECTOR: 0.0})
    assert [hit.id for hit in only_text] == ["a", "b"]
    assert [hit.id for hit in fuse(legs, limit=1)] == ["b"]


def test_fusion_labels_and_validation() -> None:
    assert Fusion(1.0, 0.0).label == "full-text only"
    assert Fusion(0.0, 1.0).label == "vector only"
    assert Fusion(1.25, 1.0).label == "RRF k=60 text=1.25 vector=1"
    with pytest.raises(ConfigurationError):
        Fusion(0.0, 0.0)


def test_beir_loader_reads_only_judged_queries_and_their_text(tmp_path: Path) -> None:
    (tmp_path / "qrels").mkdir()
    (tmp_path / "corpus.jsonl").write_text(
        '{"_id": "d1", "title": "T", "text": "body", "metadata": {}}\n'
        '{"_id": "d2", "title": "", "text": "other"}\n'
    )
    (tmp_path / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "judged", "metadata": {"d1": [{"label": "SUPPORT"}]}}\n'
        '{"_id": "q2", "text": "train only", "metadata": {}}\n'
    )
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    dataset = load_beir(tmp_path)
    assert [(q.id, q.text) for q in dataset.queries] == [("q1", "judged")]
    assert dataset.qrels == {"q1": {"d1": 1}}
    assert [d.content for d in dataset.corpus] == ["T body", "other"]
    (tmp_path / "qrels" / "test.tsv").write_text("q1\td1\t1\n")
    with pytest.raises(ConfigurationError, match="header"):
        load_beir(tmp_path)
