"""Test selection judged by mutants on a JavaScript package (issue 54, stop 66): BENCHMARKS
§21's benchmark (`benchmarks.impact.mutants`) where a test is a test FILE, as the graph's
JavaScript tests are (module nodes).

The oracle runs each test file of the package in its own node process (`nice -n 10`, two at a
time, a timeout per file: 8 times its unmutated run, at least `--min-timeout`), once per
mutant, on a scratch copy of the registry tarball with the mutated module written in; the
failing files are the mutant's failing tests (files that failed unmutated left out; a file
that timed out makes the mutant a timeout, not counted for safety). Results are cached per
mutant in `benchmarks/cache/oracles/mutants66js/<name>-<version>.json`: a rerun only runs new
mutants. The coverage is each test file run alone under `NODE_V8_COVERAGE`, one folder per file
with its `test-file.txt` (the layout `CodeGraph.import_coverage` reads), recorded in the copy
the graph indexes. Selection, safety and size are `benchmarks.impact.mutants`'s (its
`Graphs`, `_safe`, `_summary` and `markdown`): `diff` of the mutant on the tree indexed with the
coverage imported (the tests to run, and with extras), static alone (indexed again without
it) and everything; safety is the share of killed mutants whose every failing test file is
selected, size the median share of the graph's test files selected. Beside it, for the tests
to run, the same with flaky failures left out: a failing file they miss is run twice more
alone on the mutant (cached), and one that passes failed without the mutant's doing (a timing
test on loaded cores).

Mutants come from `benchmarks.impact.js_mutator` (seeded, the operators in turn, as
`mutator.pick` does), of the package's source files only; a picked mutant that fails
`node --check` is skipped for the next one.

    .venv/bin/python -m benchmarks.impact.js_mutants find-my-way@9.10.2 avvio@9.3.1 \
        --mutants 100 --json benchmarks/results/mutants66_js.json \
        --markdown benchmarks/results/mutants66_js.md

Stop 67: a package may run its suite with Jest or Vitest (`JsPackage.runner`,
`benchmarks.impact.js_runners`): the oracle runs the whole suite in one runner process per
mutant (its JSON report says which files failed; a timeout 8 times the unmutated run, at
least `--min-timeout`), the coverage is each file's Istanbul JSON as the README records it,
and a package the registry ships without its tests comes from its Git repository at a pinned
commit (`JsPackage.git`; `--git-source DIR`: a local clone or bare mirror of it). TypeScript
mutants must pass the compiler's syntax check (`js_mutator.ts_check`); types are not checked
(the suite runs with ts-jest's diagnostics off: a mutant that breaks only a type is no test's
failure). `--ids-only` writes held-out results with no code and no test name.

    .venv/bin/python -m benchmarks.impact.js_mutants cron-parser@5.10.0 --mutants 100 \
        --git-source /path/to/cron-parser.git --ids-only \
        --json benchmarks/results/mutants67_jest.json

Held out: the packages are in no TypeScript oracle set (`ts_oracle.TS_TUNING`, `TS_HELD_OUT`)
and no selection or linking rule was found on them. Needs node and npm on PATH and Neo4j
(NEO4J_URI, else the managed local server).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.impact.js_mutator import mutants_of, node_check, ts_check
from benchmarks.impact.js_runners import Runner, record_file, run_file, run_suite
from benchmarks.impact.mutants import SELECTORS, Graphs, _safe, _summary, ids_only, markdown
from benchmarks.impact.mutator import Mutant, apply, pick
from benchmarks.oracles.packages import ORACLE_OUT_DIR
from benchmarks.oracles.ts_oracle import (
    OracleSetupError,
    PinnedCodebase,
    download_tarball,
    extract_tarball,
)
from graphrag_code import CodeGraph
from graphrag_code.impact.tests import runner_id

__all__ = ["PACKAGES", "JsPackage", "run"]

CACHE = ORACLE_OUT_DIR / "mutants66js"
_WORKERS = 2  # test files run at once (the machine's two cores)


@dataclass(frozen=True)
class JsPackage:
    """A plain JavaScript package whose npm tarball ships its test suite."""

    codebase: PinnedCodebase
    why: str  # why it was chosen (before any run)
    sources: tuple[str, ...]  # the files and folders mutated (no tests, benchmarks, examples)
    tests: str  # glob of the test files, each run alone: `node FILE`
    dependencies: tuple[str, ...]  # `name@version` installed for the suite (runtime and test)
    module: bool = False  # ES modules (`node --check --input-type=module`)
    runner: Runner = "node"  # `node FILE` per test file, or one Jest / Vitest run
    git: tuple[str, str] | None = None  # (repository URL, commit): sources not on npm
    config: tuple[str, str] | None = None  # (file name, text) written for the oracle's runs
    env: tuple[tuple[str, str], ...] = ()  # the suite's environment (`TZ=UTC`)
    extensions: tuple[str, ...] = ("*.js",)  # the source files mutated, in `sources`


#: Chosen 2026-12-07 (stop 66) from the tarball's file list and package.json, before any run:
#: the JavaScript packages of the TypeScript oracle sets are left out (held out for selection).
#: avvio was added after find-my-way's results, chosen the same way before any run of its own.
PACKAGES: tuple[JsPackage, ...] = (
    JsPackage(
        PinnedCodebase(
            "find-my-way",
            "9.10.2",
            "sha512-gbLMuTm2FV5QiRh/eM0uhL4nyOvbSqqa2K3mASAtkIqxvY8ZmoLOCLMd2syLWT/SyhrvOR7GPxOKj/kcV6o8bg==",
            style="HTTP router in plain CommonJS JavaScript (a radix tree, prototype methods, "
            "a code generator, constraint strategies)",
            include=("index.js", "lib"),
        ),
        why="plain CommonJS with no build step (V8's lines are the source lines); 12 source "
        "files, 2.9k lines; 79 test files (`test/**/*.test.js`, node:test), each runnable "
        "alone with `node FILE` in well under a second; its npm tarball ships the tests; "
        "not in any TS oracle set",
        sources=("index.js", "lib"),
        tests="test/**/*.test.js",
        dependencies=(
            "fast-deep-equal@3.1.3",
            "fast-querystring@1.1.2",
            "safe-regex2@5.1.2",
            "proxyquire@2.1.3",
            "rfdc@1.4.1",
        ),
    ),
    JsPackage(
        PinnedCodebase(
            "avvio",
            "9.3.1",
            "sha512-QyTKW61/qlba+cUQBm/sT9X8lri4UdomqSDwCnrnj1IvLVDRRiXRkz4CgBRWB+/cmfC7SK5WQc8T1vSdGvaUcQ==",
            style="asynchronous plugin loader in plain CommonJS JavaScript (a queue of plugins, "
            "callbacks, promises and timeouts, a timing tree)",
            include=("index.js", "lib"),
        ),
        why="the second, cheap: plain CommonJS with no build step; 13 source files, 1.4k "
        "lines; 42 node:test files (`test/**/*.test.js`), each runnable alone with "
        "`node FILE`; its npm tarball ships the tests, which need only its two runtime "
        "dependencies; not in any TS oracle set (fastify, held out there, is another package)",
        sources=("index.js", "lib"),
        tests="test/**/*.test.js",
        dependencies=("@fastify/error@4.3.0", "fastq@1.20.3"),
    ),
    # stop 67: the Jest package, chosen for its runner before any mutant of it ran (its
    # coverage was recorded and imported first, to check the README's Jest loop)
    JsPackage(
        PinnedCodebase(
            "cron-parser",
            "5.10.0",
            "",  # from Git: the npm tarball ships only the compiled dist/
            style="cron expression parser in TypeScript (classes with static private "
            "methods, fields, a date wrapper over luxon), tested with Jest and ts-jest",
            include=("src",),
        ),
        why="TypeScript run by Jest 30 through ts-jest (the README's Jest loop, with "
        "Jest's default instrumenter); 17 source files, 2.6k lines; 7 test files, the "
        "whole suite in one Jest run; not in any TS oracle set, in no earlier benchmark",
        sources=("src",),
        tests="tests/**/*.test.ts",
        dependencies=(
            "luxon@3.7.2",
            "jest@30.4.2",
            "ts-jest@29.4.12",
            "typescript@6.0.3",
            "@types/jest@30.0.0",
            "@types/luxon@3.7.4",
            "@types/node@26.2.0",
        ),
        runner="jest",
        git=(
            "https://github.com/harrisiirak/cron-parser",
            "03444a83cd45808a13feced273471304d3168dca",
        ),
        config=(
            "jest.oracle.config.js",
            "const base = require('./jest.config.js');\n"
            "module.exports = { ...base, coverageThreshold: undefined,\n"
            "  transform: { '^.+\\\\.ts$': ['ts-jest', { diagnostics: false }] } };\n",
        ),
        env=(("TZ", "UTC"),),  # its npm scripts run Jest so
        extensions=("*.ts",),
    ),
)


def pinned(spec: str) -> JsPackage:
    """The pinned package for `name@version` (or `name`); anything else is an error."""
    for package in PACKAGES:
        if spec in (package.codebase.name, package.codebase.spec):
            return package
    known = ", ".join(p.codebase.spec for p in PACKAGES)
    raise SystemExit(f"{spec}: not a pinned JavaScript package (pinned: {known})")


def _checkout(package: JsPackage, target: Path, source: str | None) -> Path:
    """The package's pinned commit, from `source` (a clone or bare mirror) or its URL."""
    assert package.git is not None
    url, commit = package.git
    if (target / ".extracted-ok").is_file():
        return target
    with tempfile.TemporaryDirectory(prefix="js-mutants-git-") as temp:
        repository = source
        if repository is None:
            repository = str(Path(temp) / "repo.git")
            subprocess.run(["git", "clone", "--bare", "--quiet", url, repository], check=True)
        unpacked = Path(temp) / "tree"
        unpacked.mkdir()
        archive = subprocess.run(
            ["git", f"--git-dir={_git_dir(repository)}", "archive", "--format=tar", commit],
            capture_output=True, check=True,
        )  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(unpacked)], input=archive.stdout, check=True)
        (unpacked / ".extracted-ok").write_text(commit + "\n", encoding="utf-8")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(unpacked), target)
    return target


