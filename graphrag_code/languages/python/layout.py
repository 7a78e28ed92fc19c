"""Where Python writes a symbol's header and docstring: the header (decorators, then the
signature) ends on the line whose code ends with `:`; the docstring is the string literal
that opens the body; a function is a generator by a `yield` in its own body, which no header
says (`function_kind`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence

from ..layout import SourceLayout
from .syntax import parse_definition

__all__ = ["PYTHON_LAYOUT"]

_DOC_START = re.compile(r"""^[rRuUbBfF]{0,2}("{3}|'{3}|"|')""")


def _header_ends(line: str) -> bool:
    code = line.split("#", 1)[0].rstrip()
    return code.endswith(":") and not code.lstrip().startswith("@")


def _docstring(lines: Sequence[str], header_end: int, end: int) -> range:
    number = header_end + 1
    while number <= end and not lines[number - 1].strip():
        number += 1
    match = _DOC_START.match(lines[number - 1].strip()) if number <= len(lines) else None
    if not match:
        return range(0)
    quote = match.group(1)
    last = number
    if quote not in lines[number - 1].strip()[match.end() :]:
        while last < end and quote not in lines[last]:
            last += 1
        last += 1
    return range(number, last + 1)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of the functions and classes inside it."""
    stack: list[ast.AST] = [node for node in function.body if not isinstance(node, _SCOPES)]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(
            child for child in ast.iter_child_nodes(node) if not isinstance(child, _SCOPES)
        )


def _function_kind(code: str) -> str | None:
    """`generator`, `async generator`, `coroutine` or `function` for a function's code
    (decorators first, indented as in its file); None for a class or code that does not
    parse. A `yield` only makes it a generator (`if False: yield`): what a caller gets, and
    what a test that builds a call without running a line of it reads."""
    tree = parse_definition(code)
    function = tree.body[0] if tree is not None and tree.body else None
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    generator = any(isinstance(node, ast.Yield | ast.YieldFrom) for node in _own_nodes(function))
    if isinstance(function, ast.AsyncFunctionDef):
        return "async generator" if generator else "coroutine"
    return "generator" if generator else "function"


PYTHON_LAYOUT = SourceLayout(
    header_ends=_header_ends,
    docstring=_docstring,
    documents=None,
    function_kind=_function_kind,
)
