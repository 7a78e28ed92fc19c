"""The history benchmark's report: Markdown (means per ablation, then each question), the
summary JSON and a bar chart of the means."""

from __future__ import annotations

import json
from pathlib import Path

from ..report import bar_chart, markdown_table, save_figure
from .questions import Revision
from .scoring import HistoryResult, QuestionOutcome, metric_names

__all__ = ["history_markdown", "write_history_report"]


def _first_rank(outcome: QuestionOutcome) -> str:
    wanted = set(outcome.relevant)
    rank = next((r for r, file in enumerate(outcome.files, 1) if file in wanted), None)
    return str(rank) if rank else "–"


def history_markdown(result: HistoryResult, *, command: str | None = None) -> str:
    """The report: what was asked, the means per ablation (all questions, then per category),
    and each question with the hit rank of its first answer file under each ablation."""
    questions = result.questions
    where = (
        "each commit's parent"
        if questions.options.revision is Revision.PARENT
        else f"HEAD ({questions.head[:12]})"
    )
    skipped = ", ".join(f"{reason} {n}" for reason, n in result.as_dict()["skipped"].items())
    columns = metric_names(result.ks)
    lines = [
        f"## Git-history questions: {questions.root.name}" + (f", `{command}`" if command else ""),
        "",
        f"{result.scored} questions (commit subject -> the Python files it changed), searched "
        f"at {where} as repository `{result.repo}`; HEAD {questions.head[:12]}. "
        f"Skipped: {skipped or 'none'}.",
        "",
        "acc@k: a changed file (or a symbol in it) is among the top k hits; acc_all@k: every "
        "changed file is; recall and MRR by hit rank.",
        "",
    ]
    overall = {a.ablation.name: dict(a.summary.overall.means) for a in result.ablations}
    lines += [markdown_table(overall, columns=columns, row_label="ablation", title="All"), ""]
    categories = sorted({c for a in result.ablations for c in a.summary.by_category})
    if len(categories) == 1:
        categories = []  # the same numbers as "All"
    for category in categories:
        scores = {
            a.ablation.name: dict(a.summary.by_category[category].means)
            for a in result.ablations
            if category in a.summary.by_category
        }
        size = next(iter(result.ablations)).summary.by_category[category].queries
        title = f"{category} ({size} questions)"
        lines += [markdown_table(scores, columns=columns, row_label="ablation", title=title), ""]
    names = [a.ablation.name for a in result.ablations]
    lines += [
        "### Rank of the first changed file, per question",
        "",
        "| commit | subject | files | " + " | ".join(names) + " |",
        "|---|---|---:|" + "---:|" * len(names),
    ]
    by_question: dict[str, dict[str, QuestionOutcome]] = {}
    for ablation in result.ablations:
        for outcome in ablation.outcomes:
            by_question.setdefault(outcome.question.id, {})[ablation.ablation.name] = outcome
    for question_id, outcomes in by_question.items():
        first = next(iter(outcomes.values()))
        subject = first.question.text.replace("|", "\\|")
        ranks = [_first_rank(outcomes[name]) if name in outcomes else "–" for name in names]
        lines.append(
            f"| {question_id[:8]} | {subject} | {len(first.relevant)} | " + " | ".join(ranks) + " |"
        )
    return "\n".join(lines) + "\n"


def write_history_report(
    result: HistoryResult,
    out: Path,
    *,
    command: str | None = None,
    run_log: Path | None = None,
    plot: bool = True,
) -> list[Path]:
    """`history-<folder>-<revision>.md`, `.json` (the summary) and `.png` (the means per
    ablation) in `out`; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    questions = result.questions
    stem = out / f"history-{questions.root.name}-{questions.options.revision.value}"
    markdown, summary = stem.with_suffix(".md"), stem.with_suffix(".json")
    markdown.write_text(history_markdown(result, command=command), encoding="utf-8")
    data = {**result.as_dict(), "command": command, "run_log": run_log.name if run_log else None}
    summary.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    written = [markdown, summary]
    if plot and result.ablations:
        scores = {a.ablation.name: dict(a.summary.overall.means) for a in result.ablations}
        at = "at parent" if questions.options.revision is Revision.PARENT else "at HEAD"
        title = f"{questions.root.name}: {result.scored} history questions ({at})"
        figure = bar_chart(scores, columns=metric_names(result.ks), title=title)
        written.append(save_figure(figure, stem.with_suffix(".png")))
    return written
