"""Test selection judged by mutants (issue 54): for each first-order mutant of a package's
functions, the tests that fail (the oracle: the package's whole suite run once per mutant)
against the tests `CodeGraph.diff` selects for the mutant as a patch, on the graph with one
coverage run imported: the tests to run (`DiffImpact.to_run`: the tests that ran the
mutated function or read what it kept, `impact.kept`, and the static prediction only for
code the coverage does not speak for), and that list with its extras (the static
prediction for code whose fresh coverage says those tests did not run it); beside them the
tests that ran the mutated function alone, static alone (the same tree indexed under a
second name, no coverage) and everything.

Mutants come from `benchmarks.impact.mutator` (seeded; one line of one function body). The
selection reads a scratch copy of the sdist, indexed unmutated, with the mutated file
written into it for each `diff` and reverted after; the suite runs in a second copy (first
on `PYTHONPATH`, the module's bytecode dropped before each run, `nice -n 10`, a timeout),
so the shared cache's trees are never written. Oracle results are cached per mutant in
`benchmarks/cache/oracles/mutants54/<name>-<version>.json`: a rerun only runs new mutants.

Safety: the share of killed mutants (some test fails that passed unmutated) whose every
failing test is selected; a file that fails to collect counts as selected when any of its
tests is, and a suite that does not start (a conftest's import fails) when any test is.
Beside it, for the tests to run, the same with order-dependent failures left out: a failing
test they miss is run again alone on the mutant (cached), and one that then passes failed
only after another failing test left state behind (flask's context stack, stop 65).
Size: the median, over the mutants, of the share of the graph's tests selected (a
parametrised test is one). Timeouts and survivors are reported, not counted for safety.

    .venv/bin/python -m benchmarks.impact.mutants marshmallow==3.23.1 --mutants 100 \
        --json benchmarks/results/mutants54.json

Tuning: marshmallow, structlog and cleo (issue 50's held-out set, held out here until the
selection rules were found on their mutants: code that ran outside every test keeps the
tests that ran it, stop 63; the readers of what such code kept, `impact.kept`, stop 64);
since stop 65 also aiostream (a change of a function's interface runs its static
prediction), flask (a name defined twice in one scope) and pluggy (code every test ran is
the runner's), measured held out once before and moved to tuning by those rules. Held out:
wsproto 1.2.0 (`packages.HELD_OUT`: new to the static prediction too), measured once after
the stop-64 rules; aiostream runs with `--min-timeout 60`. (Only for test selection: no
linking rule came from any of them, `packages.HELD_OUT` is unchanged.)
Held out from the stop-65 rules (their oracles run and their selections scored once
before any of them): more-itertools 10.5.0, cachetools 5.5.0 and itsdangerous 2.2.0, new to
every rule; `--ids-only` writes their results with no code and no test name in them.
cachetools and itsdangerous tune the inherited-tests rule since (most of their failing
pytest ids were no test of the graph: `failing_ids_not_in_graph`); in their place toolz
1.0.0 and isodate 0.7.2 are held out, scored once before that rule.
itsdangerous is tuning since stop 65's imported test classes (a test module collects the
test classes it imports: found on its suite). toolz and isodate are tuning since stop 65,
part 3: their misses were read and gave the rule that a package's `__init__` and a test
module's collection read what their import-time calls kept (`impact.kept`); tabulate 0.9.0
and humanize 4.11.0 take their place, held out, scored once before those rules
(`--ids-only`). tabulate is tuning since stop 66: its misses were read (seven command-line
tests that run `tabulate/__init__.py` in a child process, which their coverage does not
record) and gave the rule that such tests are tests of what the program reaches
(`impact.programs`); humanize stays held out, and new held-out packages take tabulate's
place (BENCHMARKS §21).
Size is also given as the share of pytest's items (`median_item_share`): what a user
running the list runs, each selected test with all its parametrised cases, a case the list
names one by one once (stop 66: where only some cases of a parametrised test ran the
mutated code, `diff` lists those; the graph-test share counts such a test once, and safety
holds only if each of its failing cases is listed: `Oracle.failing_items`, parameters
kept). tabulate is tuning since stop 66 (its misses read); voluptuous 0.15.2 and tinydb
4.8.2 are held out in its place, scored once before stop 66's rules (`--ids-only`).
voluptuous and tinydb are tuning since stop 66, part 2 (their misses read): a test the
coverage names that the index has no node for (a Markdown file's doctests) becomes a test
of its own at import (`impact.unindexed`), and a test the unmutated tree fails now, since
a mutant's run left state outside the copy, is the environment's (`Oracle._environment`);
sqlparse 0.5.2 and boltons 24.1.0 are held out in their place, scored once after those
rules (`--ids-only`). sqlparse is tuning since stop 66, part 3 (its two misses read): a
singleton its class keeps and the first test that asked set up is read by every test that
asks for it (`impact.singletons`); mistune 3.0.2 is held out in its place, scored once
after that rule (`--ids-only`). Stop 67 holds out four new packages, scored once before its
rules and once after (`--ids-only`): json5 0.9.28, treelib 1.7.0, colander 2.0 and num2words
0.5.13; then semver 3.0.2 and webcolors 24.11.1, scored once after them. num2words,
measured held out once at stop 67's first look, is tuning since stop 67 (its misses read,
BENCHMARKS §21): two were a CRLF module whose mutated copy this harness wrote back with LF
and whose old side `diff --patch` rebuilt with LF (both keep line endings now); the others,
its command-line tests, run `bin/num2words` through delegator.py and reach the changed code
through a converter looked up by name, which no rule covers.

Needs Neo4j (NEO4J_URI, else the managed local server) and the runtime oracle's venv of the
package (`benchmarks.oracles.runtime_env`).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import functools
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.impact.mutator import Mutant, apply, mutants_of, pick
from benchmarks.oracles.packages import ORACLE_OUT_DIR
from benchmarks.oracles.runtime_env import RUNTIME_DIR, Suite, parse_specs, prepare, run_suite
from graphrag_code import CodeGraph
from graphrag_code.impact import import_coverage
from graphrag_code.impact.coverage import runner_of_context
from graphrag_code.impact.tests import runner_id

__all__ = ["run"]

CACHE = ORACLE_OUT_DIR / "mutants54"
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)
# the same lines' pytest items, parameters kept (`tests/t.py::test_y[a b]`: a space in them)
_ITEM = re.compile(r"^(?:FAILED|ERROR) ([^\s\[]+(?:\[.*?\](?= - |$))?)", re.MULTILINE)
SELECTORS = ("to_run", "with_extras", "ran", "static", "everything")


@dataclass(frozen=True)
class Outcome:
    """What the whole suite said of one mutant."""

    status: str  # killed, survived, timeout
    failing: tuple[str, ...]  # runner ids (parameters dropped) or files that did not collect
    seconds: float


class Oracle:
    """Runs the suite on a copy of the sdist; results cached per mutant."""

    def __init__(self, suite: Suite, copy: Path, *, min_timeout: float = 180.0) -> None:
        self.suite, self.copy = suite, copy
        self.cache_file = CACHE / f"{suite.root.name}.json"
        self.cache: dict[str, Any] = (
            json.loads(self.cache_file.read_text(encoding="utf-8"))
            if self.cache_file.is_file()
            else {"mutants": {}}
        )
        if "baseline" not in self.cache:
            started = time.perf_counter()
            failing, _, _ = self._run(timeout=self.suite.timeout_s)
            self.cache["baseline"] = {
                "failing": sorted(failing), "seconds": round(time.perf_counter() - started, 1)
            }  # fmt: skip
            self._save()
        self.baseline = set(self.cache["baseline"]["failing"])
        # generous: on two shared cores a mutant's run can take several times the baseline's
        # (a lower floor for a suite of seconds whose hung mutants spin a core: aiostream)
        self.timeout = max(min_timeout, 8 * self.cache["baseline"]["seconds"])
        self.environment: set[str] = set()
        self.environment = self._environment()

    def _environment(self) -> set[str]:
        """Tests that fail on the unmutated tree now but passed when the baseline was
        recorded: a mutant's run left something outside the copy that fails them in every
        later run (tinydb's `touch` mutant, run as root, made `/this/is/an/invalid/path/`,
        and `test_json_invalid_directory`, which expects that path not to be creatable,
        failed for every mutant after it: 26 "misses" of one test). The unmutated suite
        runs once per oracle where mutants are cached; what it finds is kept in the cache
        (`environment`), so that it stays left out once the state is gone. Their failures
        are no mutant's: `outcome` leaves them out (of every mutant: which runs came after
        the state was left is not known)."""
        known = set(self.cache.get("environment", ()))
        if self.cache["mutants"]:
            failing, timed_out, _ = self._run(timeout=self.timeout)
            found = set() if timed_out else failing - self.baseline
            if not found <= known:
                known |= found
                self.cache["environment"] = sorted(known)
                self._save()
        return known

    def _save(self) -> None:
        self.cache_file.parent.mkdir(parents=True, exist_ok=True)
        temp = self.cache_file.with_suffix(".tmp")
        temp.write_text(json.dumps(self.cache, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        temp.replace(self.cache_file)

    def _run(
        self, *, timeout: float, tests: tuple[str, ...] = ()
    ) -> tuple[set[str], bool, set[str]]:
        """The failing tests of the whole suite, or of `tests` alone (the suite's options
        kept, its paths left out); whether it timed out; the failing pytest items."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COVERAGE_"))}
        import_root = self.copy / self.suite.import_root_rel
        env.update({"PYTHONPATH": str(import_root), "PYTHONHASHSEED": "0"})
        path = self.suite.child_path()
        if path is not None:
            env["PATH"] = path
        args = self.suite.pytest_args
        with tempfile.TemporaryDirectory(prefix="mutants54-") as basetemp:
            command = [
                "nice", "-n", "10", str(self.suite.python), "-m", "pytest", "-q",
                "-p", "no:cacheprovider", "--tb=no", "-rfE", f"--rootdir={self.copy}",
                f"--basetemp={basetemp}", *(f"--deselect={d.nodeid}" for d in self.suite.deselect),
                *(_options(args) + list(tests) if tests else args),
            ]  # fmt: skip
            try:
                done = subprocess.run(
                    command, cwd=self.copy, env=env, capture_output=True, text=True,
                    timeout=timeout, check=False,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                return set(), True, set()
        failing = {
            runner_of_context(m.group(1)) or m.group(1) for m in _FAILED.finditer(done.stdout)
        }
        if done.returncode not in (0, 1) and not failing:  # no test ran: a conftest's import
            failing = {f"<pytest exit {done.returncode}>"}
        return failing, False, {m.group(1) for m in _ITEM.finditer(done.stdout)}

    @contextlib.contextmanager
    def _mutated(self, mutant: Mutant) -> Iterator[None]:
        """The scratch copy with `mutant` applied, restored after (its bytecode dropped both
        ways, so no run reads a stale `.pyc`)."""
        file = self.copy / mutant.path
        original = _source(file)
        try:
            file.write_bytes(apply(original, mutant).encode("utf-8"))
            _drop_bytecode(file)
            yield
        finally:
            file.write_bytes(original.encode("utf-8"))
            _drop_bytecode(file)

    def outcome(self, mutant: Mutant) -> Outcome:
        cached = self.cache["mutants"].get(mutant.key)
        retry = cached is not None and cached["status"] == "timeout"
        if retry and cached.get("timeout_s", 60.0) >= self.timeout:
            retry = False  # timed out under this limit already
        if cached is None or retry:
            started = time.perf_counter()
            with self._mutated(mutant):
                failing, timed_out, items = self._run(timeout=self.timeout)
            failing -= self.baseline
            status = "timeout" if timed_out else "killed" if failing else "survived"
            cached = {"status": status, "failing": sorted(failing), "timeout_s": self.timeout,
                      "seconds": round(time.perf_counter() - started, 1),
                      "failing_items": sorted(self._new(items))}  # fmt: skip
            self.cache["mutants"][mutant.key] = cached
            self._save()
        return without_environment(
            Outcome(cached["status"], tuple(cached["failing"]), cached["seconds"]),
            self.environment,
        )

    def _new(self, items: set[str]) -> set[str]:
        """Failing items of tests that pass unmutated."""
        gone = self.baseline | self.environment
        return {i for i in items if (runner_of_context(i) or i) not in gone}

    def failing_items(self, mutant: Mutant) -> set[str]:
        """The failing pytest items of a killed mutant, parameters kept (a selection that
        names a parametrised test's cases one by one is safe when it holds each failing
        case): cached beside its outcome; a mutant cached before the items were kept runs
        the whole suite once more."""
        cached = self.cache["mutants"][mutant.key]
        if "failing_items" not in cached:
            with self._mutated(mutant):
                _, _, items = self._run(timeout=self.timeout)
            cached["failing_items"] = sorted(self._new(items))
            self._save()
        return self._new(set(cached["failing_items"]))

    def alone(self, mutant: Mutant, tests: tuple[str, ...]) -> set[str]:
        """Of `tests` (failing tests of the whole suite a selection left out), those that
        also fail run by themselves on the mutant; the others failed only after another
        failing test left state behind (flask's context stack): order-dependent, they fail
        in no run of the selected tests alone. Cached per mutant."""
        cached = self.cache["mutants"][mutant.key]
        known: dict[str, bool] = cached.setdefault("alone", {})
        asked = tuple(sorted(t for t in tests if t not in known and not t.startswith("<")))
        if asked:
            with self._mutated(mutant):
                failing, timed_out, _ = self._run(timeout=self.timeout, tests=asked)
            for test in asked:  # a file that did not collect fails all its tests
                known[test] = timed_out or any(
                    f == test or test.startswith(f + "::") for f in failing
                )
            self._save()
        return {t for t in tests if known.get(t, True)}


def without_environment(outcome: Outcome, environment: set[str]) -> Outcome:
    """A mutant's outcome without the failures of tests the environment fails
    (`Oracle._environment`): a killed mutant none of whose failing tests is left survived."""
    if not environment or not environment & set(outcome.failing):
        return outcome
    failing = tuple(t for t in outcome.failing if t not in environment)
    status = outcome.status if failing or outcome.status != "killed" else "survived"
    return Outcome(status, failing, outcome.seconds)


def _options(args: tuple[str, ...]) -> list[str]:
    """A suite's pytest arguments without its paths (`-m "not network"` kept)."""
    kept: list[str] = []
    takes_value = False
    for arg in args:
        if takes_value or arg.startswith("-"):
            kept.append(arg)
            takes_value = arg in ("-m", "-k", "-p", "-c", "-o")
    return kept


def _source(file: Path) -> str:
    """A module's text with its line endings as they are: a mutant edits one line, as a
    user's editor would, and never turns a CRLF file's every line to LF (num2words's
    `lang_PL.py`, stop 67: every function of it read as changed since the coverage)."""
    return file.read_bytes().decode("utf-8")


def _drop_bytecode(file: Path) -> None:
    """A mutant of the same size written within the second would pass the pyc's check."""
    for pyc in (file.parent / "__pycache__").glob(f"{file.stem}.*.pyc"):
        pyc.unlink()


@dataclass
class Graphs:
    """The unmutated tree indexed twice: with coverage imported, and without."""

    graph: CodeGraph
    copy: Path
    covered: str
    static: str
    tests: set[str]  # the graph's tests, as runner ids
    import_s: float
    import_edges: int

    def selected(self, mutant: Mutant) -> tuple[dict[str, set[str]], float]:
        """The tests each selector picks for the mutant, and the two `diff`s' seconds."""
        file = self.copy / mutant.path
        original = _source(file)
        mutated = apply(original, mutant)
        patch = "".join(
            difflib.unified_diff(
                original.splitlines(keepends=True), mutated.splitlines(keepends=True),
                f"a/{mutant.path}", f"b/{mutant.path}", n=3,
            )
        )  # fmt: skip
        file.write_bytes(mutated.encode("utf-8"))
        try:
            started = time.perf_counter()
            covered = self.graph.diff(
                patch=patch, path=self.copy, repo=self.covered, update=False, limit=10_000
            )
            static = self.graph.diff(
                patch=patch, path=self.copy, repo=self.static, update=False, limit=10_000
            )
            seconds = time.perf_counter() - started
        finally:
            file.write_bytes(original.encode("utf-8"))
        return {
            "to_run": {t.runner_id for t in covered.to_run},
            "with_extras": {t.runner_id for t in covered.tests},
            "ran": {t.runner_id for t in covered.tests if t.ran},
            "static": {t.runner_id for t in static.tests},
            "everything": set(self.tests),
        }, seconds


def _coverage_file(suite: Suite) -> Path:
    """One run of the suite under coverage.py with per-test contexts (cached)."""
    work = RUNTIME_DIR / "work" / f"{suite.root.name}.mutants54"
    if not (work / ".coverage").is_file():
        run_suite(suite, "coverage", work)
    return work / ".coverage"


def _graphs(suite: Suite, copy: Path) -> Graphs:
    data = _coverage_file(suite)
    graph = CodeGraph()  # the configured embedder (the shared graph's vector index); no embedding
    covered, static = f"mut54-{suite.root.name}", f"mut54s-{suite.root.name}"
    for name in (covered, static):
        graph.index(copy, name, full=True, embed=False, move=True)
    done = import_coverage(graph.client, covered, data, root=str(suite.root.resolve()), commit=None)
    tests = {
        case
        for row in graph.client.read(
            "MATCH (t:Code) WHERE t.repo = $repo AND t.test_role = 'test' "
            "RETURN t.path AS path, t.qualified_name AS name, t.module AS module, "
            "t.test_cases AS cases, t.test_runner AS runner",
            {"repo": covered},
        )
        # a test method classes inherit runs once per class that has it (`test_cases`); a
        # stored runner id first (a test only the coverage names: `impact.unindexed`)
        for case in row["cases"]
        or (row["runner"] or runner_id(row["path"], row["name"], row["module"]),)
    }
    return Graphs(graph, copy, covered, static, tests, done.seconds, done.edges)


def _safe(
    failing: tuple[str, ...], selected: set[str], items: Callable[[], set[str]] | None = None
) -> tuple[bool, list[str]]:
    """Whether every failing test is selected (a file that did not collect: any of its; a
    suite that did not start, its conftest failing to import: any test); a parametrised
    test some of whose cases are selected one by one, when each of its failing cases is
    (`items`: the mutant's failing pytest items, parameters kept)."""
    missed = []
    cased = {_test(s) for s in selected if _test(s) != s}
    for test in failing:
        if test.startswith("<"):
            hit = bool(selected)
        elif "::" in test:
            hit = test in selected
            if not hit and test in cased and items is not None:
                mine = {i for i in items() if _test(i) == test}
                hit = bool(mine) and mine <= selected
        else:
            hit = any(s == test or s.startswith(test + "::") for s in selected)
        if not hit:
            missed.append(test)
    return not missed, missed


def _test(runner: str) -> str:
    """A runner id without its parameters: its graph test (`t.py::t[1-2]` -> `t.py::t`)."""
    return runner_of_context(runner) or runner


def _size(selected: set[str], weights: dict[str, int]) -> tuple[int, int, int]:
    """A selection's graph tests (a test some of whose cases are selected is one), pytest
    items (a whole test runs all its cases, `weights`; a case one) and cases named one by
    one (those of a test not selected whole)."""
    whole = {t for t in selected if _test(t) == t}
    cases = {t for t in selected if _test(t) != t and _test(t) not in whole}
    tests = whole | {_test(t) for t in cases}
    return len(tests), sum(weights.get(t, 1) for t in whole) + len(cases), len(cases)


def _candidates(suite: Suite) -> list[Mutant]:
    found: list[Mutant] = []
    package = suite.import_root / suite.package
    for file in sorted(package.rglob("*.py")):
        relative = file.relative_to(suite.root).as_posix()
        if "/tests/" in f"/{relative}":
            continue
        found.extend(mutants_of(file.read_text(encoding="utf-8"), relative))
    return found


def fill_oracle(
    spec: str, *, count: int, seed: int = 54, min_timeout: float = 180.0
) -> dict[str, int]:
    """Only the oracle: run the suite for every picked mutant not cached yet, and count the
    outcomes (no graph, no selection; a held-out package's oracle can run before the rules
    are final, since it reads nothing of ours)."""
    (entry,) = parse_specs([spec])
    suite = prepare(entry)
    picked = pick(_candidates(suite), count, seed)
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="mutants54-") as temp:
        copy = Path(temp) / suite.root.name
        skip = shutil.ignore_patterns("__pycache__", ".pytest_cache")
        shutil.copytree(suite.root.resolve(), copy, symlinks=True, ignore=skip)
        oracle = Oracle(suite, copy, min_timeout=min_timeout)
        for number, mutant in enumerate(picked, 1):
            status = oracle.outcome(mutant).status
            counts[status] = counts.get(status, 0) + 1
            print(f"[{number}/{len(picked)}] oracle {counts}", flush=True)
    return counts


