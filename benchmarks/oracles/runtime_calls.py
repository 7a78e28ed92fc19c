"""Runtime oracle: caller -> callee edges between a package's functions, seen by a call tracer.

Usage (from the repository root; the first run downloads the sdist and builds the test venv)::

    python -m benchmarks.oracles.runtime_calls [httpx==0.28.1 ...] [--out FILE]

Runs the package's own suite in its venv (``runtime_env``) with ``runtime_plugin``'s
``sys.setprofile`` tracer (method and caveats in that module's docstring). Kept here:

* ``edges``: calls from a ``def`` of the package to a ``def`` of the package (both ends checked
  against the ``ast`` function list), summed over the run with the caller's line of each call;
  calls made by module or class-body code (imports) are counted in ``summary`` only;
* ``chains``: per test, from its first call into the package (the entry, during the test's
  call phase) down the actual call stack to the deepest package function reached under that
  entry, where every step is a recorded edge; chains of at least 3 functions, identical ones
  once (``tests`` says how many tests produced it);
* ``deepest_chains`` (same form): per test, the deepest such stack under *any* call into the
  package during its call phase, wherever its outermost function was called from (a test's
  first call is often a constructor or a decorator, and a framework calls back in: werkzeug's
  test client calls ``Flask.__call__``).

Writes ``benchmarks/cache/oracles/runtime/<name>-<version>.calls.json``.

Never import ``graphrag_code`` from here.
"""

from __future__ import annotations

import ast
import json
from collections import defaultdict
from itertools import pairwise
from pathlib import Path

from benchmarks.oracles.runtime_env import (
    RUNTIME_DIR,
    FunctionInfo,
    JsonDict,
    Suite,
    command_line,
    header,
    package_functions,
    prepare,
    run_suite,
    write_json,
)

MIN_CHAIN = 3


def callee_kind(callee: str, info: FunctionInfo) -> str:
    """How a call to ``callee`` looks in source: ``init`` (``C()``), ``property`` (an attribute
    read or write), ``dunder`` (an operator, ``with``, ``for``...) or ``call``."""
    name = callee.rsplit(".", 1)[-1]
    if name in ("__init__", "__new__"):
        return "init"
    if "property" in info.tags:
        return "property"
    if name.startswith("__") and name.endswith("__") and name != "__call__":
        return "dunder"
    return "call"


_ANY_CALLEE = "<expr>"
"""Stands for a call whose callee has no final name (``type(self)(...)``, ``f()()``)."""


