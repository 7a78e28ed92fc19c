"""Grounded answers: retrieve, assemble context within a budget, ask a chat model, keep only
citations that point into the context.

Without an API key `ask` fails with a clear `LLMError`; `search` and `context` never need one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .errors import LLMError
from .retrieval.context import Context

__all__ = ["NOT_ENOUGH", "Answer", "ChatModel", "OpenAIChat", "answer_question"]

NOT_ENOUGH = "The indexed code does not contain enough information to answer this."

_SYSTEM = f"""You answer questions about a code base using ONLY the code excerpts provided.
Every excerpt starts with a header `### path:start-end — qualified.name (...)`.
Rules:
- Cite the excerpts you rely on as [path:start-end], exactly as in their headers.
- Do not invent functions, files or behaviour that the excerpts do not show.
- If the excerpts do not contain the answer, reply exactly: "{NOT_ENOUGH}" and then, in one
  sentence, what is missing."""

_CITATION = re.compile(r"\[([^\[\]\s]+?:\d+(?:-\d+)?)\]")


class ChatModel(Protocol):
    """Anything that turns chat messages into a reply (OpenAI, a local server, a fake)."""

    @property
    def name(self) -> str: ...

    def complete(self, messages: Sequence[dict[str, str]]) -> str: ...


class OpenAIChat:
    """An OpenAI (or OpenAI-compatible, via `OPENAI_BASE_URL`) chat model."""

    def __init__(
        self,
        model: str = "gpt-4o-mini",
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        temperature: float = 0.0,
        timeout: float = 60.0,
    ) -> None:
        self.model = model
        self._api_key = api_key
        self._base_url = base_url
        self.temperature = temperature
        self.timeout = timeout

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    def complete(self, messages: Sequence[dict[str, str]]) -> str:
        import openai

        key = self._api_key or os.environ.get("OPENAI_API_KEY")
        if not key:
            raise LLMError(
                "`ask` needs a chat model: set OPENAI_API_KEY (and OPENAI_BASE_URL for an "
                "OpenAI-compatible server such as a local one). `search` and `context` work "
                "without one."
            )
        client = openai.OpenAI(api_key=key, base_url=self._base_url, timeout=self.timeout)
        try:
            response = client.chat.completions.create(
                model=self.model,
                messages=list(messages),  # type: ignore[arg-type]
                temperature=self.temperature,
            )
        except openai.AuthenticationError as exc:
            raise LLMError(f"the chat model rejected the API key ({exc.status_code})") from exc
        except openai.APIError as exc:
            raise LLMError(f"the chat model failed: {exc}") from exc
        finally:
            client.close()
        return response.choices[0].message.content or ""


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
