"""The JavaScript mutant benchmark's mutator (issue 54, stop 66): the Python mutator's operators
on one line of one function body, signatures, directives and module level untouched, every
mutant parses, and `node --check` is the runtime's last word."""

from __future__ import annotations

import shutil

import pytest

from benchmarks.impact.js_mutator import mutants_of, node_check
from benchmarks.impact.mutator import apply, pick

SOURCE = """'use strict'
const LIMIT = 3

function clamp (value, low) {
  'use strict'
  if (value < low) value = low
  const total = value + 1
  return total
}

class Box {
  size () {
    while (this.items.length === 2) this.items.pop()
    return this.flag ? 'full' : ''
  }
}

module.exports.check = (a) => { return a !== true }
"""


def _by_operator() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for mutant in mutants_of(SOURCE, "m.js"):
        found.setdefault(mutant.operator, set()).add(mutant.new.strip())
    return found


def test_each_operator_rewrites_one_body_line() -> None:
    found = _by_operator()
    assert found["comparison"] == {
        "if (value >= low) value = low",
        "while (this.items.length !== 2) this.items.pop()",
    }
    assert found["negate"] == {
        "if (!(value < low)) value = low",
        "while (!(this.items.length === 2)) this.items.pop()",
    }
    assert found["constant"] == {
        "const total = value + 2",
        "while (this.items.length === 3) this.items.pop()",
        "return this.flag ? '' : ''",
        "return this.flag ? 'full' : 'mutant'",
    }
    assert found["drop"] == {
        "if (value < low) ;",
        ";",  # `const total = value + 1`
        "while (this.items.length === 2) ;",
    }
    assert found["return-none"] == {"return undefined"}


def test_signatures_directives_and_module_level_are_left_alone() -> None:
    mutants = mutants_of(SOURCE, "m.js")
    # not the directives (1, 5), LIMIT (2), the signatures (4, 12) nor the one-line arrow (18)
    assert {m.line for m in mutants} == {6, 7, 8, 13, 14}
    assert {m.function for m in mutants} == {"clamp", "Box.size"}


def test_every_mutant_parses_and_rewrites_its_line_only() -> None:
    mutants = mutants_of(SOURCE, "m.js")
    for mutant in mutants:
        after = apply(SOURCE, mutant)
        changed = [
            number
            for number, (a, b) in enumerate(
                zip(SOURCE.splitlines(), after.splitlines(), strict=True), 1
            )
            if a != b
        ]
        assert changed == [mutant.line]
        assert mutants_of(after, "m.js")  # still parses
    assert len({m.key for m in mutants}) == len(mutants)


def test_named_by_what_they_are_assigned_to() -> None:
    source = "exports.f = function () {\n  return 1\n}\nconst g = () => {\n  x()\n}\n"
    assert {m.function for m in mutants_of(source, "m.js")} == {"f", "g"}


def test_a_module_that_does_not_parse_has_no_mutants() -> None:
    assert mutants_of("function f () {\n  if (a < 1 {\n}\n", "m.js") == []


def test_drop_leaves_for_headers_alone() -> None:
    source = "function f (n) {\n  for (let i = 0; i < n; i++) g(i)\n}\n"
    dropped = {m.new.strip() for m in mutants_of(source, "m.js") if m.operator == "drop"}
    assert dropped == {"for (let i = 0; i < n; i++) ;"}


def test_sample_is_seeded_and_takes_operators_in_turn() -> None:
    mutants = mutants_of(SOURCE, "m.js")
    first = pick(mutants, 5, seed=1)
    assert first == pick(mutants, 5, seed=1)
    assert len({m.operator for m in first}) == 5


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_node_check_is_the_runtimes_own() -> None:
    # tree-sitter parses a second `let` of one name; V8 rejects it before running anything
    twice = "function f () {\n  let a = 1\n  let a = 2\n}\n"
    assert mutants_of(twice, "m.js")
    assert not node_check(twice)
    assert node_check(SOURCE)
    assert not node_check("export const a = 1\n")
    assert node_check("export const a = 1\n", module=True)


TS_SOURCE = """type Mode = 'strict' | 'loose'

export class Parser {
  static #limit(mode: Mode = 'loose', size: number = 2): number {
    const max: 3 | 4 = 3
    if (mode === 'strict') return size
    return max
  }
}
"""


def test_typescript_is_mutated_with_its_grammar_and_never_a_type() -> None:
    # stop 67: Jest / Vitest suites of TypeScript packages; a type's literal is no mutant
    # (the runner strips types), a private method is a function like any other
    found = mutants_of(TS_SOURCE, "src/parser.ts")
    assert {m.function for m in found} == {"Parser.#limit"}
    assert {(m.line, m.operator, m.new.strip()) for m in found} == {
        (5, "constant", "const max: 3 | 4 = 4"),
        (5, "drop", ";"),
        (6, "comparison", "if (mode !== 'strict') return size"),
        (6, "constant", "if (mode === '') return size"),
        (6, "negate", "if (!(mode === 'strict')) return size"),
        (6, "return-none", "if (mode === 'strict') return undefined"),
        (7, "return-none", "return undefined"),
    }
    assert mutants_of(TS_SOURCE, "src/parser.js") == []  # not JavaScript: it does not parse
