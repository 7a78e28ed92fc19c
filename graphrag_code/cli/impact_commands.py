"""`diff`, `tests-for`, `untested`, `dead-code`, `coverage import`: change impact, tests,
dead code and the coverage they read, as tables, `--json` or (diff) Markdown for a
pull-request comment."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..errors import InvalidArgumentError
from .arguments import name_argument
from .console import SafeConsole
from .engine import open_graph
from .exit_codes import CHECK_FAILED
from .output import print_json
from .query_commands import print_warnings

if TYPE_CHECKING:
    from rich.console import Console

    from ..impact import DiffImpact, TestToRun

__all__ = ["register"]

# `impact.FailPolicy`'s values, spelt here so that `--help` does not load the impact engine
# (tests/test_cli_startup.py checks that they agree)
FAIL_POLICIES = ("untested-callers", "untested", "high-risk")


def register(commands: Any) -> None:
    diff = commands.add_parser(
        "diff", help="what a change touches, what may break, which tests to run"
    )
    diff.add_argument(
        "revisions",
        nargs="?",
        help="A..B, A...B, or one revision (against the working tree); default: --worktree",
    )
    source = diff.add_mutually_exclusive_group()
    source.add_argument("--worktree", action="store_true", help="HEAD against the working tree")
    source.add_argument("--staged", action="store_true", help="HEAD against the index")
    source.add_argument(
        "--patch", metavar="FILE", help="a unified diff file ('-': stdin) whose new side is on disk"
    )
    diff.add_argument("--path", type=Path, default=Path("."), help="the repository (default: .)")
    diff.add_argument("--repo", help="repository name in the graph (default: folder name)")
    diff.add_argument(
        "--no-update",
        action="store_true",
        help="read the graph as it is (say which commit it was built from) instead of "
        "bringing it up to date incrementally first",
    )
    diff.add_argument(
        "--move",
        action="store_true",
        help="the repository is indexed from another folder: move it here (refused without "
        "this, so `diff` in a copy never writes the copy's code over the original's)",
    )
    diff.add_argument("--depth", type=int, default=2, help="blast radius hops (default 2)")
    diff.add_argument("--limit", type=int, default=200, help="affected symbols at most")
    diff.add_argument(
        "--possible",
        action="store_true",
        help="walk on from what possible edges (name matches, dispatch) reach; by default it "
        "is listed after the certain, as possible, and the walk stops there",
    )
    diff.add_argument(
        "--format", choices=("table", "json", "markdown"), default="table", help="output format"
    )
    diff.add_argument("--json", action="store_true", help="same as --format json")
    diff.add_argument(
        "--fail-on",
        choices=FAIL_POLICIES,
        help="exit 6 when the change fails this check: untested-callers (a changed public "
        "symbol has certain callers and no test), untested (any changed public symbol no "
        "test reaches), high-risk",
    )
    diff.set_defaults(handler=_diff)

    tests = commands.add_parser("tests-for", help="the tests that exercise SYMBOL_OR_PATH")
    tests.add_argument("name", metavar="SYMBOL_OR_PATH", type=name_argument)
    tests.add_argument("--repo", type=name_argument, help="restrict to one repository")
    tests.add_argument("--limit", type=int, default=100)
    tests.add_argument("--json", action="store_true")
    tests.set_defaults(handler=_tests_for)

    untested = commands.add_parser("untested", help="public code that no test reaches")
    untested.add_argument("--repo", required=True, type=name_argument)
    untested.add_argument("--limit", type=int, default=100)
    untested.add_argument("--json", action="store_true")
    untested.set_defaults(handler=_untested)

    dead = commands.add_parser("dead-code", help="code nothing reaches, with confidence and why")
    dead.add_argument("--repo", required=True, type=name_argument)
    dead.add_argument(
        "--min-confidence", type=float, default=0.5, help="show only this sure (0..1, default 0.5)"
    )
    dead.add_argument("--limit", type=int, default=200)
    dead.add_argument("--json", action="store_true")
    dead.set_defaults(handler=_dead_code)

    coverage = commands.add_parser(
        "coverage",
        help="which test ran which code, from a coverage.py run with per-test contexts or "
        "JS/TS coverage recorded per test file",
    )
    actions = coverage.add_subparsers(dest="action", required=True, metavar="ACTION")
    load = actions.add_parser(
        "import",
        help="store the tests that ran each function (record with `pytest --cov "
        "--cov-context=test`, or JS/TS one test file at a time: README), replacing the last "
        "import",
    )
    load.add_argument(
        "file",
        metavar="FILE",
        type=Path,
        help="the coverage data file (.coverage), or a directory of JS/TS coverage: one folder "
        "per test file with test-file.txt and V8 (NODE_V8_COVERAGE) or Istanbul JSON",
    )
    load.add_argument(
        "--repo", type=name_argument, help="repository name in the graph (default: the only one)"
    )
    load.add_argument(
        "--commit", help="the commit the coverage was recorded at (default: the graph's)"
    )
    load.add_argument("--json", action="store_true")
    load.set_defaults(handler=_coverage_import)


def _read_patch(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise InvalidArgumentError(f"cannot read the patch {name}: {error.strerror}") from error


def _diff(args: argparse.Namespace, console: Console) -> int:
    from ..impact import impact_markdown

    patch = _read_patch(args.patch) if args.patch else None
    with open_graph() as graph:
        impact = graph.diff(
            args.revisions, path=args.path, repo=args.repo, worktree=args.worktree,
            staged=args.staged, patch=patch, update=not args.no_update, depth=args.depth,
            limit=args.limit, possible=args.possible, move=args.move,
        )  # fmt: skip
    print_warnings(impact.warnings)
    output = "json" if args.json else args.format
    if output == "json":
        print_json(console, asdict(impact))
    elif output == "markdown":
        console.print(impact_markdown(impact), markup=False, highlight=False, soft_wrap=True)
    else:
        _diff_tables(impact, console)
    if args.fail_on:
        failures = impact.failures(args.fail_on)
        for failure in failures:
            SafeConsole(stderr=True).print(Text.assemble(("check failed: ", "bold red"), failure))
        if failures:
            return CHECK_FAILED
    return 0


def _diff_tables(impact: DiffImpact, console: Console) -> None:
    from rich.table import Table

    from ..impact import TESTS_CUT, coverage_line

    side = impact.graph
    console.print(
        f"[bold]{impact.source}[/]: risk [bold]{impact.risk.level}[/]; graph of {side.repo}"
        + (f" at {side.head[:12]}" if side.head else "")
        + (f" (updated, {side.files_parsed} file(s) parsed)" if side.updated else " (as stored)"),
        highlight=False,
    )
    for reason in impact.risk.reasons:
        console.print(f"  - {reason}", highlight=False, markup=False)
    table = Table(title="changed symbols", show_edge=False)
    for column in ("symbol", "kind", "change", "aspects", "location"):
        table.add_column(column)
    for change in impact.changes:
        what = change.change + (
            f" from {change.old_qualified_name}" if change.old_qualified_name else ""
        )
        table.add_row(
            change.qualified_name, change.kind, what, ", ".join(change.aspects),
            str(change.location),
        )  # fmt: skip
    console.print(table)
    if impact.other_files:
        console.print(f"other files: {', '.join(impact.other_files)}", highlight=False)
    if impact.affected:
        table = Table(title=f"affected (depth {impact.depth})", show_edge=False)
        for column in ("distance", "symbol", "certain", "path", "location"):
            table.add_column(column)
        for affected in impact.affected:
            table.add_row(
                str(affected.distance), affected.qualified_name,
                "yes" if affected.certain else "possible", " → ".join(affected.path),
                str(affected.location),
            )  # fmt: skip
        console.print(table)
        if impact.truncated:
            console.print("[yellow]truncated: the blast radius hit its size cap[/]")
    extras = len(impact.tests) - len(impact.to_run)
    title = (
        f"tests to run ({len(impact.to_run)}, then {extras} extra)" if extras else "tests to run"
    )
    _tests_table(impact.tests, console, title=title)
    console.print(coverage_line(impact.coverage, sum(t.ran for t in impact.tests)), markup=False)
    if impact.tests_truncated:
        console.print(f"[yellow]{TESTS_CUT}[/]", highlight=False)
    if impact.untested:
        console.print(
            "untested changes: " + ", ".join(c.qualified_name for c in impact.untested),
            highlight=False,
        )


def _tests_table(tests: list[TestToRun], console: Console, *, title: str) -> None:
    from rich.table import Table

    if not tests:
        console.print("no test reaches it")
        return
    table = Table(title=title, show_edge=False)
    for column in ("test", "why", "via", "reaches"):
        table.add_column(column)
    for test in tests:
        table.add_row(test.runner_id, test.reason, test.via or "", ", ".join(test.reaches[:3]))
    console.print(table)


def _tests_for(args: argparse.Namespace, console: Console) -> int:
    from ..impact import TESTS_CUT, coverage_line

    with open_graph() as graph:
        result = graph.tests_for(args.name, repo=args.repo)
    print_warnings(result.warnings)
    tests = result.tests[: args.limit]
    if args.json:
        print_json(
            console,
            {
                "subject": result.subject,
                "targets": result.targets,
                "tests": [asdict(t) for t in tests],
                "total": len(result.tests),
                "truncated": result.truncated,
                "coverage": asdict(result.coverage) if result.coverage else None,
                "warnings": [asdict(warning) for warning in result.warnings],
            },
        )
        return 0
    console.print(
        f"[bold]tests for[/] {result.subject} ({len(result.tests)} test(s))", highlight=False
    )
    _tests_table(tests, console, title="tests")
    console.print(
        coverage_line(result.coverage, sum(t.ran for t in result.tests), subject="it"),
        markup=False,
    )
    if result.truncated:
        console.print(f"[yellow]{TESTS_CUT}[/]", highlight=False)
    return 0


def _untested(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    with open_graph() as graph:
        found = graph.untested(args.repo, limit=args.limit)
        print_warnings(graph.warnings([args.repo]))  # stderr: the JSON stays a list
    if args.json:
        print_json(console, [asdict(u) for u in found])
        return 0
    table = Table(title=f"untested public code of {args.repo}", show_edge=False)
    for column in ("symbol", "kind", "callers", "location"):
        table.add_column(column)
    for item in found:
        table.add_row(item.qualified_name, item.kind, str(item.callers), str(item.location))
    console.print(table if found else "every public symbol is reached by a test")
    return 0


def _dead_code(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    if not 0.0 <= args.min_confidence <= 1.0:
        raise InvalidArgumentError("--min-confidence must lie between 0 and 1")
    with open_graph() as graph:
        found = graph.dead_code(args.repo, min_confidence=args.min_confidence)[: args.limit]
        print_warnings(graph.warnings([args.repo]))  # stderr: the JSON stays a list
    if args.json:
        print_json(console, [asdict(d) for d in found])
        return 0
    table = Table(title=f"dead code of {args.repo}", show_edge=False)
    for column in ("confidence", "symbol", "kind", "location", "why"):
        table.add_column(column)
    for item in found:
        table.add_row(
            f"{item.confidence:.2f}", item.qualified_name, item.kind, str(item.location),
            "; ".join(item.reasons),
        )  # fmt: skip
    console.print(table if found else "no dead code found at this confidence")
    return 0


def _coverage_import(args: argparse.Namespace, console: Console) -> int:
    with open_graph() as graph:
        done = graph.import_coverage(args.file, repo=args.repo, commit=args.commit)
    if args.json:
        print_json(console, asdict(done))
        return 0
    console.print(
        f"[bold]{done.repo}[/]: {done.edges:,} RAN edge(s) from {done.tests:,} test(s) into "
        f"{done.files_matched:,} of {done.files_measured:,} measured file(s) "
        f"({done.measured_nodes:,} functions, methods and classes; {done.outside:,} also ran "
        "outside every test and are predicted statically), recorded "
        + (f"at {done.commit[:12]} " if done.commit else "")
        + f"on {done.recorded_at[:19]}; {done.seconds:.1f} s",
        highlight=False,
    )
    if done.unknown_tests:
        console.print(
            f"[yellow]{len(done.unknown_tests)} context(s) name no test of the graph[/], e.g. "
            + ", ".join(done.unknown_tests[:3]),
            highlight=False,
        )
    for note in done.notes:
        console.print(note, style="yellow", markup=False, highlight=False)
    return 0