def run(spec: str, *, count: int, seed: int = 54, min_timeout: float = 180.0) -> dict[str, Any]:
    """The mutant benchmark for one package (`marshmallow==3.23.1`)."""
    (entry,) = parse_specs([spec])
    suite = prepare(entry)
    candidates = _candidates(suite)
    picked = pick(candidates, count, seed)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mutants54-") as temp:
        copies = []
        for side in ("graph", "suite"):
            copy = Path(temp) / side / suite.root.name
            skip = shutil.ignore_patterns("__pycache__", ".pytest_cache")
            shutil.copytree(suite.root.resolve(), copy, symlinks=True, ignore=skip)
            copies.append(copy)
        graphs = _graphs(suite, copies[0])
        weights = _items_per_test(suite)
        oracle = Oracle(suite, copies[1], min_timeout=min_timeout)
        for number, mutant in enumerate(picked, 1):
            selected, diff_s = graphs.selected(mutant)
            outcome = oracle.outcome(mutant)
            sizes = {k: _size(v, weights) for k, v in selected.items()}
            row: dict[str, Any] = {
                "mutant": asdict(mutant), "status": outcome.status,
                # the first 20 (the oracle's cache holds them all)
                "failing": list(outcome.failing[:20]), "failing_count": len(outcome.failing),
                "suite_s": outcome.seconds,
                "diff_s": round(diff_s, 3),
                "selected": {k: n[0] for k, n in sizes.items()},
                # what a user running the list runs: each whole test's parametrised items, a
                # case selected one by one once
                "items": {k: n[1] for k, n in sizes.items()},
                "cases": {k: n[2] for k, n in sizes.items() if n[2]},
            }  # fmt: skip
            # the tests to run as before stop 66: each test whole (its cases widened)
            whole = {_test(t) for t in selected["to_run"]}
            row["whole"] = {"selected": len(whole), "items": _size(whole, weights)[1]}
            if outcome.status == "killed":
                for kind, tests in selected.items():
                    row.setdefault("safe", {})[kind], missed = _safe(
                        outcome.failing, tests, functools.partial(oracle.failing_items, mutant)
                    )
                    if missed:
                        row.setdefault("missed", {})[kind] = missed
                row["whole"]["safe"] = _safe(outcome.failing, whole)[0]
                missed = row.get("missed", {}).get("to_run", [])
                real = oracle.alone(mutant, tuple(missed)) if missed else set()
                row["order_dependent"] = sorted(set(missed) - real)
                row["safe_alone"] = not real
            rows.append(row)
            print(
                f"[{number}/{len(picked)}] {mutant.operator} {mutant.path}:{mutant.line} "
                f"{outcome.status} ({len(outcome.failing)} failing, {outcome.seconds} s); "
                f"selected {row['selected']}, safe {row.get('safe', '-')}",
                flush=True,
            )
        graphs.graph.close()
    result = _summary(suite.root.name, graphs, len(candidates), rows, oracle.cache["baseline"])
    known = _known_tests(suite, graphs, picked, oracle)
    # the suite's items: those the coverage run recorded, and one for each graph test that
    # recorded none (it ran no measured line), as `_size` counts a selected one
    suite_items = known["pytest_items"] + sum(1 for t in graphs.tests if t not in weights)
    known["suite_items"] = suite_items
    for kind, figures in result["selectors"].items():
        shares = [r["items"][kind] / suite_items for r in rows]
        figures["median_item_share"] = round(statistics.median(shares), 4) if shares else None
    result["to_run_whole"] = _whole(rows, len(graphs.tests), suite_items)
    # tests the unmutated tree fails now (state a mutant's run left): no mutant's failures
    result["environment_failing"] = len(oracle.environment)
    return {**result, **known}


