"""A repository bound to its root, and other repositories' cross edges said aloud (issue 55),
against a real Neo4j: `index` and `diff` from a git copy refuse and write nothing, `--move`
rebinds on purpose, and a second copy of a library neither steals nor cuts the edges a
service has into it. One indexed pair (tests/fixtures/crossrepo) serves the module; the
tests run in order and the last one deletes the library."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from graphrag_code.cli.main import main as cli_main
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.errors import RepositoryRootError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe

FIXTURES = Path(__file__).parent / "fixtures" / "crossrepo"
CROSS = 7  # the service's edges into the library (test_crossrepo.py lists them)
_GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@dataclass(frozen=True)
class Bound:
    client: Neo4jClient
    library: Path  # a git repository, indexed as billing_lib
    copy: Path  # a clone of it, in a folder of the same name
    base: Path


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, check=True, env={**os.environ, **_GIT_ENV})


@pytest.fixture(scope="module")
def bound(session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory) -> Bound:
    wipe(session_client)
    drop_search_indexes(session_client)
    embedder = HashingEmbedder()  # what the CLI runs with (`cli_env`)
    ensure_schema(session_client, SchemaConfig(dimensions=embedder.dimensions, model=embedder.name))
    base = tmp_path_factory.mktemp("moves")
    library = base / "billing_lib"
    shutil.copytree(FIXTURES / "billing_lib", library)
    _git(library, "init", "-q")
    _git(library, "add", ".")
    _git(library, "commit", "-qm", "library")
    copy = base / "copy" / "billing_lib"
    _git(base, "clone", "-q", str(library), str(copy))
    state = base / "state"
    build_graph(library, session_client, repo="billing_lib", state_dir=state)
    build_graph(FIXTURES / "service", session_client, repo="service", state_dir=state)
    return Bound(session_client, library, copy, base)


def _snapshot(client: Neo4jClient) -> list[dict[str, Any]]:
    """Each repository's node and what it holds: any write shows here."""
    return client.read(
        "MATCH (r:Repository) OPTIONAL MATCH (n:Code {repo: r.name}) "
        "OPTIONAL MATCH (n)-[e]->() "
        "RETURN r.name AS name, r.root AS root, r.state_token AS token, r.run AS run, "
        "toString(r.indexed_at) AS at, count(DISTINCT n) AS nodes, count(e) AS edges "
        "ORDER BY name"
    )


def _into_library(client: Neo4jClient, repo: str = "billing_lib") -> int:
    rows = client.read(
        "MATCH (:Code {repo: 'service'})-[r]->(t:Code) WHERE t.repo = $repo RETURN count(r) AS n",
        {"repo": repo},
    )
    return int(rows[0]["n"])


@pytest.mark.usefixtures("cli_env")
def test_index_and_diff_from_a_copy_refuse_and_write_nothing(
    bound: Bound, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _snapshot(bound.client)
    invoices = bound.copy / "src" / "billing_lib" / "invoices.py"
    invoices.write_text(invoices.read_text() + "\n\ndef copied() -> int:\n    return 1\n")
    capsys.readouterr()
    assert cli_main(["index", str(bound.copy), "--repo", "billing_lib"]) == 2
    said = " ".join(capsys.readouterr().err.split())
    for words in (str(bound.library), str(bound.copy), "--move", "--repo NAME"):
        assert words in said
    # `diff` in the git copy: the folder's name is the repository's
    assert cli_main(["diff", "--path", str(bound.copy)]) == 2
    assert "holds the commit the graph was built from" in " ".join(capsys.readouterr().err.split())
    graph = CodeGraph(Settings(embedder="hashing"), client=bound.client, embedder=HashingEmbedder())
    with pytest.raises(RepositoryRootError):
        graph.index(bound.copy, "billing_lib")
    with pytest.raises(RepositoryRootError):  # the stored root's changes are not the copy's
        graph.diff(path=bound.copy, update=False)
    assert _snapshot(bound.client) == before
    # the original folder, by a relative path through a symbolic link, is the same root
    (bound.base / "link").symlink_to(bound.library)
    monkeypatch.chdir(bound.base)
    assert graph.index(Path("link"), "billing_lib", embed=False).moved_from is None


@pytest.mark.usefixtures("cli_env")
def test_move_rebinds_the_name_on_purpose(bound: Bound, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert cli_main(["diff", "--path", str(bound.copy), "--move", "--json"]) == 0
    impact = json.loads(capsys.readouterr().out)
    assert f"billing_lib moved from {bound.library}" in impact["warnings"]
    graph = CodeGraph(Settings(embedder="hashing"), client=bound.client, embedder=HashingEmbedder())
    info = graph.reader.repository("billing_lib")
    assert info is not None
    assert info.root == str(bound.copy)
    copied = bound.client.read(  # the copy's code now
        "MATCH (n:Code {repo: 'billing_lib', qualified_name: 'billing_lib.invoices.copied'}) "
        "RETURN count(n) AS n"
    )
    assert copied[0]["n"] == 1
    assert _into_library(bound.client) == CROSS  # the service's edges followed the name
    # ...and back: from the original it is now the move that needs saying
    assert cli_main(["index", str(bound.library), "--repo", "billing_lib"]) == 2
    capsys.readouterr()
    code = ["index", str(bound.library), "--repo", "billing_lib", "--move", "--json"]
    assert cli_main([*code, "--no-embeddings"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["root"], report["moved_from"]) == (str(bound.library), str(bound.copy))


@pytest.mark.usefixtures("cli_env")
def test_a_second_copy_keeps_the_edges_and_every_change_is_said(
    bound: Bound, capsys: pytest.CaptureFixture[str]
) -> None:
    """Indexing a copy of a library (the same distribution name) under another name used to
    cut every edge the service had into the library; now the binding stays and is said,
    and deleting the library says where its edges went."""
    second = bound.base / "billing_copy"
    shutil.copytree(FIXTURES / "billing_lib", second)
    report = build_graph(second, bound.client, repo="billing_copy", state_dir=bound.base / "s2")
    assert _into_library(bound.client) == CROSS
    assert _into_library(bound.client, "billing_copy") == 0
    assert report.cross_repo_changes == []
    assert report.as_dict()["cross_repo"]["kept"] == [  # type: ignore[index]
        {
            "repo": "service",
            "package": "billing_lib",
            "into": "billing_lib",
            "also_provided_by": ["billing_copy"],
            "edges": CROSS,
        }
    ]
    capsys.readouterr()
    assert cli_main(["index", str(second), "--repo", "billing_copy", "--full"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"service: {CROSS} edge(s) into `billing_lib` kept at billing_lib" in out
    assert cli_main(["delete", "--repo", "billing_lib"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"service: {CROSS} edge(s) moved from billing_lib to billing_copy" in out
    assert _into_library(bound.client, "billing_copy") == CROSS
