"""`SafeConsole`: the console every command prints through, which escapes what a terminal
would act on (issue 57, item 8).

A TypeScript method named with a string literal holding `ESC]0;… BEL ESC[2J ESC[31m` retitled,
cleared and recoloured the terminal of whoever listed its callers. Names come from code in
tables, markup strings, `Text`, JSON and progress lines alike, so the escaping is done where
they all meet: strings as rich turns them into text (so tables measure the escaped text),
and every segment a render yields, before styles become escape sequences of rich's own (its
control segments, the cursor moves of a progress bar, pass untouched).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.text import Text

from ..text import printable

__all__ = ["SafeConsole"]


class SafeConsole(Console):
    """A `rich` console whose output holds no control character that came from data."""

    def render_str(self, text: str, **options: Any) -> Text:
        # strings (markup, table cells) escaped before they are measured: escaping only the
        # rendered segments would crop a table cell to the width of its unescaped text
        return super().render_str(printable(text), **options)

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control is None:
                text = printable(segment.text)
                if text is not segment.text:
                    segment = Segment(text, segment.style, None)
            yield segment
