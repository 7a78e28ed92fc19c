"""Grounded answers: retrieve, assemble context within a budget, ask a chat model, keep only
citations that point into the context.

Without an API key `ask` fails with a clear `LLMError`; `search` and `context` never need one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..llm import ChatModel
from .context import Context

__all__ = ["NOT_ENOUGH", "Answer", "answer_question"]

NOT_ENOUGH = "The indexed code does not contain enough information to answer this."

_SYSTEM = f"""You answer questions about a code base using ONLY the code excerpts provided.
Every excerpt starts with a header `### path:start-end — qualified.name (...)`.
Rules:
- Cite the excerpts you rely on as [path:start-end], exactly as in their headers.
- Do not invent functions, files or behaviour that the excerpts do not show.
- If the excerpts do not contain the answer, reply exactly: "{NOT_ENOUGH}" and then, in one
  sentence, what is missing."""

_CITATION = re.compile(r"\[([^\[\]\s]+?:\d+(?:-\d+)?)\]")


@dataclass(frozen=True)
class Answer:
    question: str
    text: str
    citations: list[str]  # [path:start-end] references that point into the context
    invalid_citations: list[str]  # references the model made up
    enough_context: bool
    context: Context
    model: str | None


def answer_question(question: str, context: Context, chat: ChatModel) -> Answer:
    """Ask `chat` to answer `question` from `context`; no hits means no call to the model."""
    if not context.items:
        return Answer(question, NOT_ENOUGH, [], [], False, context, None)
    prompt = (
        f"Question: {question}\n\nCode excerpts ({len(context.items)}, "
        f"{'truncated to fit' if context.truncated else 'complete'}):\n\n{context.text}"
    )
    reply = chat.complete(
        [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": prompt}]
    )
    known = set(context.citations)
    cited = list(dict.fromkeys(_CITATION.findall(reply)))
    return Answer(
        question=question,
        text=reply.strip(),
        citations=[c for c in cited if c in known],
        invalid_citations=[c for c in cited if c not in known],
        enough_context=NOT_ENOUGH not in reply,
        context=context,
        model=chat.name,
    )
