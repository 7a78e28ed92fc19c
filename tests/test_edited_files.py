"""Files that change while a run reads them (issue 57, fault 1): what the parse stage records
comes from the bytes it parsed, never from what the walk saw earlier. The graph-level check (an
incremental run after edits equals a clean index) is in the failure matrix."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest

from graphrag_code import parsing
from graphrag_code.languages import language_named, languages, suffix_map
from graphrag_code.parsing import ModuleName, ParseJob, parse_files, walk_repository, walker
from graphrag_code.parsing.reading import RACY_NS, SourceBytes, read_source

SUFFIXES = suffix_map(languages())


def _job(root: Path, path: str, max_bytes: int = 1_000_000) -> ParseJob:
    (source,) = [f for f in walk_repository(root, languages=SUFFIXES).files if f.path == path]
    module = ModuleName(path.removesuffix(".py").replace("/", "."), False, "")
    return ParseJob(source, module, language_named("python").parser, max_bytes)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_file_rewritten_after_the_walk_is_filed_under_what_was_parsed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def old():\n    return 1\n")
    job = _job(tmp_path, "a.py")
    (tmp_path / "a.py").write_text("def new():\n    return 22\n")
    batch = parse_files([job])
    (parsed,) = batch.parsed
    assert [s.name for s in parsed.symbols if s.name != "a"] == ["new"]
    new_sha = _sha(b"def new():\n    return 22\n")
    assert parsed.sha256 == new_sha != job.source.sha256
    assert batch.read["a.py"].sha256 == new_sha
    assert batch.read["a.py"].size == len(b"def new():\n    return 22\n")


def test_a_skip_is_filed_under_the_bytes_it_was_decided_on_or_under_none(tmp_path: Path) -> None:
    for name in ("garbled.py", "gone.py", "binary.py", "grown.py", "fifo.py"):
        (tmp_path / name).write_text("x = 1\n")
    jobs = [_job(tmp_path, name) for name in ("garbled.py", "gone.py", "binary.py", "fifo.py")] + [
        _job(tmp_path, "grown.py", max_bytes=100)
    ]
    (tmp_path / "garbled.py").write_bytes(b"x = '\xff'\n")
    (tmp_path / "gone.py").unlink()
    (tmp_path / "binary.py").write_bytes(b"x = 1\x00\n")
    (tmp_path / "grown.py").write_text("x = 1\n" * 100)
    (tmp_path / "fifo.py").unlink()
    os.mkfifo(tmp_path / "fifo.py")  # swapped for a FIFO: skipped, never waited on
    batch = parse_files(jobs)
    reasons = {s.path: s.reason for s in batch.skipped}
    assert reasons["garbled.py"].startswith("not UTF-8")
    assert reasons["gone.py"].startswith("unreadable")
    assert reasons["binary.py"] == "binary file (NUL bytes)"  # as the walk would judge it
    assert reasons["grown.py"] == "larger than 100 bytes"
    assert reasons["fifo.py"].startswith("unreadable")
    assert batch.parsed == []
    # the verdicts on bytes read whole carry their hash; the others none (tried again)
    assert batch.read.keys() == {"garbled.py", "binary.py"}
    assert batch.read["garbled.py"].sha256 == _sha(b"x = '\xff'\n")


def test_a_modification_time_too_recent_to_trust_is_not_recorded(tmp_path: Path) -> None:
    """An edit in the same clock tick as the read keeps size and time: such a time must make
    the next walk hash the file again rather than trust it (git's "racily clean")."""
    fresh, settled = tmp_path / "fresh.py", tmp_path / "settled.py"
    fresh.write_text("x = 1\n")
    settled.write_text("x = 1\n")
    old = time.time_ns() - 2 * RACY_NS
    os.utime(settled, ns=(old, old))
    assert read_source(fresh, 100).mtime_ns == 0
    assert read_source(settled, 100).mtime_ns == old
    walked = {f.path: f.mtime_ns for f in walk_repository(tmp_path, languages=SUFFIXES).files}
    assert walked == {"fresh.py": 0, "settled.py": old}


def test_a_run_that_parses_every_file_reads_each_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full run's walk reads no source file (it has no state to compare hashes with): the
    parse stage reads each once and hashes what it parses."""
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(f"def {name[0]}():\n    return 1\n")
    reads: list[str] = []

    def counted(path: str | os.PathLike[str], max_bytes: int) -> SourceBytes:
        reads.append(Path(path).name)
        return read_source(path, max_bytes)

    monkeypatch.setattr(walker, "read_source", counted)
    monkeypatch.setattr(parsing, "read_source", counted)
    walked = walk_repository(tmp_path, languages=SUFFIXES, read_sources=False)
    assert [(f.path, f.sha256, f.size) for f in walked.files] == [
        ("a.py", "", 22),
        ("b.py", "", 22),
    ]
    assert reads == []
    jobs = [
        ParseJob(f, ModuleName(f.path[0], False, ""), language_named("python").parser)
        for f in walked.files
    ]
    batch = parse_files(jobs)
    assert sorted(reads) == ["a.py", "b.py"]
    assert {p.path: p.sha256 for p in batch.parsed} == {
        name: _sha((tmp_path / name).read_bytes()) for name in ("a.py", "b.py")
    }
