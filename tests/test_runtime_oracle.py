"""The runtime oracles (per-test coverage, call tracer, vulture) on a tiny package and suite.

`tests/fixtures/runtime_oracle/` holds a package `rtpkg` (a client dispatching to a transport
override, a context manager, a generator, a comprehension, a lambda, a decorator, a coroutine,
a docstring-only function, import-time code, a function no test calls) and its own suite under
`checks/`. Both oracles run that suite in this venv (pytest + coverage from the bench extras),
exactly as they run a real package's suite in its own venv; each expectation below was read
off the fixture's source.
"""

from __future__ import annotations

import os
import shutil
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from benchmarks.oracles import dead_vulture, runtime_calls, runtime_services, runtime_tests
from benchmarks.oracles.runtime_env import Deselected, Suite, has_pytest_config

FIXTURE = Path(__file__).parent / "fixtures" / "runtime_oracle"
CHECKS = "checks/check_rtpkg.py::"

Json = dict[str, Any]


@pytest.fixture(scope="module")
def suite() -> Suite:
    return Suite(
        "rtpkg", "0.0.0", FIXTURE, FIXTURE / "src", "rtpkg", Path(sys.executable), ("checks",)
    )


@pytest.fixture(scope="module")
def tests_oracle(suite: Suite, tmp_path_factory: pytest.TempPathFactory) -> Json:
    return runtime_tests.build(suite, tmp_path_factory.mktemp("runtime_tests"))


@pytest.fixture(scope="module")
def calls_oracle(suite: Suite, tmp_path_factory: pytest.TempPathFactory) -> Json:
    return runtime_calls.build(suite, tmp_path_factory.mktemp("runtime_calls"))


def _tests_of(oracle: Json, qualified_name: str) -> set[str]:
    return {t.removeprefix(CHECKS) for t in oracle["functions"][qualified_name]["tests"]}


def test_header_and_outcomes(tests_oracle: Json, calls_oracle: Json) -> None:
    for oracle in (tests_oracle, calls_oracle):
        assert oracle["package"] == "rtpkg"
        assert oracle["root"] == "runtime_oracle"
        assert oracle["import_root"] == "src"
        assert (oracle["passed"], oracle["failed"], oracle["errors"]) == (7, 0, 0)
        assert oracle["skipped"] == 1
    assert tests_oracle["command"].startswith("coverage run -m pytest")
    assert calls_oracle["tracer"] == "sys.setprofile"
    test = tests_oracle["tests"][CHECKS + "test_request"]
    assert test == {
        "file": "checks/check_rtpkg.py",
        "line": 12,
        "qualified_name": "checks.check_rtpkg.test_request",
    }


def test_functions_come_from_ast_with_def_lines(tests_oracle: Json) -> None:
    functions = tests_oracle["functions"]
    assert len(functions) == 29
    assert functions["rtpkg.util.decorated"]["line"] == 48  # the def, not the decorator
    assert functions["rtpkg.util.outer.inner"]["file"] == "src/rtpkg/util.py"
    assert functions["rtpkg.transport.Client.closed"]["tags"] == ["property"]


def test_each_function_maps_to_the_tests_that_ran_it(tests_oracle: Json) -> None:
    assert _tests_of(tests_oracle, "rtpkg.transport.EchoTransport.handle") == {"test_request"}
    assert _tests_of(tests_oracle, "rtpkg.util.square") == {
        "test_generator",
        "test_comprehension_and_lambda",
        "test_context_manager",
    }
    # A nested function is its own function: the outer ran in the same test, the decorator
    # factory only at import time.
    assert _tests_of(tests_oracle, "rtpkg.util.outer.inner") == {"test_decorator_and_nested"}
    assert _tests_of(tests_oracle, "rtpkg.util.decorate.wrapper") == {"test_decorator_and_nested"}
    # A body that is only a docstring still shows its call.
    assert _tests_of(tests_oracle, "rtpkg.util.documented") == {"test_docstring_only"}
    assert _tests_of(tests_oracle, "rtpkg.util.pause") == {"test_coroutine"}
    # Run by a fixture in the test's setup phase.
    setup_value = tests_oracle["functions"]["rtpkg.util.setup_value"]
    assert setup_value["fixture_only_tests"] == [CHECKS + "test_context_manager"]


def test_never_executed_and_import_time_code(tests_oracle: Json) -> None:
    assert tests_oracle["never_executed"] == [
        "rtpkg.transport.BaseTransport.handle",
        "rtpkg.util.never_called",
    ]
    assert tests_oracle["executed_outside_tests"] == [
        "rtpkg.util.build_registry",
        "rtpkg.util.decorate",
    ]


