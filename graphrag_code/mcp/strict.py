"""Tools that refuse arguments they do not take.

The SDK validates a call's arguments with a pydantic model that drops unknown keys, so
`diff_impact` called with `revision` (for `revisions`) reviewed the working tree instead and
answered "0 changed symbol(s) … risk low" (issue 55). `StrictTool` answers such a call with a
tool error naming the argument it did not know, the one meant where it is close, and every
argument the tool takes; its input schema says `additionalProperties: false` as well.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import TypeAdapter

from ..text import printable
from .answers import ToolFailure

if TYPE_CHECKING:
    from mcp.server.mcpserver.context import Context

__all__ = ["StrictTool", "strict_tool", "unknown_arguments"]

_FAILURE = TypeAdapter(ToolFailure)


def unknown_arguments(tool: str, given: Iterable[str], accepted: Iterable[str]) -> ToolFailure:
    """The error for arguments `tool` does not take (the accepted names as candidates)."""
    names = sorted(accepted)
    unknown = sorted(set(given) - set(names))
    parts = []
    for name in unknown:
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        parts.append(f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    message = (
        f"{tool} takes no argument " + ", ".join(parts) + ": nothing was done. Its arguments: "
        + (", ".join(names) or "none")
    )  # fmt: skip
    return ToolFailure("InvalidArgumentError", message, candidates=names)


class StrictTool(Tool):
    """A tool whose calls with unknown arguments are tool errors, not silently ignored."""

    async def run(
        self, arguments: dict[str, Any], context: Context[Any, Any], convert_result: bool = False
    ) -> Any:
        accepted = self.parameters.get("properties", {})
        if set(arguments) - set(accepted):
            failure = unknown_arguments(self.name, arguments, accepted)
            return CallToolResult(
                content=[TextContent(type="text", text=printable(failure.message))],
                structured_content=_FAILURE.dump_python(failure, mode="json"),
                is_error=True,
            )
        return await super().run(arguments, context, convert_result)


def strict_tool(fn: Callable[..., Any], name: str, annotations: ToolAnnotations) -> StrictTool:
    """`fn` as a tool named `name` that refuses unknown arguments."""
    tool = StrictTool.from_function(fn, name=name, annotations=annotations)
    assert isinstance(tool, StrictTool)  # `from_function` builds its own class
    tool.parameters["additionalProperties"] = False
    return tool
