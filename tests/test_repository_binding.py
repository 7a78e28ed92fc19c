"""Offline: what "the same folder" means for a repository bound to its root, the refusal's
words, what a cross-repository pass reports it changed, and which provider keeps an
ambiguous package (issue 55). The graph side is in test_repository_moves.py."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from graphrag_code.errors import InvalidArgumentError, RepositoryRootError
from graphrag_code.graph.crossedges import (
    CrossEdgeChange,
    CrossEdgeKept,
    binding_changes,
    bindings_of,
)
from graphrag_code.graph.crossrepo import Provider, choose_provider
from graphrag_code.ingest.binding import refusal, same_folder
from graphrag_code.ingest.report import IngestReport, cross_repo_warnings


def test_the_same_folder_by_any_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "attrs"
    repo.mkdir()
    recorded = str(repo.resolve())
    assert same_folder(recorded, repo.resolve())
    monkeypatch.chdir(tmp_path)
    assert same_folder(recorded, Path("attrs").resolve())  # relative, resolved by the caller
    assert same_folder(recorded, Path("attrs/../attrs").resolve())
    (tmp_path / "link").symlink_to(repo)
    assert same_folder(recorded, (tmp_path / "link").resolve())
    # a recorded path that is now a link to the folder still leads there
    moved = tmp_path / "moved"
    repo.rename(moved)
    (tmp_path / "attrs").symlink_to(moved)
    assert same_folder(recorded, moved.resolve())


def test_a_copy_or_a_moved_checkout_is_another_folder(tmp_path: Path) -> None:
    repo = tmp_path / "attrs"
    (repo / "src").mkdir(parents=True)
    copy = tmp_path / "copy" / "attrs"  # the same folder name elsewhere
    shutil.copytree(repo, copy)
    assert not same_folder(str(repo), copy)
    assert not same_folder(str(repo), repo / "src")  # a subfolder is not the root
    repo.rename(tmp_path / "elsewhere")
    assert not same_folder(str(repo), tmp_path / "elsewhere")  # recorded one gone


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_refusal_names_both_folders_the_way_out_and_why(tmp_path: Path) -> None:
    original = tmp_path / "attrs"
    original.mkdir()
    (original / "a.py").write_text("x = 1\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "one"]):
        subprocess.run(["git", *args], cwd=original, check=True, env=env)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=original, capture_output=True, text=True, check=True
    ).stdout.strip()
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(original), str(clone)], check=True, env=env)

    error = refusal("attrs", str(original), clone, head=head)
    assert isinstance(error, InvalidArgumentError)  # exit 2 in the CLI
    text = str(error)
    for said in (str(original), str(clone), "--move", "move=True", "--repo NAME"):
        assert said in text
    assert "nothing was written" in text
    assert "the commit the graph was built from" in text  # a copy of the same checkout
    assert (error.repo, error.recorded, error.folder) == ("attrs", str(original), str(clone))

    shutil.rmtree(original)
    assert "no longer exists" in str(refusal("attrs", str(original), clone, head=head))
    assert isinstance(refusal("attrs", "/x", clone), RepositoryRootError)


def _bindings(*rows: tuple[str, str, str, int]) -> dict[tuple[str, str], dict[str, int]]:
    return bindings_of({"source": s, "package": p, "target": t, "edges": n} for s, p, t, n in rows)


def test_binding_changes_count_added_removed_and_moved_edges_of_other_repositories() -> None:
    before = _bindings(
        ("gc", "rich", "rich", 110), ("httpx", "rich", "rich", 28), ("rich2", "x", "xlib", 4)
    )
    after = _bindings(("gc", "rich", "rich2", 100), ("httpx", "rich", "rich", 30))
    changes = binding_changes(before, after, besides="rich2")
    assert changes == [
        CrossEdgeChange("gc", "rich", "rich2", 100),
        CrossEdgeChange("gc", "rich", None, 10),
        CrossEdgeChange("httpx", None, "rich", 2),
    ]
    assert [c.kind for c in changes] == ["moved", "removed", "added"]
    assert "moved from rich to rich2" in changes[0].describe()
    assert changes[1].as_dict() == {
        "repo": "gc", "kind": "removed", "from": "rich", "to": None, "edges": 10,
    }  # fmt: skip
    assert binding_changes(before, before) == []
    # the run's own edges are left out: rich2's edge into xlib went, unreported
    assert all(c.repo != "rich2" for c in changes)


def test_an_ambiguous_package_stays_with_the_provider_its_edges_are_bound_to() -> None:
    def library(repo: str) -> Provider:  # two copies with the same distribution name
        return Provider(repo, frozenset({"rich"}), frozenset({"rich"}), frozenset())

    user = Provider("gc", frozenset({"gc"}), frozenset({"gc"}), frozenset({"rich"}))
    copies = [library("rich"), library("rich2"), user]
    assert choose_provider("gc", "rich", copies) == (None, True)  # nothing bound: external
    assert choose_provider("gc", "rich", copies, bound="rich") == ("rich", True)  # kept
    assert choose_provider("gc", "rich", copies, bound="rich2") == ("rich2", True)
    # a binding to a repository that no longer provides the package keeps nothing
    assert choose_provider("gc", "rich", copies, bound="gone") == (None, True)
    # a declared choice outranks the binding, and one provider needs none
    fork = Provider("fork", frozenset({"rich"}), frozenset({"rich-fork"}), frozenset())
    declared = [library("rich"), fork, user]
    assert choose_provider("gc", "rich", declared, bound="fork") == ("rich", False)
    assert choose_provider("gc", "rich", [fork, user], bound="rich") == ("fork", False)


def test_a_report_says_what_it_did_to_other_repositories() -> None:
    report = IngestReport(repo="rich2", root="/tmp/rich2", moved_from="/src/rich2")
    report.cross_repo_changes = [CrossEdgeChange("httpx", "rich", None, 3)]
    report.cross_repo_kept = [CrossEdgeKept("gc", "rich", "rich", ("rich2",), 110)]
    said = cross_repo_warnings(report)
    assert said == [
        "rich2 moved from /src/rich2",
        "other repositories' cross edges changed: httpx: 3 edge(s) into rich removed "
        "(now external)",
        "ambiguous package: gc: 110 edge(s) into `rich` kept at rich (rich2 also provide(s) "
        "it; declare the dependency to choose)",
    ]
    cross = report.as_dict()["cross_repo"]
    assert cross["changes"] == [  # type: ignore[index]
        {"repo": "httpx", "kind": "removed", "from": "rich", "to": None, "edges": 3}
    ]
    assert report.as_dict()["moved_from"] == "/src/rich2"
