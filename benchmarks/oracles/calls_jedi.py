"""Call-graph oracle: where every call expression of a package goes, according to jedi.

Usage (from the repository root)::

    python -m benchmarks.oracles.calls_jedi flask==3.0.3 \\
        --out benchmarks/cache/oracles/flask-3.0.3.calls.json [--jobs 2] [--no-cache]

Method, per ``.py`` file of the package's own source (every module Python can import, implicit
namespace packages such as ``flask/sansio`` included; the same set as the grimp oracle):

1. ``ast`` finds every ``ast.Call``. The *query position* is the callee's final name token:
   ``f`` in ``f(...)``, ``c`` in ``a.b.c(...)``. Callees without a final name (``f()()``,
   ``x[0]()``, ``(lambda: 0)()``) are recorded with ``callee_kind: "other"`` and no query.
   ``ast`` columns are UTF-8 byte offsets; ``col`` in the output is the 0-based *character*
   column jedi uses, ``col_byte`` the byte column (tree-sitter's convention).
2. The *caller* is the dotted qualified name of the innermost enclosing ``def`` (methods are
   ``module.Class.method``, nested functions ``module.outer.inner``), or the module name for
   module-level code. Class bodies are transparent: a call in a class body outside any method
   belongs to the enclosing function, or to the module when the class is at module level.
   Lambdas and comprehensions are transparent too. Decorators, default values, annotations and
   base-class expressions are evaluated in the *enclosing* scope, so they belong to it.
3. ``jedi.Script.goto(line, col, follow_imports=True)`` is asked for the definition; when it
   yields no function or class anywhere, ``Script.infer`` is tried. ``answered_by`` says which
   one produced the function/class (``null`` when neither did).
4. In-package functions, methods and classes become ``targets``: module name (from the file
   path, ``__init__`` dropped) + the chain of enclosing class/function names, computed from our
   own ``ast`` scope map of the target file (jedi's ``full_name`` is not trusted for nested
   definitions). A class target means construction; ``init_targets`` then holds the
   ``__init__`` that runs: the class's own, else the first one found depth-first, left to right,
   through its *in-package* bases (an approximation of the MRO; the search stops at a base
   outside the package).
5. Definitions outside the package set ``external`` to their dotted name, e.g.
   ``builtins.print``, ``werkzeug.routing.map.Map.add`` (the alphabetically first when jedi
   finds several; all of them are then in ``externals``). A site can have both ``targets`` and
   ``external`` when jedi finds several possible values. Lambdas found in the package go to
   ``lambdas`` (``file:line``), never to ``targets``; in-package names that are neither
   (assignments, parameters, instances) are listed in ``other`` when nothing better was found.
   Every list is sorted (jedi's own order depends on hash randomisation).

jedi's sys.path is set explicitly: the import root first, then the package's pinned
dependencies (``benchmarks/cache/deps``), then the standard library. The venv's site-packages is
deliberately excluded: jedi's ``added_sys_path`` is *appended* after site-packages, so a copy of
the same package installed there (requests, click) would otherwise shadow the extracted sdist.

Results are cached per file under ``benchmarks/cache/jedi/<name>-<version>/`` keyed by the file
content, the jedi version, the sys.path and this module's own source, so reruns are instant.

Never import ``graphrag_code`` from here: this oracle must stay independent of it.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.metadata
import json
import multiprocessing
import os
import re
import signal
import sysconfig
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from benchmarks.oracles.packages import (
    CACHE_DIR,
    ORACLE_OUT_DIR,
    fetch,
    fetch_dependencies,
    package_modules,
)
from benchmarks.oracles.packages import parse_spec as _parse_spec

JsonDict = dict[str, Any]

JEDI_CACHE_DIR = CACHE_DIR / "jedi"
CALL_TIMEOUT_S = 30.0
"""A single goto/infer that takes longer than this is abandoned (``error: "timeout"``)."""

_LINE_SPLIT = re.compile(r"\r\n|\r|\n")


# --------------------------------------------------------------------------------------------
# ast side: scopes, definitions and call sites of one file
# --------------------------------------------------------------------------------------------


@dataclass
class Definition:
    """A ``def`` or ``class`` of a file, with its qualified name."""

    qname: str
    kind: str  # "function" | "class"
    name: str
    line: int
    has_init: bool = False
    base_positions: list[tuple[int, int]] = field(default_factory=list)
    """(line, char column) of each base class's final name token (classes only)."""


