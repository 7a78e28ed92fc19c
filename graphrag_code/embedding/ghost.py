"""Ghost text: the short stand-in text embedded for each symbol or module.

Embedding whole functions is slow (MiniLM reads at most 256 tokens and runs about twice as fast
at 128) and dilutes what a function is *for* with how it does it. A ghost text puts the
telling parts first — path, qualified name split into words, signature, the docstring's first
paragraph — then fills the rest of a ~128-token budget with the start of the body.

Recipes exist so `benchmarks/retrieval/ghost_text_quality.py` can compare them; `DEFAULT_RECIPE`
is the one that measured best there.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from enum import Enum

from ..text import split_identifier

__all__ = ["DEFAULT_MAX_WORDS", "DEFAULT_RECIPE", "GhostRecipe", "count_words", "ghost_text"]


class GhostRecipe(Enum):
    """What goes into a ghost text, in order."""

    NAME_SIG_DOC = "name_sig_doc"
    """Path, qualified name, signature, docstring: no code at all."""
    NAME_SIG_DOC_BODY = "name_sig_doc_body"
    """The above, then the start of the body as written (of a class: its members' headers)."""
    NAME_SIG_DOC_SPLIT_BODY = "name_sig_doc_split_body"
    """The above, with body identifiers split into lowercase words (``getUser`` -> get user)."""
    BODY_ONLY = "body_only"
    """The symbol's code as written, cut to the budget (the baseline)."""


DEFAULT_RECIPE = GhostRecipe.NAME_SIG_DOC_BODY
"""Measured on 300 stdlib functions, docstring -> function, MiniLM: MRR 0.773, R@10 0.967; the
whole function as written scored 0.738 / 0.910, BODY_ONLY 0.772 / 0.923, NAME_SIG_DOC (no body)
0.728 / 0.927; the split-body variant tied (0.774 / 0.963). 64 or 160 words did worse."""
DEFAULT_MAX_WORDS = 104
"""Words as BERT's pre-tokenizer counts them; on stdlib code 104 make ~125 MiniLM tokens."""

# BERT splits on whitespace and on every punctuation character; counting the same way keeps
# the budget close to real tokens for any WordPiece model.
_WORD = re.compile(r"[^\W_]+|\S")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPACE = re.compile(r"\s+")
_MAX_PATH_WORDS = 24
_MAX_NAME_WORDS = 24
_MAX_SIGNATURE_WORDS = 40
_MAX_DOC_SHARE = 0.6  # the docstring may take at most this share of what is left for it


def count_words(text: str) -> int:
    """Words as the ghost-text budget counts them (a word, or one punctuation mark)."""
    return sum(1 for _ in _WORD.finditer(text))


def _clip(text: str, max_words: int) -> str:
    """`text` up to its `max_words`-th word (whole words only)."""
    if max_words <= 0:
        return ""
    for index, match in enumerate(_WORD.finditer(text), start=1):
        if index == max_words:
            return text[: match.end()]
    return text


def _one_line(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _split_words(text: str) -> str:
    return _IDENTIFIER.sub(lambda match: " ".join(split_identifier(match.group())), text)


def _first_paragraph(docstring: str) -> str:
    return _one_line(inspect.cleandoc(docstring).split("\n\n", 1)[0])


def _parsed(source: str) -> ast.Module | None:
    """`source` as a Python syntax tree, or None when it is not Python the parser can take.

    A deeply nested expression (`1+1+…` with thousands of terms) exhausts the parser's
    recursion limit; that symbol then gets the plain-text body, never a failed run (issue 13).
    """
    try:
        return ast.parse(source)
    # ValueError: source with NUL bytes; RecursionError / MemoryError: nesting too deep
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _python_body(code: str, *, module: bool) -> str | None:
    """Code after the signature and docstring, when `code` parses as Python; else None."""
    source = textwrap.dedent(code)
    tree = _parsed(source)
    if tree is None:
        return None
    body: list[ast.stmt] = tree.body
    if (
        not module
        and len(body) == 1
        and isinstance(body[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ):
        body = body[0].body
    first_value = body[0].value if body and isinstance(body[0], ast.Expr) else None
    if isinstance(first_value, ast.Constant) and isinstance(first_value.value, str):
        body = body[1:]
    if not body:
        return ""
    first = body[0]
    start = min([first.lineno, *(d.lineno for d in getattr(first, "decorator_list", []))])
    return "\n".join(source.splitlines()[start - 1 :])


def _class_outline(code: str) -> str | None:
    """A Python class's members without their bodies, or None when `code` is not one class.

    Methods get vectors of their own; a class text that repeated its first methods' code
    outranked those methods for questions about what they do (on tests/fixtures/shop,
    "insert a record into the SQLite database" found `SqliteStorage` before its `save`).
    """
    source = textwrap.dedent(code)
    tree = _parsed(source)
    if tree is None or len(tree.body) != 1 or not isinstance(tree.body[0], ast.ClassDef):
        return None
    lines = source.splitlines()
    members: list[str] = []
    for statement in tree.body[0].body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            # the header, over as many lines as the signature takes, without the body
            first = statement.body[0]
            if first.lineno > statement.lineno:
                members.append(" ".join(lines[statement.lineno - 1 : first.lineno - 1]))
            else:  # `def f(): return 1`; col_offset counts UTF-8 bytes
                line = lines[statement.lineno - 1].encode("utf-8")[: first.col_offset]
                members.append(line.decode("utf-8", errors="ignore").rstrip())
        elif not (
            isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):  # a docstring is already in the text
            members.append(ast.get_source_segment(source, statement) or "")
    return "\n".join(members)


def _body(code: str, signature: str | None, *, kind: str) -> str:
    if kind == "class":
        outline = _class_outline(code)
        if outline is not None:
            return outline
    body = _python_body(code, module=kind == "module")
    if body is not None:
        return body
    # Another language (or broken Python): drop a leading copy of the signature at least
    # (`export function f(x: T): R {` against the signature without its brace).
    lines = code.strip().splitlines()
    if lines and signature:
        first, header = _one_line(lines[0]).rstrip("{ "), _one_line(signature.splitlines()[0])
        if first == header.rstrip("{ ") or (header.startswith(first) and first):
            lines = lines[1:]
    return "\n".join(lines)


def ghost_text(
    *,
    path: str,
    qualified_name: str,
    kind: str,
    signature: str | None,
    docstring: str | None,
    code: str | None,
    max_words: int = DEFAULT_MAX_WORDS,
    recipe: GhostRecipe = DEFAULT_RECIPE,
) -> str:
    """The text to embed for one symbol or module, at most `max_words` words long.

    >>> print(ghost_text(path="pkg/dates.py", qualified_name="pkg.dates.parseIsoDate",
    ...     kind="function", signature="def parseIsoDate(text)", docstring="Parse a date.",
    ...     code="def parseIsoDate(text):\\n    'Parse a date.'\\n    return date(text)"))
    pkg/dates.py
    function pkg.dates.parse iso date
    def parseIsoDate(text)
    Parse a date.
    return date(text)
    """
    if recipe is GhostRecipe.BODY_ONLY:
        return _clip(_one_line(code or signature or qualified_name), max_words)
    parts = [
        _clip(path, _MAX_PATH_WORDS),
        _clip(f"{kind} {_split_words(qualified_name)}", _MAX_NAME_WORDS),
    ]
    if signature:
        parts.append(_clip(_one_line(signature), _MAX_SIGNATURE_WORDS))
    left = max_words - sum(count_words(part) for part in parts)
    if docstring and left > 0:
        share = left if recipe is GhostRecipe.NAME_SIG_DOC else int(left * _MAX_DOC_SHARE)
        doc = _clip(_first_paragraph(docstring), max(share, 1))
        if doc:
            parts.append(doc)
            left -= count_words(doc)
    if code and left > 0 and recipe is not GhostRecipe.NAME_SIG_DOC:
        body = _one_line(_body(code, signature, kind=kind))
        if recipe is GhostRecipe.NAME_SIG_DOC_SPLIT_BODY:
            body = _one_line(_split_words(body))
        body = _clip(body, left)
        if body:
            parts.append(body)
    return "\n".join(parts)
