"""Where a symbol's header and documentation sit among its lines: what `diff` reads to tell a
signature or docstring edit from a body edit, and a function's kind where its header does not
say it (a Python generator is one by a `yield` in its body). The defaults are the C family's
(TypeScript, JavaScript, and Go, Java or Rust to come): the header runs to the line that opens
the body's `{`, and documentation is a `/** … */` comment right above the symbol."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

__all__ = ["SourceLayout", "block_comment_above", "no_docstring", "opens_brace"]

# how far a documentation comment may reach above the symbol it documents
_COMMENT_LINES = 40


def opens_brace(line: str) -> bool:
    """A header ends on the line that opens the body (`function f(a) {`)."""
    return "{" in line


def no_docstring(lines: Sequence[str], header_end: int, end: int) -> range:
    """No documentation inside the body."""
    return range(0)


def block_comment_above(lines: Sequence[str], line: int) -> int | None:
    """The line right below the `/** … */` comment holding `line` (the code it documents),
    None when `line` is in no such comment. Lines are numbered from 1."""
    for offset in range(_COMMENT_LINES):
        index = line - 1 + offset
        if index >= len(lines):
            return None
        text = lines[index].strip()
        if text.endswith("*/"):
            return index + 2
        if offset and not text.startswith("*"):
            return None
    return None


@dataclass(frozen=True)
class SourceLayout:
    """Where a language writes a symbol's header and documentation (lines numbered from 1)."""

    # a line of a symbol's header as written -> whether the header ends on it (30 lines at most)
    header_ends: Callable[[str], bool] = field(default=opens_brace)
    # (the file's lines, the header's last line, the symbol's last line) -> the lines of the
    # docstring inside the body, for a symbol the parser found documented
    docstring: Callable[[Sequence[str], int, int], range] = field(default=no_docstring)
    # (the file's lines, a line outside every symbol) -> the line of the code that a
    # documentation comment holding it documents (None: no such comment)
    documents: Callable[[Sequence[str], int], int | None] | None = field(
        default=block_comment_above
    )
    # a function's code as the parser keeps it -> its kind where the header does not say it
    # ("generator", "async generator", "coroutine", "function"; None: not a function, or
    # unreadable). None: the header says it all (`function*`, `async` are in the signature)
    function_kind: Callable[[str], str | None] | None = None
