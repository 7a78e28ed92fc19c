"""Markdown tables and PNG figures from run logs and summary files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphrag_code.errors import ConfigurationError
from graphrag_code.evaluation.report import (
    bar_chart,
    category_scores_from_run_log,
    category_scores_from_summary,
    columns_of,
    load_scores,
    markdown_table,
    read_run_log,
    save_figure,
    scores_from_run_log,
)
from graphrag_code.evaluation.runlog import RunLog

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
SCORES: dict[str, dict[str, float | None]] = {
    "full-text": {"acc@1": 0.5, "acc@10": 1.0, "acc@5": 0.75},
    "hybrid": {"acc@1": 0.625, "acc@5": None},
}


def test_markdown_table() -> None:
    assert markdown_table(SCORES, row_label="ablation", title="All") == "\n".join(
        [
            "### All",
            "",
            "| ablation | acc@1 | acc@5 | acc@10 |",
            "|---|---:|---:|---:|",
            "| full-text | 0.500 | 0.750 | 1.000 |",
            "| hybrid | 0.625 | – | – |",
        ]
    )
    chosen = markdown_table(SCORES, columns=["acc@10"], digits=1)
    assert chosen.splitlines() == [
        "| system | acc@10 |",
        "|---|---:|",
        "| full-text | 1.0 |",
        "| hybrid | – |",
    ]


def test_columns_in_natural_order() -> None:
    assert columns_of({"a": {"recall@100": 1, "ndcg@10": 1, "acc@10": 1, "acc@5": 1}}) == [
        "acc@5",
        "acc@10",
        "ndcg@10",
        "recall@100",
    ]


def _run_log(path: Path) -> Path:
    log = RunLog(path, context={"command": "test"})
    run_id = log.start({"repo": "r"})
    log.write(
        run_id,
        [
            {"type": "query", "query_id": "q1"},
            {
                "type": "evaluation",
                "label": "full-text",
                "means": {"acc@5": 0.5, "recall@10": 0.25},
                "by_category": {"single-file": {"acc@5": 1.0}, "multi-file": {"acc@5": 0.0}},
            },
            {"type": "evaluation", "label": "hybrid", "means": {"acc@5": 0.75}},
        ],
    )
    return path


def test_run_log_records_carry_their_run(tmp_path: Path) -> None:
    records = read_run_log(_run_log(tmp_path / "logs" / "run.jsonl"))
    assert [r["type"] for r in records] == ["run", "query", "evaluation", "evaluation"]
    assert len({r["run_id"] for r in records}) == 1
    header = records[0]
    assert header["config"] == {"repo": "r"}
    assert header["command"] == "test"  # the log's context
    assert header["git"].keys() == {"commit", "dirty"}


def test_scores_from_a_run_log(tmp_path: Path) -> None:
    log = _run_log(tmp_path / "run.jsonl")
    assert load_scores(log) == {
        "full-text": {"acc@5": 0.5, "recall@10": 0.25},
        "hybrid": {"acc@5": 0.75},
    }
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert scores_from_run_log(records) == load_scores(log)
    assert category_scores_from_run_log(records, "acc@5") == {
        "full-text": {"single-file": 1.0, "multi-file": 0.0},
        "hybrid": {},
    }


def test_scores_from_the_committed_scifact_summary() -> None:
    summary = RESULTS / "scifact-512tokens.json"
    if not summary.is_file():
        pytest.skip("no committed SciFact results")
    scores = load_scores(summary)
    markdown = (RESULTS / "scifact-512tokens.md").read_text()
    # the benchmark's own Markdown shows the same numbers, to 4 digits
    for name, row in scores.items():
        assert f"| {name} | {row['ndcg@10']:.4f} | {row['recall@100']:.4f} |" in markdown


def test_summary_errors_and_categories(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"means": {}}')
    with pytest.raises(ConfigurationError, match="results"):
        load_scores(bad)
    with pytest.raises(ConfigurationError, match="not found"):
        load_scores(tmp_path / "missing.jsonl")
    (tmp_path / "broken.jsonl").write_text('{"type": "run"}\nnot json\n')
    with pytest.raises(ConfigurationError, match=r"broken\.jsonl:2"):
        load_scores(tmp_path / "broken.jsonl")
    data = {"by_category": {"hybrid": {"single-file": {"acc@5": 1.0}}}}
    assert category_scores_from_summary(data, "acc@5") == {"hybrid": {"single-file": 1.0}}


def test_bar_chart_and_png(tmp_path: Path) -> None:
    figure = bar_chart(SCORES, title="history")
    axes = figure.axes[0]
    assert [label.get_text() for label in axes.get_xticklabels()] == ["acc@1", "acc@5", "acc@10"]
    assert len(axes.patches) == 2 * 3  # one bar per system and metric (missing: NaN height)
    assert axes.get_title() == "history"
    path = save_figure(figure, tmp_path / "plots" / "history.png")
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_figures_leave_pyplot_alone(tmp_path: Path) -> None:
    """Drawing must not import pyplot (no global current figure, no backend switch)."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from graphrag_code.evaluation.report import bar_chart, save_figure\n"
        f"save_figure(bar_chart({{'a': {{'m': 0.5}}}}), Path({str(tmp_path / 'x.png')!r}))\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, capture_output=True)
    assert (tmp_path / "x.png").is_file()
