"""`--json` output: plain, parseable JSON when piped; highlighted at a terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from graphrag_code.cli import exit_codes
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


def test_exit_codes_are_documented_as_the_code_returns_them() -> None:
    """The module's docstring said 4 for configuration and 5 for Neo4j; the code returns 1
    and 4 (issue 57, notes). The docstring, the constants and README's table must agree."""
    documented = {
        int(line.split()[0]): line.split(maxsplit=1)[1]
        for line in (exit_codes.__doc__ or "").splitlines()
        if line[:1].isdigit()
    }
    constants = {
        value
        for name, value in vars(exit_codes).items()
        if name.isupper() and isinstance(value, int)
    }
    assert set(documented) == constants
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    table = readme.split("## Exit codes", 1)[1].split("\n\n", 2)[1]
    assert {int(row.split("|")[1]) for row in table.splitlines()[2:]} == constants
    assert documented[exit_codes.NEO4J].startswith("Neo4j")
    assert "setting" in documented[exit_codes.FAILED]
