"""The one git helper (`runtime.git`): output as text, and each way git can fail named."""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import IO

import pytest

from graphrag_code.runtime.git import GitError, git, git_stream

AUTHOR = {"user.name": "t", "user.email": "t@example.com"}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "ünïcode.txt").write_text("hello\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "first", config=AUTHOR)
    return root


def test_output_comes_back_as_text_with_paths_as_they_are(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    assert head.ok
    assert len(head.stdout.strip()) == 40
    assert git(repo, "ls-files").stdout == "ünïcode.txt\n"  # never C-quoted
    missing = git(repo, "cat-file", "-e", "HEAD:./nothing", check=False)
    assert not missing.ok
    assert missing.returncode != 0


def test_each_failure_says_which(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(GitError, match="not in a git repository") as outside:
        git(tmp_path, "rev-parse", "HEAD")
    assert outside.value.reason == "not a repository"
    with pytest.raises(GitError, match="exit") as failed:
        git(repo, "rev-parse", "--verify", "no-such-branch")
    assert failed.value.reason == "failed"
    assert failed.value.stderr
    with pytest.raises(GitError, match="took over") as slow:
        git(repo, "wait", config={"alias.wait": "!sleep 3"}, timeout=0.5)
    assert slow.value.reason == "timeout"
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(GitError, match="not installed") as missing:
        git(repo, "status")
    assert missing.value.reason == "git missing"


def test_a_stream_is_read_as_it_comes(repo: Path) -> None:
    def names(stdout: IO[bytes]) -> list[str]:
        with tarfile.open(fileobj=stdout, mode="r|") as archive:
            return [member.name for member in archive]

    assert git_stream(repo, "archive", "--format=tar", "HEAD", read=names) == ["ünïcode.txt"]
    with pytest.raises(GitError) as failed:
        git_stream(repo, "archive", "--format=tar", "no-such-rev", read=lambda out: out.read())
    assert failed.value.reason == "failed"