def _edges(oracle: Json) -> dict[tuple[str, str], Json]:
    return {
        (e["caller"].removeprefix("rtpkg."), e["callee"].removeprefix("rtpkg.")): e
        for e in oracle["edges"]
    }


def test_runtime_edges(calls_oracle: Json) -> None:
    edges = _edges(calls_oracle)
    # Dispatch: the override that ran, not the abstract base method.
    send = edges["transport.Client.send", "transport.EchoTransport.handle"]
    assert send["call_lines"] == [39]
    assert send["explicit"] is True
    assert ("transport.Client.send", "transport.BaseTransport.handle") not in edges
    # C() -> __init__, `with` -> __enter__ / __exit__, a property read.
    assert edges["transport.request", "transport.Client.__init__"]["kind"] == "init"
    enter = edges["transport.request", "transport.Client.__enter__"]
    assert (enter["kind"], enter["explicit"]) == ("dunder", False)
    assert edges["transport.Client.close", "transport.Client.closed"]["kind"] == "property"
    # A generator or coroutine resumed is not called again.
    assert edges["util.total", "util.numbers"]["count"] == 1
    assert edges["util.numbers", "util.square"]["count"] == 3
    # A coroutine an asyncio task starts (`wait_for(pause(), 5)`) has the event loop below it:
    # its caller is the frame that made it (aiocache's `_timeout`, stop 65).
    assert edges["util.fetch", "util.pause"]["count"] == 2
    assert edges["util.fetch", "util.pause"]["call_lines"] == [81]
    # Comprehensions and lambdas stand for the function that contains them.
    assert edges["util.apply_all", "util.square"]["count"] == 2
    assert edges["util.sort_by_key", "util.key_of"]["count"] == 3
    assert edges["util.outer", "util.outer.inner"]["explicit"] is True
    assert edges["util.decorate.wrapper", "util.decorated"]["explicit"] is False
    # contextlib calls the generator of a @contextmanager: not a package -> package edge.
    assert ("util.use_opened", "util.opened") not in edges
    assert edges["util.opened", "util.square"]["tests"] == 1
    # Import-time calls from a function count (tests: 0); module-level callers do not.
    assert edges["util.build_registry", "util.square"]["tests"] == 0
    assert calls_oracle["summary"]["calls_from_module_level"] == 2
    assert calls_oracle["summary"]["unknown_callees"] == []


def test_chains_follow_the_call_stack(calls_oracle: Json) -> None:
    chains = {c["test"].removeprefix(CHECKS): c["path"] for c in calls_oracle["chains"]}
    assert chains == {
        "test_request": [
            "rtpkg.transport.request",
            "rtpkg.transport.Client.send",
            "rtpkg.transport.EchoTransport.handle",
            "rtpkg.transport.EchoTransport._format",
        ],
        "test_generator": ["rtpkg.util.total", "rtpkg.util.numbers", "rtpkg.util.square"],
    }
    edges = _edges(calls_oracle)
    for path in chains.values():
        for caller, callee in pairwise(path):
            assert (caller.removeprefix("rtpkg."), callee.removeprefix("rtpkg.")) in edges
    assert calls_oracle["summary"]["chains_broken"] == 0


def test_vulture_baseline_is_judged_by_coverage(tests_oracle: Json) -> None:
    data = dead_vulture.build(
        "rtpkg", "0.0.0", FIXTURE, FIXTURE / "src", "rtpkg", tests_oracle=tests_oracle
    )
    (never_called,) = [i for i in data["items"] if i["name"] == "never_called"]
    assert never_called["qualified_name"] == "rtpkg.util.never_called"
    assert never_called["never_executed"] is True
    assert never_called["type"] == "function"
    assert data["summary"]["functions_never_executed"] >= 1


