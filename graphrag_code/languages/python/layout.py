"""Where Python writes a symbol's header and docstring: the header (decorators, then the
signature) ends on the line whose code ends with `:`; the docstring is the string literal
that opens the body."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..layout import SourceLayout

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


PYTHON_LAYOUT = SourceLayout(header_ends=_header_ends, docstring=_docstring, documents=None)
