"""Run the oracles for every pinned package and print one summary table.

Usage (from the repository root)::

    python -m benchmarks.oracles.run_all [--jobs 2] [--no-cache] [NAME==VERSION ...]

Writes ``benchmarks/cache/oracles/<name>-<version>.{imports,calls,calls_mypy}.json`` (grimp,
jedi, and mypy for the call sites jedi cannot resolve) and prints, per
package: modules, internal import edges, call sites, call sites with an in-package target,
external-only and unresolved call sites, and the jedi wall time (0 when served from the cache).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from benchmarks.oracles import calls_jedi, calls_mypy, imports_grimp
from benchmarks.oracles.packages import ORACLE_OUT_DIR, PACKAGES, parse_spec


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description="run the grimp and jedi oracles")
    parser.add_argument("specs", nargs="*", metavar="NAME==VERSION")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-cache", action="store_true")
    args = parser.parse_args(argv)
    specs = [parse_spec(s) for s in args.specs] or [(p.name, p.version) for p in PACKAGES]

    header = (
        f"{'package':<18} {'modules':>7} {'imports':>7} {'calls':>6} {'in-pkg':>6} "
        f"{'extern':>6} {'unres':>6} {'jedi s':>7}"
    )
    rows = [header, "-" * len(header)]
    for name, version in specs:
        imports = imports_grimp.build(name, version)
        _write(ORACLE_OUT_DIR / f"{name}-{version}.imports.json", imports)
        calls = calls_jedi.build(name, version, jobs=args.jobs, use_cache=not args.no_cache)
        _write(ORACLE_OUT_DIR / f"{name}-{version}.calls.json", calls)
        _write(
            ORACLE_OUT_DIR / f"{name}-{version}.calls_mypy.json",
            calls_mypy.build_oracle(name, version),
        )
        sites = calls["call_sites"]
        in_package = sum(1 for s in sites if s["targets"])
        external = sum(1 for s in sites if not s["targets"] and "external" in s)
        rows.append(
            f"{name + '==' + version:<18} {len(imports['modules']):>7} "
            f"{len(imports['internal_imports']):>7} {len(sites):>6} {in_package:>6} "
            f"{external:>6} {len(sites) - in_package - external:>6} "
            f"{calls['wall_time_s']:>7.1f}"
        )
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