def _whole(rows: list[dict[str, Any]], tests: int, items: int) -> dict[str, Any]:
    """The tests to run with each test whole, as before stop 66 selected parametrised cases
    one by one: safety and median shares, from the same run."""
    killed = [r for r in rows if r["status"] == "killed"]
    tests_share = [r["whole"]["selected"] / tests for r in rows] if tests else [0.0]
    items_share = [r["whole"]["items"] / items for r in rows] if items else [0.0]
    return {
        "safety": round(sum(r["whole"]["safe"] for r in killed) / len(killed), 3)
        if killed
        else None,
        "median_share": round(statistics.median(tests_share), 4) if rows else None,
        "mean_share": round(statistics.fmean(tests_share), 4) if rows else None,
        "median_item_share": round(statistics.median(items_share), 4) if rows else None,
        "mutants_with_cases": sum(bool(r.get("cases", {}).get("to_run")) for r in rows),
    }


def _items_per_test(suite: Suite) -> dict[str, int]:
    """Runner id (parameters dropped) -> the pytest items the coverage run recorded for it:
    a parametrised test selected runs all its cases (isodate: 28 ids, 271 items)."""
    from coverage import CoverageData

    data = CoverageData(basename=str(_coverage_file(suite)))
    data.read()
    items = {c.rsplit("|", 1)[0] for c in data.measured_contexts() if "|" in c}
    counts: dict[str, int] = {}
    for item in items:
        test = runner_of_context(item)
        if test is not None:
            counts[test] = counts.get(test, 0) + 1
    return counts


