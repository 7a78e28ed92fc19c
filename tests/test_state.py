"""The incremental state on disk: round trips, per-file bytes reused, unreadable files ignored."""

from __future__ import annotations

import errno
import os
import pickle
import tracemalloc
from dataclasses import replace
from pathlib import Path

import pytest

from graphrag_code.ingest import state as state_module
from graphrag_code.ingest.state import IndexState, StateStore, compact, packed, with_calls
from graphrag_code.languages.python.parser import PythonParser
from graphrag_code.linking.index import RepositoryIndex
from graphrag_code.model import CallSite, ImplicitCall, Name, ParsedFile

from .disk_faults import BrokenDisk

SERVER, DATABASE = "bolt://127.0.0.1:7687", "neo4j"


def _parsed(path: str, module: str) -> ParsedFile:
    return ParsedFile(
        path=path, module=module, is_package=False, language="python", sha256="0" * 64, loc=3,
        code="x = f()\n", docstring=None,
        calls=(CallSite(module, ("f",), 1), CallSite(module, ("g", "h"), 2, ("g",))),
        implicit_calls=(
            ImplicitCall(module, ("__enter__", "__exit__"), Name(("x",)), 3, 12, syntax="with"),
            ImplicitCall(module, ("size",), Name(("x",)), 3, 20, syntax=".", mode="get"),
        ),
    )  # fmt: skip


def _state(**parsed: ParsedFile) -> IndexState:
    compacted = {path: compact(file) for path, file in parsed.items()}
    return IndexState(
        repo="demo",
        token="t1",
        files={path: "sha" for path in parsed},
        parsed={path: stripped for path, (stripped, _) in compacted.items()},
        calls={path: raw for path, (_, raw) in compacted.items()},
        node_ids={path: [f"demo:{file.module}"] for path, file in parsed.items()},
        node_stats={
            path: packed({f"demo:{file.module}": {"pagerank": 0.5}})
            for path, file in parsed.items()
        },
    )


def test_a_saved_state_loads_back_equal(tmp_path: Path) -> None:
    state = _state(**{"a.py": _parsed("a.py", "a"), "b.py": _parsed("b.py", "b")})
    StateStore(tmp_path).save(SERVER, DATABASE, state)
    loaded = StateStore(tmp_path).load(SERVER, DATABASE, "demo")
    assert loaded == state
    assert loaded is not None
    assert loaded.parsed["a.py"].code == ""  # compacted: no source text
    assert loaded.parsed["a.py"].implicit_calls == ()  # kept pickled with the call sites
    restored = with_calls(loaded.parsed["a.py"], loaded.calls["a.py"])
    assert restored.calls == _parsed("a.py", "a").calls
    assert restored.implicit_calls == _parsed("a.py", "a").implicit_calls