def call_names_by_line(path: Path) -> dict[int, set[str]]:
    """Line -> final names of the callees of the call expressions that span it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: dict[int, set[str]] = defaultdict(set)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            name = func.id
        elif isinstance(func, ast.Attribute):
            name = func.attr
        else:
            name = _ANY_CALLEE
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
            names[line].add(name)
    return names


def is_explicit(callee: str, call_lines: list[int], names: dict[int, set[str]]) -> bool:
    """Whether a call expression naming ``callee`` is on one of its call lines.

    For ``__init__`` / ``__new__`` the class name counts too (``C(...)``), and so does a
    callee without a name (``cls(...)`` is a name; ``type(self)(...)`` has none).
    """
    parts = callee.split(".")
    wanted = {parts[-1]}
    if parts[-1] in ("__init__", "__new__") and len(parts) > 1:
        wanted |= {parts[-2], "cls", "__class__", _ANY_CALLEE}
    return any(wanted & names.get(line, set()) for line in call_lines)


def build(suite: Suite, work: Path | None = None) -> JsonDict:
    """Run the suite under the tracer and keep the package -> package edges and chains."""
    work = work or RUNTIME_DIR / "work" / f"{suite.root.name}.calls"
    run = run_suite(suite, "calls", work)
    raw = json.loads((work / "calls.json").read_text(encoding="utf-8"))
    for child in sorted((work / "children").glob("*.json")):  # processes the tests started
        raw["edges"].extend(json.loads(child.read_text(encoding="utf-8"))["edges"])
    functions = package_functions(suite.root, suite.import_root, suite.package)

    counts: dict[tuple[str, str], int] = defaultdict(int)
    lines: dict[tuple[str, str], set[int]] = defaultdict(set)
    unknown_callees: set[str] = set()
    from_module_level = 0
    for caller, callee, line, count in raw["edges"]:
        if callee not in functions:
            unknown_callees.add(callee)
            continue
        if caller not in functions:
            from_module_level += count
            continue
        counts[caller, callee] += count
        lines[caller, callee].add(line)
    edge_tests = {(c, e): n for c, e, n in raw["edge_tests"]}
    sources: dict[str, dict[int, set[str]]] = {}
    edges = []
    for (caller, callee), count in sorted(counts.items()):
        file = functions[caller].file
        if file not in sources:
            sources[file] = call_names_by_line(suite.root / file)
        call_lines = sorted(lines[caller, callee])
        edges.append(
            {
                "caller": caller,
                "callee": callee,
                "count": count,
                "call_lines": call_lines,
                "tests": edge_tests.get((caller, callee), 0),
                "kind": callee_kind(callee, functions[callee]),
                "explicit": is_explicit(callee, call_lines, sources[file]),
            }
        )

    chains, broken = _chains(raw["chains"], set(counts))
    deepest, deepest_broken = _chains(raw["deepest_chains"], set(counts))
    data = {
        **header(suite, run),
        "tracer": "sys.setprofile",
        "edges": edges,
        "chains": chains,
        "deepest_chains": deepest,
        "summary": {
            "functions": len(functions),
            "called_functions": len({e["callee"] for e in edges}),
            "edges": len(edges),
            "explicit_edges": sum(1 for e in edges if e["explicit"]),
            "calls_traced": raw["calls"],
            "calls_from_module_level": from_module_level,
            "unknown_callees": sorted(unknown_callees),
            "tests_with_chain": len(raw["chains"]),
            "tests_with_chain_min_3": sum(c["tests"] for c in chains),
            "chains_min_3": len(chains),
            "chains_broken": broken + deepest_broken,
            "longest_chain": max((len(c["path"]) for c in chains), default=0),
            "deepest_chains_min_3": len(deepest),
            "longest_deepest_chain": max((len(c["path"]) for c in deepest), default=0),
            "profile_lost": raw["profile_lost"],
        },
    }
    return data


def _chains(raw: dict[str, list[str]], edges: set[tuple[str, str]]) -> tuple[list[JsonDict], int]:
    """Chains of at least ``MIN_CHAIN`` functions, deduplicated; and how many broke the rule
    that each step is a recorded edge (dropped; expected to be none)."""
    first_test: dict[tuple[str, ...], str] = {}
    tests: dict[tuple[str, ...], int] = defaultdict(int)
    broken = 0
    for nodeid, path in sorted(raw.items()):
        if len(path) < MIN_CHAIN:
            continue
        if any((a, b) not in edges for a, b in pairwise(path)):
            broken += 1
            continue
        key = tuple(path)
        first_test.setdefault(key, nodeid)
        tests[key] += 1
    chains = [
        {"test": nodeid, "path": list(path), "tests": tests[path]}
        for path, nodeid in sorted(first_test.items(), key=lambda item: item[1])
    ]
    return chains, broken


def default_out(suite: Suite) -> Path:
    """``benchmarks/cache/oracles/runtime/<name>-<version>.calls.json``."""
    return RUNTIME_DIR / f"{suite.root.name}.calls.json"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    entries, chosen_out = command_line("runtime call-edge oracle", argv)
    for entry in entries:
        suite = prepare(entry)
        data = build(suite)
        out = chosen_out or default_out(suite)
        write_json(out, data)
        counts = {k: data[k] for k in ("passed", "failed", "errors", "skipped")}
        summary = {k: v for k, v in data["summary"].items() if k != "unknown_callees"}
        print(f"{entry.spec}: {counts} {summary} wall {data['wall_time_s']} s -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
