"""JSON on standard output, as each command's `--json` prints it.

Highlighted for a person at a terminal; plain when piped, which is where scripts, CI and
agents read it. Rich's highlighting costs ~2.5 ms a kilobyte: 3.2 s for the 1.3 MB that
`diff --json` prints for a three-file change on Django, more than the diff itself takes
(1.2 s; BENCHMARKS.md §10d).
"""

from __future__ import annotations

import json

from rich.console import Console

from ..text import printable

__all__ = ["print_json"]


def print_json(console: Console, data: object) -> None:
    """`data` as JSON indented by two, non-ASCII kept, anything else as `str` (dates, paths)."""
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    if console.is_terminal:
        console.print_json(text)
    else:
        console.file.write(printable(text, json=True) + "\n")
        console.file.flush()
