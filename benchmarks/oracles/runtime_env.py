"""Packages, venvs, function spans and test runs shared by the runtime oracles.

The runtime oracles (``runtime_tests``: which test executed which function, by coverage.py;
``runtime_calls``: caller -> callee edges seen by a call tracer) run a package's *own* test
suite. Everything here is prepared without graphrag_code:

* the sdist (``packages.download_sdist``, checked against a pinned sha256) is unpacked into
  ``benchmarks/cache/oracles/runtime/<name>-<version>/`` (a copy of its own: a test run writes
  ``__pycache__`` and coverage data, the shared ``cache/src`` copy stays pristine);
* a venv ``benchmarks/cache/oracles/runtime/venvs/<name>-<version>/`` gets the *complete*
  pinned closure of test and runtime requirements (``pip install --no-deps``, then ``pip check``)
  and the package itself installed editable from the unpacked sdist, so the test suite runs the
  very files the oracles map to functions;
* ``package_functions`` lists every ``def`` / ``async def`` of the package from ``ast`` with the
  lines that prove it ran (its body minus nested functions' bodies);
* ``run_suite`` runs pytest in that venv with ``runtime_plugin`` loaded (``-p rt_oracle_plugin``).

Never import ``graphrag_code`` from here.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import (
    ORACLE_OUT_DIR,
    SDIST_DIR,
    canonical_name,
    download_sdist,
    extract_sdist,
    locate_package,
    package_modules,
    parse_spec,
    pinned,
)
from benchmarks.oracles.runtime_services import redis_server

RUNTIME_DIR = ORACLE_OUT_DIR / "runtime"
VENV_DIR = RUNTIME_DIR / "venvs"
PLUGIN_SOURCE = Path(__file__).resolve().parent / "runtime_plugin.py"
PLUGIN_MODULE = "rt_oracle_plugin"

JsonDict = dict[str, Any]

_COVERAGE = "coverage==7.17.5"  # as the `bench` extra pins it: the harness reads its data
_SETUPTOOLS = ("setuptools==75.6.0", "wheel==0.45.1")


@dataclass(frozen=True)
class Deselected:
    """A test left out of the run (pytest ``--deselect`` takes node id prefixes)."""

    nodeid: str
    reason: str


@dataclass(frozen=True)
class TestsArchive:
    """A suite the sdist does not ship (rich's sdist has no ``tests/``), taken from the
    release's tag: a tar in ``cache/sdists/``, checked against its sha256 and unpacked into
    the sdist root."""

    file: str
    sha256: str
    made_by: str
    """The command that makes the tar (the harness never reaches the forge itself)."""


@dataclass(frozen=True)
class RuntimePackage:
    """A package whose own test suite is run, with everything it needs pinned."""

    name: str
    version: str
    sdist_sha256: str
    suite_requirements: tuple[str, ...]
    """What the suite needs besides the package's pinned runtime dependencies
    (``packages.PinnedPackage.dependencies``): the rest of the closure of its test and runtime
    requirements."""
    build_requirements: tuple[str, ...]
    """The sdist's build backend, for the editable install without build isolation."""
    pytest_args: tuple[str, ...] = ("tests",)
    deselect: tuple[Deselected, ...] = ()
    top_level: str | None = None
    timeout_s: int = 3600
    threads: bool = False
    """Trace the calls of every thread, not only the main one (an app the tests drive
    through a client that runs it in a thread of its own)."""
    tests_archive: TestsArchive | None = None
    redis: bool = False
    """The suite talks to a Redis server on localhost's default port (``runtime_services``
    starts one for each run and stops it after)."""
    subprocesses: bool = False
    """Trace the Python processes the tests start too (a CLI run again as a script): a
    ``sitecustomize`` beside the plugin starts the tracer in each and writes its edges."""
    scripts: bool = False
    """The tests run the package's console scripts by name (num2words): the venv's ``bin``
    goes first on ``PATH``, as in an activated venv, or each such test fails unmutated."""

    @property
    def spec(self) -> str:
        """``name==version``."""
        return f"{self.name}=={self.version}"

    @property
    def requirements(self) -> tuple[str, ...]:
        """The complete closure of test and runtime requirements, installed with
        ``--no-deps``: the package's pinned dependencies, then the suite's."""
        return (*pinned(self.name, self.version).dependencies, *self.suite_requirements)

    @property
    def key(self) -> str:
        """``<name>-<version>``: the folder, venv and output file stem."""
        return f"{canonical_name(self.name)}-{self.version}"


_HATCH_VCS = (
    "hatchling==1.25.0",
    "hatch-vcs==0.4.0",
    "setuptools-scm==8.1.0",
    "setuptools==75.6.0",
    "hatch-fancy-pypi-readme==24.1.0",
    "editables==0.5",
    "pathspec==0.12.1",
    "trove-classifiers==2024.7.2",
)

_NO_IPV6 = "no IPv6 on this machine: binding or connecting to ::1 fails"
_ANYIO_TCP = "tests/test_sockets.py::TestTCPStream::"
_ANYIO_BACKENDS = ("asyncio", "asyncio+uvloop", "trio")
_ANYIO_IPV6_TESTS = (
    "test_close_during_receive", "test_concurrent_receive", "test_concurrent_send",
    "test_connect_tcp_with_tls", "test_connect_tcp_with_tls_cert_check_fail",
    "test_extra_attributes", "test_happy_eyeballs", "test_iterate", "test_receive_after_close",
    "test_receive_timeout", "test_send_after_close", "test_send_after_peer_closed",
    "test_send_eof", "test_send_large_buffer", "test_send_receive", "test_socket_options",
)  # fmt: skip
#: anyio's tests that need IPv6 (parametrised `ipv6`, or `dualstack` / `multi`, which try
#: IPv6 first). `test_unretrieved_future_exception_server_crash[ipv4-asyncio]` passes once the
#: IPv6 ones are gone (it failed on a leaked IPv6 socket they left behind).
_ANYIO_DESELECT = (
    *(
        Deselected(f"{_ANYIO_TCP}{test}[{backend}-ipv6]", _NO_IPV6)
        for test in _ANYIO_IPV6_TESTS
        for backend in _ANYIO_BACKENDS
    ),
    *(
        Deselected(f"{_ANYIO_TCP}test_happy_eyeballs[{backend}-dualstack]", _NO_IPV6)
        for backend in _ANYIO_BACKENDS
    ),
    *(
        Deselected(f"{_ANYIO_TCP}test_connection_refused[{backend}-multi]", _NO_IPV6)
        for backend in _ANYIO_BACKENDS
    ),
    Deselected(
        f"{_ANYIO_TCP}test_unretrieved_future_exception_server_crash[ipv6-asyncio]", _NO_IPV6
    ),
)

_TRIO_KI = (
    "a KeyboardInterrupt sent by signal: under the profile function the test waits for one "
    "that never lands (test_ki_protection_works and test_KI_interrupts hung for minutes)"
)

#: Packages with runnable suites from their sdists. Test requirements are those the release
#: itself pins (click: requirements/tests.txt, flask: requirements/tests.txt) or, where the sdist
#: pins nothing (httpx, requests), releases contemporary with it; the rest of each closure is
#: what pip resolved for them, frozen.
RUNTIME_PACKAGES: tuple[RuntimePackage, ...] = (
    RuntimePackage(
        "click",
        "8.1.7",
        "ca9853ad459e787e2192211578cc907e7594e294c7ccc834310722b41b9ca6de",
        ("pytest==7.4.0", "iniconfig==2.0.0", "packaging==23.1", "pluggy==1.2.0", _COVERAGE),
        _SETUPTOOLS,
    ),
    RuntimePackage(
        "flask",
        "3.0.3",
        "ceb27b0af3823ea2737928a4d99d125a06175b8512c445cbd9a9ce200ef76842",
        (
            "pytest==8.1.1",
            "iniconfig==2.0.0",
            "packaging==24.0",
            "pluggy==1.4.0",
            "asgiref==3.8.1",
            "python-dotenv==1.0.1",
            _COVERAGE,
        ),
        ("flit_core==3.9.0",),
    ),
    RuntimePackage(
        "httpx",
        "0.28.1",
        "75e98c5f16b0f35b567856f597f06ff2270a374470a5c2392242528e3e3e42fc",
        (
            # extras brotli, cli, http2, socks, zstd (the suite tests all of them)
            "brotli==1.1.0",
            "click==8.1.7",
            "pygments==2.18.0",
            "rich==13.9.4",
            "markdown-it-py==4.3.0",
            "mdurl==0.1.2",
            "h2==4.1.0",
            "hpack==4.2.0",
            "hyperframe==6.1.0",
            "socksio==1.0.0",
            "zstandard==0.23.0",
            # tests: a uvicorn server, trio, TLS certificates, chardet
            "pytest==8.3.4",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            "trio==0.27.0",
            "attrs==26.1.0",
            "outcome==1.3.0.post0",
            "sortedcontainers==2.4.0",
            "trustme==1.2.0",
            "cryptography==44.0.0",
            "cffi==2.1.1",
            "pycparser==3.12",
            "uvicorn==0.32.1",
            "chardet==5.2.0",
            "typing_extensions==4.16.0",
            _COVERAGE,
        ),
        (
            "hatchling==1.27.0",
            "hatch-fancy-pypi-readme==24.1.0",
            "editables==0.5",
            "pathspec==0.12.1",
            "trove-classifiers==2024.10.21.16",
        ),
        deselect=(
            Deselected(
                "tests/client/test_proxies.py::test_async_proxy_close",
                "needs the internet (marked network: a request to example.com through a proxy)",
            ),
            Deselected(
                "tests/client/test_proxies.py::test_sync_proxy_close",
                "needs the internet (marked network: a request to example.com through a proxy)",
            ),
        ),
    ),
    RuntimePackage(
        "requests",
        "2.32.3",
        "55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760",
        (
            "PySocks==1.7.1",
            # tests: a local httpbin (a flask app) behind pytest-httpbin, TLS certificates
            "pytest==8.2.2",
            "iniconfig==2.0.0",
            "packaging==24.0",
            "pluggy==1.5.0",
            "pytest-httpbin==2.0.0",
            "httpbin==0.10.4",
            "flask==3.0.3",
            *pinned("flask", "3.0.3").dependencies,
            "brotlicffi==1.1.0.0",
            "decorator==5.1.1",
            "greenlet==2.0.2",
            "six==1.16.0",
            "trustme==1.2.0",
            "cryptography==42.0.7",
            "cffi==1.16.0",
            "pycparser==2.22",
            _COVERAGE,
        ),
        _SETUPTOOLS,
        deselect=(
            Deselected(
                "tests/test_requests.py::TestTimeout::test_connect_timeout",
                "needs an unroutable address (10.255.255.1) to time out; this network answers it",
            ),
            Deselected(
                "tests/test_requests.py::TestTimeout::test_total_timeout_connect",
                "needs an unroutable address (10.255.255.1) to time out; this network answers it",
            ),
            Deselected(
                "tests/test_requests.py::TestPreparingURLs::"
                "test_different_connection_pool_for_mtls_settings",
                "the sdist's mTLS client certificate (tests/certs/mtls) expired on 2026-03-13",
            ),
        ),
    ),
    # Added after issue 15's value flow was built (held out there): a web framework whose
    # routes, middleware and handlers are callables passed around (the `[full]` extras, the
    # test client on httpx, trio for the anyio backends); pinned to releases of its time.
    RuntimePackage(
        "starlette",
        "0.41.3",
        "0e4ab3d16522a255be6b28260b938eae2482f98ce5cc934cb08dce8dc3ba5835",
        (
            "itsdangerous==2.2.0",
            "jinja2==3.1.4",
            "markupsafe==3.0.2",
            "python-multipart==0.0.17",
            "pyyaml==6.0.2",
            "httpx==0.27.2",
            "httpcore==1.0.6",
            "h11==0.14.0",
            "certifi==2024.8.30",
            "typing_extensions==4.12.2",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            "trio==0.26.2",
            "attrs==24.2.0",
            "outcome==1.3.0.post0",
            "sortedcontainers==2.4.0",
            _COVERAGE,
        ),
        (
            "hatchling==1.27.0",
            "editables==0.5",
            "pathspec==0.12.1",
            "trove-classifiers==2024.10.21.16",
        ),
        deselect=tuple(
            Deselected(
                f"tests/test_staticfiles.py::"
                f"test_staticfiles_with_invalid_dir_permissions_returns_401[{backend}]",
                "runs as root here: a directory without read permission stays readable",
            )
            for backend in ("asyncio", "trio")
        ),
        threads=True,  # its TestClient runs the app in an anyio portal thread
    ),
    # Held out (issue 50, `packages.HELD_OUT`): the third judge of their CALLS edges. Test
    # requirements are the sdists' own extras (marshmallow `tests`, cleo's poetry test group)
    # at releases of their time.
    RuntimePackage(
        "marshmallow",
        "3.23.1",
        "3a8dfda6edd8dcdbf216c0ede1d1e78d230a6dc9c5a088f58c4083b974a0d468",
        (
            "simplejson==3.19.3",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        ("flit_core==3.10.1",),
    ),
    RuntimePackage(
        "cleo",
        "2.1.0",
        "0b2c880b5d13660a7ea651001fb4acb527696c01f15c9ee650f377aa543fd523",
        (
            "pytest==7.4.3",
            "iniconfig==2.0.0",
            "packaging==23.2",
            "pluggy==1.3.0",
            "pytest-mock==3.12.0",
            _COVERAGE,
        ),
        ("poetry-core==1.8.1",),
    ),
    RuntimePackage(
        "structlog",
        "24.4.0",
        "b27bfecede327a6d2da5fbc96bd859f114ecc398a6389d664f62085ee7ae6fc4",
        (
            "freezegun==1.5.1",
            "python-dateutil==2.9.0.post0",
            "six==1.16.0",
            "pretend==1.0.9",
            "pytest-asyncio==0.23.8",
            "simplejson==3.19.2",
            # its twisted, rich, better-exceptions and greenlet integrations (their tests
            # skip without them)
            "twisted==24.3.0",
            "attrs==24.2.0",
            "automat==22.10.0",
            "constantly==23.10.4",
            "hyperlink==21.0.0",
            "idna==3.7",
            "incremental==22.10.0",
            "typing_extensions==4.12.2",
            "zope.interface==6.4.post2",
            "rich==13.7.1",
            "markdown-it-py==3.0.0",
            "mdurl==0.1.2",
            "pygments==2.18.0",
            "better-exceptions==0.3.3",
            "greenlet==3.0.3",
            "pytest==8.3.2",
            "iniconfig==2.0.0",
            "packaging==24.1",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        _HATCH_VCS,
        # its async loggers run the sync method in an executor thread (`_dispatch_to_sync`)
        threads=True,
    ),
    RuntimePackage(
        "pyramid",
        "2.0.2",
        "372138a738e4216535cc76dcce6eddd5a1aaca95130f2354fb834264c06f18de",
        (
            # tests (setup.py's tests_require and testing extra)
            "webtest==3.0.0",
            "waitress==2.1.2",
            "beautifulsoup4==4.12.2",
            "soupsieve==2.5",
            "zope.component==6.0",
            "zope.event==5.0",
            "zope.hookable==5.4",
            "pytest==7.4.0",
            "iniconfig==2.0.0",
            "packaging==23.1",
            "pluggy==1.2.0",
            _COVERAGE,
        ),
        ("setuptools==68.0.0", "wheel==0.41.1"),
    ),
    RuntimePackage(
        "anyio",
        "4.7.0",
        "2f834749c602966b7d456a7567cafcb309f96482b5081d14ac93ccd457f9dd48",
        (
            "typing_extensions==4.12.2",
            # the `test` extra: both backends, uvloop, TLS certificates
            "trio==0.27.0",
            "attrs==24.2.0",
            "outcome==1.3.0.post0",
            "sortedcontainers==2.4.0",
            "exceptiongroup==1.2.2",
            "hypothesis==6.122.3",
            "psutil==6.1.0",
            "pytest==8.3.4",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            "pytest-mock==3.14.0",
            "trustme==1.2.0",
            "cryptography==44.0.0",
            "cffi==1.17.1",
            "pycparser==2.22",
            "truststore==0.10.0",
            "uvloop==0.21.0",
            _COVERAGE,
        ),
        ("setuptools==75.6.0", "setuptools-scm==8.1.0", "wheel==0.45.1"),
        pytest_args=("tests", "-m", "not network"),
        deselect=_ANYIO_DESELECT,
        timeout_s=1200,
    ),
    # Tuning (issue 50): their suites judge the CALLS edges the rules were found on.
    RuntimePackage(
        "huey",
        "2.5.2",
        "df33db474c05414ed40ee2110e9df692369871734da22d74ffb035a4bd74047f",
        (
            "redis==5.0.8",
            "peewee==3.17.6",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.1",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        _SETUPTOOLS,
        pytest_args=("huey/tests",),
        threads=True,  # its consumer runs tasks in worker threads
        redis=True,
    ),
    RuntimePackage(
        "attrs",
        "24.2.0",
        "5cfb1b9148b5b086569baec03f20d7b6bf3bcacc9a42bebf87ffaaca362f6346",
        (
            # its `tests` extra without pytest-xdist (one process) and without the mypy
            # plugin tests (`tests-mypy`: they type-check snippets, they run no attrs code)
            "cloudpickle==3.0.0",
            "hypothesis==6.111.1",
            "sortedcontainers==2.4.0",
            "pympler==1.1",
            "pytest==8.3.2",
            "iniconfig==2.0.0",
            "packaging==24.1",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        _HATCH_VCS,
        top_level="attr",
    ),
    RuntimePackage(
        "rich",
        "13.9.4",
        "439594978a49a09530cff7ebc4b5c7103ef57baf48d5ea3184f21d9a2befa098",
        (
            # poetry.lock's dev group at the tag
            "pytest==7.4.4",
            "iniconfig==2.0.0",
            "packaging==24.1",
            "pluggy==1.5.0",
            "attrs==21.4.0",
            _COVERAGE,
        ),
        ("poetry-core==1.9.1",),
        tests_archive=TestsArchive(
            "rich-13.9.4-tests.tar",
            "94baf868e66b85ef00441634e0d0b2b1fb9d400ee7fa5e6c50d0dbee4196e438",
            "git archive --format=tar v13.9.4 tests > benchmarks/cache/sdists/"
            "rich-13.9.4-tests.tar (in a clone of github.com/Textualize/rich; the tag is "
            "43d3b04, whose rich/ equals the sdist's)",
        ),
    ),
    # Held out from stop 63 (`packages.HELD_OUT`, in place of structlog, cleo and anyio): the
    # suites that run from their sdists with a few pins (typer's drives click in subprocesses,
    # trio's needs a large closure; neither is traced yet).
    RuntimePackage(
        "pluggy",
        "1.5.0",
        "2cffa88e94fdc978c4c574f15f9e59b7f4201d439195c3715ca9e2486f1d0cf1",
        # pytest runs on the pluggy under test (the editable install is the one it imports)
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", _COVERAGE),
        ("setuptools==75.6.0", "setuptools-scm==8.1.0", "wheel==0.45.1"),
        pytest_args=("testing", "--ignore=testing/benchmark.py"),  # needs pytest-benchmark
    ),
    RuntimePackage(
        "tomlkit",
        "0.13.2",
        "fff5fe59a87295b278abd31bec92c15d9bc4a06885ab12bcea52c71119392e79",
        (
            "pyyaml==6.0.2",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        ("poetry-core==1.9.1",),
    ),
    # Tuning since stop 64 (held out at stop 63 without a running-code judge): typer's suite
    # (its CLI runs in process through click's runner, and its tutorial's scripts again in
    # subprocesses: traced too) and trio's (its tests inside the
    # package, loaded through its own pytest plugin; the closure its release pins for them,
    # less the linters and type checkers only its tests of exports and generated code ask
    # for, which `--skip-optional-imports` skips).
    RuntimePackage(
        "typer",
        "0.15.1",
        "a0588c0a7fa68a1978a069818657778f86abe6ff5ea6abf472f940a08bfe4f0a",
        (
            "typing-extensions==4.12.2",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        ("pdm-backend==2.4.3",),
        subprocesses=True,
    ),
    RuntimePackage(
        "trio",
        "0.27.0",
        "1dcc95ab1726b2da054afea8fd761af74bad79bd52381b84eae408e983c76831",
        (
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.1",
            "pluggy==1.5.0",
            "trustme==1.1.0",
            "cryptography==43.0.1",
            "cffi==1.17.1",
            "pycparser==2.22",
            "pyopenssl==24.2.1",
            "async-generator==1.10",
            _COVERAGE,
        ),
        ("setuptools==75.6.0", "wheel==0.45.1"),
        # the tests of its code generators and exports want linters: skipped without them
        pytest_args=("--skip-optional-imports", "src/trio"),
        deselect=tuple(
            Deselected(nodeid, _TRIO_KI)
            for nodeid in (
                "src/trio/_core/_tests/test_ki.py",
                "src/trio/_tests/test_repl.py::test_KI_interrupts",
                "src/trio/_tests/test_threads.py::test_run_in_trio_thread_ki",
                "src/trio/_core/_tests/test_guest_mode.py::test_guest_mode_ki",
            )
        ),
        timeout_s=1800,
    ),
    # Held out from stop 64 (`packages.HELD_OUT`, in place of pluggy, typer and trio): the
    # suites of the three new packages, with the test requirements they name, pinned to
    # releases contemporary with them.
    RuntimePackage(
        "wsproto",
        "1.2.0",
        "ad565f26ecb92588a3e43bc3d96164de84cd9902482b130d0ddbaa9664a85065",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        _SETUPTOOLS,
        pytest_args=("test",),
    ),
    RuntimePackage(
        "fire",
        "0.7.0",
        "961550f07936eaf65ad1dc8360f2b2bf8408fad46abbfa4d2a3794f8d2a95cdf",
        (
            "hypothesis==6.118.8",
            "attrs==24.2.0",
            "sortedcontainers==2.4.0",
            "levenshtein==0.26.1",
            "rapidfuzz==3.10.1",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        _SETUPTOOLS,
        pytest_args=("fire",),  # its tests sit beside the code (`*_test.py`)
    ),
    RuntimePackage(
        "aiostream",
        "0.6.4",
        "f99bc6b1b9cea3e70885dc235a233523597555fe4a585ed21d65264b3f1ff3d2",
        (
            "typing-extensions==4.12.2",
            "pytest==8.3.3",
            "pytest-asyncio==0.24.0",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        _SETUPTOOLS,
        # its addopts ask for pytest-cov (`--cov aiostream`): the tracer takes its place
        pytest_args=("-o", "addopts=--strict-markers", "tests"),
    ),
    # Held out from stop 64, part 2 (`packages.HELD_OUT`, in place of aiostream): its unit
    # tests and its acceptance tests on the memory and Redis backends (no memcached server
    # here), with the test requirements it names, pinned to releases contemporary with it.
    RuntimePackage(
        "aiocache",
        "0.12.3",
        "f528b27bf4d436b497a1d0d1a8f59a542c153ab1e37c3621713cb376d44c4713",
        (
            "marshmallow==3.23.1",
            "pytest==8.3.3",
            "pytest-asyncio==0.24.0",
            "pytest-mock==3.14.0",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        _SETUPTOOLS,
        # its addopts ask for pytest-cov (`--cov aiocache`): the tracer takes its place; its
        # warnings are errors, and redis 5.0.8 deprecates the `close()` its fixtures call
        pytest_args=(
            "-o",
            "addopts=--strict-markers",
            "-W",
            "ignore:Call to deprecated close:DeprecationWarning",
            "-m",
            "not memcached",
            "tests/ut",
            "tests/acceptance",
        ),
        redis=True,
    ),
    # Held out from stop 65 (`packages.HELD_OUT`, in place of aiocache): the suites of the
    # two new packages, with the test requirements they name (not their linters), pinned to
    # releases contemporary with them.
    RuntimePackage(
        "asyncstdlib",
        "3.12.5",
        "7eb0025f6acb59e46743458570712fe9700dcc7b370b6929daf07bcc1ccc27db",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        ("flit_core==3.9.0",),
        pytest_args=("unittests",),
    ),
    RuntimePackage(
        "traitlets",
        "5.14.3",
        "9ed0579d3502c94b4b3732ac120375cda96f923114522847de4b3bb98b96b6b7",
        (
            "argcomplete==3.3.0",
            "pytest==8.1.1",
            "pytest-mock==3.14.0",
            "iniconfig==2.0.0",
            "packaging==24.0",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        (
            "hatchling==1.25.0",
            "editables==0.5",
            "pathspec==0.12.1",
            "trove-classifiers==2024.7.2",
        ),
        # its addopts run doctests of the examples; `test_typing.py` checks stubs with
        # pytest-mypy-testing's marks, which run mypy, not the code
        pytest_args=(
            "-o",
            "addopts=--strict-markers",
            "--ignore=tests/test_typing.py",
            "tests",
            "traitlets/tests",
        ),
    ),
    # Held out from the test-selection rules at stop 65 (issue 54's mutants; not in
    # `packages.HELD_OUT`): three suites new to every rule, chosen by style, size and file
    # list only, with the test requirements they name (or pytest alone), pinned to releases
    # contemporary with them. Iterator functions (one large module of generators)...
    RuntimePackage(
        "more-itertools",
        "10.5.0",
        "5482bfef7849c25dc3c6dd53a6173ae4795da2a41a80faea6700d9f5846c5da6",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        ("flit_core==3.10.1",),
    ),
    # ... caches as mapping classes (a base class and its eviction subclasses) and memoizing
    # decorators ...
    RuntimePackage(
        "cachetools",
        "5.5.0",
        "2cc24fb4cbe39633fb7badd9db9ca6295d766d9c2995f245725a46715d050f2a",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        _SETUPTOOLS,
    ),
    # ... and signing by composition (serializers holding signers holding key derivations,
    # timed and URL-safe variants as subclasses and mixins; test classes that inherit tests).
    RuntimePackage(
        "itsdangerous",
        "2.2.0",
        "e0050c0b7da1eea53ffaf149c0cfbb5c6e2e2b69c4bef22c81fa6eb73e5f6173",
        (
            "freezegun==1.4.0",
            "python-dateutil==2.9.0.post0",
            "six==1.16.0",
            "pytest==8.1.1",
            "iniconfig==2.0.0",
            "packaging==24.0",
            "pluggy==1.4.0",
            _COVERAGE,
        ),
        ("flit_core==3.10.1",),
    ),
    # Held out from the inherited-tests rule (stop 65, part 2; cachetools and itsdangerous
    # tune it): two more suites new to every rule, chosen by style, size and file list only,
    # with pytest alone (neither names other test requirements). Functional utilities
    # (curried functions, composition, a generated `curried` namespace; tests inside the
    # package) ...
    RuntimePackage(
        "toolz",
        "1.0.0",
        "2c86e3d9a04798ac556793bced838816296a2f085017664e4995cb40a1047a02",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        _SETUPTOOLS,
        pytest_args=("toolz/tests",),
    ),
    # ... and ISO 8601 parsing and formatting (regex tables built at import, a Duration value
    # class with arithmetic operators, tzinfo classes).
    RuntimePackage(
        "isodate",
        "0.7.2",
        "4cd1aa0f43ca76f4a6c6c0292a85f40b35ec2e43e315b59f06e6d32171a953e6",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        ("setuptools==75.6.0", "setuptools-scm==8.1.0", "wheel==0.45.1"),
    ),
    # Held out from stop 65 part 3's rules (toolz and isodate tune them): two more suites new
    # to every rule, chosen by style, size and file list only, with the test requirements they
    # name (tabulate none; humanize freezegun, as itsdangerous pins it), pinned to releases
    # contemporary with them. Text tables (one large module of formatters: format tables as
    # named tuples built at import, column alignment and wrapping helpers, a CLI) ...
    RuntimePackage(
        "tabulate",
        "0.9.0",
        "0095b12bf5966de529c0feb1fa08671671b3368eec77d7ef7ab114be2c068b3c",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        ("setuptools==75.6.0", "setuptools-scm==8.1.0", "wheel==0.45.1"),
        pytest_args=("test",),
    ),
    # ... and human-readable numbers, times and sizes (several modules of formatting
    # functions, a module-level translation state that `activate` / `deactivate` switch).
    RuntimePackage(
        "humanize",
        "4.11.0",
        "e66f36020a2d5a974c504bd2555cf770621dbdbb6d82f94a6857c0b1ea2608be",
        (
            "freezegun==1.4.0",
            "python-dateutil==2.9.0.post0",
            "six==1.16.0",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        _HATCH_VCS,
        # its addopts colour the report, and the mutants' oracle reads `FAILED <id>` lines
        pytest_args=("--color=no", "tests"),
    ),
    # Held out from stop 66's rules (tabulate tunes since): two more suites new to every rule,
    # chosen by style, size and file list only, with the test requirements they name (not
    # their linters), pinned to releases contemporary with them. Data validation by a schema
    # compiled into nested validator callables (one large builder module, validator classes,
    # error classes; its tests inside the package, doctests of a Markdown file beside them) ...
    RuntimePackage(
        "voluptuous",
        "0.15.2",
        "6ffcab32c4d3230b4d2af3a577c87e1908a714a11f6f95570456b1849b0279aa",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        _SETUPTOOLS,
        pytest_args=("voluptuous/tests",),
    ),
    # ... and a document database (tables with a query cache, queries built by operator
    # overloading, storages and middlewares wrapping them; poetry-built, tests in `tests/`).
    RuntimePackage(
        "tinydb",
        "4.8.2",
        "f7dfc39b8d7fda7a1ca62a8dbb449ffd340a117c1206b68c50b1a481fb95181d",
        (
            "pyyaml==6.0.2",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        ("poetry-core==1.9.1",),
    ),
    # Held out from stop 66 part 2's rules (voluptuous and tinydb tune them): two more suites
    # new to every rule, chosen by style, size and file list only, with pytest as their only
    # test requirement, pinned to releases contemporary with them. SQL parsing (a regex lexer,
    # a token tree of classes, grouping passes and a stack of formatting filters; a CLI) ...
    RuntimePackage(
        "sqlparse",
        "0.5.2",
        "9e37b35e16d1cc652a2545f0997c1deb23ea28fa1f3eefe609eee3063c3b105f",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        (
            "hatchling==1.27.0",
            "editables==0.5",
            "pathspec==0.12.1",
            "trove-classifiers==2024.10.21.16",
        ),
    ),
    # ... and a library of many small utility modules (containers with operator methods,
    # caches, iteration, string, url and file helpers; setuptools-built, tests in `tests/`).
    RuntimePackage(
        "boltons",
        "24.1.0",
        "4a49b7d57ee055b83a458c8682a2a6f199d263a8aa517098bda9bab813554b87",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        _SETUPTOOLS,
    ),
    # Held out from stop 66 part 3 (sqlparse's misses read, so it tunes): a suite new to every
    # rule, chosen by style, size and file list only: a Markdown parser (block and inline
    # parsers of regex rules, plugins and directives hooked in by name, renderers; src
    # layout, tests in `tests/` reading fixture files).
    RuntimePackage(
        "mistune",
        "3.0.2",
        "fc7f93ded930c92394ef2cb6f04a8aabab4117a91449e72dcc8dfa646a508be8",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        _SETUPTOOLS,
    ),
    # Held out at stop 67, first look (BENCHMARKS §21): four suites new to every rule, chosen
    # by style, size and file list only, pinned with releases contemporary with them. A
    # parser (JSON5: a parser class generated from a PEG grammar, a host of file and stream
    # calls, a CLI tool; no dependencies) ...
    RuntimePackage(
        "json5",
        "0.9.28",
        "1f82f36e615bc5b42f1bbd49dbc94b12563c56408c6ffa06414ea310890e9a6e",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        _SETUPTOOLS,
    ),
    # ... a data structure (a tree of nodes kept in a dict; traversals, subtrees, printing) ...
    RuntimePackage(
        "treelib",
        "1.7.0",
        "9bff1af416b9e642a6cd0e0431d15edf26a24b8d0c8ae68afbd3801b5e30fb61",
        (
            "six==1.16.0",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        _SETUPTOOLS,
    ),
    # ... a text library (numbers to words: a base class and one subclass per language; a CLI
    # its tests run through delegator.py) ...
    RuntimePackage(
        "num2words",
        "0.5.13",
        "a3064716fbbf90d75c449450cebfbc73a6a13e63b2531d09bdecc3ab1a2209cf",
        (
            "docopt==0.6.2",
            "delegator.py==0.1.1",
            "pexpect==4.9.0",
            "ptyprocess==0.7.0",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        _SETUPTOOLS,
        scripts=True,
    ),
    # ... and a validation library (schema nodes, types and validators; (de)serialisation
    # with error trees; src layout).
    RuntimePackage(
        "colander",
        "2.0",
        "419cd68178d2ee6ee4cae5d5cb1830725634b0a2840917156e89eb2592237ef3",
        (
            "translationstring==1.4",
            "iso8601==2.1.0",
            "pytest==8.3.3",
            "iniconfig==2.0.0",
            "packaging==24.2",
            "pluggy==1.5.0",
            _COVERAGE,
        ),
        (*_SETUPTOOLS, "babel==2.16.0"),
    ),
    # Stop 67's second choice of parser, left for its suite's time (BENCHMARKS §21): C, a
    # lexer and an LALR grammar on a vendored ply with its tables shipped, an AST of node
    # classes, a visitor and a C generator.
    RuntimePackage(
        "pycparser",
        "2.22",
        "491c8be9c040f5390f5bf44a5b07752bd07f56edf992381b05c701439eec10f6",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        _SETUPTOOLS,
    ),
    # Held out at stop 67, first look part 2 (BENCHMARKS §21): two more suites new to every
    # rule, chosen by style, size and file list only. A version library (semantic versions:
    # one large class, comparison, bumping, deprecated module functions, a CLI; src layout)
    # ...
    RuntimePackage(
        "semver",
        "3.0.2",
        "6253adb39c70f6e51afed2fa7152bcd414c411286088fb4b9effb133885ab4cc",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        ("setuptools==75.6.0", "setuptools-scm==8.1.0", "wheel==0.45.1"),
        # its addopts ask for pytest-cov (`--cov=semver`) and doctests of `docs/`: the
        # tracer takes the former's place, the harness runs `tests` only
        pytest_args=("-o", "addopts=--import-mode=importlib", "tests"),
    ),
    # ... and a colour library (CSS and HTML5 colour names, hex, integer and percent
    # triplets, conversions and normalisation; src layout, unittest-style tests).
    RuntimePackage(
        "webcolors",
        "24.11.1",
        "ecb3d768f32202af770477b8b65f318fa4f566c22948673a977b00d589dd80f6",
        ("pytest==8.3.3", "iniconfig==2.0.0", "packaging==24.2", "pluggy==1.5.0", _COVERAGE),
        ("pdm-backend==2.4.3",),
    ),
)


def runtime_package(spec: str) -> RuntimePackage:
    """The pinned ``RuntimePackage`` for ``name==version`` (or ``name`` alone)."""
    name, _, version = spec.partition("==")
    for entry in RUNTIME_PACKAGES:
        if canonical_name(entry.name) == canonical_name(name) and version in ("", entry.version):
            return entry
    known = ", ".join(p.spec for p in RUNTIME_PACKAGES)
    raise KeyError(f"{spec!r} is not pinned for the runtime oracles (pinned: {known})")


def parse_specs(specs: Sequence[str]) -> list[RuntimePackage]:
    """The packages named on a command line, or every pinned one."""
    if not specs:
        return list(RUNTIME_PACKAGES)
    for spec in specs:
        if "==" in spec:
            parse_spec(spec)  # the same validation as the other oracles
    return [runtime_package(s) for s in specs]


def command_line(
    description: str, argv: list[str] | None
) -> tuple[list[RuntimePackage], Path | None]:
    """The packages a runtime oracle's command line names (``NAME==VERSION ...``; none: every
    pinned one) and its ``--out`` file (one package only)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("specs", nargs="*", metavar="NAME==VERSION")
    parser.add_argument("--out", type=Path, help="output file (one package only)")
    args = parser.parse_args(argv)
    entries = parse_specs(args.specs)
    if args.out is not None and len(entries) != 1:
        parser.error("--out needs exactly one package")
    return entries, args.out


# --------------------------------------------------------------------------------------------
# sdist, venv
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Suite:
    """Where a package's test suite runs: the sdist root, the import root, an interpreter."""

    name: str
    version: str
    root: Path
    """The unpacked sdist (pytest's rootdir and working directory)."""
    import_root: Path
    package: str
    python: Path
    pytest_args: tuple[str, ...] = ("tests",)
    deselect: tuple[Deselected, ...] = ()
    timeout_s: int = 3600
    threads: bool = False
    redis: bool = False
    subprocesses: bool = False
    scripts: bool = False

    def child_path(self) -> str | None:
        """``PATH`` for the suite's run: the venv's ``bin`` first where the tests run its
        console scripts (``RuntimePackage.scripts``); None: the caller's ``PATH`` as it is."""
        if not self.scripts:
            return None
        return os.pathsep.join((str(self.python.parent), os.environ.get("PATH", os.defpath)))

    @property
    def import_root_rel(self) -> str:
        """The import root relative to the sdist root: ``"src"`` or ``""``."""
        relative = self.import_root.relative_to(self.root).as_posix()
        return "" if relative == "." else relative


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def unpack(entry: RuntimePackage) -> Path:
    """Download (once) the sdist, check its sha256, unpack it into ``RUNTIME_DIR``."""
    archive = download_sdist(entry.name, entry.version)
    actual = sha256_of(archive)
    if actual != entry.sdist_sha256:
        raise RuntimeError(
            f"{archive.name}: sha256 {actual} is not the pinned {entry.sdist_sha256}; "
            "delete the file to download it again"
        )
    root = extract_sdist(entry.name, entry.version, archive, into=RUNTIME_DIR).resolve()
    if entry.tests_archive is not None:
        _add_tests(entry.tests_archive, root)
    return root


def _add_tests(tests: TestsArchive, root: Path) -> None:
    """Unpack a pinned tests tar into the sdist root (once)."""
    marker = root / f".rt-tests-{tests.sha256[:12]}"
    if marker.is_file():
        return
    archive = SDIST_DIR / tests.file
    if not archive.is_file():
        raise RuntimeError(f"{archive} is missing; make it with: {tests.made_by}")
    actual = sha256_of(archive)
    if actual != tests.sha256:
        raise RuntimeError(f"{archive.name}: sha256 {actual} is not the pinned {tests.sha256}")
    with tarfile.open(archive) as tar:
        tar.extractall(root, filter="data")
    marker.write_text(f"{tests.file}\n", encoding="utf-8")


def _pip(python: Path, *args: str) -> None:
    command = [str(python), "-m", "pip", "--disable-pip-version-check", "-q", *args]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def ensure_venv(entry: RuntimePackage, root: Path) -> Path:
    """Create (once) the package's test venv; return its interpreter.

    Redone when the pins, the interpreter or the sdist location change (a stamp file).
    """
    venv = VENV_DIR / entry.key
    python = venv / "bin" / "python"
    stamp = json.dumps(
        {
            "python": sys.version,
            "requirements": entry.requirements,
            "build": entry.build_requirements,
            "root": str(root),
        },
        sort_keys=True,
    )
    marker = venv / ".rt-oracle-ok"
    if marker.is_file() and marker.read_text(encoding="utf-8") == stamp and python.exists():
        return python
    if venv.exists():
        shutil.rmtree(venv)
    VENV_DIR.mkdir(parents=True, exist_ok=True)
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    _pip(python, "install", "--no-deps", *entry.build_requirements, *entry.requirements)
    _pip(python, "install", "--no-deps", "--no-build-isolation", "-e", str(root))
    _pip(python, "check")
    marker.write_text(stamp, encoding="utf-8")
    return python


def prepare(entry: RuntimePackage) -> Suite:
    """Unpack the sdist and build its venv (both idempotent).

    Paths are resolved: the cache is often reached through a symlink (a worktree's
    ``benchmarks/cache``), and pytest names tests from resolved paths.
    """
    root = unpack(entry)
    fetched = locate_package(root, entry.name, entry.top_level)
    python = ensure_venv(entry, root)
    return Suite(
        entry.name,
        entry.version,
        root,
        fetched.import_root,
        fetched.package,
        python,
        entry.pytest_args,
        entry.deselect,
        entry.timeout_s,
        entry.threads,
        entry.redis,
        entry.subprocesses,
        entry.scripts,
    )


# --------------------------------------------------------------------------------------------
# ast: the package's functions and the lines that show they ran
# --------------------------------------------------------------------------------------------


@dataclass
class FunctionInfo:
    """One qualified name of the package's ``def`` / ``async def`` statements."""

    qualified_name: str
    file: str
    """Relative to the sdist root (``src/flask/app.py``)."""
    line: int
    """The ``def`` line (decorators excluded) of the implementation."""
    probe_lines: set[int]
    """Lines whose execution means the function ran: its body minus nested functions' bodies;
    for a body that is only a docstring, the code's first line (where 3.11 reports the call)."""
    tags: set[str] = field(default_factory=set)
    lines: list[int] = field(default_factory=list)
    """Every ``def`` line with this qualified name (overloads, conditional definitions)."""


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _is_stub_body(body: Sequence[ast.stmt]) -> bool:
    """Only a docstring, ``pass``, ``...`` or ``raise NotImplementedError``."""
    for stmt in body:
        if _is_docstring(stmt) or isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.Raise) and stmt.exc is not None:
            exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                continue
        return False
    return True


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _nested_defs(body: Iterable[ast.AST]) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Defs directly inside ``body`` (through classes and compound statements, not defs)."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(node)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return found


def _probe_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int]:
    body = node.body
    assert node.end_lineno is not None
    if len(body) == 1 and _is_docstring(body[0]):
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        return {first}
    lines = set(range(body[0].lineno, node.end_lineno + 1))
    for nested in _nested_defs(body):
        assert nested.end_lineno is not None
        lines -= set(range(nested.body[0].lineno, nested.end_lineno + 1))
    return lines


class _FunctionCollector:
    def __init__(self, module: str, file: str) -> None:
        self.module = module
        self.file = file
        self.found: list[FunctionInfo] = []

    def visit(self, node: ast.AST, stack: list[str], type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                self._add(child, stack, type_checking)
                self.visit(child, [*stack, child.name], type_checking)
            elif isinstance(child, ast.ClassDef):
                self.visit(child, [*stack, child.name], type_checking)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    self.visit(ast.Module(body=[stmt], type_ignores=[]), stack, True)
                for stmt in child.orelse:
                    self.visit(ast.Module(body=[stmt], type_ignores=[]), stack, type_checking)
            else:
                self.visit(child, stack, type_checking)

    def _add(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, stack: list[str], type_checking: bool
    ) -> None:
        tags: set[str] = set()
        names = {_decorator_name(d) for d in node.decorator_list}
        if "overload" in names:
            tags.add("overload")
        if names & {"abstractmethod", "abstractproperty"}:
            tags.add("abstract")
        if names & {"property", "cached_property", "setter", "getter", "deleter"}:
            tags.add("property")
        if _is_stub_body(node.body):
            tags.add("stub")
        if type_checking:
            tags.add("type_checking")
        qualified_name = ".".join(p for p in [self.module, *stack, node.name] if p)
        info = FunctionInfo(qualified_name, self.file, node.lineno, _probe_lines(node), tags)
        info.lines.append(node.lineno)
        self.found.append(info)


def _merge(first: FunctionInfo, other: FunctionInfo) -> None:
    """Fold a second definition with the same qualified name into ``first``."""
    if "overload" in first.tags and "overload" not in other.tags:
        first.line = other.line  # the implementation after its overloads
    first.lines.append(other.line)
    first.probe_lines |= other.probe_lines
    # A tag holds for the name only if it holds for every definition.
    first.tags &= other.tags


def package_functions(root: Path, import_root: Path, package: str) -> dict[str, FunctionInfo]:
    """Every ``def`` / ``async def`` of the package, keyed by qualified name (sorted)."""
    functions: dict[str, FunctionInfo] = {}
    for module, relpath in package_modules(import_root, package).items():
        path = import_root / relpath
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        collector = _FunctionCollector(module, path.relative_to(root).as_posix())
        collector.visit(tree, [], False)
        for info in collector.found:
            if info.qualified_name in functions:
                _merge(functions[info.qualified_name], info)
            else:
                functions[info.qualified_name] = info
    return dict(sorted(functions.items()))


def function_record(info: FunctionInfo) -> JsonDict:
    """The JSON fields every oracle output shares for a function."""
    record: JsonDict = {"file": info.file, "line": info.line}
    if info.tags:
        record["tags"] = sorted(info.tags)
    if len(info.lines) > 1:
        record["lines"] = sorted(info.lines)
    return record


# --------------------------------------------------------------------------------------------
# running the suite
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SuiteRun:
    """What one pytest run left: the plugin's report, and the command that produced it."""

    command: str
    report: JsonDict
    work: Path
    returncode: int


def _child_env(suite: Suite, mode: str, work: Path, plugin_dir: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "COVERAGE_", "RT_ORACLE_"))
        and k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONSTARTUP")
    }
    env.update(
        {
            "PYTHONPATH": str(plugin_dir),
            "PYTHONHASHSEED": "0",
            "RT_ORACLE_MODE": mode,
            "RT_ORACLE_OUT": str(work),
            "RT_ORACLE_IMPORT_ROOT": str(suite.import_root.resolve()),
            "RT_ORACLE_PACKAGE": suite.package,
            "RT_ORACLE_THREADS": "1" if suite.threads else "",
            "RT_ORACLE_SUBPROCESSES": "1" if suite.subprocesses and mode == "calls" else "",
        }
    )
    path = suite.child_path()
    if path is not None:
        env["PATH"] = path
    return env


_SITECUSTOMIZE = f"""import os

if os.environ.get("RT_ORACLE_TRACE_CHILD"):  # set by the plugin in the test run, for its children
    import {PLUGIN_MODULE}

    {PLUGIN_MODULE}.trace_child()
"""
"""Imported at start by every Python process on the plugin's ``PYTHONPATH``: the test run itself
(before the plugin sets ``RT_ORACLE_TRACE_CHILD``: nothing) and the processes it starts."""


_PYTEST_CONFIGS = (
    ("pytest.ini", ""),
    (".pytest.ini", ""),
    ("pyproject.toml", "[tool.pytest.ini_options]"),
    ("tox.ini", "[pytest]"),
    ("setup.cfg", "[tool:pytest]"),
)


def has_pytest_config(root: Path) -> bool:
    """Whether the sdist root holds a pytest configuration of its own."""
    for name, section in _PYTEST_CONFIGS:
        path = root / name
        if path.is_file() and section in path.read_text(encoding="utf-8", errors="replace"):
            return True
    return False


def run_suite(suite: Suite, mode: str, work: Path, *, quiet: bool = True) -> SuiteRun:
    """Run the suite once with the plugin in ``mode`` (``coverage`` or ``calls``).

    ``work`` receives the plugin's ``report.json`` (and ``calls.json``) and the coverage data;
    pytest's own output goes to ``work/pytest.log``. The sdist root is resolved first: pytest
    names tests from resolved paths, so under a symlinked root (a worktree's
    ``benchmarks/cache``) ``--deselect`` ids would match nothing. pytest's ``basetemp`` is a
    temporary folder outside the repository, so a suite's own pytest-in-pytest runs
    (pytester) find no ``pyproject.toml`` of ours above them; a suite without a pytest
    configuration of its own (huey) gets an empty one, or pytest would walk up and apply this
    repository's (``filterwarnings = error``, ``timeout``).
    """
    if work.exists():
        shutil.rmtree(work)
    plugin_dir = work / "plugin"
    plugin_dir.mkdir(parents=True)
    shutil.copyfile(PLUGIN_SOURCE, plugin_dir / f"{PLUGIN_MODULE}.py")
    if suite.subprocesses and mode == "calls":
        (plugin_dir / "sitecustomize.py").write_text(_SITECUSTOMIZE, encoding="utf-8")
    root = suite.root.resolve()
    config: list[str] = []
    if not has_pytest_config(root):
        (work / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        config = ["-c", str(work / "pytest.ini")]
    with tempfile.TemporaryDirectory(prefix=f"rt-oracle-{root.name}-") as basetemp:
        pytest_args = [
            "-p",
            PLUGIN_MODULE,
            "-p",
            "no:cacheprovider",
            "-q",
            *config,
            f"--rootdir={root}",
            f"--basetemp={basetemp}",
            *(f"--deselect={d.nodeid}" for d in suite.deselect),
            *suite.pytest_args,
        ]
        prefix: list[str] = [str(suite.python)]
        shown = "pytest"
        if mode == "coverage":
            rcfile = work / "coveragerc"
            rcfile.write_text(
                "[run]\n"
                f"source = {suite.import_root.resolve() / suite.package}\n"
                f"data_file = {work / '.coverage'}\n",
                encoding="utf-8",
            )
            prefix += ["-m", "coverage", "run", f"--rcfile={rcfile}"]
            shown = "coverage run -m pytest"
        command = [*prefix, "-m", "pytest", *pytest_args]
        started = time.perf_counter()
        with (
            redis_server(work) if suite.redis else contextlib.nullcontext(),
            (work / "pytest.log").open("w", encoding="utf-8") as log,
        ):
            completed = subprocess.run(
                command,
                cwd=root,
                env=_child_env(suite, mode, work, plugin_dir),
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=suite.timeout_s,
                check=False,
            )
    report_path = work / "report.json"
    if not report_path.is_file():
        tail = (work / "pytest.log").read_text(encoding="utf-8", errors="replace")[-3000:]
        raise RuntimeError(f"the test run left no report (exit {completed.returncode}):\n{tail}")
    report: JsonDict = json.loads(report_path.read_text(encoding="utf-8"))
    report["wall_time_s"] = round(time.perf_counter() - started, 1)
    visible = [a for a in pytest_args if not a.startswith(("--rootdir", "--basetemp"))]
    if not quiet:
        print(f"{suite.name}: {' '.join(visible)} -> exit {completed.returncode}")
    return SuiteRun(f"{shown} {' '.join(visible)}", report, work, completed.returncode)


def outcome_counts(report: JsonDict) -> JsonDict:
    """passed / failed / errors / skipped / xfailed / xpassed from the plugin's per-phase log."""
    counts: JsonDict = dict.fromkeys(
        ("passed", "failed", "errors", "skipped", "xfailed", "xpassed"), 0
    )
    failures: list[str] = []
    for nodeid, phases in report["tests"].items():
        setup, call, teardown = phases.get("setup"), phases.get("call"), phases.get("teardown")
        if setup == "failed" or teardown == "failed":
            counts["errors"] += 1
            failures.append(nodeid)
        if setup in ("skipped", "xfailed") or call in ("skipped", "xfailed"):
            counts["xfailed" if "xfailed" in (setup, call) else "skipped"] += 1
        elif call == "passed":
            counts["passed"] += 1
        elif call == "xpassed":
            counts["xpassed"] += 1
        elif call == "failed":
            counts["failed"] += 1
            failures.append(nodeid)
    counts["failures"] = sorted(set(failures))
    return counts


def tests_section(suite: Suite, report: JsonDict) -> JsonDict:
    """``tests`` of the output: node id -> file, ``def`` line and dotted qualified name."""
    lines_by_file: dict[str, dict[str, int]] = {}
    records: JsonDict = {}
    for nodeid, entry in sorted(report["tests"].items()):
        path = entry.get("path")
        if path is None:
            continue
        domain = str(entry["domain"]).split("[", 1)[0]
        module = path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        qualified_name = f"{module}.{domain}" if path.endswith(".py") else domain
        if path not in lines_by_file:
            lines_by_file[path] = _def_lines(suite.root / path)
        line = lines_by_file[path].get(domain, int(entry["line"]) + 1)
        records[nodeid] = {"file": path, "line": line, "qualified_name": qualified_name}
    return records


def _def_lines(path: Path) -> dict[str, int]:
    """``Class.method`` / ``function`` -> ``def`` line, for a test file."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                found.setdefault(name, child.lineno)
                if isinstance(child, ast.ClassDef):
                    visit(child, f"{name}.")

    visit(tree, "")
    return found


def header(suite: Suite, run: SuiteRun) -> JsonDict:
    """The fields every runtime oracle output starts with."""
    counts = outcome_counts(run.report)
    return {
        "package": suite.name,
        "version": suite.version,
        "root": suite.root.name,
        "import_root": suite.import_root_rel,
        "command": run.command,
        "python": run.report["python"],
        "pytest": run.report["pytest"],
        **{k: counts[k] for k in ("passed", "failed", "errors", "skipped", "xfailed", "xpassed")},
        "failures": counts["failures"],
        "deselected": [{"nodeid": d.nodeid, "reason": d.reason} for d in suite.deselect],
        "exitstatus": run.report["exitstatus"],
        "wall_time_s": run.report["wall_time_s"],
    }


def write_json(path: Path, data: JsonDict) -> None:
    """Write ``data`` as indented JSON, creating folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
