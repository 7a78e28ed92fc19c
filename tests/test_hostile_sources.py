"""Sources built to exhaust the parser (issue 57, faults 4 and 7): each is kept in part, with
an issue that says why, in a bounded time, and its records pickle (the state writer and the
parse pool pickle them; 500 stacked decorators crashed every run)."""

from __future__ import annotations

import pickle
import time
from pathlib import Path

import pytest

from graphrag_code.ingest.offline import link_repository
from graphrag_code.ingest.state import compact
from graphrag_code.parsing import budget
from graphrag_code.parsing.treesitter import MAX_DEPTH

HOSTILE = {
    # 500 stacked decorators: CPython accepts the file (its own limit is near 300-350 levels
    # of nesting for the compiler, not for decorators)
    "decorators.py": "def d(f):\n    return f\n\n\n" + "@d\n" * 500 + "def g():\n    return 1\n",
    # a 400 KB sum: 255 s to parse before
    "plus.py": "def f():\n    return " + "+".join(["1"] * 200_000) + "\n",
    # g(g(...)) 20,000 deep, 60 KB: 49 s
    "nested.py": "def g(x):\n    return x\n\n\ny = " + "g(" * 20_000 + "1" + ")" * 20_000 + "\n",
    # (on many lines: one line that long is skipped as minified)
    "nested.ts": "function g(x: number) {\n  return x;\n}\nconst y =\n"
    + "g(\n" * 20_000
    + "1"
    + ")\n" * 20_000
    + ";\n",
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    for name, text in HOSTILE.items():
        (root / name).write_text(text)
    (root / "ok.py").write_text("from decorators import g\n\n\ndef main():\n    return g()\n")
    return root


def test_hostile_files_are_kept_in_part_in_seconds(hostile: Path) -> None:
    started = time.perf_counter()
    linked = link_repository(hostile)
    assert time.perf_counter() - started < 20  # was 255 s + 49 s + a crash
    assert linked.skipped == []
    issues = {path: [i.message for i in f.issues] for path, f in linked.parsed.items()}
    deep = f"nested deeper than {MAX_DEPTH} levels: read in part"
    assert issues["plus.py"] == [deep]
    assert issues["nested.py"] == [deep]
    assert [i for i in issues["nested.ts"] if i != deep] == []  # and syntax errors: none
    assert deep in issues["nested.ts"]
    assert issues["decorators.py"] == [
        "500 stacked decorators: the value of the outer 64 followed, not what the others make"
    ]
    assert issues["ok.py"] == []
    # what lies above the cut is read: the definitions, and calls near the top
    assert {s.name for s in linked.parsed["nested.py"].symbols} >= {"g"}
    calls = {(e.source, e.target) for e in linked.edges() if e.kind.value == "CALLS"}
    assert {("repo:ok.main", "repo:decorators.g"), ("repo:nested", "repo:nested.g")} <= calls


def test_hostile_records_pickle_for_the_state_and_the_parse_pool(hostile: Path) -> None:
    linked = link_repository(hostile)
    for path, parsed in linked.parsed.items():
        pickle.loads(pickle.dumps(parsed))  # what the parse pool sends back
        pickle.dumps(compact(parsed))  # what the state writer keeps
        pickle.dumps(linked.links[path])


def test_a_file_past_its_time_budget_keeps_its_definitions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The time half of the budget: value flow stops when the file's seconds are spent."""
    monkeypatch.setattr(budget, "PARSE_SECONDS", 0.0)
    (tmp_path / "m.py").write_text("def f():\n    return g()\n\n\ndef g():\n    x = 1\n")
    parsed = link_repository(tmp_path).parsed["m.py"]
    assert [i.message for i in parsed.issues] == [
        "value flow cut after the 0 s parse budget: kept in part"
    ]
    assert {s.name for s in parsed.symbols} >= {"f", "g"}
    assert parsed.flows == ()
