"""`parse_definition`: the one parser of a definition's source, for both shapes it reaches
the code in (as the diff reads a file, as the graph keeps a symbol)."""

from __future__ import annotations

import ast

import pytest

from graphrag_code.languages.python.syntax import parse_definition


@pytest.mark.parametrize(
    "code",
    [
        # indented as in its file, a docstring's lines at column 0 (a diff's side)
        '    def g(self):\n        """Read\nme.\n"""\n        yield 1\n',
        # the graph's shape: the first line lost its indentation, the rest kept it
        "@property\n    def verbosity(self):\n        return 1",
        "def f(self):\n        return 1",
        "def h():\n    return 2",
    ],
)
def test_a_definition_parses_in_either_shape(code: str) -> None:
    tree = parse_definition(code)
    assert tree is not None
    assert isinstance(tree.body[0], ast.FunctionDef)


def test_code_that_does_not_parse_is_none() -> None:
    assert parse_definition("    def broken(:\n        pass\n") is None
    assert parse_definition("def broken(:\n    pass") is None
