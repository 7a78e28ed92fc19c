"""Second call-graph oracle: where mypy's type checker says each call goes.

Usage (from the repository root)::

    python -m benchmarks.oracles.calls_mypy flask==3.0.3 \\
        [--out benchmarks/cache/oracles/flask-3.0.3.calls_mypy.json]

jedi (``calls_jedi``) is the primary oracle. It gives up at some call sites, typically where
the receiver's type comes only from an annotation (flask's ``current_app: Flask =
LocalProxy(...)``); mypy, a type checker, reads those annotations. ``graph_accuracy`` asks this
oracle only about the sites jedi left unresolved, so jedi's answer stands wherever it has one.

Method: mypy builds the package's modules (its pinned dependencies on ``mypy_path``, the
standard library from typeshed) with the inferred type of every expression kept. For every
``CallExpr`` the callee's type decides the target: a callable whose definition is a function or
method gives that definition's full name (``flask.sansio.app.App.redirect``); a class object
(``Foo(...)``, or ``app.app_ctx_globals_class()`` typed ``type[_AppCtxGlobals]``) gives the
class's ``__init__`` when the class defines one in the package, else the class. Method calls
resolve through the *declared* type of the receiver, as mypy checks them: ``x.m()`` with
``x: Base`` names ``Base.m`` even when a subclass overrides ``m``. Calls mypy types as ``Any``
are not recorded. Sites are keyed by module and line, like jedi's.

Never import ``graphrag_code`` from here: this oracle must stay independent of it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from mypy import build
from mypy.modulefinder import BuildSource
from mypy.nodes import (
    Block,
    CallExpr,
    Decorator,
    Expression,
    FuncBase,
    MypyFile,
    OverloadedFuncDef,
    Statement,
    TypeInfo,
)
from mypy.options import Options
from mypy.types import CallableType, Instance, Overloaded, Type, TypeType, get_proper_type
from mypy.version import __version__ as mypy_version

from benchmarks.oracles.packages import (
    ORACLE_OUT_DIR,
    fetch,
    fetch_dependencies,
    package_modules,
)
from benchmarks.oracles.packages import parse_spec as _parse_spec

JsonDict = dict[str, Any]


def _definition_name(node: object) -> str | None:
    if isinstance(node, Decorator):
        node = node.func
    if isinstance(node, (FuncBase, OverloadedFuncDef)):
        return node.fullname or None
    return None


def _class_target(info: TypeInfo, package: str) -> str:
    """What constructing `info` runs: its own `__init__` in the package, else the class."""
    init = info.names.get("__init__")
    if init is not None and info.fullname.startswith(f"{package}."):
        name = _definition_name(init.node)
        if name is not None:
            return name
    return info.fullname


def _target(callee_type: Type | None, package: str) -> str | None:
    proper = get_proper_type(callee_type) if callee_type is not None else None
    if isinstance(proper, Overloaded):
        items = proper.items
        proper = items[0] if items else None
    if isinstance(proper, CallableType):
        if proper.is_type_obj():
            return _class_target(proper.type_object(), package)
        return _definition_name(proper.definition)
    if isinstance(proper, TypeType) and isinstance(proper.item, Instance):
        return _class_target(proper.item.type, package)
    return None


# attributes that point away from the tree being walked (a name's definition, elsewhere)
_NOT_CHILDREN = frozenset({"node", "info", "original_def", "var", "type", "unanalyzed_type"})


def _calls(tree: MypyFile) -> list[CallExpr]:
    """Every call expression in `tree`. mypy's nodes are compiled (mypyc), so its visitor
    classes cannot be subclassed here: walk the attributes mypyc lists instead."""
    found: list[CallExpr] = []
    seen: set[int] = set()
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, CallExpr):
            found.append(node)
        for attribute in getattr(type(node), "__mypyc_attrs__", ()):
            if attribute in _NOT_CHILDREN:
                continue
            value = getattr(node, attribute, None)
            values = value if isinstance(value, (list, tuple)) else (value,)
            stack.extend(
                item for item in values if isinstance(item, (Statement, Expression, Block))
            )
    return found


def build_oracle(name: str, version: str) -> JsonDict:
    fetched = fetch(name, version)
    modules = package_modules(fetched.import_root, fetched.package)
    deps = fetch_dependencies(name, version)
    options = Options()
    options.export_types = True
    options.preserve_asts = True
    options.follow_imports = "silent"
    options.ignore_missing_imports = True
    options.incremental = False
    options.check_untyped_defs = True  # infer inside unannotated functions too
    options.namespace_packages = True
    options.mypy_path = [str(fetched.import_root)] + ([str(deps)] if deps else [])
    sources = [
        BuildSource(str(fetched.import_root / relpath), module)
        for module, relpath in sorted(modules.items())
    ]
    started = time.perf_counter()
    result = build.build(sources=sources, options=options)
    sites: list[JsonDict] = []
    for module in sorted(modules):
        tree = result.graph[module].tree if module in result.graph else None
        if not isinstance(tree, MypyFile):
            continue
        for call in _calls(tree):
            target = _target(result.types.get(call.callee), fetched.package)
            if target is not None:
                sites.append({"module": module, "line": call.line, "target": target})
    return {
        "package": fetched.package,
        "distribution": name,
        "version": version,
        "mypy_version": mypy_version,
        "call_sites": sorted(sites, key=lambda s: (s["module"], s["line"], s["target"])),
        "errors": len(result.errors),
        "wall_time_s": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="mypy's view of where each call goes")
    parser.add_argument("spec", metavar="NAME==VERSION")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    name, version = _parse_spec(args.spec)
    data = build_oracle(name, version)
    out = args.out or ORACLE_OUT_DIR / f"{name}-{version}.calls_mypy.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{args.spec}: {len(data['call_sites'])} typed call sites in {data['wall_time_s']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