@pytest.mark.parametrize("through_symlink", [True, False], ids=["symlinked", "plain"])
def test_deselect_applies_with_or_without_a_symlinked_root(
    tmp_path: Path, through_symlink: bool
) -> None:
    # A worktree reaches the shared cache through a symlink, the main checkout does not;
    # pytest names tests from resolved paths, so in both the ids must start at the sdist root
    # for `--deselect` to match.
    link = tmp_path / "cache"
    link.symlink_to(FIXTURE, target_is_directory=True)
    if not through_symlink:
        link = FIXTURE
    suite = Suite(
        "rtpkg", "0.0.0", link, link / "src", "rtpkg", Path(sys.executable), ("checks",),
        (Deselected(CHECKS + "test_request", "left out on purpose"),),
    )  # fmt: skip
    oracle = runtime_calls.build(suite, tmp_path / "work")
    assert (oracle["passed"], oracle["failed"], oracle["skipped"]) == (6, 0, 1)
    assert oracle["deselected"] == [
        {"nodeid": CHECKS + "test_request", "reason": "left out on purpose"}
    ]
    assert all(c["test"].startswith(CHECKS) for c in oracle["chains"])
    assert ("rtpkg.transport.Client.send", "rtpkg.transport.EchoTransport.handle") not in {
        (e["caller"], e["callee"]) for e in oracle["edges"]
    }


def test_a_suite_without_pytest_config_gets_an_empty_one(tmp_path: Path) -> None:
    # Else pytest walks up from the sdist and applies whatever configuration it meets first.
    (tmp_path / "pyproject.toml").write_text("[build-system]\nrequires = []\n")
    assert not has_pytest_config(tmp_path)
    (tmp_path / "setup.cfg").write_text("[tool:pytest]\ntestpaths = tests\n")
    assert has_pytest_config(tmp_path)
    assert has_pytest_config(FIXTURE)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server on PATH")
def test_redis_server_runs_only_inside_the_block(tmp_path: Path) -> None:
    address = (runtime_services.REDIS_HOST, runtime_services.REDIS_PORT)
    if runtime_services.port_in_use(*address):
        pytest.skip("port 6379 is taken here")
    with runtime_services.redis_server(tmp_path):
        assert runtime_services.answers_ping(*address)
        with pytest.raises(RuntimeError, match="in use"), runtime_services.redis_server(tmp_path):
            pass  # a second server would share (and flush) the first one's data
    assert not runtime_services.port_in_use(*address)


def test_the_processes_a_test_starts_are_traced_when_asked(tmp_path: Path) -> None:
    # typer's tutorial tests run each script again with `python -m coverage run`: with
    # `subprocesses`, the calls of such a child are edges of the oracle too (the test run itself
    # makes none here).
    root = tmp_path / "pkg"
    shutil.copytree(FIXTURE / "src", root / "src")
    shutil.copyfile(FIXTURE / "pytest.ini", root / "pytest.ini")
    (root / "checks").mkdir()
    (root / "checks" / "check_child.py").write_text(
        "import subprocess, sys\n\n\n"
        "def test_child():\n"
        "    code = 'from rtpkg.transport import Client, EchoTransport; "
        'Client(EchoTransport()).send("x")\'\n'
        "    subprocess.run([sys.executable, '-c', code], check=True, cwd='src')\n"
    )
    suite = Suite(
        "rtpkg", "0.0.0", root, root / "src", "rtpkg", Path(sys.executable), ("checks",),
        subprocesses=True,
    )  # fmt: skip
    oracle = runtime_calls.build(suite, tmp_path / "work")
    assert oracle["passed"] == 1
    assert len(list((tmp_path / "work" / "children").glob("*.json"))) == 1  # the one child
    assert ("rtpkg.transport.Client.send", "rtpkg.transport.EchoTransport.handle") in {
        (e["caller"], e["callee"]) for e in oracle["edges"]
    }


@pytest.mark.parametrize("scripts", [True, False])
def test_the_venvs_scripts_are_on_path_when_asked(
    tmp_path: Path, scripts: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # num2words's CLI tests run its `num2words` script by name: in an activated venv it is on
    # `PATH`, under the harness (the venv's interpreter called by path) only with `scripts`.
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    root = tmp_path / "pkg"
    shutil.copytree(FIXTURE / "src", root / "src")
    shutil.copyfile(FIXTURE / "pytest.ini", root / "pytest.ini")
    (root / "checks").mkdir()
    bin_dir = str(Path(sys.executable).parent)
    (root / "checks" / "check_path.py").write_text(
        "import os\n\n\n"
        "def test_first_on_path():\n"
        f"    assert os.environ['PATH'].split(os.pathsep)[0] == {bin_dir!r}\n"
    )
    suite = Suite(
        "rtpkg", "0.0.0", root, root / "src", "rtpkg", Path(sys.executable), ("checks",),
        scripts=scripts,
    )  # fmt: skip
    oracle = runtime_tests.build(suite, tmp_path / "work")
    assert (oracle["passed"], oracle["failed"]) == ((1, 0) if scripts else (0, 1))
    assert suite.child_path() == (f"{bin_dir}{os.pathsep}/usr/bin:/bin" if scripts else None)
