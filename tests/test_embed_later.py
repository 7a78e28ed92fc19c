"""`index --embed later` (issue 56), offline: the flag and its alias, the report and the note
on stderr that name the command filling the vectors in, and the warnings while vectors are
partial."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from rich.console import Console

from graphrag_code import api
from graphrag_code.cli.index_commands import print_report
from graphrag_code.cli.main import build_parser
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.graph.completeness import Completeness, answer_warnings, embed_command
from graphrag_code.ingest import embed_stage
from graphrag_code.ingest.report import IngestReport


@pytest.mark.parametrize(
    ("flags", "embed"),
    [([], "now"), (["--embed", "now"], "now"), (["--embed", "later"], "later"),
     (["--no-embeddings"], "later")],
)  # fmt: skip
def test_embed_later_and_its_alias_parse_to_the_same_choice(flags: list[str], embed: str) -> None:
    assert build_parser().parse_args(["index", ".", *flags]).embed == embed


def test_an_unknown_embed_choice_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        build_parser().parse_args(["index", ".", "--embed", "soon"])
    assert raised.value.code == 2
    assert "invalid choice: 'soon'" in capsys.readouterr().err


def test_embed_command_quotes_an_odd_repository_name() -> None:
    assert embed_command("rich") == "graphrag-code embed --repo rich"
    assert embed_command("my repo") == "graphrag-code embed --repo 'my repo'"


def test_a_run_without_embedding_records_what_is_left_and_how(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted: list[tuple[Any, str | None, str]] = []

    def count(client: Any, repo: str | None, embedder: HashingEmbedder) -> int:
        counted.append((client, repo, embedder.name))
        return pending

    monkeypatch.setattr(embed_stage, "count_pending", count)
    client, embedder = object(), HashingEmbedder()
    pending = 42
    report = IngestReport(repo="rich", root="/src/rich")
    api._embedding_left(client, report, embedder)  # type: ignore[arg-type]
    assert counted == [(client, "rich", embedder.name)]
    assert (report.vectors_pending, report.embed_command) == (42, "graphrag-code embed --repo rich")
    assert report.as_dict()["embed_command"] == "graphrag-code embed --repo rich"
    pending = 0  # every vector already up to date: nothing to run
    report = IngestReport(repo="rich", root="/src/rich")
    api._embedding_left(client, report, embedder)  # type: ignore[arg-type]
    assert (report.vectors_pending, report.embed_command) == (0, None)


@pytest.mark.parametrize("as_json", [False, True])
def test_the_report_says_on_stderr_what_fills_the_vectors_in(
    as_json: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    report = IngestReport(repo="rich", root="/src/rich", vectors_pending=3000)
    report.embed_command = embed_command("rich")
    out = io.StringIO()
    print_report(Console(file=out, width=100), report, as_json=as_json)
    err = " ".join(capsys.readouterr().err.split())
    assert "3000 code node(s) have no vector yet" in err
    assert "fill them in with `graphrag-code embed --repo rich`" in err
    assert "graphrag-code embed" not in out.getvalue() or as_json
    if as_json:
        assert json.loads(out.getvalue())["vectors_pending"] == 3000


def test_a_report_with_every_vector_says_nothing_about_embedding(
    capsys: pytest.CaptureFixture[str],
) -> None:
    print_report(Console(file=io.StringIO()), IngestReport(repo="rich", root="."), as_json=True)
    assert "graphrag-code embed" not in capsys.readouterr().err


def test_partial_vectors_while_the_stage_runs_say_so() -> None:
    partial = Completeness("rich", "complete", nodes=3000, vectors=1200)
    (warning,) = answer_warnings([partial], vectors=True)
    assert warning.kind == "vectors_partial"
    assert "interrupted or is still running" in warning.text
    assert answer_warnings([partial], vectors=False) == ()  # callers never warn of vectors
