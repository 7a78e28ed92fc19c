"""A small, deterministic first-order mutator for Python source (issue 54's mutant benchmark).

Each mutant rewrites one line inside one function's body, so a `diff` of it is a body edit of
that function (its coverage stays fresh): a comparison flipped (`<` to `>=`), a constant
replaced (a number plus one, a string emptied, a boolean flipped), an `if` / `while` /
`elif` condition negated, a one-line statement dropped (`pass` in its place), or a
`return X` made `return None`. Docstrings, signatures and decorators are never touched;
mutants that do not compile are skipped. Pure: text in, mutants out.
"""

from __future__ import annotations

import ast
import hashlib
import io
import random
import tokenize
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["OPERATORS", "Mutant", "apply", "mutants_of", "pick"]

OPERATORS = ("comparison", "constant", "negate", "drop", "return-none")
_FLIPS = {"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!=", "!=": "=="}


@dataclass(frozen=True)
class Mutant:
    """One changed line of one file."""

    path: str  # relative to the tree's root
    function: str  # the innermost function around the line (dotted, within the module)
    operator: str
    line: int
    old: str  # the line before (without its newline)
    new: str  # the line after

    @property
    def key(self) -> str:
        """Stable across runs: what the oracle's cache is keyed by."""
        text = f"{self.path}:{self.line}:{self.old}\0{self.new}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                yield name, child
                yield from walk(child, name + ".")
            else:
                yield from walk(child, prefix)

    for name, node in walk(tree, ""):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield name, node


def _body_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> range:
    body = function.body
    first = body[0]
    docstring = (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
    if docstring and len(body) > 1:
        first = body[1]
    elif docstring:
        return range(0)
    return range(first.lineno, (function.end_lineno or first.lineno) + 1)


def _owners(tree: ast.Module) -> dict[int, str]:
    """Body line -> the innermost function holding it (nested defs written later win)."""
    owner: dict[int, str] = {}
    spans = sorted(_functions(tree), key=lambda f: -len(_body_lines(f[1])))
    for name, function in spans:
        for line in _body_lines(function):
            owner[line] = name
    return owner


def _splice(line: str, start: int, end: int, text: str) -> str:
    """Replace the UTF-8 byte columns `start:end` of `line` (ast's offsets are bytes)."""
    raw = line.encode()
    return (raw[:start] + text.encode() + raw[end:]).decode()


def _constant(value: object) -> str | None:
    if isinstance(value, bool):
        return repr(not value)
    if isinstance(value, int | float):
        return repr(value + 1)
    if isinstance(value, str):
        return "'mutant'" if value == "" else "''"
    if isinstance(value, bytes):
        return "b'mutant'" if value == b"" else "b''"
    return None


def _candidates(
    source: str, tree: ast.Module, owner: dict[int, str]
) -> Iterator[tuple[str, int, str]]:
    lines = source.splitlines()
    in_fstring: set[int] = set()
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            in_fstring.update(id(part) for part in ast.walk(node))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.While):  # the block spans lines, its test one
            test, line = node.test, node.test.lineno
            if line in owner and test.end_lineno == line:
                text = lines[line - 1]
                segment = text.encode()[test.col_offset : test.end_col_offset].decode()
                yield (
                    "negate",
                    line,
                    _splice(text, test.col_offset, test.end_col_offset or 0, f"not ({segment})"),
                )
            continue
        line = getattr(node, "lineno", 0)
        if line not in owner or getattr(node, "end_lineno", line) != line:
            continue
        text = lines[line - 1]
        start, end = node.col_offset, node.end_col_offset or 0  # type: ignore[attr-defined]
        if isinstance(node, ast.Constant) and id(node) not in in_fstring | docstrings:
            if (new := _constant(node.value)) is not None:
                yield "constant", line, _splice(text, start, end, new)
        elif isinstance(node, ast.Return) and node.value is not None:
            if not (isinstance(node.value, ast.Constant) and node.value.value is None):
                yield "return-none", line, _splice(text, start, end, "return None")
        elif (
            isinstance(node, ast.Expr | ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Raise)
            and id(getattr(node, "value", None)) not in docstrings
        ):
            yield "drop", line, _splice(text, start, end, "pass")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        line, column = token.start
        if token.type == tokenize.OP and token.string in _FLIPS and line in owner:
            text = lines[line - 1]
            yield (
                "comparison",
                line,
                (text[:column] + _FLIPS[token.string] + text[column + len(token.string) :]),
            )


def mutants_of(source: str, path: str) -> list[Mutant]:
    """Every mutant of one module that compiles, in source order."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    owner = _owners(tree)
    lines = source.splitlines()
    found: dict[tuple[int, str], Mutant] = {}
    for operator, line, new in _candidates(source, tree, owner):
        old = lines[line - 1]
        if new == old or (line, new) in found:
            continue
        mutant = Mutant(path, owner[line], operator, line, old, new)
        try:
            compile(apply(source, mutant), path, "exec")
        except (SyntaxError, ValueError):
            continue
        found[line, new] = mutant
    return sorted(found.values(), key=lambda m: (m.line, m.operator, m.new))


def apply(source: str, mutant: Mutant) -> str:
    """The module with the mutant's line rewritten."""
    lines = source.splitlines(keepends=True)
    ending = lines[mutant.line - 1][len(mutant.old) :]
    if lines[mutant.line - 1] != mutant.old + ending:
        raise ValueError(f"{mutant.path}:{mutant.line} is not the line the mutant was made from")
    lines[mutant.line - 1] = mutant.new + ending
    return "".join(lines)


def pick(mutants: list[Mutant], count: int, seed: int) -> list[Mutant]:
    """`count` mutants, seeded, the operators taken in turn (each shuffled) so that no one
    operator (constants are the most numerous) fills the sample."""
    rng = random.Random(seed)
    by_operator: dict[str, list[Mutant]] = defaultdict(list)
    for mutant in mutants:
        by_operator[mutant.operator].append(mutant)
    queues = [rng.sample(by_operator[op], len(by_operator[op])) for op in OPERATORS]
    picked: list[Mutant] = []
    while len(picked) < count and any(queues):
        for queue in queues:
            if queue and len(picked) < count:
                picked.append(queue.pop())
    return picked
