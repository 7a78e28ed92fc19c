"""Per-tier precision and issue 50's targets (benchmarks/accuracy/tier_precision.py), offline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.accuracy import graph_accuracy
from benchmarks.accuracy.tier_precision import (
    Judges,
    edge_counts,
    markdown,
    pooled,
    pooled_rows,
    possible_per_certain,
    targets,
    tier_score,
)
from benchmarks.oracles.packages import HELD_OUT, TUNING
from graphrag_code.model import POSSIBLE_TIERS, Edge, EdgeKind, Resolution

JEDI = frozenset({("m", "m.a"), ("m", "m.b")})
CHECKERS = JEDI | {("m", "m.c")}


def test_each_judge_confirms_more_in_turn() -> None:
    pairs = {("m", "m.a"), ("m", "m.c"), ("m", "m.d"), ("m", "m.e")}
    judges = Judges(JEDI, CHECKERS, running=frozenset({("m", "m.d")}))
    score = tier_score(pairs, judged={("m", "m.a"), ("m", "m.e")}, judges=judges)
    assert score["precision_jedi"] == 0.25
    assert score["precision_jedi_mypy"] == 0.5
    assert score["precision"] == 0.75  # running code confirms m.d
    assert score["confirmed_by_running_only"] == 1
    assert score["judged_precision"] == 0.5  # m.e was judged and refuted


def test_without_a_runtime_oracle_the_checkers_decide() -> None:
    score = tier_score({("m", "m.c"), ("m", "m.x")}, set(), Judges(JEDI, CHECKERS))
    assert score["precision"] == 0.5
    assert "confirmed_by_running_only" not in score
    assert score["judged_precision"] is None


def test_an_empty_tier_has_no_precision() -> None:
    assert tier_score(set(), set(), Judges(JEDI, CHECKERS))["precision"] is None


def _edge(resolution: Resolution | None, kind: EdgeKind = EdgeKind.CALLS) -> Edge:
    return Edge(kind, "r:m.f", "r:m.g", resolution=resolution)


def test_edge_counts_take_calls_with_a_tier() -> None:
    edges = [
        _edge(Resolution.EXACT),
        _edge(Resolution.PARTIAL),
        _edge(Resolution.PARTIAL),
        _edge(None),
        _edge(None, EdgeKind.IMPORTS),
    ]
    counts = edge_counts(edges)
    assert counts == {"exact": 1, "partial": 2}
    assert possible_per_certain(counts) == 2.0
    assert possible_per_certain({"name": 3}) is None


def _result(precision: float, recall: float, partial: float | None, ratio: float) -> Any:
    tiers = {
        tier: {"precision": None, "judged_precision": None, "pairs": 0} for tier in POSSIBLE_TIERS
    }
    tiers |= {
        tier: {"precision": 1.0, "judged_precision": 1.0, "pairs": 1}
        for tier in ("exact", "inferred")
    }
    tiers["partial"] = {"precision": partial, "judged_precision": None, "pairs": 4}
    return {
        "package": "p==1",
        "set": "heldout",
        "certain": {
            "precision": precision,
            "judged_precision": 1.0,
            "pairs": 9,
            "recall": recall,
            "judges": "jedi, mypy",
        },
        "tiers": tiers,
        "possible_per_certain": 0.5,
        "possible_per_certain_sdist": ratio,
    }


def test_targets_name_what_is_missed() -> None:
    met = targets(_result(0.98, 0.96, 0.5, 1.0))
    assert all(met.values())
    missed = targets(_result(0.96, 0.94, 0.49, 1.2))
    assert [name for name, ok in missed.items() if not ok] == [
        "certain_precision",
        "certain_recall",
        "partial_precision",
        "possible_per_certain",
    ]


def test_markdown_has_a_row_per_package_with_the_missed_targets() -> None:
    result = _result(0.96, 0.96, None, 0.2)
    result["targets"] = targets(result)
    table = markdown([result]).splitlines()
    assert len(table) == 3
    assert table[2].startswith("| p==1 | heldout | jedi, mypy | 0.960 (1.000; 9) | 0.960 |")
    assert table[2].endswith("| 0.50 | 0.20 | certain_precision |")


def test_the_held_out_set_is_apart_from_the_tuning_set() -> None:
    held_out = {package.name for package in HELD_OUT}
    assert len(held_out) >= 5
    assert not held_out & {package.name for package in TUNING}
    assert {"attrs", "rich", "click", "flask"} <= {package.name for package in TUNING}


def test_a_set_leaves_out_the_packages_without_oracles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(graph_accuracy, "ORACLE_OUT_DIR", tmp_path)
    (tmp_path / "wsproto-1.2.0.calls.json").write_text("{}")
    assert graph_accuracy._specs([], "heldout") == ["wsproto==1.2.0"]
    assert "marshmallow==3.23.1 left out" in capsys.readouterr().out
    assert graph_accuracy._specs(["x==1"], "heldout") == ["x==1"]  # named packages win


def _member(package: str, set_name: str, exact: tuple[int, int], name: tuple[int, int]) -> Any:
    """A package's result with `exact` and `name` pairs (confirmed, of) and none else; its
    oracle holds one pair more than the exact ones found."""

    def tier(confirmed: int, pairs: int, judged: bool, edges: int) -> dict[str, Any]:
        precision = confirmed / pairs if pairs else None
        return {
            "pairs": pairs,
            "confirmed": confirmed,
            "precision": precision,
            "judged_pairs": pairs if judged else 0,
            "judged_confirmed": confirmed if judged else 0,
            "judged_precision": precision if judged else None,
            "edges": edges,
        }

    tiers = {name: tier(0, 0, False, 0) for name in ("exact", "inferred", *POSSIBLE_TIERS)}
    tiers["exact"] = tier(*exact, True, 2 * exact[1])
    tiers["name"] = tier(*name, False, name[1])
    found, oracle = exact[0], exact[0] + 1
    return {
        "package": package,
        "set": set_name,
        "certain": {
            **tiers["exact"],
            "recall": found / oracle,
            "recall_found": found,
            "recall_of": oracle,
            "judges": "jedi, mypy",
        },
        "tiers": tiers,
        "possible_per_certain": 0.1,
        "possible_per_certain_sdist": 0.1,
        "edges_by_tier_sdist": {"exact": 10, "name": name[1]},
    }


def _members() -> list[Any]:
    return [
        _member("a==1", "heldout", exact=(9, 10), name=(0, 1)),
        _member("b==1", "heldout", exact=(30, 30), name=(3, 3)),
        _member("t==1", "tuning", exact=(1, 1), name=(0, 0)),
    ]


def test_a_pooled_row_takes_every_pair_of_the_set() -> None:
    pool = pooled(_members(), "heldout")
    assert pool["package"] == "all heldout (2 packages)"
    assert pool["certain"]["precision"] == 0.975  # 39 of 40: not the mean of .9 and 1.0
    assert pool["certain"]["recall"] == 0.9512  # 39 found of the 41 the two oracles hold
    assert pool["tiers"]["name"] == {
        "edges": 4, "pairs": 4, "confirmed": 3, "precision": 0.75,
        "judged_pairs": 0, "judged_confirmed": 0, "judged_precision": None,
    }  # fmt: skip
    assert pool["tiers"]["partial"]["precision"] is None
    assert pool["possible_per_certain"] == 0.05  # 4 name edges per 80 exact ones
    assert pool["possible_per_certain_sdist"] == 0.2  # 4 per 20
    assert all(pool["targets"].values())
    assert not pooled(_members()[:1], "heldout")["targets"]["certain_recall"]  # 9 of 10


def test_the_markdown_ends_with_a_pooled_row_per_set_of_two_or_more() -> None:
    results = _members()
    for result in results:
        result["targets"] = targets(result)
    assert [row["package"] for row in pooled_rows(results)] == ["all heldout (2 packages)"]
    rows = markdown(results).splitlines()
    assert len(rows) == 2 + 3 + 1
    assert rows[-1].startswith("| all heldout (2 packages) | heldout | jedi, mypy | 0.975 (")
