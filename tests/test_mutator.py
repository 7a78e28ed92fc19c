"""The mutant benchmark's mutator (issue 54): one line of one function body per mutant,
docstrings and signatures untouched, every mutant compiles, the sample is seeded."""

from __future__ import annotations

import pytest

from benchmarks.impact.mutator import apply, mutants_of, pick

SOURCE = '''"""Module docstring."""
LIMIT = 3


def clamp(value: int, low: int = 0) -> int:
    """Keep value in range."""
    if value < low:
        value = low
    total = value + 1
    return total


class Box:
    def size(self):
        return len(self.items) == 2
'''


def _by_operator() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for mutant in mutants_of(SOURCE, "m.py"):
        found.setdefault(mutant.operator, set()).add(mutant.new.strip())
    return found


def test_each_operator_rewrites_one_body_line() -> None:
    found = _by_operator()
    assert found["comparison"] == {"if value >= low:", "return len(self.items) != 2"}
    assert found["negate"] == {"if not (value < low):"}
    assert found["constant"] == {"total = value + 2", "return len(self.items) == 3"}
    assert found["drop"] == {"pass"}
    assert found["return-none"] == {"return None"}


def test_docstrings_signatures_and_module_level_are_left_alone() -> None:
    mutants = mutants_of(SOURCE, "m.py")
    touched = {m.line for m in mutants}
    assert touched == {7, 8, 9, 10, 15}  # not the docstring (6), the def (5), LIMIT (2)
    assert {m.function for m in mutants} == {"clamp", "Box.size"}


def test_every_mutant_compiles_and_applies_to_its_line_only() -> None:
    for mutant in mutants_of(SOURCE, "m.py"):
        after = apply(SOURCE, mutant).splitlines()
        before = SOURCE.splitlines()
        assert [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b] == [
            mutant.line - 1
        ]
        compile("\n".join(after), "m.py", "exec")


def test_a_loop_condition_is_negated_and_a_module_that_does_not_parse_has_none() -> None:
    source = "def f(x):\n    while x > 0:\n        x -= 1\n    return x\n"
    lines = {m.new.strip() for m in mutants_of(source, "f.py")}
    assert {"while not (x > 0):", "while x <= 0:", "pass", "return None"} <= lines
    assert mutants_of("def f(:\n", "broken.py") == []


def test_the_sample_is_seeded_and_takes_the_operators_in_turn() -> None:
    mutants = mutants_of(SOURCE, "m.py")
    first, again = pick(mutants, 5, seed=1), pick(mutants, 5, seed=1)
    assert first == again
    assert sorted(m.operator for m in first) == [
        "comparison", "constant", "drop", "negate", "return-none",
    ]  # fmt: skip


def test_apply_refuses_a_line_that_changed() -> None:
    mutant = mutants_of(SOURCE, "m.py")[0]
    with pytest.raises(ValueError, match="not the line"):
        apply(SOURCE.replace("value < low", "value <= low"), mutant)


def test_a_held_out_result_keeps_ids_and_counts_and_no_code_or_test_name() -> None:
    from dataclasses import asdict

    from benchmarks.impact.mutants import ids_only, markdown

    mutant = mutants_of(SOURCE, "m.py")[0]
    row = {
        "mutant": asdict(mutant), "status": "killed", "failing": ["tests/t.py::test_secret"],
        "failing_count": 3, "suite_s": 1.0, "diff_s": 0.1, "selected": {"to_run": 1},
        "safe": {"to_run": False}, "missed": {"to_run": ["tests/t.py::test_secret"]},
        "order_dependent": ["tests/t.py::test_secret"], "safe_alone": True,
    }  # fmt: skip
    summary = {"safety": 0.0, "missed": ["m.py:7"], "median_share": 0.5, "mean_share": 0.5}
    result = {
        "package": "p-1", "graph_tests": 2, "mutants": 1, "killed": 1, "survived": 0,
        "timeout": 0, "import_s": 0.1, "import_edges": 4, "diff_s_median": 0.1,
        "diff_s_max": 0.1, "suite_s_median": 1.0, "rows": [row],
        "selectors": dict.fromkeys(
            ("to_run", "with_extras", "ran", "static", "everything"), summary
        ),
    }  # fmt: skip
    held_out = ids_only(result)
    (kept,) = held_out["rows"]
    assert kept["id"] == f"m.py:{mutant.line}"
    assert kept["missed"] == {"to_run": 1}
    text = markdown([held_out]) + repr(held_out)
    assert "test_secret" not in text
    assert mutant.old.strip() not in text
    assert kept["order_dependent"] == 1
    assert kept["safe_alone"] is True
    assert (
        f"`m.py:{mutant.line}` ({mutant.operator}), `diff`, to run: 1 of 3 failing missed; "
        "1 of them pass run alone on the mutant"
    ) in text


