"""A test file's classes are fixtures of that file (issue 50, stop 65): their overrides are
`dispatch` callees of another test module only where one of the two imports the other. trio's
`sock.close()` in one test file reached the fake sockets of every other test file; huey's
`self.get_huey()` in `tests/base.py` runs the override of each test case importing it."""

from __future__ import annotations

from .linking_helpers import assert_calls

_BASE = """\
class Socket:
    def close(self) -> None:
        pass


def shut(sock: Socket) -> None:
    sock.close()
"""

_FAKE = """\
from pkg.base import Socket


class FakeSocket(Socket):
    def close(self) -> None:
        pass
"""

_OTHER = """\
from pkg.base import Socket


def test_close(sock: Socket) -> None:
    sock.close()
"""


def _files(**more: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/base.py": _BASE,
        "pkg/tests/__init__.py": "",
        "pkg/tests/test_fake.py": _FAKE,
        **more,
    }


def test_another_test_file_reaches_no_override_a_test_file_defines() -> None:
    assert_calls(
        _files(**{"pkg/tests/test_other.py": _OTHER}),
        ("pkg.base.shut", "pkg.base.Socket.close", "inferred"),
        ("pkg.base.shut", "pkg.tests.test_fake.FakeSocket.close", "dispatch"),
        ("pkg.tests.test_other.test_close", "pkg.base.Socket.close", "inferred"),
    )


def test_a_test_module_that_a_test_file_imports_reaches_its_overrides() -> None:
    helper = _OTHER.replace("def test_close", "def close_it")
    fake = "from pkg.tests.helper import close_it\n" + _FAKE
    assert_calls(
        _files(**{"pkg/tests/helper.py": helper, "pkg/tests/test_fake.py": fake}),
        ("pkg.base.shut", "pkg.base.Socket.close", "inferred"),
        ("pkg.base.shut", "pkg.tests.test_fake.FakeSocket.close", "dispatch"),
        ("pkg.tests.helper.close_it", "pkg.base.Socket.close", "inferred"),
        ("pkg.tests.helper.close_it", "pkg.tests.test_fake.FakeSocket.close", "dispatch"),
    )


def test_a_test_file_reaches_the_overrides_of_a_helper_module() -> None:
    # fakes made to be handed on (`trio.testing`): not narrowed
    assert_calls(
        {
            "pkg/__init__.py": "",
            "pkg/base.py": _BASE,
            "pkg/testing.py": _FAKE,
            "pkg/tests/__init__.py": "",
            "pkg/tests/test_other.py": _OTHER,
        },
        ("pkg.base.shut", "pkg.base.Socket.close", "inferred"),
        ("pkg.base.shut", "pkg.testing.FakeSocket.close", "dispatch"),
        ("pkg.tests.test_other.test_close", "pkg.base.Socket.close", "inferred"),
        ("pkg.tests.test_other.test_close", "pkg.testing.FakeSocket.close", "dispatch"),
    )


def test_a_helper_module_reaches_the_overrides_of_a_test_file() -> None:
    # `flask.testing`'s client is handed whatever the tests build
    helper = _OTHER.replace("def test_close", "def close_it")
    assert_calls(
        _files(**{"pkg/testing.py": helper}),
        ("pkg.base.shut", "pkg.base.Socket.close", "inferred"),
        ("pkg.base.shut", "pkg.tests.test_fake.FakeSocket.close", "dispatch"),
        ("pkg.testing.close_it", "pkg.base.Socket.close", "inferred"),
        ("pkg.testing.close_it", "pkg.tests.test_fake.FakeSocket.close", "dispatch"),
    )
