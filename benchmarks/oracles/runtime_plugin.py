"""pytest plugin loaded into a package's own test run by the runtime oracles.

It is copied on its own into a directory on the test run's ``PYTHONPATH`` and loaded with
``-p rt_oracle_plugin``; it runs in the package's test venv, so it imports only the standard
library, pytest and (in coverage mode) coverage.py, never ``benchmarks`` or ``graphrag_code``.

Configuration comes from the environment the oracle sets for the child process:

``RT_ORACLE_MODE``         ``coverage`` (switch coverage.py contexts per test phase, like
                           ``pytest --cov-context=test``) or ``calls`` (call tracer)
``RT_ORACLE_OUT``          directory for ``report.json`` (and ``calls.json``)
``RT_ORACLE_IMPORT_ROOT``  directory whose relative paths name the package's modules
``RT_ORACLE_PACKAGE``      top-level package name (its files are ``IMPORT_ROOT/PACKAGE/...``)
``RT_ORACLE_THREADS``      non-empty: also record the edges of threads started later
                           (``threading.setprofile``; chains stay the main thread's)
``RT_ORACLE_SUBPROCESSES`` non-empty: the Python processes the tests start record their
                           edges too (``trace_child``, from a ``sitecustomize``)

Call tracer (``calls`` mode): ``sys.setprofile`` on the main thread, from plugin load to the
end of the session. Only ``call`` events of Python code count; a code object is classified
once (``id`` -> code, kept alive so the id is never reused) by its ``co_filename``, so events of
code outside the package cost a dict lookup. A callee is a package ``def`` (not a lambda,
comprehension, module or class body) at its *first* start: generator and coroutine resumptions
also raise ``call`` events in 3.11, told apart by ``f_lasti`` being past the code's first
``RESUME``. The caller is the calling frame's code, *lexically*: a comprehension, generator
expression or lambda stands for the function that contains it (``f.<locals>.<lambda>`` -> ``f``).
A coroutine an asyncio task starts (``asyncio.wait_for(f(), t)``, ``create_task(f())``) has the
event loop below it, not the code that called ``f()``: its caller is then the frame that made
the coroutine (``cr_origin``, kept with ``sys.set_coroutine_origin_tracking_depth(1)``).
"""

from __future__ import annotations

import dis
import json
import os
import sys
import threading
import time
from collections.abc import Generator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import pytest

