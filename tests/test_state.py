"""The incremental state on disk: round trips, per-file bytes reused, unreadable files ignored."""

from __future__ import annotations

import pickle
from pathlib import Path

from graphrag_code.ingest.state import IndexState, StateStore, compact, packed, with_calls
from graphrag_code.model import CallSite, ParsedFile

SERVER, DATABASE = "bolt://127.0.0.1:7687", "neo4j"


def _parsed(path: str, module: str) -> ParsedFile:
    return ParsedFile(
        path=path, module=module, is_package=False, language="python", sha256="0" * 64, loc=3,
        code="x = f()\n", docstring=None,
        calls=(CallSite(module, ("f",), 1), CallSite(module, ("g", "h"), 2, ("g",))),
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
    calls = with_calls(loaded.parsed["a.py"], loaded.calls["a.py"]).calls
    assert calls == _parsed("a.py", "a").calls


def test_an_unchanged_file_is_saved_as_the_bytes_it_was_loaded_from(tmp_path: Path) -> None:
    StateStore(tmp_path).save(SERVER, DATABASE, _state(**{"a.py": _parsed("a.py", "a")}))
    loaded = StateStore(tmp_path).load(SERVER, DATABASE, "demo")
    assert loaded is not None
    kept_bytes = loaded.encoded["parsed"]["a.py"][1]
    changed = _parsed("b.py", "b")
    following = IndexState(
        repo="demo",
        token="t2",
        parsed={"a.py": loaded.parsed["a.py"], "b.py": compact(changed)[0]},
        links={},
        node_ids={"a.py": loaded.node_ids["a.py"], "b.py": ["demo:b"]},
        encoded=loaded.encoded,
    )
    StateStore(tmp_path).save(SERVER, DATABASE, following)
    assert following.encoded["parsed"]["a.py"][1] is kept_bytes  # copied, not pickled again
    assert pickle.loads(following.encoded["parsed"]["b.py"][1]) == compact(changed)[0]
    again = StateStore(tmp_path).load(SERVER, DATABASE, "demo")
    assert again == following


def test_an_unreadable_or_foreign_state_file_means_a_full_run(tmp_path: Path) -> None:
    store = StateStore(tmp_path)
    store.save(SERVER, DATABASE, _state(**{"a.py": _parsed("a.py", "a")}))
    (state_file,) = tmp_path.iterdir()
    assert StateStore(tmp_path).load(SERVER, DATABASE, "other-repo") is None
    state_file.write_bytes(state_file.read_bytes()[:100])  # truncated
    assert StateStore(tmp_path).load(SERVER, DATABASE, "demo") is None
    state_file.write_bytes(pickle.dumps(_state()))  # the previous format: one pickled state
    assert StateStore(tmp_path).load(SERVER, DATABASE, "demo") is None
