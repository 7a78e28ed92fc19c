"""An attribute our class assigns is not its external base's (issue 50, rich's recall):
`class Live(RenderHook)` with `RenderHook(ABC)` and `self.console = console if console is
not None else get_console()` made `self.console.print()` a call of `abc.ABC.console.print`,
a certain external edge, where value flow knows `self.console` is a `Console`."""

from __future__ import annotations

from .linking_helpers import assert_calls, link_snippet

_LIVE = """\
from abc import ABC
from typing import Optional


class Console:
    def show(self):
        pass


def get_console() -> Console:
    return Console()


class Hook(ABC):
    pass


class Live(Hook):
    def __init__(self, console: Optional[Console] = None):
        self.console = console if console is not None else get_console()

    def start(self):
        self.console.show()
"""


def test_an_attribute_assigned_by_our_class_is_followed_not_sent_to_its_external_base() -> None:
    linked = assert_calls(
        {"m.py": _LIVE},
        ("m.Live.start", "m.Console.show", "inferred", "the attribute `console`"),
        exactly=False,
    )
    assert not [b for (a, b) in linked.calls() if a == "m.Live.start" and b.startswith("abc.")]


def test_an_attribute_no_class_of_ours_assigns_is_still_the_external_bases() -> None:
    linked = link_snippet(
        {"m.py": _LIVE + "\n    def stop(self):\n        self.registry.clear()\n"}
    )
    assert linked.calls()[("m.Live.stop", "abc.ABC.registry.clear")][0] == "inferred"
