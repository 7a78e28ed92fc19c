"""The repository walker: what is indexed, what is skipped, and why."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

import pytest

from graphrag_code.ingest.dependencies import ProjectNames, project_names
from graphrag_code.languages import languages, suffix_map
from graphrag_code.parsing import WalkResult, walk_repository

LANGUAGES = suffix_map(languages())


def _write(path: Path, text: str | bytes = "x = 1\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)


def test_walk_skips_ignored_virtualenv_build_and_reports_reasons(tmp_path: Path) -> None:
    _write(tmp_path / "pkg" / "__init__.py")
    _write(tmp_path / "pkg" / "core.py")
    _write(tmp_path / "pkg" / "generated.py")
    _write(tmp_path / ".gitignore", "generated.py\n/ignored_dir/\n")
    _write(tmp_path / "ignored_dir" / "x.py")
    _write(tmp_path / "pkg" / "sub" / ".gitignore", "local_*.py\n")
    _write(tmp_path / "pkg" / "sub" / "local_secret.py")
    _write(tmp_path / "pkg" / "sub" / "kept.py")
    _write(tmp_path / "myenv" / "pyvenv.cfg", "home = /usr\n")
    _write(tmp_path / "myenv" / "lib" / "site.py")
    _write(tmp_path / "build" / "lib" / "copy.py")
    _write(tmp_path / "node_modules" / "x.py")
    for folder in ("target", "vendor", ".gradle"):  # Rust/Maven, Go, Gradle
        _write(tmp_path / folder / "x.py")
    _write(tmp_path / "README.md", "# not python")
    _write(tmp_path / ".git" / "info" / "exclude", "pkg/excluded_locally.py\n")
    _write(tmp_path / "pkg" / "excluded_locally.py")
    result = walk_repository(tmp_path, languages=LANGUAGES)
    paths = sorted(f.path for f in result.files)
    assert paths == ["pkg/__init__.py", "pkg/core.py", "pkg/sub/kept.py"]
    reasons = {s.path: s.reason for s in result.skipped_dirs}
    assert reasons["myenv"] == "virtualenv"
    assert "build" in reasons
    assert "node_modules" in reasons
    assert {"target", "vendor", ".gradle"} <= reasons.keys()


def test_walk_never_follows_symlinks_and_survives_loops(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    _write(outside / "secret.py")
    repo = tmp_path / "repo"
    _write(repo / "real.py")
    os.symlink(outside, repo / "linked_dir")
    os.symlink(repo, repo / "loop")
    os.symlink(outside / "secret.py", repo / "linked_file.py")
    os.symlink(repo / "missing.py", repo / "dangling.py")
    os.symlink(repo / "self_a.py", repo / "self_b.py")
    os.symlink(repo / "self_b.py", repo / "self_a.py")
    result = walk_repository(repo, languages=LANGUAGES)
    assert [f.path for f in result.files] == ["real.py"]
    skipped = {s.path: s.reason for s in result.skipped}
    assert "symlink to" in skipped["linked_file.py"]
    assert "broken or looping" in skipped["dangling.py"]
    assert "broken or looping" in skipped["self_a.py"]
    dirs = {s.path: s.reason for s in result.skipped_dirs}
    assert "symlinked directory" in dirs["linked_dir"]
    assert "symlinked directory" in dirs["loop"]


def test_walk_skips_binary_and_oversized_files(tmp_path: Path) -> None:
    _write(tmp_path / "ok.py")
    _write(tmp_path / "blob.py", b"\x00\x01binary")
    _write(tmp_path / "huge.py", "x = 1\n" * 1000)
    result = walk_repository(tmp_path, languages=LANGUAGES, max_bytes=1000)
    assert [f.path for f in result.files] == ["ok.py"]
    reasons = {s.path: s.reason for s in result.skipped}
    assert reasons["blob.py"].startswith("binary")
    assert reasons["huge.py"].startswith("larger than 1000 bytes")


def test_files_carry_sha256(tmp_path: Path) -> None:
    import hashlib

    _write(tmp_path / "a.py", "print('a')\n")
    (source,) = walk_repository(tmp_path, languages=LANGUAGES).files
    assert source.sha256 == hashlib.sha256(b"print('a')\n").hexdigest()


def test_extension_less_scripts_are_routed_by_their_shebang(tmp_path: Path) -> None:
    _write(tmp_path / "bin" / "tool", "#!/usr/bin/env python3\nprint('hi')\n")
    _write(tmp_path / "bin" / "other", "#!/usr/bin/python3.11 -u\nprint('hi')\n")
    _write(tmp_path / "bin" / "shell", "#!/bin/sh\necho hi\n")
    _write(tmp_path / "Makefile", "all:\n\techo hi\n")
    result = walk_repository(tmp_path, languages=LANGUAGES, interpreters={"python": "python"})
    assert {f.path: f.language for f in result.files} == {
        "bin/other": "python",
        "bin/tool": "python",
    }


def test_coverage_reports_are_skipped_but_a_coverage_package_is_not(tmp_path: Path) -> None:
    _write(tmp_path / "coverage" / "__init__.py")
    _write(tmp_path / "web" / "coverage" / "lcov.info", "TN:\n")
    _write(tmp_path / "web" / "coverage" / "lcov-report" / "prettify.py")
    result = walk_repository(tmp_path, languages=LANGUAGES)
    assert [f.path for f in result.files] == ["coverage/__init__.py"]
    assert {s.path: s.reason for s in result.skipped_dirs} == {"web/coverage": "coverage report"}


def test_a_go_package_named_build_is_walked_but_build_output_is_not(tmp_path: Path) -> None:
    _write(tmp_path / "go.mod", "module example.com/m\n")
    _write(tmp_path / "internal" / "build" / "build.go", "package main\n")
    _write(tmp_path / "web" / "build" / "bundle.py")
    _write(tmp_path / "vendor" / "x" / "x.go", "package x\n")
    result = walk_repository(tmp_path, languages=LANGUAGES)
    assert [f.path for f in result.files] == ["internal/build/build.go"]
    assert {s.path for s in result.skipped_dirs} == {"web/build", "vendor"}


def test_project_files_are_collected_apart(tmp_path: Path) -> None:
    _write(tmp_path / "a.py")
    _write(tmp_path / "web" / "tsconfig.json", "{}")
    _write(tmp_path / "node_modules" / "x" / "tsconfig.json", "{}")
    result = walk_repository(
        tmp_path, languages=LANGUAGES, project_files=frozenset({"tsconfig.json"})
    )
    assert [f.path for f in result.files] == ["a.py"]
    assert [f.path for f in result.project] == ["web/tsconfig.json"]


# -- only regular files are ever opened (issue 57, item 3) -------------------------------------
def _walk_within(root: Path, seconds: float, fifos: list[Path]) -> WalkResult:
    """The walk of `root`, or a failure when it has not ended within `seconds` (a blocked
    open of one of `fifos` is then released, so the test fails instead of hanging)."""
    done: list[WalkResult] = []
    thread = threading.Thread(
        target=lambda: done.append(
            walk_repository(root, languages=LANGUAGES, interpreters={"python": "python"})
        ),
        daemon=True,
    )
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        for fifo in fifos:  # a writer releases a reader blocked in open()
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(5)
        pytest.fail(f"the walk of {root} did not end within {seconds} s")
    return done[0]


def test_an_extension_less_fifo_is_never_opened(tmp_path: Path) -> None:
    """Before: the shebang sniff opened `bin/run` (a FIFO) and the walk hung forever; a
    `.gitignore` that is a FIFO hung it the same way."""
    _write(tmp_path / "bin" / "tool", "#!/usr/bin/env python3\nprint('hi')\n")
    fifos = [tmp_path / "bin" / "run", tmp_path / ".gitignore", tmp_path / "bin" / ".gitignore"]
    for fifo in fifos:
        os.mkfifo(fifo)
    (tmp_path / "bin" / "linked").symlink_to(fifos[0])
    result = _walk_within(tmp_path, 10, fifos)
    assert [f.path for f in result.files] == ["bin/tool"]


def test_walking_dev_ends_at_once() -> None:
    """`index /dev` hung (the sniff opened devices, `/dev/stdin` among them); `/proc` took
    9.8 s here once fixed, too slow for the suite."""
    if not Path("/dev").is_dir():
        pytest.skip("no /dev here")
    result = _walk_within(Path("/dev"), 20, [])
    assert result.files == []


def test_names_that_are_not_utf8_are_skipped_and_reported(tmp_path: Path) -> None:
    """Issue 57, item 5: one such name (a lone surrogate in Python) made a repository
    impossible to index: no Neo4j string can hold it."""
    _write(tmp_path / "pkg" / "ok.py")
    try:
        _write(Path(os.fsdecode(bytes(tmp_path) + b"/pkg/caf\xe9.py")))
        _write(Path(os.fsdecode(bytes(tmp_path) + b"/t\xe9sts/test_x.py")))
    except OSError:  # a file system that takes UTF-8 names only
        pytest.skip("this file system refuses names that are not UTF-8")
    result = walk_repository(tmp_path, languages=LANGUAGES)
    assert [f.path for f in result.files] == ["pkg/ok.py"]
    assert [(s.path, s.reason) for s in result.skipped] == [
        ("pkg/caf\\xe9.py", "name is not valid UTF-8")
    ]
    assert ("t\\xe9sts", "name is not valid UTF-8") in {
        (s.path, s.reason) for s in result.skipped_dirs
    }


def test_a_fifo_manifest_is_not_read(tmp_path: Path) -> None:
    """The project's manifests are read through the same door: a FIFO named pyproject.toml
    blocked the run's cross-repository step."""
    os.mkfifo(tmp_path / "pyproject.toml")
    (tmp_path / "package.json").write_text('{"name": "shop-ui", "dependencies": {"x": "1"}}')
    done: list[ProjectNames] = []
    thread = threading.Thread(target=lambda: done.append(project_names(tmp_path)), daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive():
        with contextlib.suppress(OSError):
            os.close(os.open(tmp_path / "pyproject.toml", os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading the project's names blocked on a FIFO")
    assert done[0].distributions == {"shop-ui"}


def test_the_watcher_follows_a_go_package_named_build_as_the_walker_does(tmp_path: Path) -> None:
    from datetime import datetime, timedelta

    from graphrag_code.ingest.watch import changed_since, relevant_change

    package = tmp_path / "internal" / "build"
    package.mkdir(parents=True)
    (package / "build.go").write_text('package build\n\nfunc Version() string { return "1" }\n')
    output = tmp_path / "build"
    output.mkdir()
    (output / "generated.py").write_text("X = 1\n")
    assert relevant_change(str(package / "build.go"), tmp_path)
    assert not relevant_change(str(output / "generated.py"), tmp_path)
    count, sample = changed_since(tmp_path, datetime.now() - timedelta(hours=1)) or (0, ())
    assert (count, sample) == (1, ("internal/build/build.go",))
