"""The token guard: a question of any size is answered, or refused with a clear message,
and no answer exceeds the server's budget (lists are cut, and the answer says how many items
it left out and how to ask for fewer).

Tokens are estimated as the context assembler does (word runs + punctuation marks), which
tracks BPE token counts of code closely enough for a budget.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidArgumentError
from ..retrieval.context import estimate_tokens

__all__ = [
    "check_name",
    "check_question",
    "cut_text",
    "estimate_tokens",
    "fit_lines",
    "narrowing_hint",
]


def check_question(text: str, *, limit: int) -> str:
    """`text` stripped, or `InvalidArgumentError` when it is empty or longer than `limit`
    tokens (a pasted file is not a question: the full-text leg would match everything)."""
    text = text.strip()
    if not text:
        raise InvalidArgumentError("the question is empty")
    tokens = estimate_tokens(text)
    if tokens > limit:
        raise InvalidArgumentError(
            f"the question is about {tokens} tokens; this server takes at most {limit}. Ask "
            "in a sentence that names the symbol, file or behaviour (for code you have, name "
            "its function and use `symbol` or `callers`)."
        )
    return text


def check_name(name: str, *, limit: int, what: str = "name") -> str:
    """A symbol, module, path or repository name: stripped, not empty, at most `limit`
    characters."""
    name = name.strip()
    if not name:
        raise InvalidArgumentError(f"the {what} is empty")
    if len(name) > limit:
        raise InvalidArgumentError(
            f"the {what} is {len(name)} characters long; at most {limit} are accepted "
            "(a qualified name such as pkg.module.Class.method, or a file path)"
        )
    return name


def fit_lines(fixed: Sequence[str], items: Sequence[str], *, budget: int) -> int:
    """How many of `items` (one rendered line or block each, in order) fit in `budget` tokens
    beside the `fixed` lines (header, footer) — at least one, so an answer is never empty."""
    used = sum(estimate_tokens(line) + 1 for line in fixed)
    kept = 0
    for item in items:
        used += estimate_tokens(item) + 1
        if used > budget and kept > 0:
            break
        kept += 1
    return kept


def cut_text(text: str, *, budget: int) -> tuple[str, int]:
    """`text` cut at a line boundary to about `budget` tokens, and how many lines were cut."""
    lines = text.splitlines()
    used = 0
    for index, line in enumerate(lines):
        used += estimate_tokens(line) + 1
        if used > budget:
            return "\n".join(lines[:index]), len(lines) - index
    return text, 0


def narrowing_hint(
    *,
    fewer: tuple[str, int] | None = None,
    depth: int | None = None,
    within: bool | None = None,
    possible: bool = False,
    narrower: str | None = None,
) -> str:
    """How to ask for a shorter answer once one was cut: only what would shorten it, never
    what was asked already (a depth-1 answer said "ask with depth 1": issue 55). `fewer` is
    a count argument and the items that fitted (`("k", 7)`); `within` False proposes staying
    in one repository (pass it only when the answer left it); `possible` proposes dropping
    the possible edges; `narrower` a narrower subject."""
    ways: list[str] = []
    if fewer is not None and fewer[1] >= 1:
        ways.append(f"{fewer[0]}={fewer[1]}")
    if depth is not None and depth > 1:
        ways.append(f"depth={depth - 1}")
    if within is False:
        ways.append("within=true")
    if possible:
        ways.append("possible=false")
    if narrower:
        ways.append(narrower)
    if not ways:
        return "ask a narrower question"
    return "ask with " + (ways[0] if len(ways) == 1 else ", ".join(ways[:-1]) + " or " + ways[-1])