@dataclass
class CallSite:
    """One ``ast.Call`` and where to ask jedi about it."""

    line: int
    col: int
    col_byte: int
    caller: str
    callee_text: str
    callee_kind: str  # "name" | "attribute" | "other"
    name: str | None = None
    """The final name token (``None`` for callee_kind "other")."""


def module_name_for(relpath: str) -> str:
    """Dotted module name of a file path relative to the import root (``__init__`` dropped)."""
    parts = relpath.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def split_lines(code: str) -> list[str]:
    """Split source the way ``ast`` and parso count lines (``\\r\\n``, ``\\r``, ``\\n``)."""
    return _LINE_SPLIT.split(code)


def _char_col(lines: Sequence[str], line: int, col_byte: int) -> int:
    """Convert an ``ast`` UTF-8 byte column on 1-based ``line`` into a character column."""
    text = lines[line - 1]
    if text.isascii():
        return col_byte
    return len(text.encode("utf-8")[:col_byte].decode("utf-8", errors="replace"))


def _name_token(node: ast.expr) -> tuple[str, int, int] | None:
    """(name, line, byte column) of the final name token of a callee, if it has one."""
    if isinstance(node, ast.Name):
        return node.id, node.lineno, node.col_offset
    if isinstance(node, ast.Attribute) and node.end_lineno is not None:
        assert node.end_col_offset is not None
        return node.attr, node.end_lineno, node.end_col_offset - len(node.attr.encode("utf-8"))
    return None


def _has_init(body: Sequence[ast.stmt]) -> bool:
    """Whether a class body defines ``__init__`` (also under class-level if/try blocks)."""
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == "__init__":
            return True
        if isinstance(stmt, ast.If | ast.Try) and _has_init(
            [*stmt.body, *stmt.orelse, *getattr(stmt, "finalbody", [])]
        ):
            return True
    return False


