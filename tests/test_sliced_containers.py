"""A slice of a list is a list of its items, not one of them (issue 50, rich's recall):
`render_hooks = self._render_hooks[:]; for hook in render_hooks: hook.process_renderables()`
iterated one hook, whose `__iter__` is unknown, so the call stayed unresolved."""

from __future__ import annotations

from .linking_helpers import assert_calls, link_snippet

_HOOKS = """\
class Hook:
    def process(self):
        pass


class Console:
    def __init__(self):
        self._hooks = []

    def push(self, hook):
        self._hooks.append(hook)

    def run(self):
        for hook in self._hooks[:]:
            hook.process()


def main():
    console = Console()
    console.push(Hook())
    console.run()
"""


def test_iterating_a_slice_of_a_list_iterates_its_items() -> None:
    assert_calls(
        {"m.py": _HOOKS},
        ("m.Console.run", "m.Hook.process", "inferred"),
        exactly=False,
    )


def test_a_slice_of_a_tuple_holds_its_items_at_any_position() -> None:
    linked = link_snippet(
        {
            "m.py": "def a():\n    pass\n\n\ndef b():\n    pass\n\n\n"
            "def main():\n    pair = (a, b)\n    pair[1:][0]()\n"
        }
    )
    assert {b for (a, b) in linked.calls() if a == "m.main"} == {"m.a", "m.b"}
