"""Chat models: the protocol `ask` needs, and an OpenAI (or OpenAI-compatible) client."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Protocol

from .errors import LLMError

__all__ = ["ChatModel", "OpenAIChat"]


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