def test_the_table_counts_pytest_items_and_failing_ids_the_graph_does_not_know() -> None:
    from benchmarks.impact.mutants import markdown

    summary = {"safety": 1.0, "missed": [], "median_share": 0.5, "mean_share": 0.5}
    result = {
        "package": "p-1", "graph_tests": 37, "mutants": 0, "killed": 0, "survived": 0,
        "timeout": 0, "import_s": 0.1, "import_edges": 4, "diff_s_median": None,
        "diff_s_max": None, "suite_s_median": None, "rows": [],
        "selectors": dict.fromkeys(
            ("to_run", "with_extras", "ran", "static", "everything"), summary
        ),
    }  # fmt: skip
    known = {"pytest_items": 297, "pytest_ids": 133, "failing_ids": 128}
    text = markdown([{**result, **known, "failing_ids_not_in_graph": 94}, result])
    assert "| p-1 | 37 | 297 (133) | 94 of 128 | 0.1 (4) |" in text
    assert "| p-1 | 37 |  |  | 0.1 (4) |" in text  # a result written before the counts


def test_cases_selected_one_by_one_are_safe_only_when_each_failing_case_is() -> None:
    from benchmarks.impact.mutants import _safe, _size

    t = "tests/t.py::test_y"
    selected = {f"{t}[1]", f"{t}[2]", "tests/t.py::test_z"}
    assert _safe((t,), selected, lambda: {f"{t}[2]"}) == (True, [])
    assert _safe((t,), selected, lambda: {f"{t}[2]", f"{t}[3]"}) == (False, [t])
    assert _safe((t,), selected) == (False, [t])  # no failing items known: a miss
    assert _safe((t,), {t}, lambda: set()) == (True, [])  # the whole test
    # sizes: graph tests, pytest items (a whole test runs its table), cases named alone
    weights = {t: 10, "tests/t.py::test_z": 1}
    assert _size(selected, weights) == (2, 3, 2)
    assert _size({t, f"{t}[1]"}, weights) == (1, 10, 0)


def test_failing_items_keep_their_parameters() -> None:
    from benchmarks.impact.mutants import _ITEM

    out = (
        "FAILED tests/t.py::test_y[a b-1] - AssertionError: x - y\n"
        "FAILED tests/t.py::test_z\n"
        "ERROR tests/u.py - ImportError\n"
    )
    assert [m.group(1) for m in _ITEM.finditer(out)] == [
        "tests/t.py::test_y[a b-1]", "tests/t.py::test_z", "tests/u.py",
    ]  # fmt: skip


def test_failures_the_environment_causes_are_no_mutants() -> None:
    from benchmarks.impact.mutants import Outcome, without_environment

    t, u = "tests/t.py::test_dir", "tests/t.py::test_other"
    killed = Outcome("killed", (t, u), 1.0)
    assert without_environment(killed, set()) == killed
    assert without_environment(killed, {t}) == Outcome("killed", (u,), 1.0)
    # its only failing test fails on the unmutated tree now: the mutant survived
    assert without_environment(Outcome("killed", (t,), 1.0), {t}) == Outcome("survived", (), 1.0)
    timeout = Outcome("timeout", (), 9.0)
    assert without_environment(timeout, {t}) == timeout
