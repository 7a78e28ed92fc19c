"""Where the link stage's CPU goes by kind of call, and the ceiling of a lazier value flow
for implicit calls (issue 56). Django 5.1.4's package (or PATH) parsed once, then linked on
one process with the collector paused, as the indexer does (`time.process_time`).

`--variant probe` times each call site and implicit call by kind and counts those that made
an edge; `baseline`, `no-deep` (an operand that is a parameter not followed through its
function's callers) and `no-implicit` (no implicit call but property access) give the link's
CPU and its edges: the last two change edges, so they measure a ceiling, not a candidate.

    .venv/bin/python -m benchmarks.speed.implicit_share [PATH] --variant probe
    .venv/bin/python -m benchmarks.speed.implicit_share [PATH] --variant no-deep
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.oracles.packages import download_sdist, extract_sdist
from graphrag_code.ingest import offline
from graphrag_code.languages.python import calls
from graphrag_code.languages.python.values import engine

VARIANTS = ("probe", "baseline", "no-deep", "no-implicit")
_PROPERTY = ("get", "set", "delete")


def _parsed(root: Path) -> tuple[Any, Any]:
    """The parsed files and options `link_repository` hands to `link_parsed`."""
    captured: list[tuple[Any, Any]] = []

    class _Parsed(Exception):
        pass

    def grab(files: Any, **options: Any) -> Any:
        captured.append((files, options))
        raise _Parsed

    real = offline.link_parsed
    offline.link_parsed = grab
    try:
        offline.link_repository(root)
    except _Parsed:
        pass
    finally:
        offline.link_parsed = real
    return captured[0]


def _probe() -> dict[str, list[float]]:
    """Time `CallLinker.link` and `link_implicit` by kind; [calls, CPU s, calls with an edge]."""
    stats: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0])
    made = [0]
    edge, link, implicit = (
        calls.CallLinker._edge,
        calls.CallLinker.link,
        calls.CallLinker.link_implicit,
    )

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        made[0] += 1
        return edge(self, *args, **kwargs)

    def timed(kind: str, run: Callable[[], Any]) -> Any:
        before, started = made[0], time.process_time()
        try:
            return run()
        finally:
            row = stats[kind]
            row[0] += 1
            row[1] += time.process_time() - started
            row[2] += made[0] > before

    def site(self: Any, call: Any) -> Any:
        typed = self._typed_target(call)
        kind = "site, untyped" if typed is None else "site, typed"
        if typed is not None and self._by_value(call):
            kind = "site, typed and followed by value"
        return timed(kind, lambda: link(self, call))

    def implicit_call(self: Any, call: Any) -> Any:
        steps = any(m in ("__iter__", "__aiter__") for m in call.methods)
        mode = call.mode if call.mode in _PROPERTY else ("iteration" if steps else "other")
        return timed(f"implicit, {mode}", lambda: implicit(self, call))

    setattr(calls.CallLinker, "_edge", counted)  # noqa: B010 - patched for timing only
    setattr(calls.CallLinker, "link", site)  # noqa: B010
    setattr(calls.CallLinker, "link_implicit", implicit_call)  # noqa: B010
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", type=Path)
    parser.add_argument("--variant", choices=VARIANTS, default="probe")
    args = parser.parse_args()
    root = (
        args.path or extract_sdist("django", "5.1.4", download_sdist("django", "5.1.4")) / "django"
    )
    files, options = _parsed(Path(root).resolve())
    stats = _probe() if args.variant == "probe" else None
    if args.variant == "no-deep":
        setattr(engine.ValueFlowAnalysis, "evaluate_operand", lambda *_a, **_k: None)  # noqa: B010
    elif args.variant == "no-implicit":
        implicit = calls.CallLinker.link_implicit

        def property_only(self: Any, call: Any) -> None:
            if call.mode in _PROPERTY:
                implicit(self, call)

        setattr(calls.CallLinker, "link_implicit", property_only)  # noqa: B010
    gc.disable()
    started = time.process_time()
    linked = offline.link_parsed(files, **options)
    cpu = time.process_time() - started
    edges = linked.edges()
    kinds = dict(Counter(edge.kind.value for edge in edges))
    print(f"{args.variant}: link CPU {cpu:.2f} s, {len(edges)} edges {kinds}")
    for kind, (count, seconds, made) in sorted((stats or {}).items(), key=lambda kv: -kv[1][1]):
        print(
            f"  {kind:36s} {count:7.0f} calls, {seconds:6.2f} s ({seconds / cpu:5.1%}), "
            f"{made:6.0f} with an edge ({made / max(count, 1):5.1%})"
        )


if __name__ == "__main__":
    main()
