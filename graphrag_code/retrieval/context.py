"""Context assembly: the code of the top hits plus what they call, the types they use and their
siblings, within a token budget, each piece headed by a `path:start-end` citation.

Tokens are estimated by counting word runs and single punctuation marks, which tracks BPE
token counts of code closely enough for budgeting without a tokenizer download.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import ConfigurationError
from ..graph import AnswerWarning, ContextNode, GraphReader, Neo4jClient
from ..languages import declarations, language_named
from ..location import Location
from .search import Hit, SearchResult

__all__ = [
    "Context", "ContextItem", "Role", "assemble_context", "assemble_node_context",
    "estimate_tokens",
]  # fmt: skip

Role = Literal["hit", "callee", "type", "sibling", "changed", "affected", "test"]
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
    location: Location
    role: Role
    text: str
    tokens: int

    @property
    def citation(self) -> str:
        """`path:start-end`, as in the item's header and in an answer's citations."""
        return str(self.location)


@dataclass(frozen=True)
class Context:
    question: str
    items: list[ContextItem]
    tokens: int
    max_tokens: int
    truncated: bool  # something relevant did not fit
    search: SearchResult | None  # None for a context built from chosen nodes (a diff review)
    warnings: tuple[AnswerWarning, ...] = ()  # `CodeGraph` adds them

    @property
    def text(self) -> str:
        return "\n\n".join(item.text for item in self.items)

    @property
    def citations(self) -> list[str]:
        return [item.citation for item in self.items]


def _header(node: ContextNode, role: Role, rank: int | None) -> str:
    label = f"hit {rank}" if role == "hit" and rank is not None else role
    return f"### {node.location} — {node.qualified_name} ({node.kind}; {label})"


def _summary(node: ContextNode) -> str:
    """Signature and the first paragraph of the docstring: how a neighbour is shown (the
    docstring as the node's language writes one)."""
    parts = [node.signature or node.qualified_name]
    doc = (node.docstring or "").strip().split("\n\n", 1)[0]
    if doc:
        parts.append(f"    {_doc_comment(node.language)(doc)}")
    return "\n".join(parts)


def _doc_comment(language: str | None) -> Callable[[str], str]:
    """How the node's language writes documentation (a language this process does not read,
    or none recorded: the first registered language's way)."""
    try:
        return language_named(language or "").doc_comment
    except ConfigurationError:
        return language_named(declarations()[0].name).doc_comment


def _fence(node: ContextNode) -> str:
    """The code fence's info string: the node's language (`python`, `typescript`, …)."""
    return node.language or ""


class _Budget:
    def __init__(self, max_tokens: int) -> None:
        self.max_tokens = max_tokens
        self.used = 0
        self.truncated = False

    def fit(self, header: str, body: str, fence: str) -> str | None:
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
    by_id = GraphReader(client).neighbourhoods([h.id for h in hits], limit=neighbours)
    budget = _Budget(max_tokens)
    items: list[ContextItem] = []
    included: set[str] = set()

    def add(node: ContextNode, role: Role, body: str, rank: int | None = None) -> None:
        if node.id in included:
            return
        text = budget.fit(_header(node, role, rank), body, _fence(node))
        if text is None:
            return
        included.add(node.id)
        items.append(
            ContextItem(
                id=node.id, qualified_name=node.qualified_name, kind=node.kind,
                location=node.location, role=role, text=text, tokens=estimate_tokens(text),
            )
        )  # fmt: skip

    for rank, hit in enumerate(hits, start=1):
        found = by_id.get(hit.id)
        if found is not None:
            add(found.node, "hit", found.node.code or _summary(found.node), rank)
    hoods = [by_id[hit.id] for hit in hits if hit.id in by_id]
    # all callees first (best hit's first), then all used types, then all siblings
    by_role: tuple[tuple[Role, list[tuple[ContextNode, ...]]], ...] = (
        ("callee", [hood.callees for hood in hoods]),
        ("type", [hood.types for hood in hoods]),
        ("sibling", [hood.siblings for hood in hoods]),
    )
    for role, groups in by_role:
        for group in groups:
            for neighbour in group:
                add(neighbour, role, _summary(neighbour))
    return Context(
        question=search.question.text,
        items=items,
        tokens=budget.used,
        max_tokens=max_tokens,
        truncated=budget.truncated,
        search=search,
    )


def assemble_node_context(
    client: Neo4jClient,
    question: str,
    picks: Sequence[tuple[str, Role]],
    *,
    max_tokens: int = 4000,
) -> Context:
    """A context of chosen nodes, in order: the code of those picked as `changed`, the
    signature and docstring of the others (what a change review shows: the changed code, the
    code that depends on it, the tests that exercise it)."""
    by_id = GraphReader(client).neighbourhoods([node for node, _role in picks], limit=0)
    budget = _Budget(max_tokens)
    items: list[ContextItem] = []
    for node_id, role in picks:
        found = by_id.get(node_id)
        if found is None or any(item.id == node_id for item in items):
            continue
        node = found.node
        body = (node.code or _summary(node)) if role == "changed" else _summary(node)
        text = budget.fit(_header(node, role, None), body, _fence(node))
        if text is None:
            continue
        items.append(
            ContextItem(
                id=node.id, qualified_name=node.qualified_name, kind=node.kind,
                location=node.location, role=role, text=text, tokens=estimate_tokens(text),
            )
        )  # fmt: skip
    return Context(
        question=question,
        items=items,
        tokens=budget.used,
        max_tokens=max_tokens,
        truncated=budget.truncated,
        search=None,
    )