_TRANSPARENT = frozenset({"<lambda>", "<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
_CO_OPTIMIZED = 0x1
_CO_COROUTINE = 0x80
_RESUME = dis.opmap.get("RESUME", -1)

DEF, TRANSPARENT, OTHER = 0, 1, 2
"""Kinds of package code objects: a def, a lambda/comprehension, a module or class body."""

# (qualified name, kind, offset of the first RESUME or -1, lexical owner for TRANSPARENT)
CodeInfo = tuple[str, int, int, str]


def _first_resume(code: CodeType) -> int:
    """Offset of the first ``RESUME`` (where a frame stands at its first start), or -1."""
    if _RESUME < 0 or not code.co_flags & 0x2A0:  # generator | coroutine | async generator
        return -1
    raw = code.co_code
    for offset in range(0, len(raw), 2):
        if raw[offset] == _RESUME:
            return offset
    return -1


class Tracer:
    """Aggregates package -> package call edges and one call chain per test."""

    def __init__(self, import_root: str, package: str) -> None:
        root = os.path.realpath(import_root)
        self.root = root + os.sep
        self.prefix = os.path.join(root, package) + os.sep
        self.codes: dict[int, tuple[CodeType, CodeInfo | None]] = {}
        # (file, code name) -> the package's code objects so named, to place a coroutine's
        # creator (`cr_origin` names a frame by file, line and code name only)
        self.named: dict[tuple[str, str], list[tuple[CodeType, CodeInfo]]] = {}
        # (caller qn, callee qn, caller line) -> count
        self.edges: dict[tuple[str, str, int], int] = {}
        self.edge_tests: dict[tuple[str, str], int] = {}
        self.test_edges: set[tuple[str, str]] = set()
        self.chains: dict[str, list[str]] = {}
        self.deepest_chains: dict[str, list[str]] = {}
        self.calls = 0
        self.lost = 0
        self.phase = "collect"
        self.nodeid = ""
        self.entry: FrameType | None = None
        self.entry_done = False
        self.best: list[str] = []
        self.deepest: list[str] = []
        self.callback = self.profile
        """The bound method given to ``sys.setprofile`` (a new one compares equal, not same)."""
        self.thread_callback = self.profile_edges

    # -- classification -----------------------------------------------------------------------

    def _classify(self, code: CodeType) -> CodeInfo | None:
        filename = code.co_filename
        if not filename.endswith(".py"):
            return None
        path = os.path.realpath(filename) if not filename.startswith(self.prefix) else filename
        if not path.startswith(self.prefix):
            return None
        parts = path[len(self.root) : -3].split(os.sep)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        name = code.co_name
        if name == "<module>":
            return module, OTHER, -1, module
        # co_qualname is new in 3.11; mypy checks the project for 3.10.
        qualname: str = getattr(code, "co_qualname", name)
        qual = [p for p in qualname.split(".") if p != "<locals>"]
        qn = ".".join([module, *qual])
        if name in _TRANSPARENT:
            while qual and qual[-1] in _TRANSPARENT:
                qual.pop()
            return qn, TRANSPARENT, -1, ".".join([module, *qual])
        if not code.co_flags & _CO_OPTIMIZED:
            return qn, OTHER, -1, qn  # a class body
        return qn, DEF, _first_resume(code), qn

    def info(self, code: CodeType) -> CodeInfo | None:
        """Classification of ``code`` (``None``: not the package's)."""
        entry = self.codes.get(id(code))
        if entry is None:
            entry = (code, self._classify(code))
            self.codes[id(code)] = entry
            if entry[1] is not None:
                self.named.setdefault((code.co_filename, code.co_name), []).append((code, entry[1]))
        return entry[1]

    def _creator(self, frame: FrameType) -> tuple[CodeInfo, int] | None:
        """The package code that made the coroutine an asyncio task starts in ``frame``, and
        the line it made it on; None for any other start, or a coroutine made elsewhere."""
        asyncio = sys.modules.get("asyncio")
        if asyncio is None:
            return None
        try:
            task = asyncio.current_task()
        except RuntimeError:  # no running loop
            return None
        coroutine = task.get_coro() if task is not None else None
        if getattr(coroutine, "cr_frame", None) is not frame:
            return None
        origin = getattr(coroutine, "cr_origin", None)
        if not origin:
            return None
        filename, line, name = origin[0]
        for code, info in self.named.get((filename, name), ()):
            if any(at == line for _, _, at in code.co_lines()):
                return info, line
        return None

    # -- the profile function -----------------------------------------------------------------

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        """``sys.setprofile`` callback: record calls between package functions."""
        if event != "call":
            if frame is self.entry and event == "return":
                self.entry = None
                self.entry_done = True
            return
        info = self._called(frame)
        if info is None or self.phase != "call":
            return
        path, top = self._path(frame, info[0])
        if len(path) > len(self.deepest):
            self.deepest = path
        if self.entry_done:
            return
        if self.entry is None:
            self.entry = frame
            self.best = [info[0]]
        elif top is self.entry and len(path) > len(self.best):
            self.best = path

    def profile_edges(self, frame: FrameType, event: str, arg: Any) -> None:
        """The callback of other threads: their edges, not the main thread's chains."""
        if event == "call":
            self._called(frame)

    def _called(self, frame: FrameType) -> CodeInfo | None:
        """Record the edge into a package def starting in ``frame``; its info, or None when
        the frame is no such start."""
        code = frame.f_code
        entry = self.codes.get(id(code))
        info = entry[1] if entry is not None else self.info(code)
        if info is None or info[1] != DEF:
            return None
        if info[2] >= 0 and frame.f_lasti > info[2]:
            return None  # a generator or coroutine resumed, not called
        self.calls += 1
        back = frame.f_back
        caller = self.info(back.f_code) if back is not None else None
        line = back.f_lineno if back is not None else 0
        if caller is None and code.co_flags & _CO_COROUTINE:
            made = self._creator(frame)  # started by the event loop: who made it
            if made is not None:
                caller, line = made
        if caller is not None:
            key = (caller[3], info[0], line)
            self.edges[key] = self.edges.get(key, 0) + 1
            if self.nodeid:
                self.test_edges.add((caller[3], info[0]))
        return info

    def _path(self, frame: FrameType, qn: str) -> tuple[list[str], FrameType]:
        """Package defs down the stack to ``frame``, from the outermost one reachable by edges.

        Walks ``f_back`` while frames are the package's; each step is a recorded edge: a
        lambda or comprehension is crossed only when the def below it is its lexical owner (a
        lambda called back from elsewhere ends the walk), and module or class-body code ends it.
        Returns the path (outermost first) and the outermost def's frame.
        """
        path = [qn]
        top = frame
        current = frame.f_back
        while current is not None:
            info = self.info(current.f_code)
            if info is None:
                break
            if info[1] == TRANSPARENT:
                owner = info[3]
                below = current.f_back
                below_info: CodeInfo | None = None
                while below is not None:
                    below_info = self.info(below.f_code)
                    if below_info is None or below_info[1] != TRANSPARENT:
                        break
                    below = below.f_back
                if below is None or below_info is None or below_info[0] != owner:
                    break
                current = below
                continue
            if info[1] != DEF:
                break
            path.append(info[0])
            top = current
            current = current.f_back
        path.reverse()
        return path, top

    # -- per test ----------------------------------------------------------------------------

    def start_phase(self, nodeid: str, phase: str) -> None:
        """Enter a test phase; re-install the profile function if a test removed it."""
        if phase == "setup":
            self.test_edges = set()
            self.entry = None
            self.entry_done = False
            self.best = []
            self.deepest = []
        self.nodeid = nodeid
        self.phase = phase
        if sys.getprofile() is not self.callback:
            self.lost += 1
            sys.setprofile(self.callback)

    def end_test(self, nodeid: str) -> None:
        """Fold the finished test's edges into the totals and keep its chain."""
        for edge in self.test_edges:
            self.edge_tests[edge] = self.edge_tests.get(edge, 0) + 1
        if self.best:
            self.chains[nodeid] = self.best
        if self.deepest:
            self.deepest_chains[nodeid] = self.deepest
        self.test_edges = set()
        self.entry = None
        self.best = []
        self.deepest = []
        self.nodeid = ""
        self.phase = "between"

    def result(self) -> dict[str, Any]:
        """Raw edges (caller qn may be a module or class body) and chains, for the oracle."""
        return {
            "edges": [
                [caller, callee, line, count]
                for (caller, callee, line), count in sorted(self.edges.items())
            ],
            "edge_tests": [[c, e, n] for (c, e), n in sorted(self.edge_tests.items())],
            "chains": self.chains,
            "deepest_chains": self.deepest_chains,
            "calls": self.calls,
            "profile_lost": self.lost,
        }


class OraclePlugin:
    """Records outcomes and locations of tests and drives coverage contexts or the tracer."""

    def __init__(self, mode: str, out: Path, tracer: Tracer | None) -> None:
        self.mode = mode
        self.out = out
        self.tracer = tracer
        self.coverage: Any = None
        if mode == "coverage":
            import coverage

            self.coverage = coverage.Coverage.current()
            if self.coverage is None:
                raise RuntimeError("coverage mode needs `python -m coverage run -m pytest`")
        self.tests: dict[str, dict[str, Any]] = {}
        self.started = time.perf_counter()

    def _switch(self, nodeid: str, phase: str) -> None:
        if self.coverage is not None:
            self.coverage.switch_context(f"{nodeid}|{phase}" if nodeid else "")
        if self.tracer is not None:
            self.tracer.start_phase(nodeid, phase)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        path, line, domain = item.location
        self.tests[item.nodeid] = {"path": path, "line": line, "domain": domain}
        self._switch(item.nodeid, "setup")
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        self._switch(item.nodeid, "run")
        if self.tracer is not None:
            self.tracer.phase = "call"
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, None, None]:
        self._switch(item.nodeid, "teardown")
        yield
        if self.coverage is not None:
            self.coverage.switch_context("")
        if self.tracer is not None:
            self.tracer.end_test(item.nodeid)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        entry = self.tests.setdefault(report.nodeid, {})
        outcome: str = report.outcome
        if hasattr(report, "wasxfail"):
            outcome = "xfailed" if report.skipped else "xpassed"
        entry[report.when] = outcome

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.tracer is not None:
            sys.setprofile(None)
        self.out.mkdir(parents=True, exist_ok=True)
        report = {
            "exitstatus": int(exitstatus),
            "python": sys.version.split()[0],
            "pytest": pytest.__version__,
            "rootdir": str(session.config.rootpath),
            "wall_time_s": round(time.perf_counter() - self.started, 1),
            "tests": self.tests,
        }
        (self.out / "report.json").write_text(json.dumps(report), encoding="utf-8")
        if self.tracer is not None:
            data = self.tracer.result()
            (self.out / "calls.json").write_text(json.dumps(data), encoding="utf-8")


_TRACER: Tracer | None = None


def _start() -> Tracer | None:
    """Install the tracer as early as possible: when pytest imports this plugin."""
    if os.environ.get("RT_ORACLE_MODE") != "calls":
        return None
    if sys.version_info < (3, 11):
        raise RuntimeError("the call tracer needs Python 3.11+ (co_qualname, 3.11 f_lasti)")
    tracer = Tracer(os.environ["RT_ORACLE_IMPORT_ROOT"], os.environ["RT_ORACLE_PACKAGE"])
    sys.set_coroutine_origin_tracking_depth(1)  # who made each coroutine (`Tracer._creator`)
    sys.setprofile(tracer.callback)
    if os.environ.get("RT_ORACLE_THREADS"):
        threading.setprofile(tracer.thread_callback)
    return tracer


_TRACER = _start()
if _TRACER is not None and os.environ.get("RT_ORACLE_SUBPROCESSES"):
    os.environ["RT_ORACLE_TRACE_CHILD"] = "1"  # the processes the tests start trace themselves


def trace_child() -> None:
    """In a process a test started (from ``sitecustomize``): keep the tracer this import
    installed and write its edges at exit to ``RT_ORACLE_OUT/children/<pid>.json``."""
    import atexit

    tracer = _TRACER
    if tracer is None:
        return

    def write() -> None:
        sys.setprofile(None)
        folder = Path(os.environ["RT_ORACLE_OUT"]) / "children"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{os.getpid()}.json").write_text(json.dumps(tracer.result()), "utf-8")

    atexit.register(write)


def pytest_configure(config: pytest.Config) -> None:
    """Register the plugin object (modes: ``coverage`` or ``calls``)."""
    mode = os.environ.get("RT_ORACLE_MODE", "")
    if mode not in ("coverage", "calls"):
        raise pytest.UsageError(f"RT_ORACLE_MODE must be coverage or calls, not {mode!r}")
    out = Path(os.environ["RT_ORACLE_OUT"])
    config.pluginmanager.register(OraclePlugin(mode, out, _TRACER), "rt_oracle")
