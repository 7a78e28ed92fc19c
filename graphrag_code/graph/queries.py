"""Cypher lives in `cypher/<owner>/*.cypher` (shipped as `graphrag_code/cypher`); this module
reads it.

Values always travel as `$parameters`. The few things Cypher cannot parameterise — a label, a
relationship type, a variable-length bound, the index name of a `SEARCH` clause — go through
`quote_identifier` or `hop_bound`, the only places a value is pasted into query text.

A query with a form per server (the vector leg of the hybrid search) is one file whose
server-specific lines sit between `// BEGIN <part>` and `// END <part>` comment lines, plus a
file per other form holding the lines that replace them (`replace_block`).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from ..errors import QueryFileError

__all__ = [
    "hop_bound",
    "load_query",
    "paste_identifier",
    "query_names",
    "quote_identifier",
    "replace_block",
]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # fullmatch: `$` passes "x\n"
_NAME = re.compile(r"[a-z0-9_]+(/[a-z0-9_]+)*")


@cache
def load_query(name: str) -> str:
    """Text of `cypher/<name>.cypher`: `load_query("schema/create")`."""
    if not _NAME.fullmatch(name):
        raise QueryFileError(f"invalid query name {name!r}")
    resource = resources.files("graphrag_code").joinpath("cypher").joinpath(f"{name}.cypher")
    try:
        return resource.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise QueryFileError(f"no Cypher file cypher/{name}.cypher") from exc


def query_names(folder: str = "") -> list[str]:
    """Names of the shipped `.cypher` files under `folder`, its subfolders included (for tests
    that execute all of them): `query_names()` lists every file, `query_names("browser")`
    the curated Browser queries."""
    root = resources.files("graphrag_code").joinpath("cypher")
    if folder:
        root = root.joinpath(folder)
    prefix = f"{folder}/" if folder else ""
    names: list[str] = []
    for entry in root.iterdir():
        if entry.is_dir():
            names.extend(query_names(prefix + entry.name))
        elif entry.name.endswith(".cypher"):
            names.append(prefix + entry.name.removesuffix(".cypher"))
    return sorted(names)


def quote_identifier(name: str) -> str:
    """Backtick-quote a label, relationship type or property name after validating it."""
    if not _IDENTIFIER.fullmatch(name):
        raise QueryFileError(f"invalid Cypher identifier {name!r}")
    return f"`{name}`"


def hop_bound(value: int, *, minimum: int = 1, maximum: int = 6) -> int:
    """Validate a variable-length path bound (Cypher cannot take it as a parameter)."""
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise QueryFileError(
            f"hop bound must be an integer from {minimum} to {maximum}, got {value!r}"
        )
    return value


def _block_bounds(lines: list[str], part: str) -> tuple[int, int]:
    begin, end = f"// BEGIN {part}", f"// END {part}"
    starts = [i for i, line in enumerate(lines) if line.strip() == begin]
    ends = [i for i, line in enumerate(lines) if line.strip() == end]
    if len(starts) != 1 or len(ends) != 1 or starts[0] > ends[0]:
        raise QueryFileError(f"expected one {begin!r} … {end!r} block")
    return starts[0], ends[0]


def replace_block(text: str, part: str, replacement: str) -> str:
    """`text` with the lines between its `// BEGIN <part>` and `// END <part>` lines replaced
    by the lines between the same markers in `replacement`, indented like the first of the
    replaced lines."""
    lines, new = text.splitlines(), replacement.splitlines()
    start, end = _block_bounds(lines, part)
    new_start, new_end = _block_bounds(new, part)
    indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
    body = [indent + line if line.strip() else line for line in new[new_start + 1 : new_end]]
    return "\n".join([*lines[: start + 1], *body, *lines[end:]]) + "\n"


def paste_identifier(text: str, placeholder: str, name: str) -> str:
    """`text` with its one occurrence of the identifier `placeholder` (as in `VECTOR INDEX
    code_embedding`) replaced by `name`, validated and backtick-quoted (`quote_identifier`)."""
    pattern = re.compile(rf"(?<![A-Za-z0-9_`]){re.escape(placeholder)}(?![A-Za-z0-9_`])")
    found = pattern.findall(text)
    if len(found) != 1:
        raise QueryFileError(f"expected the identifier {placeholder!r} once, found {len(found)}")
    return pattern.sub(lambda _: quote_identifier(name), text)
