"""An attribute of a decorated name is the decorators' result's (issue 50, huey's recall):
`@huey.task() def add` binds `add` to a `TaskWrapper`, so `add.schedule()` runs
`TaskWrapper.schedule`, certainly, while the def itself (which has no such attribute) stays
what calling the wrapper runs."""

from __future__ import annotations

from .linking_helpers import assert_calls

_WRAPPER = """\
class TaskWrapper:
    def __init__(self, func):
        self.func = func

    def schedule(self):
        return 1


class Huey:
    def task(self):
        def decorator(func):
            return TaskWrapper(func)
        return decorator
"""


def test_a_method_of_what_a_decorator_factory_returned_is_certain() -> None:
    assert_calls(
        {
            "m.py": _WRAPPER + "\n\ndef test():\n    huey = Huey()\n\n"
            "    @huey.task()\n    def add(a):\n        return a\n\n    add.schedule()\n"
        },
        ("m.Huey.task.decorator", "m.TaskWrapper.__init__", "exact"),
        ("m.test", "m.Huey", "exact"),
        ("m.test", "m.Huey.task", "inferred"),
        ("m.test", "m.TaskWrapper.schedule", "inferred", "the decorator `huey.task(…)`"),
        exactly=False,
    )


def test_a_decorator_that_returns_the_function_leaves_its_attributes_unknown() -> None:
    # `register` hands the def back: `add.schedule` is no wrapper's method
    linked = assert_calls(
        {
            "m.py": _WRAPPER + "\n\ndef register(func):\n    return func\n"
            "\n\n@register\ndef add(a):\n    return a\n\n\ndef test():\n    add.schedule()\n"
        },
        exactly=False,
    )
    tiers = {tier for (a, b), (tier, _) in linked.calls().items() if a == "m.test"}
    assert tiers <= {"name", None}, tiers


def test_what_calling_a_decorated_name_returns_is_the_wrappers_result() -> None:
    # `add(1)` runs `TaskWrapper.__call__`, which returns a `Result`; `add`'s own `a + 1`
    # is not what the call gives back
    assert_calls(
        {
            "m.py": _WRAPPER.replace(
                "    def schedule(self):\n",
                "    def __call__(self, a):\n        return Result()\n\n    def schedule(self):\n",
            )
            + "\n\nclass Result:\n    def get(self):\n        return 1\n"
            "\n\ndef test():\n    huey = Huey()\n\n"
            "    @huey.task()\n    def add(a):\n        return a + 1\n\n    add(1).get()\n"
        },
        ("m.test", "m.Result.get", "inferred"),
        exactly=False,
    )
