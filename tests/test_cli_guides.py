"""A CLI that guides (issue 55), offline: the nearest names for a misspelt repository, blank
names refused by the parser, `repos` rows, plain progress lines for logs, a missing revision
said in words, and code shown at its indentation."""

from __future__ import annotations

import io
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest
from rich.console import Console

from graphrag_code.cli.exit_codes import USAGE, exit_code
from graphrag_code.cli.main import build_parser
from graphrag_code.cli.progress import PlainProgress, RichProgress, progress_for
from graphrag_code.cli.repos_command import _print_table, describe
from graphrag_code.errors import InvalidArgumentError, RepositoryNotFoundError, nearest_names
from graphrag_code.graph import RepositoryInfo, RepositorySize
from graphrag_code.impact.sources import DiffSpec, read_changes
from graphrag_code.runtime.git import git
from graphrag_code.text import indented_code

INDEXED = [
    "rich", "attrs-24.2.0", "zod", "query-core", "flask-3.0.3", "Requests",
    *(f"pkg{n}" for n in range(140)),
]  # fmt: skip


# -- did you mean ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "nearest"),
    [
        ("rihc", ["rich"]),  # a typo: difflib
        ("attrs", ["attrs-24.2.0"]),  # the folder name with its version
        ("requests", ["Requests"]),  # case
        ("zzzzzz", []),
    ],
)
def test_the_nearest_names_of_a_misspelt_repository(typed: str, nearest: list[str]) -> None:
    assert nearest_names(typed, INDEXED) == nearest


def test_at_most_three_names_are_offered() -> None:
    assert len(nearest_names("pkg1", INDEXED)) == 3
    assert nearest_names("r", ["rich", "richer"]) == []  # one letter starts too much to mean it


def test_an_unknown_repository_is_a_usage_error_naming_the_nearest() -> None:
    error = RepositoryNotFoundError("rihc", known=INDEXED)
    message = str(error)
    assert "did you mean 'rich'?" in message
    assert "`graphrag-code repos` lists them" in message
    assert "pkg17" not in message  # 146 names are counted, not listed
    assert exit_code(error) == USAGE
    few = str(RepositoryNotFoundError("ghost", known=["shop"]))
    assert "(it holds shop)" in few
    assert "did you mean" not in few


