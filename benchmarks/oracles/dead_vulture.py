"""Dead-code baseline: vulture's findings on each runtime-oracle package, as JSON.

Usage (from the repository root)::

    python -m benchmarks.oracles.dead_vulture [click==8.1.7 ...] [--out FILE]

Runs vulture (pinned in the ``bench`` extras) on the package directory of the unpacked sdist,
at minimum confidence 0 (everything it reports, each item with its confidence), the same as
``vulture <import_root>/<package> --min-confidence 0``. Functions, methods, properties and
classes get the qualified name the other runtime oracles use; when the per-test coverage oracle
has been run (``<name>-<version>.tests.json``), each function-like item also says whether the
suite ever executed it, and ``summary`` lists the never-executed functions vulture does not
report. Writes ``benchmarks/cache/oracles/runtime/<name>-<version>.vulture.json``.

Never import ``graphrag_code`` from here.
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path

from benchmarks.oracles.packages import locate_package, package_modules
from benchmarks.oracles.runtime_env import (
    RUNTIME_DIR,
    JsonDict,
    command_line,
    unpack,
    write_json,
)

_FUNCTION_TYPES = frozenset({"function", "method", "property"})


def definition_names(import_root: Path, package: str, root: Path) -> dict[tuple[str, int], str]:
    """(sdist-relative file, line of the ``def``/``class`` or of a decorator) -> qualified name."""
    found: dict[tuple[str, int], str] = {}
    for module, relpath in package_modules(import_root, package).items():
        path = import_root / relpath
        file = path.relative_to(root).as_posix()

        def visit(node: ast.AST, prefix: str, file: str = file) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    name = f"{prefix}.{child.name}"
                    for line in [child.lineno, *(d.lineno for d in child.decorator_list)]:
                        found.setdefault((file, line), name)
                    visit(child, name)
                else:
                    visit(child, prefix)

        visit(ast.parse(path.read_text(encoding="utf-8")), module)
    return found


def build(
    name: str,
    version: str,
    root: Path,
    import_root: Path,
    package: str,
    tests_oracle: JsonDict | None = None,
) -> JsonDict:
    """Run vulture on ``import_root/package`` and name its findings."""
    import vulture  # type: ignore[import-untyped]

    scanner = vulture.Vulture()
    scanner.scavenge([str(import_root / package)])
    names = definition_names(import_root, package, root)
    never = set(tests_oracle["never_executed"]) if tests_oracle else None
    items: list[JsonDict] = []
    for item in scanner.get_unused_code(min_confidence=0):
        file = Path(item.filename).resolve().relative_to(root.resolve()).as_posix()
        record: JsonDict = {
            "type": item.typ,
            "name": item.name,
            "file": file,
            "line": item.first_lineno,
            "last_line": item.last_lineno,
            "confidence": item.confidence,
            "message": item.message,
        }
        if item.typ in _FUNCTION_TYPES or item.typ == "class":
            qualified_name = names.get((file, item.first_lineno))
            record["qualified_name"] = qualified_name
            if never is not None and item.typ in _FUNCTION_TYPES and qualified_name:
                record["never_executed"] = qualified_name in never
        items.append(record)
    items.sort(key=lambda r: (r["file"], r["line"], r["name"]))
    data: JsonDict = {
        "package": name,
        "version": version,
        "root": root.name,
        "import_root": "" if import_root == root else import_root.relative_to(root).as_posix(),
        "command": f"vulture {import_root.relative_to(root.parent) / package} --min-confidence 0",
        "vulture": vulture.__version__,
        "items": items,
    }
    data["summary"] = summarize(items, never)
    return data


def summarize(items: list[JsonDict], never: set[str] | None) -> JsonDict:
    """Items per type; for function-like items, how many the suite never executed."""
    functions = [i for i in items if i["type"] in _FUNCTION_TYPES]
    summary: JsonDict = {
        "items": len(items),
        "by_type": dict(sorted(Counter(i["type"] for i in items).items())),
        "functions": len(functions),
    }
    if never is not None:
        flagged = {i["qualified_name"] for i in functions if i.get("qualified_name")}
        summary["functions_never_executed"] = sum(1 for i in functions if i.get("never_executed"))
        summary["never_executed_not_flagged"] = len(never - flagged)
    return summary


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    entries, chosen_out = command_line("vulture dead-code baseline", argv)
    for entry in entries:
        root = unpack(entry)
        fetched = locate_package(root, entry.name, entry.top_level)
        tests_path = RUNTIME_DIR / f"{entry.key}.tests.json"
        tests = json.loads(tests_path.read_text(encoding="utf-8")) if tests_path.is_file() else None
        data = build(entry.name, entry.version, root, fetched.import_root, fetched.package, tests)
        out = chosen_out or RUNTIME_DIR / f"{entry.key}.vulture.json"
        write_json(out, data)
        print(f"{entry.spec}: {data['summary']} -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
