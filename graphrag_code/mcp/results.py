"""A tool's answer as MCP returns it: compact text for the model plus the answer record as
structured content, every string through the one sanitiser (names from code and the question
echoed carried terminal escapes to the client: issue 57, item 8)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcp_types import CallToolResult, TextContent
from pydantic import TypeAdapter

from ..text import printable
from .answers import ToolFailure

__all__ = ["structured", "tool_failure", "tool_result"]

_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def structured(answer: object) -> dict[str, Any]:
    """The answer record as JSON-ready data, sanitised."""
    kind = type(answer)
    if kind not in _ADAPTERS:
        _ADAPTERS[kind] = TypeAdapter(kind)
    data: dict[str, Any] = _printable(_ADAPTERS[kind].dump_python(answer, mode="json"))
    return data


def _printable(data: Any) -> Any:
    if isinstance(data, str):
        return printable(data)
    if isinstance(data, dict):
        return {printable(key): _printable(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_printable(item) for item in data]
    return data


def tool_result(lines: Sequence[str], answer: object) -> CallToolResult:
    """An answer: its lines as text, its record as structured content."""
    return CallToolResult(
        content=[TextContent(type="text", text=printable("\n".join(lines)))],
        structured_content=structured(answer),
    )


def tool_failure(failure: ToolFailure) -> CallToolResult:
    """A tool error whose message says what to do next."""
    return CallToolResult(
        content=[TextContent(type="text", text=printable(failure.message))],
        structured_content=structured(failure),
        is_error=True,
    )
