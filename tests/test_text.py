"""The text rules shared by many parts: Lucene escaping (the code search and the harness's
document search) and the one sanitiser of what is printed."""

from __future__ import annotations

import io
import json

import pytest
from rich.table import Table
from rich.text import Text

from graphrag_code.cli.console import SafeConsole
from graphrag_code.cli.output import print_json
from graphrag_code.text import escape_lucene, printable


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("plain", "plain"),
        ("f(x)", r"f\(x\)"),
        ('+-!(){}[]^"~*?:\\/', r"\+\-\!\(\)\{\}\[\]\^\"\~\*\?\:\\\/"),
        ("a&&b||c", r"a\&\&b\|\|c"),
        ("OR", '"OR"'),  # a bare operator word becomes a plain term
        ("TO", '"TO"'),
        ("or", "or"),  # lowercase words are not operators
        ("ORDER", "ORDER"),
    ],
)
def test_escape_lucene(term: str, expected: str) -> None:
    assert escape_lucene(term) == expected


# -- one sanitiser for what reaches a terminal (issue 57, item 8) -------------------------------
def test_printable_escapes_what_a_terminal_acts_on_and_keeps_the_rest() -> None:
    hostile = "m\x1b]0;t\x07\x1b[2J\r\x7f\x9b\u202e\u2028\udce9"
    assert printable(hostile) == "m\\x1b]0;t\\x07\\x1b[2J\\x0d\\x7f\\x9b\\u202e\\u2028\\udce9"
    assert printable("\x9b\udce9", json=True) == "\\u009b\\udce9"
    plain = "naïve 🐍 ∑\tcafé\nÜnïcödé"
    assert printable(plain) is plain
    assert printable(printable(hostile)) == printable(hostile)  # escaping twice changes nothing


def test_every_cli_output_path_prints_names_escaped() -> None:
    """Before: the CLI printed a method named `ESC]0;… BEL ESC[2J` raw, at a terminal too."""
    name = "Evil.\x1b]0;pwned\x07\x1b[2J\x1b[31mred\u202e"
    out = io.StringIO()
    console = SafeConsole(file=out, force_terminal=True, color_system="standard", width=200)
    table = Table()
    table.add_column("name")
    table.add_row(name)
    console.print(table)
    console.print(f"[bold]{name}[/]")
    console.print(Text.assemble(("error: ", "bold red"), name))
    print_json(console, {"name": name})
    written = out.getvalue()
    for sequence in ("\x1b]0;", "\x07", "\x1b[2J", "\x1b[31m", "\u202e"):
        assert sequence not in written
    assert "\\x1b[31mred\\u202e │" in written  # the whole name, in a cell measured for it
    assert "\\u001b]0;pwned\\u0007\\u001b[2J" in written  # print_json at a terminal
    assert "\x1b[1m" in written  # rich's own styles still reach the terminal
    piped = io.StringIO()
    print_json(SafeConsole(file=piped), {"name": "a\x9b\udce9"})
    assert json.loads(piped.getvalue()) == {"name": "a\x9b\udce9"}  # valid JSON, escaped
    assert "\x9b" not in piped.getvalue()