def test_a_state_keeps_the_run_s_choices_and_reads_the_format_before_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`include_generated` and `languages` are what a refresh reads again; a state of format
    35, saved before `include_generated` was, loads as a run that skipped generated files."""
    state = replace(_state(), languages=("python",), include_generated=True)
    StateStore(tmp_path / "new").save(SERVER, DATABASE, state)
    loaded = StateStore(tmp_path / "new").load(SERVER, DATABASE, "demo")
    assert loaded is not None
    assert (loaded.languages, loaded.include_generated) == (("python",), True)
    old = replace(_state(), languages=("python",))
    del vars(old)["include_generated"]  # as a format-35 run pickled it
    monkeypatch.setattr(state_module, "_FORMAT", 35)
    StateStore(tmp_path / "old").save(SERVER, DATABASE, old)
    monkeypatch.undo()
    loaded = StateStore(tmp_path / "old").load(SERVER, DATABASE, "demo")
    assert loaded is not None
    assert (loaded.languages, loaded.include_generated) == (("python",), False)
    monkeypatch.setattr(state_module, "_FORMAT", 34)
    StateStore(tmp_path / "older").save(SERVER, DATABASE, state)
    monkeypatch.undo()
    assert StateStore(tmp_path / "older").load(SERVER, DATABASE, "demo") is None


def test_a_state_saved_early_is_in_place_only_once_committed(tmp_path: Path) -> None:
    """The run writes its state while the server still writes the graph: until the run
    commits it, the previous state is what a new run loads; a run that fails leaves no
    temporary file behind."""
    first = _state(**{"a.py": _parsed("a.py", "a")})
    StateStore(tmp_path).save(SERVER, DATABASE, first)
    second = replace(
        _state(**{"a.py": _parsed("a.py", "a"), "b.py": _parsed("b.py", "b")}), token="t2"
    )
    early = StateStore(tmp_path).save_early(SERVER, DATABASE, second)
    assert StateStore(tmp_path).load(SERVER, DATABASE, "demo") == first
    early.commit()
    early.discard()  # nothing once committed
    assert StateStore(tmp_path).load(SERVER, DATABASE, "demo") == second

    third = replace(second, token="t3")
    StateStore(tmp_path).save_early(SERVER, DATABASE, third).discard()
    assert StateStore(tmp_path).load(SERVER, DATABASE, "demo") == second
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS], ids=["ENOSPC", "EROFS"])
def test_a_disk_that_fills_or_turns_read_only_keeps_the_previous_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: int
) -> None:
    """Issue 57, fault 9: the error names the file and the cause; the previous state stays
    the one a new run loads, and no temporary file is left; a background save keeps the
    error for `wait` instead of killing its thread with a traceback."""
    first = _state(**{"a.py": _parsed("a.py", "a")})
    StateStore(tmp_path).save(SERVER, DATABASE, first)
    second = replace(first, token="t2")
    monkeypatch.setattr(state_module, "os", BrokenDisk(fault, room=64))
    with pytest.raises(OSError, match=os.strerror(fault)) as raised:
        StateStore(tmp_path).save_early(SERVER, DATABASE, second).commit()
    assert raised.value.errno == fault
    assert str(tmp_path) in str(raised.value.filename)
    store = StateStore(tmp_path)
    store.save(SERVER, DATABASE, second, background=True)
    failure = store.wait()
    assert failure is not None
    assert failure.errno == fault
    assert store.wait() is None  # reported once
    monkeypatch.undo()
    assert StateStore(tmp_path).load(SERVER, DATABASE, "demo") == first
    assert [p.name for p in tmp_path.iterdir() if ".tmp" in p.name] == []


def _next(loaded: IndexState, changed: ParsedFile) -> IndexState:
    """The state a run that parsed `changed` anew would save after `loaded`."""
    return IndexState(
        repo="demo",
        token="t2",
        parsed={"a.py": loaded.parsed["a.py"], changed.path: compact(changed)[0]},
        links={},
        node_ids={"a.py": loaded.node_ids["a.py"], changed.path: [f"demo:{changed.module}"]},
        encoded=loaded.encoded,
    )


def _pickled(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The values `state.packed` pickles from now on."""
    seen: list[object] = []

    def counting(value: object) -> bytes:
        seen.append(value)
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)

    monkeypatch.setattr(state_module, "packed", counting)
    return seen


def test_an_unchanged_file_is_saved_as_the_bytes_it_was_loaded_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    StateStore(tmp_path).save(SERVER, DATABASE, _state(**{"a.py": _parsed("a.py", "a")}))
    loaded = StateStore(tmp_path).load(SERVER, DATABASE, "demo")
    assert loaded is not None
    assert loaded.encoded is not None
    changed = _parsed("b.py", "b")
    following = _next(loaded, changed)
    pickled = _pickled(monkeypatch)
    StateStore(tmp_path).save(SERVER, DATABASE, following)
    assert loaded.parsed["a.py"] not in pickled  # copied from the file, not pickled again
    assert loaded.node_ids["a.py"] not in pickled
    assert compact(changed)[0] in pickled
    again = StateStore(tmp_path).load(SERVER, DATABASE, "demo")
    assert again == following
    assert again is not None
    assert again.parsed["a.py"] == loaded.parsed["a.py"]


def test_bytes_are_not_copied_from_a_state_file_another_process_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = StateStore(tmp_path)
    store.save(SERVER, DATABASE, _state(**{"a.py": _parsed("a.py", "a")}))
    loaded = StateStore(tmp_path).load(SERVER, DATABASE, "demo")
    assert loaded is not None
    # meanwhile another process saves a state with other files in front: the offsets that
    # `loaded` remembers point at other bytes in this file
    StateStore(tmp_path).save(
        SERVER, DATABASE, _state(**{"0.py": _parsed("0.py", "zero"), "a.py": _parsed("a.py", "a")})
    )
    pickled = _pickled(monkeypatch)
    following = _next(loaded, _parsed("b.py", "b"))
    StateStore(tmp_path).save(SERVER, DATABASE, following)
    assert loaded.parsed["a.py"] in pickled  # pickled afresh: the file is not the one it read
    assert StateStore(tmp_path).load(SERVER, DATABASE, "demo") == following


