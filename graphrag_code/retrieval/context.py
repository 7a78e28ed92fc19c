"""Context assembly: the code of the top hits plus what they call, the types they use and their
siblings, within a token budget, each piece headed by a `path:start-end` citation.

Tokens are estimated by counting word runs and single punctuation marks, which tracks BPE
token counts of code closely enough for budgeting without a tokenizer download.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..graph.client import Neo4jClient
from ..graph.queries import load_query
from .search import Hit, SearchResult

__all__ = ["Context", "ContextItem", "assemble_context", "estimate_tokens"]

Role = Literal["hit", "callee", "type", "sibling"]
_TOKEN = re.compile(r"\w+|[^\w\s]")
_TRUNCATION_MARK = "\n# … (truncated to fit the context budget)"


def estimate_tokens(text: str) -> int:
    """Roughly the number of BPE tokens of `text` (word runs + punctuation marks)."""
    return len(_TOKEN.findall(text))


@dataclass(frozen=True)
class ContextItem:
    id: str
    qualified_name: str
    kind: str
    path: str
    start_line: int | None
    end_line: int | None
    role: Role
    text: str
    tokens: int

    @property
    def citation(self) -> str:
        if self.start_line is None:
            return self.path
        return f"{self.path}:{self.start_line}-{self.end_line}"


@dataclass(frozen=True)
class Context:
    question: str
    items: list[ContextItem]
    tokens: int
    max_tokens: int
    truncated: bool  # something relevant did not fit
    search: SearchResult

    @property
    def text(self) -> str:
        return "\n\n".join(item.text for item in self.items)

    @property
    def citations(self) -> list[str]:
        return [item.citation for item in self.items]


def _header(node: Mapping[str, Any], role: Role, rank: int | None) -> str:
    lines = f":{node.get('start_line')}-{node.get('end_line')}" if node.get("start_line") else ""
    label = f"hit {rank}" if role == "hit" and rank is not None else role
    name = node.get("qualified_name")
    return f"### {node.get('path')}{lines} — {name} ({node.get('kind')}; {label})"


def _summary(node: Mapping[str, Any]) -> str:
    """Signature and the first paragraph of the docstring: how a neighbour is shown (the
    docstring as the node's language writes one)."""
    parts = [node.get("signature") or node.get("qualified_name") or ""]
    doc = (node.get("docstring") or "").strip().split("\n\n", 1)[0]
    if doc:
        python = node.get("language", "python") == "python"
        parts.append(f'    """{doc}"""' if python else f"    /** {doc} */")
    return "\n".join(parts)


def _fence(node: Mapping[str, Any]) -> str:
    """The code fence's info string: the node's language (`python`, `typescript`, …)."""
    return str(node.get("language") or "")


class _Budget:
    def __init__(self, max_tokens: int) -> None:
        self.max_tokens = max_tokens
        self.used = 0
        self.truncated = False

    def fit(self, header: str, body: str, fence: str = "python") -> str | None:
        """The rendered item if it fits (the body cut down when only part of it does)."""
        text = f"{header}\n```{fence}\n{body}\n```"
        cost = estimate_tokens(text)
        if self.used + cost <= self.max_tokens:
            self.used += cost
            return text
        self.truncated = True
        room = self.max_tokens - self.used - estimate_tokens(header) - 20
        if room < 40:
            return None
        kept: list[str] = []
        spent = 0
        for line in body.splitlines():
            spent += estimate_tokens(line) + 1
            if spent > room:
                break
            kept.append(line)
        text = f"{header}\n```{fence}\n" + "\n".join(kept) + f"{_TRUNCATION_MARK}\n```"
        self.used += estimate_tokens(text)
        return text


def assemble_context(
    client: Neo4jClient,
    search: SearchResult,
    *,
    max_tokens: int = 4000,
    max_hits: int = 5,
    neighbours: int = 5,
) -> Context:
    """Build the context for the hits of `search`, best hits first, then their neighbours."""
    hits: list[Hit] = search.hits[:max_hits]
    rows = client.read(
        load_query("context/neighbours"), {"ids": [h.id for h in hits], "limit": neighbours}
    )
    by_id = {row["id"]: row for row in rows}
    budget = _Budget(max_tokens)
    items: list[ContextItem] = []
    included: set[str] = set()

    def add(node: Mapping[str, Any], role: Role, body: str, rank: int | None = None) -> None:
        if node["id"] in included:
            return
        text = budget.fit(_header(node, role, rank), body, _fence(node))
        if text is None:
            return
        included.add(node["id"])
        items.append(
            ContextItem(
                id=node["id"], qualified_name=node.get("qualified_name") or "",
                kind=node.get("kind") or "", path=node.get("path") or "",
                start_line=node.get("start_line"), end_line=node.get("end_line"),
                role=role, text=text, tokens=estimate_tokens(text),
            )
        )  # fmt: skip

    for rank, hit in enumerate(hits, start=1):
        row = by_id.get(hit.id)
        if row is not None:
            add(row["node"], "hit", row["node"].get("code") or _summary(row["node"]), rank)
    for role, key in (("callee", "callees"), ("type", "types"), ("sibling", "siblings")):
        for row in (by_id.get(hit.id) for hit in hits):
            for neighbour in _nodes(row, key):
                add(neighbour, role, _summary(neighbour))  # type: ignore[arg-type]
    return Context(
        question=search.question.text,
        items=items,
        tokens=budget.used,
        max_tokens=max_tokens,
        truncated=budget.truncated,
        search=search,
    )


def _nodes(row: Mapping[str, Any] | None, key: str) -> Iterable[Mapping[str, Any]]:
    if row is None:
        return ()
    return [node for node in row[key] if node and node.get("id")]