def _known_tests(
    suite: Suite, graphs: Graphs, picked: list[Mutant], oracle: Oracle
) -> dict[str, int]:
    """The graph's tests against pytest's: the items and the ids (parameters dropped) the
    coverage run recorded, and of the distinct failing ids of the killed mutants those that
    are no test of the graph (no selection from the graph can hold them: stop 65's
    cachetools and itsdangerous, whose inherited test methods the graph did not know)."""
    from coverage import CoverageData

    data = CoverageData(basename=str(_coverage_file(suite)))
    data.read()
    items = {c.rsplit("|", 1)[0] for c in data.measured_contexts() if "|" in c}
    outcomes = [oracle.outcome(mutant) for mutant in picked]  # cached by now
    failing = {
        test
        for outcome in outcomes
        if outcome.status == "killed"
        for test in outcome.failing
        if not test.startswith("<")
    }
    unknown = {t for t in failing if not _safe((t,), graphs.tests)[0]}
    return {
        "pytest_items": len(items),
        "pytest_ids": len({runner_of_context(c) for c in items} - {None}),
        "failing_ids": len(failing),
        "failing_ids_not_in_graph": len(unknown),
    }


def _summary(
    package: str, graphs: Graphs, candidates: int, rows: list[dict[str, Any]], base: Any
) -> dict[str, Any]:
    tests = len(graphs.tests)
    killed = [r for r in rows if r["status"] == "killed"]
    per: dict[str, Any] = {}
    for kind in SELECTORS:
        shares = [r["selected"][kind] / tests for r in rows] if tests else [0.0]
        per[kind] = {
            "safety": round(sum(r["safe"][kind] for r in killed) / len(killed), 3)
            if killed
            else None,
            "missed": [r["mutant"]["path"] + ":" + str(r["mutant"]["line"]) for r in killed
                       if not r["safe"][kind]],
            # the tests to run, a missed test that passes run alone on the mutant not counted
            **({"safety_alone": round(sum(r["safe_alone"] for r in killed) / len(killed), 3)
                if killed else None} if kind == "to_run" else {}),
            "median_share": round(statistics.median(shares), 4),
            "mean_share": round(statistics.fmean(shares), 4),
        }  # fmt: skip
    diff_s = [r["diff_s"] for r in rows]
    return {
        "package": package,
        "graph_tests": tests,
        "candidates": candidates,
        "mutants": len(rows),
        "killed": len(killed),
        "survived": sum(r["status"] == "survived" for r in rows),
        "timeout": sum(r["status"] == "timeout" for r in rows),
        "baseline": base,
        "import_s": graphs.import_s,
        "import_edges": graphs.import_edges,
        "diff_s_median": round(statistics.median(diff_s), 3) if diff_s else None,
        "diff_s_max": round(max(diff_s), 3) if diff_s else None,
        "suite_s_median": round(statistics.median(r["suite_s"] for r in rows), 1) if rows else None,
        "selectors": per,
        "rows": rows,
    }