def _git_dir(repository: str) -> str:
    path = Path(repository)
    return str(path / ".git") if (path / ".git").is_dir() else str(path)


def prepare(package: JsPackage, git_source: str | None = None) -> tuple[Path, Path]:
    """The unpacked tarball (integrity checked) or Git commit, and the `node_modules` its
    suite needs, installed once with npm beside it (`<name>-<version>.deps/`)."""
    codebase = package.codebase
    if package.git is not None:
        root = _checkout(package, CACHE / codebase.root_name, git_source)
    else:
        root = extract_tarball(download_tarball(codebase), CACHE / codebase.root_name)
    deps = CACHE / f"{codebase.root_name}.deps"
    modules = deps / "node_modules"
    marker = deps / ".installed-ok"
    wanted = "\n".join(package.dependencies) + "\n"
    if not marker.is_file() or marker.read_text(encoding="utf-8") != wanted:
        deps.mkdir(parents=True, exist_ok=True)
        manifest = {
            "private": True,
            "dependencies": dict(d.rsplit("@", 1) for d in package.dependencies),
        }
        (deps / "package.json").write_text(json.dumps(manifest, indent=1) + "\n", "utf-8")
        done = subprocess.run(
            ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund"],
            cwd=deps, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise OracleSetupError(f"npm install in {deps} failed:\n{done.stderr}")
        marker.write_text(wanted, encoding="utf-8")
    return root, modules


def test_files(package: JsPackage, root: Path) -> list[str]:
    """The suite's test files, relative to the package root, sorted."""
    return sorted(p.relative_to(root).as_posix() for p in root.glob(package.tests))


def candidates(package: JsPackage, root: Path) -> list[Mutant]:
    """Every mutant of the package's source files (tree-sitter's parse the only check)."""
    found: list[Mutant] = []
    for entry in package.sources:
        base = root / entry
        files = (
            sorted(f for pattern in package.extensions for f in base.rglob(pattern))
            if base.is_dir()
            else [base]
        )
        for file in files:
            relative = file.relative_to(root).as_posix()
            found.extend(mutants_of(file.read_text(encoding="utf-8"), relative))
    return found


def picked(
    package: JsPackage, root: Path, count: int, seed: int, modules: Path | None = None
) -> tuple[list[Mutant], int]:
    """`count` mutants in `mutator.pick`'s order that `node --check` (TypeScript: the
    compiler in `modules`) accepts, and how many candidates there were."""
    found = candidates(package, root)
    sources: dict[str, str] = {}
    chosen: list[Mutant] = []
    for mutant in pick(found, len(found), seed):
        if len(chosen) == count:
            break
        if mutant.path not in sources:
            sources[mutant.path] = (root / mutant.path).read_text(encoding="utf-8")
        text = apply(sources[mutant.path], mutant)
        if (
            ts_check(text, modules / "typescript")
            if modules is not None and mutant.path.endswith(".ts")
            else node_check(text, module=package.module)
        ):
            chosen.append(mutant)
    return chosen, len(found)


def _config(package: JsPackage, copy: Path) -> str | None:
    """The oracle's runner configuration, written into the copy (its file name)."""
    if package.config is None:
        return None
    name, text = package.config
    (copy / name).write_text(text, encoding="utf-8")
    return name


class Oracle:
    """Runs every test file alone on a copy of the package; results cached per mutant."""

    def __init__(
        self, package: JsPackage, copy: Path, files: list[str], *, min_timeout: float = 30.0
    ) -> None:
        self.copy, self.files = copy, files
        self.runner, self.env = package.runner, dict(package.env)
        self.config = _config(package, copy)
        self.cache_file = CACHE / f"{package.codebase.root_name}.json"
        self.cache: dict[str, Any] = (
            json.loads(self.cache_file.read_text(encoding="utf-8"))
            if self.cache_file.is_file()
            else {"mutants": {}}
        )
        if "baseline" not in self.cache:
            started = time.perf_counter()
            seconds: dict[str, float] = {}
            failing = self._run(lambda f: 600.0, seconds)[0]
            self.cache["baseline"] = {
                "failing": sorted(failing), "seconds": round(time.perf_counter() - started, 1),
                "files": {f: round(s, 2) for f, s in sorted(seconds.items())},
            }  # fmt: skip
            self._save()
        self.baseline = set(self.cache["baseline"]["failing"])
        per_file: dict[str, float] = self.cache["baseline"]["files"]
        # generous: on two shared cores a file's run can take several times its baseline's
        self.timeouts = {f: max(min_timeout, 8 * per_file.get(f, min_timeout)) for f in files}
        self.suite_timeout = max(min_timeout, 8 * float(self.cache["baseline"]["seconds"]))

    def _save(self) -> None:
        self.cache_file.parent.mkdir(parents=True, exist_ok=True)
        temp = self.cache_file.with_suffix(".tmp")
        temp.write_text(json.dumps(self.cache, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        temp.replace(self.cache_file)

    def _run(self, timeout: Any, seconds: dict[str, float]) -> tuple[set[str], bool]:
        """The failing files, and whether one timed out (then the files not started yet are
        not run: the mutant is a timeout whatever they say)."""
        if self.runner != "node":  # one runner process for the suite
            limit = 600.0 if "baseline" not in self.cache else self.suite_timeout
            outcomes = run_suite(self.copy, self.runner, self.files, limit, self.env, self.config)
            failing = {f for f, r in outcomes.items() if r == "fail"}
            return failing, any(r == "timeout" for r in outcomes.values())
        stop = False

        def one(file: str) -> tuple[str, str]:
            nonlocal stop
            if stop:
                return file, "skipped"
            started = time.perf_counter()
            result = run_file(self.copy, self.runner, file, timeout(file), self.env)
            seconds[file] = time.perf_counter() - started
            stop = stop or result == "timeout"
            return file, result

        with ThreadPoolExecutor(_WORKERS) as pool:
            results = dict(pool.map(one, self.files))
        failing = {f for f, r in results.items() if r == "fail"}
        return failing, any(r == "timeout" for r in results.values())

    def outcome(self, mutant: Mutant) -> tuple[str, tuple[str, ...], float]:
        """The mutant's status (killed, survived, timeout), failing files and seconds."""
        cached = self.cache["mutants"].get(mutant.key)
        if cached is None:
            file = self.copy / mutant.path
            original = file.read_text(encoding="utf-8")
            started = time.perf_counter()
            try:
                file.write_text(apply(original, mutant), encoding="utf-8")
                failing, timed_out = self._run(self.timeouts.__getitem__, {})
            finally:
                file.write_text(original, encoding="utf-8")
            failing -= self.baseline
            status = "timeout" if timed_out else "killed" if failing else "survived"
            cached = {"status": status, "failing": sorted(failing),
                      "seconds": round(time.perf_counter() - started, 1)}  # fmt: skip
            self.cache["mutants"][mutant.key] = cached
            self._save()
        return cached["status"], tuple(cached["failing"]), cached["seconds"]

    def again(self, mutant: Mutant, files: tuple[str, ...], *, tries: int = 2) -> set[str]:
        """Of `files` (failing files a selection left out), those that fail each of `tries`
        more runs alone on the mutant; the others are flaky (a timing test on loaded cores
        fails without the mutant's doing: avvio's plugin timeouts). Cached per mutant."""
        cached = self.cache["mutants"][mutant.key]
        known: dict[str, bool] = cached.setdefault("again", {})
        asked = [f for f in files if f not in known]
        if asked:
            file = self.copy / mutant.path
            original = file.read_text(encoding="utf-8")
            try:
                file.write_text(apply(original, mutant), encoding="utf-8")
                for test in asked:
                    runs = (
                        run_file(
                            self.copy,
                            self.runner,
                            test,
                            self.timeouts[test],
                            self.env,
                            self.config,
                        )
                        for _ in range(tries)
                    )
                    known[test] = all(result != "pass" for result in runs)
            finally:
                file.write_text(original, encoding="utf-8")
            self._save()
        return {f for f in files if known.get(f, True)}


def record_coverage(package: JsPackage, copy: Path, files: list[str], out: Path) -> float:
    """Each test file run alone, its coverage into `out/<n>/` beside its `test-file.txt`
    (the layout `CodeGraph.import_coverage` reads, recorded as the README says); the seconds
    it took."""
    started = time.perf_counter()

    def one(numbered: tuple[int, str]) -> None:
        folder = out / f"{numbered[0]:03d}"
        record_file(copy, package.runner, numbered[1], folder, dict(package.env))

    with ThreadPoolExecutor(_WORKERS) as pool:
        list(pool.map(one, enumerate(files)))
    return time.perf_counter() - started


def _graphs(package: JsPackage, copy: Path, modules: Path, files: list[str]) -> Graphs:
    """The copy indexed twice, the coverage of its suite imported into the first."""
    link = copy / "node_modules"
    link.symlink_to(modules, target_is_directory=True)
    coverage = copy.parent / "coverage"
    try:
        record_coverage(package, copy, files, coverage)
    finally:
        link.unlink()  # the graph indexes the package, not its dependencies
    graph = CodeGraph()
    covered, static = f"mut66js-{copy.name}", f"mut66jss-{copy.name}"
    for name in (covered, static):
        graph.index(copy, name, full=True, embed=False, move=True)
    done = graph.import_coverage(coverage, repo=covered)
    rows = graph.client.read(
        "MATCH (t:Code) WHERE t.repo = $repo AND t.test_role = 'test' "
        "RETURN t.path AS path, t.qualified_name AS name, t.module AS module",
        {"repo": covered},
    )
    tests = {runner_id(r["path"], r["name"], r["module"]) for r in rows}
    return Graphs(graph, copy, covered, static, tests, done.seconds, done.edges)


def _copy(root: Path, target: Path) -> Path:
    shutil.copytree(root, target, symlinks=True, ignore=shutil.ignore_patterns(".extracted-ok"))
    return target


def fill_oracle(
    spec: str, *, count: int, seed: int, min_timeout: float, git_source: str | None = None
) -> dict[str, int]:
    """Only the oracle: every picked mutant not cached yet (no graph, no selection)."""
    package = pinned(spec)
    root, modules = prepare(package, git_source)
    chosen, _ = picked(package, root, count, seed, modules)
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="mutants66js-") as temp:
        copy = _copy(root, Path(temp) / root.name)
        (copy / "node_modules").symlink_to(modules, target_is_directory=True)
        oracle = Oracle(package, copy, test_files(package, root), min_timeout=min_timeout)
        for number, mutant in enumerate(chosen, 1):
            status = oracle.outcome(mutant)[0]
            counts[status] = counts.get(status, 0) + 1
            print(f"[{number}/{len(chosen)}] oracle {counts}", flush=True)
    return counts


def run(
    spec: str, *, count: int, seed: int, min_timeout: float, git_source: str | None = None,
    quiet: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """The mutant benchmark for one pinned package (`find-my-way@9.10.2`); `quiet`: counts
    only on the console (held out)."""
    package = pinned(spec)
    root, modules = prepare(package, git_source)
    chosen, found = picked(package, root, count, seed, modules)
    files = test_files(package, root)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mutants66js-") as temp:
        graphs = _graphs(package, _copy(root, Path(temp) / "graph" / root.name), modules, files)
        copy = _copy(root, Path(temp) / "suite" / root.name)
        (copy / "node_modules").symlink_to(modules, target_is_directory=True)
        oracle = Oracle(package, copy, files, min_timeout=min_timeout)
        for number, mutant in enumerate(chosen, 1):
            selected, diff_s = graphs.selected(mutant)
            status, failing, seconds = oracle.outcome(mutant)
            row: dict[str, Any] = {
                "mutant": asdict(mutant), "status": status,
                "failing": list(failing[:20]), "failing_count": len(failing),
                "suite_s": seconds, "diff_s": round(diff_s, 3),
                "selected": {k: len(v) for k, v in selected.items()},
            }  # fmt: skip
            if status == "killed":
                for kind, tests in selected.items():
                    row.setdefault("safe", {})[kind], missed = _safe(failing, tests)
                    if missed:
                        row.setdefault("missed", {})[kind] = missed
                # each file runs in its own process, so no failure depends on another
                # file's; a missed file that passes when run again is flaky (`markdown`'s
                # "order-dependent" column and note, renamed in `_markdown`)
                missed = row.get("missed", {}).get("to_run", [])
                real = oracle.again(mutant, tuple(missed)) if missed else set()
                row["order_dependent"] = row["flaky"] = sorted(set(missed) - real)
                row["safe_alone"] = not real
            rows.append(row)
            if quiet:
                print(f"[{number}/{len(chosen)}] {status}", flush=True)
                continue
            print(
                f"[{number}/{len(chosen)}] {mutant.operator} {mutant.path}:{mutant.line} "
                f"{status} ({len(failing)} failing, {seconds} s); selected {row['selected']}, "
                f"safe {row.get('safe', '-')}",
                flush=True,
            )
        graphs.graph.close()
    result = _summary(root.name, graphs, found, rows, oracle.cache["baseline"])
    return {**result, "test_files": len(files), "why": package.why, "style": package.codebase.style}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="+", help="pinned packages: find-my-way@9.10.2")
    parser.add_argument("--mutants", type=int, default=100, help="mutants per package")
    parser.add_argument("--seed", type=int, default=66)
    parser.add_argument(
        "--min-timeout", type=float, default=30.0,
        help="seconds a test file may run at least (else 8x its unmutated run)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path, help="the tables and the missed mutants")
    parser.add_argument(
        "--oracle-only", action="store_true", help="only run (and cache) the suite per mutant"
    )
    parser.add_argument(
        "--git-source", help="a local clone or bare mirror of a Git-pinned package's repository"
    )
    parser.add_argument(
        "--ids-only", action="store_true",
        help="held out: results and console with no code and no test name",
    )  # fmt: skip
    args = parser.parse_args()
    options: dict[str, Any] = {
        "count": args.mutants, "seed": args.seed, "min_timeout": args.min_timeout,
        "git_source": args.git_source,
    }  # fmt: skip
    if args.oracle_only:
        for spec in args.packages:
            print(spec, fill_oracle(spec, **options), flush=True)
        return
    results = []
    for spec in args.packages:
        result = run(spec, **options, quiet=args.ids_only)
        results.append(ids_only(result) if args.ids_only else result)
        s = result["selectors"]
        print(
            f"{result['package']}: {result['mutants']} mutants, {result['killed']} killed, "
            f"{result['survived']} survived, {result['timeout']} timed out; safety / median "
            + ", ".join(f"{k} {s[k]['safety']} / {s[k]['median_share']}" for k in SELECTORS)
        )
        if args.json:
            args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        if args.markdown:
            args.markdown.write_text(_markdown(results), encoding="utf-8")


def _markdown(results: list[dict[str, Any]]) -> str:
    """`mutants.markdown`, its order-dependent failures named for what they are here."""
    text = markdown(results).replace("order-dependent left out", "flaky left out")
    return text.replace("pass run alone on the mutant (order-dependent)", "pass run again (flaky)")


if __name__ == "__main__":
    main()