class FileScopes:
    """Definitions and call sites of one module, from a single ``ast`` walk."""

    def __init__(self, code: str, module: str) -> None:
        self.module = module
        self.lines = split_lines(code)
        self.definitions: list[Definition] = []
        self.calls: list[CallSite] = []
        self._by_position: dict[tuple[int, str], Definition] = {}
        tree = ast.parse(code)
        self._visit_block(tree.body, [])
        self.calls.sort(key=lambda c: (c.line, c.col))

    def definition_at(self, line: int, name: str) -> Definition | None:
        """The ``def``/``class`` named ``name`` whose name token is on ``line``."""
        return self._by_position.get((line, name))

    # A scope stack is a list of (name, kind) of the enclosing defs and classes.
    def _qname(self, stack: list[tuple[str, str]], name: str | None = None) -> str:
        parts = [self.module, *(n for n, _ in stack)]
        if name is not None:
            parts.append(name)
        return ".".join(p for p in parts if p)

    def _caller(self, stack: list[tuple[str, str]]) -> str:
        last_function = max((i for i, (_, k) in enumerate(stack) if k == "function"), default=-1)
        return self._qname(stack[: last_function + 1])

    def _visit_block(self, nodes: Sequence[ast.AST], stack: list[tuple[str, str]]) -> None:
        for node in nodes:
            self._visit(node, stack)

    def _visit(self, node: ast.AST, stack: list[tuple[str, str]]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            outer: list[ast.AST] = [*node.decorator_list, *args.defaults]
            outer += [d for d in args.kw_defaults if d is not None]
            every_arg = [*args.posonlyargs, *args.args, *args.kwonlyargs]
            every_arg += [a for a in (args.vararg, args.kwarg) if a is not None]
            outer += [a.annotation for a in every_arg if a.annotation is not None]
            if node.returns is not None:
                outer.append(node.returns)
            self._visit_block(outer, stack)
            self._add_definition(node, "function", stack)
            self._visit_block(node.body, [*stack, (node.name, "function")])
        elif isinstance(node, ast.ClassDef):
            self._visit_block([*node.decorator_list, *node.bases, *node.keywords], stack)
            definition = self._add_definition(node, "class", stack)
            definition.has_init = _has_init(node.body)
            for base in node.bases:
                target = base.value if isinstance(base, ast.Subscript) else base
                token = _name_token(target)
                if token is not None:
                    _, line, col_byte = token
                    definition.base_positions.append((line, _char_col(self.lines, line, col_byte)))
            self._visit_block(node.body, [*stack, (node.name, "class")])
        else:
            if isinstance(node, ast.Call):
                self._add_call(node, stack)
            self._visit_block(list(ast.iter_child_nodes(node)), stack)

    def _add_definition(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
        kind: str,
        stack: list[tuple[str, str]],
    ) -> Definition:
        # The name token follows "def"/"async def"/"class" on the statement's first line.
        definition = Definition(self._qname(stack, node.name), kind, node.name, node.lineno)
        self.definitions.append(definition)
        self._by_position.setdefault((node.lineno, node.name), definition)
        return definition

    def _add_call(self, node: ast.Call, stack: list[tuple[str, str]]) -> None:
        token = _name_token(node.func)
        callee_text = ast.unparse(node.func)
        if len(callee_text) > 200:
            callee_text = callee_text[:197] + "..."
        name: str | None = None
        if token is None:
            line, col_byte = node.func.lineno, node.func.col_offset
            kind = "other"
        else:
            name, line, col_byte = token
            kind = "name" if isinstance(node.func, ast.Name) else "attribute"
        col = _char_col(self.lines, line, col_byte)
        caller = self._caller(stack)
        self.calls.append(CallSite(line, col, col_byte, caller, callee_text, kind, name))


# --------------------------------------------------------------------------------------------
# jedi side (runs in worker processes)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JobConfig:
    """Everything a worker needs to analyse files of one package."""

    import_root: str
    package: str
    sys_path: tuple[str, ...]


_CONFIG: JobConfig | None = None
_SCOPES: dict[str, FileScopes | None] = {}


def _init_worker(config: JobConfig) -> None:
    """Pool initializer: remember the job configuration in this worker process.

    Each worker gets its own parso pickle cache: two processes sharing one cache directory
    read each other's half-written pickles (seen as ``EOFError: Ran out of input`` and other
    spurious jedi failures).
    """
    import jedi  # type: ignore[import-untyped]

    global _CONFIG
    _CONFIG = config
    identity = multiprocessing.current_process()._identity
    worker = identity[-1] if identity else 0
    jedi.settings.cache_directory = str(JEDI_CACHE_DIR / "parso" / f"worker-{worker}")


class _CallTimeout(Exception):
    """Raised by SIGALRM when one jedi query runs too long."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _CallTimeout


def _scopes_for(path: Path, config: JobConfig) -> FileScopes | None:
    """Cached ``FileScopes`` of an in-package file (``None`` when it does not parse)."""
    key = str(path)
    if key not in _SCOPES:
        relpath = path.relative_to(Path(config.import_root).resolve()).as_posix()
        try:
            code = path.read_text(encoding="utf-8")
            _SCOPES[key] = FileScopes(code, module_name_for(relpath))
        except (OSError, SyntaxError, UnicodeDecodeError):
            _SCOPES[key] = None
    return _SCOPES[key]


def _in_package(module_path: Path | None, config: JobConfig) -> Path | None:
    """The resolved path when it is a ``.py`` file of the package under test, else ``None``."""
    if module_path is None or module_path.suffix != ".py":
        return None
    resolved = module_path.resolve()
    package_dir = Path(config.import_root, config.package).resolve()
    return resolved if resolved.is_relative_to(package_dir) else None


@dataclass
class Answer:
    """What one jedi query says about a callee."""

    targets: list[str] = field(default_factory=list)
    externals: list[str] = field(default_factory=list)
    lambdas: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)

    @property
    def useful(self) -> bool:
        """Whether a function, lambda or class (in the package or outside it) was found."""
        return bool(self.targets or self.lambdas or self.externals)

    @property
    def external(self) -> str | None:
        """The (alphabetically first) definition outside the package, if any."""
        return self.externals[0] if self.externals else None

    def canonical(self) -> Answer:
        """Sorted, duplicate-free lists: jedi's result order depends on set iteration order."""
        return Answer(
            sorted(set(self.targets)),
            sorted(set(self.externals)),
            sorted(set(self.lambdas)),
            sorted(set(self.other)),
        )


def _classify(names: Sequence[Any], config: JobConfig) -> Answer:
    """Split jedi ``Name`` results into in-package targets, an external name and the rest."""
    answer = Answer()
    for name in names:
        path = _in_package(name.module_path, config)
        if name.type not in ("function", "class"):
            if path is not None and name.line is not None:
                relpath = path.relative_to(Path(config.import_root).resolve()).as_posix()
                answer.other.append(f"{name.type}:{relpath}:{name.line}:{name.name}")
            continue
        if path is None:
            answer.externals.append(name.full_name or f"{name.module_name}.{name.name}")
            continue
        relpath = path.relative_to(Path(config.import_root).resolve()).as_posix()
        if name.name == "<lambda>":
            answer.lambdas.append(f"{relpath}:{name.line}")
            continue
        scopes = _scopes_for(path, config)
        definition = scopes.definition_at(name.line, name.name) if scopes else None
        qname = definition.qname if definition else f"?{relpath}:{name.line}:{name.name}"
        answer.targets.append(qname)
    return answer.canonical()


def _ask(script: Any, line: int, col: int, config: JobConfig) -> tuple[Answer, str | None]:
    """goto (following imports), then infer if goto found no function/class."""
    answer = _classify(script.goto(line, col, follow_imports=True), config)
    if answer.useful:
        return answer, "goto"
    inferred = _classify(script.infer(line, col), config)
    if inferred.useful:
        inferred.other = sorted(set(answer.other + inferred.other))
        return inferred, "infer"
    return answer, None


def _reset_process_caches() -> None:
    """Forget what earlier files left in this process, so each file's answer is repeatable.

    jedi and parso keep process-wide caches (parsed trees, time-based caches); without this,
    which file a worker happened to analyse before can change a few results.
    """
    import jedi.cache  # type: ignore[import-untyped]
    import parso.cache

    jedi.cache.clear_time_caches(delete_all=True)
    parso.cache.parser_cache.clear()
    _SCOPES.clear()


def analyse_file(relpath: str) -> JsonDict:
    """Resolve every call site (and every class's bases) of one file with jedi."""
    import jedi

    config = _CONFIG
    assert config is not None, "worker not initialised"
    _reset_process_caches()
    path = Path(config.import_root, relpath)
    started = time.perf_counter()
    code = path.read_text(encoding="utf-8")
    scopes = FileScopes(code, module_name_for(relpath))
    _SCOPES[str(path.resolve())] = scopes
    project = jedi.Project(config.import_root, sys_path=list(config.sys_path), smart_sys_path=False)
    script = jedi.Script(code, path=path, project=project)
    signal.signal(signal.SIGALRM, _on_alarm)

    def ask(line: int, col: int) -> tuple[Answer, str | None, str | None]:
        signal.setitimer(signal.ITIMER_REAL, CALL_TIMEOUT_S)
        try:
            answer, by = _ask(script, line, col, config)
            return answer, by, None
        except _CallTimeout:
            return Answer(), None, "timeout"
        except Exception as exc:  # noqa: BLE001 - jedi bugs must not kill the whole run
            return Answer(), None, f"{type(exc).__name__}: {exc}"[:200]
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    call_sites: list[JsonDict] = []
    for call in scopes.calls:
        site: JsonDict = {
            "file": relpath,
            "line": call.line,
            "col": call.col,
            "col_byte": call.col_byte,
            "caller": call.caller,
            "callee_text": call.callee_text,
            "callee_kind": call.callee_kind,
            "targets": [],
            "init_targets": [],
            "answered_by": None,
        }
        text = scopes.lines[call.line - 1]
        if call.name is not None and text[call.col : call.col + len(call.name)] != call.name:
            site["error"] = "position mismatch"  # never seen; guards the column arithmetic
        elif call.callee_kind != "other":
            answer, by, error = ask(call.line, call.col)
            site["targets"] = answer.targets
            site["answered_by"] = by
            if answer.external is not None:
                site["external"] = answer.external
            if len(answer.externals) > 1:
                site["externals"] = answer.externals
            if answer.lambdas:
                site["lambdas"] = answer.lambdas
            if answer.other and not answer.useful:
                site["other"] = answer.other[:5]
            if error is not None:
                site["error"] = error
        call_sites.append(site)

    classes: list[JsonDict] = []
    for definition in scopes.definitions:
        if definition.kind != "class":
            continue
        bases: list[str] = []
        for line, col in definition.base_positions:
            answer, _, _ = ask(line, col)
            if answer.targets:
                bases.append(answer.targets[0])
            elif answer.external is not None:
                bases.append(f"external:{answer.external}")
            else:
                bases.append("unresolved:")
        classes.append({"qname": definition.qname, "has_init": definition.has_init, "bases": bases})
    return {
        "file": relpath,
        "call_sites": call_sites,
        "classes": classes,
        "seconds": round(time.perf_counter() - started, 3),
    }


# --------------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------------


def jedi_sys_path(import_root: Path, deps: Path | None) -> tuple[str, ...]:
    """Import root, then pinned dependencies, then the standard library (no site-packages)."""
    stdlib = sysconfig.get_paths()["stdlib"]
    paths = [str(import_root)]
    if deps is not None:
        paths.append(str(deps))
    for candidate in (stdlib, sysconfig.get_paths()["platstdlib"], f"{stdlib}/lib-dynload"):
        if Path(candidate).is_dir() and candidate not in paths:
            paths.append(candidate)
    return tuple(paths)


def _cache_key(config: JobConfig, relpath: str, jedi_version: str) -> str:
    """Cache key of one file's results: inputs that can change the answer."""
    digest = hashlib.sha256()
    digest.update(Path(__file__).read_bytes())
    digest.update(jedi_version.encode())
    digest.update("\0".join(config.sys_path).encode())
    digest.update(relpath.encode())
    digest.update(Path(config.import_root, relpath).read_bytes())
    return digest.hexdigest()


def _init_targets(classes: dict[str, JsonDict]) -> dict[str, list[str]]:
    """Class qname -> the in-package ``__init__`` a construction runs (empty when unknown)."""

    def find(qname: str, seen: set[str]) -> str | None:
        if qname in seen or qname not in classes:
            return None
        seen.add(qname)
        info = classes[qname]
        if info["has_init"]:
            return f"{qname}.__init__"
        for base in info["bases"]:
            if ":" in base:  # external: / unresolved: -> stop, its __init__ is unknown
                return None
            found = find(base, seen)
            if found is not None:
                return found
        return None

    result: dict[str, list[str]] = {}
    for qname in classes:
        found = find(qname, set())
        result[qname] = [found] if found else []
    return result


def _iter_results(
    config: JobConfig, files: list[str], todo: list[str], jobs: int
) -> Iterator[JsonDict]:
    """Analyse ``todo`` files with a pool of ``jobs`` workers (largest files first)."""
    if not todo:
        return
    todo = sorted(todo, key=lambda f: -Path(config.import_root, f).stat().st_size)
    context = multiprocessing.get_context("spawn")
    # Spawned workers read PYTHONHASHSEED at start-up: a fixed seed makes jedi's set-ordered
    # inference (and so which branch a recursion limit cuts) repeatable from run to run.
    saved = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = "0"
    try:
        with context.Pool(jobs, initializer=_init_worker, initargs=(config,)) as pool:
            yield from pool.imap_unordered(analyse_file, todo)
    finally:
        if saved is None:
            del os.environ["PYTHONHASHSEED"]
        else:
            os.environ["PYTHONHASHSEED"] = saved


def build(name: str, version: str, jobs: int = 2, use_cache: bool = True) -> JsonDict:
    """Fetch ``name==version`` and compute its jedi call-site oracle."""
    jedi_version = importlib.metadata.version("jedi")
    import_root, package = fetch(name, version)
    deps = fetch_dependencies(name, version)
    config = JobConfig(str(import_root), package, jedi_sys_path(import_root, deps))
    files = sorted(package_modules(import_root, package).values())
    cache_dir = JEDI_CACHE_DIR / f"{name}-{version}"

    started = time.perf_counter()
    per_file: dict[str, JsonDict] = {}
    keys = {f: _cache_key(config, f, jedi_version) for f in files}
    if use_cache:
        for relpath in files:
            cached = cache_dir / f"{relpath}.json"
            if cached.is_file():
                data = json.loads(cached.read_text(encoding="utf-8"))
                if data.get("key") == keys[relpath]:
                    per_file[relpath] = data["result"]
    cached_count = len(per_file)
    todo = [f for f in files if f not in per_file]
    for result in _iter_results(config, files, todo, jobs):
        relpath = result["file"]
        per_file[relpath] = result
        target = cache_dir / f"{relpath}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        payload = {"key": keys[relpath], "result": result}
        target.write_text(json.dumps(payload) + "\n", encoding="utf-8")
        print(
            f"  {relpath}: {len(result['call_sites'])} calls, {result['seconds']:.1f}s",
            flush=True,
        )
    elapsed = time.perf_counter() - started

    classes = {c["qname"]: c for f in files for c in per_file[f]["classes"]}
    inits = _init_targets(classes)
    call_sites: list[JsonDict] = []
    for relpath in files:
        for site in per_file[relpath]["call_sites"]:
            site = dict(site)
            site["init_targets"] = sorted(
                {i for t in site["targets"] if t in classes for i in inits[t]}
            )
            call_sites.append(site)
    root_label = [import_root.name] if import_root.name == "src" else []
    return {
        "package": package,
        "distribution": name,
        "version": version,
        "jedi_version": jedi_version,
        "import_root": "/".join(root_label) or ".",
        "sys_path": ["<import_root>", *(["<deps>"] if deps else []), "<stdlib>"],
        "dependencies": sorted(p.name for p in deps.glob("*.dist-info")) if deps else [],
        "files": files,
        "classes": [classes[q] | {"init_targets": inits[q]} for q in sorted(classes)],
        "call_sites": call_sites,
        "jobs": jobs,
        "files_from_cache": cached_count,
        "wall_time_s": round(elapsed, 2),
        "cpu_time_s": round(sum(per_file[f]["seconds"] for f in files), 2),
    }


def summary(data: JsonDict) -> str:
    """A one-line human summary of a calls oracle result."""
    sites = data["call_sites"]
    in_package = sum(1 for s in sites if s["targets"])
    external = sum(1 for s in sites if not s["targets"] and "external" in s)
    unresolved = sum(1 for s in sites if not s["targets"] and "external" not in s)
    by_infer = sum(1 for s in sites if s["answered_by"] == "infer")
    errors = sum(1 for s in sites if "error" in s)
    return (
        f"{data['package']}=={data['version']}: {len(data['files'])} files, "
        f"{len(sites)} call sites, {in_package} with an in-package target, "
        f"{external} external only, {unresolved} unresolved, {by_infer} answered by infer, "
        f"{errors} errors; wall {data['wall_time_s']:.1f}s with {data['jobs']} jobs "
        f"(jedi cpu {data['cpu_time_s']:.1f}s, {data['files_from_cache']} files from cache)"
    )


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description="jedi call-site oracle")
    parser.add_argument("spec", metavar="NAME==VERSION")
    parser.add_argument("--out", type=Path, help="output JSON (default: benchmarks/cache/oracles)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--no-cache", action="store_true", help="ignore cached per-file results")
    args = parser.parse_args(argv)
    name, version = _parse_spec(args.spec)
    data = build(name, version, jobs=args.jobs, use_cache=not args.no_cache)
    out: Path = args.out or ORACLE_OUT_DIR / f"{name}-{version}.calls.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{summary(data)} -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
