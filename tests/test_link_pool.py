"""Linking on several processes (`ingest/link_pool.py`): shares, forks and order."""

from __future__ import annotations

import os

import pytest

from graphrag_code.ingest import link_pool
from graphrag_code.linking.edges import FileLinks


def test_shares_are_runs_of_neighbours_of_about_equal_weight() -> None:
    assert link_pool.shares(["a", "b", "c", "d"], [3, 1, 1, 1], 2) == [["a"], ["b", "c", "d"]]
    assert link_pool.shares(["a", "b", "c", "d"], [1, 1, 1, 1], 2) == [["a", "b"], ["c", "d"]]
    assert link_pool.shares(["a", "b"], [1, 1], 3) == [["a"], ["b"], []]


def _pid_of(links: FileLinks) -> str:
    return links.path.split("@")[1]


def test_files_are_linked_in_other_processes_and_come_back_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    monkeypatch.setattr(link_pool, "MIN_FILES_PER_WORKER", 2)
    advanced: list[int] = []

    def link(path: str) -> FileLinks:
        time.sleep(0.2)  # a child started first would otherwise steal every share
        return FileLinks(path=f"{path}@{os.getpid()}")

    cuts: list[int] = []
    real_shares = link_pool.shares

    def counted(paths: list[str], weights: list[int], parts: int) -> list[list[str]]:
        if parts != link_pool.CHUNKS_PER_SHARE:  # not a share cut into chunks
            cuts.append(parts)
        return real_shares(paths, weights, parts)

    monkeypatch.setattr(link_pool, "shares", counted)
    paths = [f"m{i}.py" for i in range(6)]
    links = link_pool.link_in_processes(paths, [1] * 6, link, workers=3, advance=advanced.append)
    assert list(links) == paths
    assert [links[p].path.split("@")[0] for p in paths] == paths
    pids = {_pid_of(links[p]) for p in paths}
    # every share goes to a forked child: linking's shared results never grow this process
    assert str(os.getpid()) not in pids
    assert len(pids) == 3
    assert sum(advanced) == 6
    # no more shares than runs of MIN_FILES_PER_WORKER files; one process below two of them
    link_pool.link_in_processes(paths, [1] * 6, link, workers=8, advance=advanced.append)
    alone = link_pool.link_in_processes(
        paths[:3], [1] * 3, link, workers=2, advance=advanced.append
    )
    assert cuts == [3, 3]
    assert {_pid_of(found) for found in alone.values()} == {str(os.getpid())}


def _dies(*_args: object) -> None:
    os._exit(9)  # runs in a child only


def test_a_child_that_dies_has_its_share_linked_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked child killed before sending anything (the out-of-memory killer): its files
    are linked by this process instead of the index ending with a traceback."""
    monkeypatch.setattr(link_pool, "MIN_FILES_PER_WORKER", 2)
    monkeypatch.setattr(link_pool, "_link_share", _dies)
    paths = [f"m{i}.py" for i in range(6)]
    advanced: list[int] = []

    def link(path: str) -> FileLinks:
        return FileLinks(path=f"{path}@{os.getpid()}")

    links = link_pool.link_in_processes(paths, [1] * 6, link, workers=3, advance=advanced.append)
    assert list(links) == paths
    assert {_pid_of(found) for found in links.values()} == {str(os.getpid())}
    assert sum(advanced) == 6


def test_a_child_that_dies_midway_keeps_what_it_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Links a child sent before it died are kept; only the rest of its share is linked
    here, once each."""
    monkeypatch.setattr(link_pool, "MIN_FILES_PER_WORKER", 2)
    monkeypatch.setattr(link_pool, "SEND_EVERY", 1)
    parent = os.getpid()
    paths = [f"m{i}.py" for i in range(6)]
    advanced: list[int] = []
    linked_here: list[str] = []

    def link(path: str) -> FileLinks:
        if os.getpid() == parent:
            linked_here.append(path)
        elif path == "m4.py":
            os._exit(9)  # the second share (m3, m4, m5) dies after sending m3
        return FileLinks(path=f"{path}@{os.getpid()}")

    links = link_pool.link_in_processes(paths, [1] * 6, link, workers=2, advance=advanced.append)
    assert list(links) == paths
    # m5 is linked here, or by the first child if it stole it before the second one died
    assert linked_here in (["m4.py", "m5.py"], ["m4.py"])
    assert _pid_of(links["m3.py"]) != str(parent)
    assert {_pid_of(links[p]) for p in paths[:3]} != {str(parent)}
    assert sum(advanced) == 6


def test_a_child_done_with_its_share_takes_the_rest_of_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Weights misjudge how long files take: a child that finishes early steals the last
    chunks of a slower share, so neither core waits for the other."""
    import time

    monkeypatch.setattr(link_pool, "MIN_FILES_PER_WORKER", 2)
    monkeypatch.setattr(link_pool, "SEND_EVERY", 1)
    paths = [f"m{i}.py" for i in range(8)]

    def link(path: str) -> FileLinks:
        if int(path[1]) >= 4:  # the second share is much slower than its weights say
            time.sleep(0.3)
        return FileLinks(path=f"{path}@{os.getpid()}")

    links = link_pool.link_in_processes(paths, [1] * 8, link, workers=2, advance=lambda _n: None)
    assert list(links) == paths
    first = _pid_of(links["m0.py"])
    assert {_pid_of(links[p]) for p in paths[:4]} == {first}
    # the first child took the last of the second share, from its back
    assert _pid_of(links["m7.py"]) == first
    assert _pid_of(links["m4.py"]) != first


def test_a_file_that_fails_to_link_fails_here_without_a_childs_traceback(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """An error linking one file ends its child quietly; the parent links the rest of that
    share and meets the error itself, as a one-process run would."""
    monkeypatch.setattr(link_pool, "MIN_FILES_PER_WORKER", 2)
    parent = os.getpid()
    tried_here: list[str] = []

    def link(path: str) -> FileLinks:
        if os.getpid() == parent:
            tried_here.append(path)
        if path == "m4.py":
            raise ValueError("cannot link m4.py")
        return FileLinks(path=f"{path}@{os.getpid()}")

    paths = [f"m{i}.py" for i in range(6)]
    with pytest.raises(ValueError, match=r"cannot link m4\.py"):
        link_pool.link_in_processes(paths, [1] * 6, link, workers=2, advance=lambda _n: None)
    # what no child sent, in order, up to the error (a child that stole m4 lost its own too)
    assert tried_here[-1] == "m4.py"
    assert tried_here == sorted(tried_here)
    assert "Traceback" not in capfd.readouterr().err
