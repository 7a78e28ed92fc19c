"""The offline linking helper: a snippet linked in milliseconds, and a failure that lists
every difference at once."""

from __future__ import annotations

import pytest

from graphrag_code.model import EdgeKind

from .linking_helpers import assert_calls, check_calls, link_snippet

_SNIPPET = {
    "pkg/__init__.py": "",
    "pkg/lib.py": "class Box:\n    @property\n    def size(self) -> int:\n        return 1\n\n"
    "    @size.setter\n    def size(self, value: int) -> None:\n        pass\n",
    "pkg/use.py": "from .lib import Box\n\n\ndef grow(box: Box) -> None:\n    box.size += 1\n"
    "    print(box)\n",
}


def test_a_snippet_is_linked_offline_and_named_by_qualified_names() -> None:
    linked = assert_calls(
        _SNIPPET,
        ("pkg.use.grow", "pkg.lib.Box.size", "inferred", "reads the property"),
    )
    # the setter is a second definition of the same name: its ordinal tells them apart
    calls = [link for link in linked.links if link.edge.kind == EdgeKind.CALLS]
    edges = {(link.target, link.ordinal) for link in calls if link.source == "pkg.use.grow"}
    assert edges == {("pkg.lib.Box.size", 1), ("pkg.lib.Box.size", 2), ("<builtin>.print", 1)}
    assert linked.calls()[("pkg.use.grow", "<builtin>.print")] == ("exact", None)
    assert linked.unresolved_calls("pkg.use.grow") == [0]


def test_a_failure_lists_every_difference() -> None:
    calls = link_snippet({"m.py": "def g():\n    pass\n\n\ndef f():\n    g()\n"}).calls()
    with pytest.raises(AssertionError) as failed:
        check_calls(
            calls,
            [("m.f", "m.h"), ("m.f", "m.g", "inferred"), ("m.f", "m.g", "exact", "because")],
            exactly=True,
        )
    assert str(failed.value).splitlines()[:4] == [
        "CALLS edges differ:",
        "  missing     m.f -> m.h",
        "  tier        m.f -> m.g: exact, not inferred (None)",
        "  via         m.f -> m.g: None lacks 'because'",
    ]
    check_calls(calls, [("m.f", "m.g", "exact")], exactly=True)
