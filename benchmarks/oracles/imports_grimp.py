"""Import-graph oracle: the module import graph of a package's own source, computed by grimp.

Usage (from the repository root)::

    python -m benchmarks.oracles.imports_grimp requests==2.32.3 \\
        --out benchmarks/cache/oracles/requests-2.32.3.imports.json

The sdist is fetched with :func:`benchmarks.oracles.packages.fetch`; grimp then runs in a child
interpreter whose ``sys.path`` starts with the extracted import root, and the child checks that
``importlib`` locates the package *there* (not a copy installed in site-packages) and that
grimp's module set equals the set of ``.py`` files of the extracted package.

Output JSON::

    {"package", "version", "grimp_version", "import_root" (relative to the sdist root),
     "modules": [internal module names, one per .py file],
     "module_files": {module: path relative to the import root},
     "namespace_packages": [implicit namespace packages inside the package, e.g. flask.sansio],
     "internal_imports": [[importer, imported, [line, ...]], ...],   # internal -> internal
     "type_checking_imports": [[importer, imported, [line, ...]], ...],
     "external_imports": [[importer, top_level_external_package], ...],
     "invalid_relative_imports": [[importer, [line, ...]], ...]}

``internal_imports`` is grimp's default graph, which *includes* imports made under
``if TYPE_CHECKING:``; ``type_checking_imports`` lists the (importer, imported, lines) that
disappear with ``exclude_type_checking_imports=True``, so either view can be compared.

grimp 3.20 semantics (established by experiment on a toy package, see README.md):

* ``import a.b.c`` is one import of ``a.b.c`` only; the implicitly imported parents ``a`` and
  ``a.b`` are *not* recorded.
* ``from pkg import name``: an import of ``pkg.name`` when ``pkg/name.py`` (or a subpackage)
  exists, otherwise an import of ``pkg`` itself. ``from pkg.mod import func`` is an import of
  ``pkg.mod``. Relative imports are resolved the same way (``from . import c`` in ``pkg.a`` is
  ``pkg.c`` when that module exists, else ``pkg``); ``from . import *`` is an import of the
  parent package.
* ``import pkg.missing`` (no such module) is recorded as an import of the nearest existing
  ancestor, ``pkg``; ``from pkg.sub import nonexistent`` is ``pkg.sub``.
* Several statements importing the same module from one importer are one edge with several
  details (one line number each); ``import_details`` keep the line of the statement (the first
  line of a multi-line statement).
* Imports inside function bodies, class bodies, ``try/except ImportError`` blocks and other
  conditional code are all recorded: grimp is purely syntactic (its import details carry an
  ``is_lazy`` flag, which is always false for these Python 3.11 sources).
* ``if TYPE_CHECKING:`` and ``if typing.TYPE_CHECKING:`` blocks are recorded by default and
  dropped with ``exclude_type_checking_imports=True``.
* A module importing itself (``from pkg.b import x`` inside ``pkg/b.py``) is recorded as a
  self-edge ``pkg.b -> pkg.b``; it is kept here as grimp reports it.
* ``__import__("x")``, ``importlib.import_module("x")`` and other dynamic imports are ignored.
* A relative import that climbs above the top-level package becomes an import of the empty
  module name ``""``; it is reported in ``invalid_relative_imports`` and nowhere else.
* External packages are squashed to their top-level name: ``import os.path`` -> ``os``,
  ``from urllib3.util import retry`` -> ``urllib3``; the standard library counts as external.
* Only ``.py`` files in directories reachable through ``__init__.py`` files are modules;
  ``.pyi`` stubs and data files are ignored. A directory *without* ``__init__.py`` inside a
  regular package (an implicit namespace package, e.g. ``flask/sansio`` in Flask 3.0) is
  skipped entirely, and ``from .sansio.app import App`` in ``flask.app`` then becomes an import
  of ``flask``. This oracle therefore runs grimp on a copy of the package in which such
  directories get an empty ``__init__.py`` (``benchmarks/cache/grimp-shadow``); they are listed
  in ``namespace_packages``, are not in ``modules`` (no file backs them) and appear in edges
  only when code imports the namespace package itself.
* ``from pkg.sub import (deep, nothing)`` where ``deep`` is a module and ``nothing`` is not
  yields two edges from one statement: ``pkg.sub.deep`` and ``pkg.sub``.

Never import ``graphrag_code`` from here: this oracle must stay independent of it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.oracles.packages import (
    CACHE_DIR,
    ORACLE_OUT_DIR,
    fetch,
    namespace_packages,
    package_modules,
    parse_spec,
)

if TYPE_CHECKING:
    from grimp import DetailedImport

JsonDict = dict[str, Any]

SHADOW_DIR = CACHE_DIR / "grimp-shadow"


def shadow_tree(import_root: Path, package: str, namespaces: list[str], label: str) -> Path:
    """A copy of the package in which every namespace directory gets an empty ``__init__.py``.

    grimp 3.20 does not descend into directories without ``__init__.py`` inside a regular
    package, so without this the modules of e.g. ``flask/sansio`` would be missing and imports
    of them would be attributed to ``flask``. Line numbers are unchanged by the copy.
    """
    root = SHADOW_DIR / label
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    shutil.copytree(import_root / package, root / package)
    for namespace in namespaces:
        root.joinpath(*namespace.split("."), "__init__.py").write_text("", encoding="utf-8")
    return root


def _lines(details: Iterable[DetailedImport]) -> list[int]:
    """Sorted distinct line numbers of grimp import details."""
    return sorted({int(d["line_number"]) for d in details})


def _worker(import_root: str, package: str) -> JsonDict:
    """Run grimp in *this* interpreter (a child process); return the raw graph data.

    Must run in a fresh interpreter: ``import_root`` is put first on ``sys.path`` and the
    package must not have been imported yet, so ``importlib`` finds the extracted copy.
    """
    import importlib.util

    if package in sys.modules:
        raise RuntimeError(f"{package} was already imported; grimp could use the wrong copy")
    sys.path.insert(0, import_root)
    spec = importlib.util.find_spec(package)
    locations = list(spec.submodule_search_locations or []) if spec else []
    root = Path(import_root).resolve()
    if not locations or any(not Path(loc).resolve().is_relative_to(root) for loc in locations):
        raise RuntimeError(f"importlib finds {package} at {locations}, not under {root}")

    import grimp

    graphs = {
        exclude: grimp.build_graph(
            package,
            include_external_packages=True,
            exclude_type_checking_imports=exclude,
            cache_dir=None,
        )
        for exclude in (False, True)
    }
    full, no_tc = graphs[False], graphs[True]

    def internal(module: str) -> bool:
        return module == package or module.startswith(package + ".")

    modules = sorted(m for m in full.modules if internal(m))
    internal_imports: list[list[Any]] = []
    type_checking: list[list[Any]] = []
    external: list[list[str]] = []
    invalid: list[list[Any]] = []
    for importer in modules:
        for imported in sorted(full.find_modules_directly_imported_by(importer)):
            lines = _lines(full.get_import_details(importer=importer, imported=imported))
            if imported == "":
                invalid.append([importer, lines])
            elif internal(imported):
                # A self-edge is kept: it is what grimp reports.
                internal_imports.append([importer, imported, lines])
                kept = set(_lines(no_tc.get_import_details(importer=importer, imported=imported)))
                tc_only = [line for line in lines if line not in kept]
                if tc_only:
                    type_checking.append([importer, imported, tc_only])
            else:
                external.append([importer, imported])
    return {
        "modules": modules,
        "internal_imports": internal_imports,
        "type_checking_imports": type_checking,
        "external_imports": external,
        "invalid_relative_imports": invalid,
        "package_locations": locations,
    }


def build(name: str, version: str) -> JsonDict:
    """Fetch ``name==version`` and compute its grimp import graph (in a child interpreter)."""
    import_root, package = fetch(name, version)
    files = package_modules(import_root, package)
    namespaces = namespace_packages(import_root, package)
    started = time.perf_counter()
    grimp_root = (
        shadow_tree(import_root, package, namespaces, f"{name}-{version}")
        if namespaces
        else import_root
    )
    command = [sys.executable, "-m", "benchmarks.oracles.imports_grimp", "--worker"]
    proc = subprocess.run(
        [*command, str(grimp_root), package],
        check=True,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent.parent,
    )
    raw: JsonDict = json.loads(proc.stdout)
    elapsed = time.perf_counter() - started

    expected = set(files) | set(namespaces)
    if expected != set(raw["modules"]):
        raise RuntimeError(
            "grimp's modules differ from the extracted source files: "
            f"only grimp {sorted(set(raw['modules']) - expected)}, "
            f"only files {sorted(expected - set(raw['modules']))}"
        )
    sdist_root = import_root if import_root.name != "src" else import_root.parent
    return {
        "package": package,
        "distribution": name,
        "version": version,
        "grimp_version": importlib.metadata.version("grimp"),
        "import_root": import_root.relative_to(sdist_root).as_posix() or ".",
        "modules": sorted(files),
        "module_files": files,
        "namespace_packages": namespaces,
        "internal_imports": raw["internal_imports"],
        "type_checking_imports": raw["type_checking_imports"],
        "external_imports": raw["external_imports"],
        "invalid_relative_imports": raw["invalid_relative_imports"],
        "wall_time_s": round(elapsed, 3),
    }


def summary(data: JsonDict) -> str:
    """A one-line human summary of an imports oracle result."""
    edges = data["internal_imports"]
    return (
        f"{data['package']}=={data['version']}: {len(data['modules'])} modules, "
        f"{len(edges)} internal import edges ({sum(len(e[2]) for e in edges)} statements, "
        f"{len(data['type_checking_imports'])} with TYPE_CHECKING-only lines), "
        f"{len(data['external_imports'])} external edges, {data['wall_time_s']:.2f}s"
    )


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--worker"]:
        _, import_root, package = args_in
        json.dump(_worker(import_root, package), sys.stdout)
        return 0
    parser = argparse.ArgumentParser(description="grimp import-graph oracle")
    parser.add_argument("spec", metavar="NAME==VERSION")
    parser.add_argument("--out", type=Path, help="output JSON (default: benchmarks/cache/oracles)")
    args = parser.parse_args(args_in)
    name, version = parse_spec(args.spec)
    data = build(name, version)
    out: Path = args.out or ORACLE_OUT_DIR / f"{name}-{version}.imports.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{summary(data)} -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
