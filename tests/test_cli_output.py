"""`--json` output: plain, parseable JSON when piped; highlighted at a terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from graphrag_code.cli.output import print_json

DATA = {"path": Path("src/ünï.py"), "text": "[bold]not markup[/bold] " + "x" * 300, "n": [1, 2]}


def test_piped_json_is_the_plain_text_scripts_read() -> None:
    console = Console(file=io.StringIO(), force_terminal=False, width=40)
    print_json(console, DATA)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert out == json.dumps(DATA, indent=2, ensure_ascii=False, default=str) + "\n"
    assert json.loads(out) == {"path": "src/ünï.py", "text": DATA["text"], "n": [1, 2]}


def test_json_at_a_terminal_is_highlighted_and_still_complete() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", width=40)
    print_json(console, DATA)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[" in out  # colours for a person
    assert "ünï" in out
    assert "[bold]not markup[/bold]" in out