_NAMES = {
    "to_run": "`diff`, to run",
    "with_extras": "`diff` with its extras",
    "ran": "ran the mutated function",
    "static": "static alone",
    "everything": "everything",
}


def ids_only(result: dict[str, Any]) -> dict[str, Any]:
    """A package's result with no code and no test name in it: each mutant's id (its
    `path:line`), operator, outcome and counts. For held-out packages, whose misses nobody
    may read for rules."""
    rows = [
        {
            "id": f"{r['mutant']['path']}:{r['mutant']['line']}",
            "operator": r["mutant"]["operator"],
            **{
                k: r[k]
                for k in (
                    "status",
                    "failing_count",
                    "suite_s",
                    "diff_s",
                    "selected",
                    "items",
                    "cases",
                    "whole",
                )
                if k in r
            },
            **{k: r[k] for k in ("safe", "safe_alone") if k in r},
            **(
                {"missed": {kind: len(tests) for kind, tests in r["missed"].items()}}
                if "missed" in r
                else {}
            ),
            **({"order_dependent": len(r["order_dependent"])} if r.get("order_dependent") else {}),
        }
        for r in result["rows"]
    ]
    return {**result, "rows": rows}


def markdown(results: list[dict[str, Any]]) -> str:
    """The table BENCHMARKS §21 shows, and every mutant some selector missed."""
    out = [
        "| package | mutants (killed / survived / timeout) | selector | safety | "
        "median share (mean) | median share of pytest items |",
        "|---|---|---|---:|---:|---:|",
    ]
    for r in results:
        counts = f"{r['mutants']} ({r['killed']} / {r['survived']} / {r['timeout']})"
        for kind in SELECTORS:
            s = r["selectors"][kind]
            alone = s.get("safety_alone")
            safety = f"{s['safety']}" + (
                f" ({alone} order-dependent left out)" if alone not in (None, s["safety"]) else ""
            )
            out.append(
                f"| {r['package']} | {counts} | {_NAMES[kind]} | {safety} | "
                f"{s['median_share']:.1%} ({s['mean_share']:.1%}) | "
                + (f"{items:.1%} |" if (items := s.get("median_item_share")) is not None else " |")
            )
    if any("to_run_whole" in r for r in results):
        out += ["", "| package | tests to run | safety | median share of tests (mean) | "
                "median share of pytest items | mutants with cases named one by one |",
                "|---|---|---:|---:|---:|---:|"]  # fmt: skip
        for r in results:
            if "to_run_whole" not in r:
                continue
            w, s = r["to_run_whole"], r["selectors"]["to_run"]
            for label, f in (("each test whole", w), ("cases one by one", s)):
                out.append(
                    f"| {r['package']} | {label} | {f['safety']} | {f['median_share']:.1%} "
                    f"({f['mean_share']:.1%}) | {f['median_item_share']:.1%} | "
                    f"{w['mutants_with_cases']} |"
                )
    out += ["", "| package | graph tests | pytest items (ids) | failing ids not in the graph | "
            "import, s (RAN edges) | diff, s median (max) | suite per mutant, s median |",
            "|---|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for r in results:
        known = (
            (
                f"{r['pytest_items']} ({r['pytest_ids']})",
                f"{r['failing_ids_not_in_graph']} of {r['failing_ids']}",
            )
            if "pytest_items" in r
            else ("", "")
        )
        out.append(
            f"| {r['package']} | {r['graph_tests']} | {known[0]} | {known[1]} | "
            f"{r['import_s']} ({r['import_edges']:,}) | "
            f"{r['diff_s_median']} ({r['diff_s_max']}) | {r['suite_s_median']} |"
        )
    held_out = any("id" in row for r in results for row in r["rows"])
    left_out = "how many failing tests it left out" if held_out else "the failing tests it left out"
    out += ["", f"Mutants some selector missed ({left_out}):", ""]
    for r in results:
        for row in r["rows"]:
            for kind, missed in sorted(row.get("missed", {}).items()):
                if "id" in row:  # ids only (held out)
                    out.append(
                        f"- {r['package']} `{row['id']}` ({row['operator']}), {_NAMES[kind]}: "
                        f"{missed} of {row['failing_count']} failing missed"
                        + (
                            f"; {row['order_dependent']} of them pass run alone on the mutant"
                            if kind == "to_run" and row.get("order_dependent")
                            else ""
                        )
                    )
                    continue
                m = row["mutant"]
                out.append(
                    f"- {r['package']} `{m['path']}:{m['line']}` ({m['function']}, "
                    f"{m['operator']}: `{m['old'].strip()}` -> `{m['new'].strip()}`), "
                    f"{_NAMES[kind]}: {len(missed)} of {row['failing_count']} failing "
                    f"missed, e.g. {', '.join(missed[:3])}"
                    + (
                        f"; {len(row['order_dependent'])} of them pass run alone on the "
                        "mutant (order-dependent)"
                        if kind == "to_run" and row.get("order_dependent")
                        else ""
                    )
                )
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="+", help="runtime oracle specs: marshmallow==3.23.1")
    parser.add_argument("--mutants", type=int, default=100, help="mutants per package")
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument(
        "--min-timeout", type=float, default=180.0,
        help="seconds a mutant's suite may run at least (else 8x the unmutated run)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path, help="the tables and the missed mutants")
    parser.add_argument(
        "--ids-only", action="store_true",
        help="write no code and no test name (held-out packages): ids, outcomes and counts",
    )  # fmt: skip
    parser.add_argument(
        "--oracle-only", action="store_true", help="only run (and cache) the suites per mutant"
    )
    args = parser.parse_args()
    if args.oracle_only:
        for spec in args.packages:
            counts = fill_oracle(
                spec, count=args.mutants, seed=args.seed, min_timeout=args.min_timeout
            )
            print(spec, counts, flush=True)
        return
    results = []
    for spec in args.packages:
        result = run(spec, count=args.mutants, seed=args.seed, min_timeout=args.min_timeout)
        results.append(ids_only(result) if args.ids_only else result)
        s = result["selectors"]
        print(
            f"{result['package']}: {result['mutants']} mutants, {result['killed']} killed, "
            f"{result['survived']} survived, {result['timeout']} timed out; safety / median "
            + ", ".join(f"{k} {s[k]['safety']} / {s[k]['median_share']}" for k in SELECTORS)
        )
        if args.json:  # after each package: a long run keeps what it finished
            args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        if args.markdown:
            args.markdown.write_text(markdown(results), encoding="utf-8")


if __name__ == "__main__":
    main()
