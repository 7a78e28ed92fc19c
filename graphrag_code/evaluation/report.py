"""Markdown tables and matplotlib figures from evaluation results.

Everything works on `Scores`: {row: {column: value}}, rows being systems or ablations and
columns metrics or categories. They come from a run log's `evaluation` records
(`scores_from_run_log`, `category_scores_from_run_log`) or from a summary JSON file with a
`results` object (`scores_from_summary`; what `eval history` and the SciFact benchmark
write), or `load_scores` for either file.

    scores = load_scores(Path("eval-results/history-main.json"))
    print(markdown_table(scores, row_label="ablation"))
    save_figure(bar_chart(scores, columns=["acc@1", "acc@5", "acc@10"]), Path("acc.png"))

The figures are built on matplotlib's Agg canvas without pyplot: no current figure, no global
backend switch, nothing shown. Notebooks display the returned `Figure` themselves. matplotlib
(the `dev` and `bench` extras) is imported only by the two figure functions, so the tables
work without it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigurationError

if TYPE_CHECKING:  # matplotlib is an extra (dev, bench): imported only to draw
    from matplotlib.figure import Figure

__all__ = [
    "Scores",
    "bar_chart",
    "category_scores_from_run_log",
    "category_scores_from_summary",
    "columns_of",
    "load_scores",
    "markdown_table",
    "read_run_log",
    "save_figure",
    "scores_from_run_log",
    "scores_from_summary",
]

Scores = Mapping[str, Mapping[str, float | None]]
"""{row: {column: value}}; a missing or None value shows as a dash."""

_NUMBER = re.compile(r"(\d+)")


def _natural(name: str) -> tuple[Any, ...]:
    """Sort key that puts acc@5 before acc@10."""
    return tuple(int(part) if part.isdigit() else part for part in _NUMBER.split(name))


def columns_of(scores: Scores) -> list[str]:
    """Every column of `scores`, in natural order (acc@1, acc@5, acc@10)."""
    return sorted({column for row in scores.values() for column in row}, key=_natural)


# -- reading -------------------------------------------------------------------------------------
def read_run_log(path: Path) -> list[dict[str, Any]]:
    """The records of a JSONL run log (see `graphrag_code.evaluation.runlog`)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError as exc:
        raise ConfigurationError(f"run log not found: {path}") from exc
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ConfigurationError(f"{path}:{number}: not JSON: {exc.msg}") from exc
    return records


def _evaluations(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [r for r in records if r.get("type") == "evaluation"]


def scores_from_run_log(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float | None]]:
    """{label: means} of each `evaluation` record; a label evaluated again keeps its last."""
    return {str(r["label"]): dict(r["means"]) for r in _evaluations(records)}


def category_scores_from_run_log(
    records: Sequence[Mapping[str, Any]], metric: str
) -> dict[str, dict[str, float | None]]:
    """{label: {category: mean of `metric`}} from records that carry `by_category`."""
    return {
        str(r["label"]): {
            category: means.get(metric) for category, means in r.get("by_category", {}).items()
        }
        for r in _evaluations(records)
    }


def scores_from_summary(data: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """The `results` object of a summary JSON file: {system: {metric: value}}."""
    results = data.get("results")
    if not isinstance(results, Mapping) or not all(
        isinstance(row, Mapping) for row in results.values()
    ):
        raise ConfigurationError("a summary needs a `results` object of {system: {metric: value}}")
    return {str(name): dict(row) for name, row in results.items()}


def category_scores_from_summary(
    data: Mapping[str, Any], metric: str
) -> dict[str, dict[str, float | None]]:
    """{system: {category: value of `metric`}} from a summary's `by_category` object."""
    by_category = data.get("by_category") or {}
    return {
        str(name): {category: means.get(metric) for category, means in categories.items()}
        for name, categories in by_category.items()
    }


def load_scores(path: Path) -> dict[str, dict[str, float | None]]:
    """Scores from a run log (`.jsonl`) or a summary (`.json`)."""
    if path.suffix == ".jsonl":
        return scores_from_run_log(read_run_log(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigurationError(f"summary not found: {path}") from exc
    except json.JSONDecodeError as exc:
        raise ConfigurationError(f"{path}: not JSON: {exc.msg}") from exc
    if not isinstance(data, Mapping):
        raise ConfigurationError(f"{path}: expected a JSON object")
    return scores_from_summary(data)


# -- Markdown ------------------------------------------------------------------------------------
def _cell(value: float | None, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.{digits}f}"


def markdown_table(
    scores: Scores,
    *,
    columns: Sequence[str] | None = None,
    row_label: str = "system",
    digits: int = 3,
    title: str | None = None,
) -> str:
    """A GitHub Markdown table: one row per entry of `scores`, numbers right-aligned.

    >>> print(markdown_table({"full-text": {"acc@1": 0.5}}, row_label="ablation"))
    | ablation | acc@1 |
    |---|---:|
    | full-text | 0.500 |
    """
    columns = list(columns) if columns is not None else columns_of(scores)
    lines = [f"### {title}", ""] if title else []
    lines.append("| " + " | ".join([row_label, *columns]) + " |")
    lines.append("|---|" + "---:|" * len(columns))
    for name, row in scores.items():
        cells = [_cell(row.get(column), digits) for column in columns]
        lines.append("| " + " | ".join([name, *cells]) + " |")
    return "\n".join(lines)


# -- figures -------------------------------------------------------------------------------------
def bar_chart(
    scores: Scores,
    *,
    columns: Sequence[str] | None = None,
    title: str | None = None,
    ylabel: str = "score",
    ylim: tuple[float, float] | None = (0.0, 1.0),
    width: float = 8.0,
    height: float = 4.0,
) -> Figure:
    """Grouped bars: one group per column (metric or category), one bar per row (system).

    Missing values leave a gap. Returns the figure; nothing is shown or saved.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    columns = list(columns) if columns is not None else columns_of(scores)
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    rows = list(scores)
    bar = 0.8 / max(len(rows), 1)
    for index, name in enumerate(rows):
        values = [scores[name].get(column) for column in columns]
        positions = [c + (index - (len(rows) - 1) / 2) * bar for c in range(len(columns))]
        heights = [float("nan") if v is None else float(v) for v in values]
        axes.bar(positions, heights, width=bar, label=name)
    axes.set_xticks(range(len(columns)), columns)
    axes.set_ylabel(ylabel)
    if ylim is not None:
        axes.set_ylim(*ylim)
    axes.grid(axis="y", alpha=0.3)
    axes.set_axisbelow(True)
    if title:
        axes.set_title(title)
    if rows:
        axes.legend(fontsize="small", ncols=min(len(rows), 3), loc="upper left")
    return figure


def save_figure(figure: Figure, path: Path, *, dpi: int = 120) -> Path:
    """Write `figure` as a PNG (through the Agg canvas) and return the path."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    path.parent.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(figure)  # Agg whatever backend the process has chosen
    figure.savefig(path, dpi=dpi, format="png")
    return path
