"""The harness's own Cypher, in `harness/cypher/<owner>/*.cypher`, read like the package's.

The harness's queries (the SciFact `:Document` stack) are not the product's, so they are not
shipped in the wheel; the file layout and the name rules are the package's
(`graphrag_code.graph.queries`); `graphrag_code.text.split_statements` splits a file.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from graphrag_code.errors import QueryFileError

__all__ = ["CYPHER_DIR", "load_query", "query_names"]

CYPHER_DIR = Path(__file__).resolve().parent / "cypher"
_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)*$")


@cache
def load_query(name: str) -> str:
    """Text of `harness/cypher/<name>.cypher`: `load_query("documents/search")`."""
    if not _NAME.match(name):
        raise QueryFileError(f"invalid query name {name!r}")
    try:
        return (CYPHER_DIR / f"{name}.cypher").read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise QueryFileError(f"no Cypher file harness/cypher/{name}.cypher") from exc


def query_names() -> list[str]:
    """Names of every `.cypher` file of the harness (for the test that executes them all)."""
    return sorted(
        path.relative_to(CYPHER_DIR).with_suffix("").as_posix()
        for path in CYPHER_DIR.rglob("*.cypher")
    )