# -- blank names -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["callers", ""],
        ["callees", "   "],
        ["impact", "\t"],
        ["path", "", "x"],
        ["explain", "x", " "],
        ["tests-for", ""],
        ["search", "orders", "--repo", ""],
        ["delete", "--repo", " "],
        ["embed", "--repo", ""],
        ["coverage", "import", "x.coverage", "--repo", " "],
        ["repos", ""],
    ],
)
def test_a_blank_name_exits_2_with_a_clear_message(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(argv)
    assert stop.value.code == USAGE
    assert "empty name" in capsys.readouterr().err


def test_a_name_is_kept_as_given() -> None:
    assert build_parser().parse_args(["callers", " Cls.m "]).name == " Cls.m "


# -- repos -------------------------------------------------------------------------------------
def _info(status: str = "complete", root: str | None = "/nowhere/rich") -> RepositoryInfo:
    return RepositoryInfo(
        name="rich", root=root, status=status, head="4adb414cafe0", files=80, symbols=1200,
        indexed_at=datetime(2026, 12, 7, 3, 0, tzinfo=timezone.utc),
        nodes={("python", "Module"): 78, ("markdown", "Module"): 2, ("python", "Function"): 900},
    )  # fmt: skip


def test_a_repository_row_says_its_state_and_vectors() -> None:
    row = describe(_info(), RepositorySize(nodes=1280, vectors=1280), (0, ()))
    assert (row.state, row.embeddings, row.changed_files) == ("complete", "present", 0)
    assert row.languages == {"python": 78, "markdown": 2}
    assert row.indexed_at == "2026-12-07T03:00:00+00:00"
    stale = describe(_info(), RepositorySize(1280, 700), (3, ("a.py", "b.py", "c.py")))
    assert (stale.state, stale.embeddings) == ("stale", "partial")
    interrupted = describe(_info("indexing"), RepositorySize(1280, 0), (3, ()))
    assert (interrupted.state, interrupted.embeddings) == ("indexing", "absent")
    unscanned = describe(_info(), None, None)
    assert (unscanned.state, unscanned.changed_files, unscanned.embeddings) == (
        "complete", None, "absent",
    )  # fmt: skip


def test_the_repos_table_shows_what_to_do() -> None:
    out = io.StringIO()
    rows = [
        describe(_info(), RepositorySize(8013, 5376), (3, ("a.py",))),
        describe(_info(root="/x/[bold]"), RepositorySize(10, 10), None),
    ]
    _print_table(Console(file=out, width=250, color_system=None), rows)
    text = out.getvalue()
    assert "stale: 3 file(s) changed" in text
    assert "partial 5,376/8,013" in text
    assert "complete (folder not here)" in text
    assert "/x/[bold]" in text  # a folder's name is not markup
    assert "graphrag-code embed --repo NAME" in text
    assert "graphrag-code index PATH --repo NAME" in text


# -- progress where stderr is not a terminal ---------------------------------------------------
class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_plain_progress_prints_each_stage_at_most_every_few_seconds() -> None:
    out, clock = io.StringIO(), _Clock()
    with PlainProgress(out, every_s=5.0, clock=clock) as progress:
        progress.stage("walking")
        clock.now += 0.4
        progress.stage("parsing", 3400)
        for _ in range(34):
            clock.now += 0.5  # 17 s of parsing, 100 files every half second
            progress.advance(100)
        progress.stage("writing edges", 0)
    lines = out.getvalue().splitlines()
    assert lines[:3] == ["walking …", "walking done in 0.4 s", "parsing: 3,400 to do"]
    periodic = [line for line in lines if line.startswith("parsing 1,") or "%)," in line]
    assert periodic == [
        "parsing 1,000/3,400 (29%), 5 s",
        "parsing 2,000/3,400 (59%), 10 s",
        "parsing 3,000/3,400 (88%), 15 s",
    ]
    assert "parsing done 3,400/3,400 (100%) in 17.0 s" in lines
    assert lines[-2:] == ["writing edges: 0 to do", "writing edges done in 0.0 s"]


def test_an_interrupted_stage_ends_as_stopped() -> None:
    out, clock = io.StringIO(), _Clock()
    progress = PlainProgress(out, clock=clock)
    progress.stage("embedding", 10)
    progress.advance(4)
    progress.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None)
    assert out.getvalue().splitlines()[-1] == "embedding stopped 4/10 (40%) in 0.0 s"


def test_the_reporter_follows_the_stream() -> None:
    assert isinstance(progress_for(io.StringIO()), PlainProgress)  # a file, a pipe: lines
    assert isinstance(progress_for(io.StringIO(), quiet=True), RichProgress)  # --json: silent


# -- small defects -----------------------------------------------------------------------------
def test_a_missing_revision_is_said_in_words(tmp_path: Path) -> None:
    author = {"user.name": "t", "user.email": "t@example.com"}
    git(tmp_path, "init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "first", config=author)
    for revisions in ("HEAD~1..HEAD", "HEAD~1", "HEAD..nope", "nope...HEAD"):
        with pytest.raises(InvalidArgumentError, match="does not exist") as missing:
            read_changes(tmp_path, DiffSpec(revisions=revisions))
        assert "1 commit)" in str(missing.value)
        assert "rev-parse" not in str(missing.value)


def test_code_keeps_its_first_lines_indentation() -> None:
    method = "def area(self):\n        return self.w * self.h"
    assert indented_code(method, "    def area(self):") == "    " + method
    assert indented_code(method, "def area(self):") == method  # a top-level function
    assert indented_code(method, "    x = 1") == method  # not where it starts: left alone
    assert indented_code(method, "    ") == method
    assert indented_code("  already", "  already") == "  already"
    assert indented_code(None, "    def f():") is None


def test_run_keeps_a_successful_installs_output_back() -> None:
    """`./run demo` printed setuptools' editable-install banner; a failing install must
    still show everything it printed."""
    run = (Path(__file__).parents[1] / "run").read_text()
    quietly = run[run.index("quietly() {") : run.index("\n}\n", run.index("quietly() {")) + 3]
    script = quietly + (
        'quietly sh -c "echo banner >&2; echo out"\n'
        'quietly sh -c "echo real error >&2; exit 3" || echo "status $?"\n'
    )
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True)
    assert "banner" not in done.stdout + done.stderr
    assert "out" not in done.stdout
    assert done.stderr == "real error\n"
    assert done.stdout == "status 3\n"
