"""Questions from a repository's own git history: a commit subject -> the files it changed.

A commit subject ("Reject negative quantities in restock_item") is a question a developer could
ask, and the Python files the commit changed are where its answer lives. Scoring is at file
level: each search hit counts for the file (Module node) it is defined in.

    questions = build_questions("path/to/repo")
    with CodeGraph() as graph:
        result = run_history_benchmark(questions, graph)
    result.ablations[0].summary.overall.means["acc@5"]

Which tree is searched (`Revision`):

* PARENT (the default): each question is asked of the repository as it was just before the
  commit (its first parent), so the code the commit wrote is not there to give the answer
  away. Files the commit created did not exist yet and are not part of the answer; a commit
  that only creates files is skipped. Bias: it measures "where does this change go", which
  favours fixes to existing code over new features. Cost: one incremental index per parent.
* HEAD: every question is asked of one index of HEAD. Cheap, but it leaks: the code a commit
  added, often with the very names its subject uses, is there to be matched, while files that
  later commits rewrote have drifted away from the subject. Expect higher numbers than PARENT.

Skipped commits, each with its reason: merges, reverts, releases and version bumps,
formatting / lint / typo commits (by subject, or a diff that changes only whitespace),
subjects of fewer than `min_words` words, commits changing more than `max_files` files of any
kind, and commits with no Python file to find in the searched tree.

The work is split by job:

    questions   what a commit says: which commits make questions, and their answer files
    git         reading the history (`build_questions`) and exporting a tree (`export_tree`)
    scoring     file-level scores of one question, and the results of a run
    run         indexing each searched tree and asking every question under every ablation
    report      the Markdown report, the summary JSON and the chart
"""

from .git import build_questions, export_tree, only_whitespace, parse_log, read_commits
from .questions import (
    Commit,
    FileChange,
    HistoryOptions,
    HistoryQuestion,
    QuestionSet,
    Revision,
    SkippedCommit,
    SkipReason,
    answer_paths,
    skip_reason,
)
from .report import history_markdown, write_history_report
from .run import ABLATIONS, log_ablation, run_history_benchmark, select_ablations
from .scoring import (
    KS,
    AblationResult,
    HistoryResult,
    QuestionOutcome,
    file_ranking,
    metric_names,
    score_files,
)

__all__ = [
    "ABLATIONS",
    "KS",
    "AblationResult",
    "Commit",
    "FileChange",
    "HistoryOptions",
    "HistoryQuestion",
    "HistoryResult",
    "QuestionOutcome",
    "QuestionSet",
    "Revision",
    "SkipReason",
    "SkippedCommit",
    "answer_paths",
    "build_questions",
    "export_tree",
    "file_ranking",
    "history_markdown",
    "log_ablation",
    "metric_names",
    "only_whitespace",
    "parse_log",
    "read_commits",
    "run_history_benchmark",
    "score_files",
    "select_ablations",
    "skip_reason",
    "write_history_report",
]
