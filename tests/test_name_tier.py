"""The `name` tier (issue 50): `x.m()` whose receiver nothing types is linked to the one method
of the repository named `m`, but not where the receiver is known to be something else: the
standard library's object (`re.compile(...).match`, `logging.getLogger().error`), a built-in
type's method on a call's result (`str(x).rstrip()`), or an attribute its own class assigns
(`self.get_time = get_time`). On rich, 13 of the 32 `name` edges were such."""

from __future__ import annotations

from .linking_helpers import assert_calls

_NAMESAKES = """\
class Palette:
    def match(self, color):
        return color

    def rstrip(self):
        return self

    def error(self):
        return None


class Task:
    def get_time(self) -> float:
        return 0.0
"""


def test_a_standard_library_objects_method_is_not_a_namesake_of_ours() -> None:
    assert_calls(
        {
            "m.py": "import logging\nimport re\n\n" + _NAMESAKES + "\n\n"
            "re_word = re.compile('x')\nlog = logging.getLogger('m')\n\n\n"
            "def words(text):\n"
            "    found = re_word.match(text)\n"
            "    log.error('none')\n"
            "    return found.span()\n"
        }
    )


def test_a_built_in_method_of_a_calls_result_is_not_a_namesake_of_ours() -> None:
    assert_calls({"m.py": _NAMESAKES + "\n\ndef code(text):\n    return str(text).rstrip()\n"})


def test_an_attribute_its_class_assigns_is_not_a_namesake_method() -> None:
    assert_calls(
        {
            "m.py": _NAMESAKES + "\n\nclass Progress:\n"
            "    def __init__(self, get_time):\n        self.get_time = get_time\n\n"
            "    def start(self):\n        return self.get_time()\n"
        }
    )


def test_another_packages_result_may_still_be_ours() -> None:
    # click's `ctx.ensure_object(ScriptInfo)` returns an instance of the class it is given
    assert_calls(
        {
            "m.py": "import click\n\n" + _NAMESAKES + "\n\n"
            "def get(ctx):\n    info = click.get_current_context()\n    return info.match(1)\n"
        },
        ("m.get", "m.Palette.match", "name"),
    )