def test_saving_and_loading_hold_one_file_of_bytes_at_a_time(tmp_path: Path) -> None:
    """Each file's bytes go to disk before the next file is pickled, and a load unpickles
    them one at a time: 20 files of 1 MB each never cost 20 MB of bytes at once."""
    files = {
        f"m{i}.py": replace(_parsed(f"m{i}.py", f"m{i}"), docstring=f"{i}" * 1_000_000)
        for i in range(20)
    }
    state = _state(**files)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        StateStore(tmp_path).save(SERVER, DATABASE, state)
        saving = tracemalloc.get_traced_memory()[1] - before
        tracemalloc.reset_peak()
        loaded = StateStore(tmp_path).load(SERVER, DATABASE, "demo")
        loading = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert loaded == state
    # holding every file's bytes at once measured 31 MB saving and 90 MB loading (the 20 MB
    # of docstrings loaded, their 20 MB of bytes twice over); one at a time, 5 and 32 MB
    assert saving < 12_000_000, saving
    assert loading < 45_000_000, loading


def test_an_unreadable_or_foreign_state_file_means_a_full_run(tmp_path: Path) -> None:
    store = StateStore(tmp_path)
    store.save(SERVER, DATABASE, _state(**{"a.py": _parsed("a.py", "a")}))
    (state_file,) = tmp_path.iterdir()
    assert StateStore(tmp_path).load(SERVER, DATABASE, "other-repo") is None
    state_file.write_bytes(state_file.read_bytes()[:100])  # truncated
    assert StateStore(tmp_path).load(SERVER, DATABASE, "demo") is None
    state_file.write_bytes(pickle.dumps(_state()))  # the previous format: one pickled state
    assert StateStore(tmp_path).load(SERVER, DATABASE, "demo") is None


def test_a_kept_parse_gives_the_lookup_tables_what_its_flows_give() -> None:
    """What a file uses as values (and which of them are bound methods) is worked out once,
    when its parse is kept: the lookup tables built from kept parses hold the same names as
    those built from fresh ones."""
    source = (
        b"from handlers import on_save, on_load\n"
        b"HANDLERS = {'save': on_save, 'load': on_load}\n"
        b"def run(callback=default_hook):\n"
        b"    register(callback, helpers.retry)\n"
        b"    return make()()\n"
        b"def later(store):\n"
        b"    return [store.save, make().load]\n"
    )
    fresh = PythonParser().parse(
        path="app.py", module="app", is_package=False, source=source, sha256="0" * 64
    )
    kept, _calls = compact(fresh)
    assert (fresh.value_references, fresh.bound_references) == (None, None)
    assert kept.value_references == (
        "callback", "default_hook", "load", "on_load", "on_save", "retry", "save",
    )  # fmt: skip
    # bound: taken off a name (`make().load` is taken off a call, which no resolver names)
    assert kept.bound_references == (
        ("retry", "app.run", ("helpers",)),
        ("save", "app.later", ("store",)),
    )
    assert RepositoryIndex([kept]).value_names == RepositoryIndex([fresh]).value_names
    assert RepositoryIndex([kept]).bound_references == RepositoryIndex([fresh]).bound_references


def test_a_state_read_in_two_steps_equals_one_read_whole(tmp_path: Path) -> None:
    """The header first (what a run needs to see that nothing changed), the parses, links and
    node ids only when asked for; the second step refuses a file replaced in between, and a
    state whose parses were never read cannot be saved in place of the whole one."""
    state = _state(**{"a.py": _parsed("a.py", "a"), "b.py": _parsed("b.py", "b")})
    StateStore(tmp_path).save(SERVER, DATABASE, state)
    header = StateStore(tmp_path).load(SERVER, DATABASE, "demo", files=False)
    assert header is not None
    assert (header.files, header.parsed, header.links, header.node_ids) == (state.files, {}, {}, {})
    with pytest.raises(ValueError, match="cannot be saved"):
        StateStore(tmp_path).save(SERVER, DATABASE, header)
    assert StateStore(tmp_path).read_files(header) == state
    assert header.parsed.keys() == {"a.py", "b.py"}

    stale = StateStore(tmp_path).load(SERVER, DATABASE, "demo", files=False)
    assert stale is not None
    StateStore(tmp_path).save(SERVER, DATABASE, _state(**{"c.py": _parsed("c.py", "c")}))
    assert StateStore(tmp_path).read_files(stale) is None
