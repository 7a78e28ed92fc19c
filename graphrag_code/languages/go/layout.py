"""Where Go writes a declaration's documentation: the `//` lines right above it (`diff` tells a
doc comment's edit from a body's). Headers end on the line that opens the body's `{`, as in
the rest of the C family."""

from __future__ import annotations

from collections.abc import Sequence

from ..layout import SourceLayout

__all__ = ["GO_LAYOUT", "line_comment_above"]

_COMMENT_LINES = 60  # how far a doc comment may run above its declaration


def line_comment_above(lines: Sequence[str], line: int) -> int | None:
    """The line right below the run of `//` lines holding `line` (the declaration they
    document), None when `line` is no such comment or a blank line ends the run."""
    for offset in range(_COMMENT_LINES):
        index = line - 1 + offset
        if index >= len(lines):
            return None
        text = lines[index].strip()
        if not text.startswith("//"):
            return index + 1 if offset and text else None
    return None


GO_LAYOUT = SourceLayout(documents=line_comment_above)
