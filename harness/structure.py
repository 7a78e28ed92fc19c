"""Draw the package's structure from its imports: STRUCTURE.md, a folder per language over a core.

Each box is a folder of `graphrag_code` (a language's folder is its own box; the top-level
record modules, `model.py`, `ids.py`, ..., are one box), with its number of modules (not its
lines: they change too often for a checked drawing); an arrow `A --> B` says some module of A
imports one of B. The drawing is made by grimp (as import-linter reads the imports), so it is
what the code does, not what a diagram says.

    .venv/bin/python -m harness.structure            # rewrite STRUCTURE.md
    .venv/bin/python -m harness.structure --check    # exit 1 when STRUCTURE.md is stale

`tests/test_structure.py` runs the check, so the drawing in the repository stays current.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import grimp

import graphrag_code

PACKAGE = "graphrag_code"
ROOT = Path(graphrag_code.__file__).resolve().parent
DRAWING = ROOT.parent / "STRUCTURE.md"
# Folders drawn apart from their parent folder: each language is its own box.
LANGUAGE_FOLDERS = ("languages",)
RECORDS = "records"  # the box of the top-level modules (model, ids, settings, errors, ...)
FRONT_DOOR = "front door"  # the package itself and the top-level modules users call
FRONT_DOOR_MODULES = ("codegraph", "api")


def box_of(module: str) -> str:
    """The box a dotted module name is drawn in."""
    parts = module.split(".")[1:]
    if not parts or (len(parts) == 1 and parts[0] in FRONT_DOOR_MODULES):
        return FRONT_DOOR
    if parts[0] in LANGUAGE_FOLDERS and len(parts) >= 2 and _is_folder(parts[:2]):
        return "/".join(parts[:2])
    if len(parts) == 1 and not _is_folder(parts[:1]):
        return RECORDS
    return parts[0]


def _is_folder(parts: list[str]) -> bool:
    return ROOT.joinpath(*parts).is_dir()


def drawing() -> str:
    """STRUCTURE.md's text: a Mermaid graph of the boxes and a table of their sizes."""
    graph = grimp.build_graph(PACKAGE)
    modules: dict[str, list[str]] = defaultdict(list)
    for module in sorted(graph.modules):
        modules[box_of(module)].append(module)
    arrows: set[tuple[str, str]] = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            source, target = box_of(module), box_of(imported)
            if source != target:
                arrows.add((source, target))
    languages = sorted(box for box in modules if box.startswith("languages/"))
    core_to_language = sorted(
        (source, target)
        for source, target in arrows
        if target in languages and source != "languages" and not source.startswith("languages/")
    )
    lines = [
        "# Structure of graphrag_code",
        "",
        "Drawn from the imports by `python -m harness.structure` (do not edit by hand;",
        "`tests/test_structure.py` fails when it is stale). A box is a folder of `graphrag_code`;",
        "each language is its own folder under `languages/`, reached by the core only through",
        "`languages` (the registry). `front door` is the package's `__init__`, `codegraph`",
        "and `api`; `records` the other top-level modules (model, ids, settings, errors, ...).",
        "",
        "```mermaid",
        "flowchart TD",
    ]
    for box in sorted(modules):
        lines.append(f'    {_node(box)}["{box}"]')
    for source, target in sorted(arrows):
        lines.append(f"    {_node(source)} --> {_node(target)}")
    lines += ["```", "", "| folder | modules |", "|---|---:|"]
    for box in sorted(modules):
        lines.append(f"| `{box}` | {len(modules[box])} |")
    lines += [
        "",
        f"Languages: {', '.join(f'`{box}`' for box in languages)}.",
        "Arrows from the core into a language folder: "
        + (", ".join(f"`{s}` → `{t}`" for s, t in core_to_language) or "none")
        + ".",
        "",
    ]
    return "\n".join(lines)


def _node(box: str) -> str:
    """A Mermaid node's identifier: the box's name without `/` or spaces."""
    return box.replace("/", "_").replace(" ", "_")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 when STRUCTURE.md is stale")
    args = parser.parse_args(argv)
    text = drawing()
    if args.check:
        current = DRAWING.read_text(encoding="utf-8") if DRAWING.is_file() else ""
        if current != text:
            print(f"{DRAWING.name} is stale: run python -m harness.structure", file=sys.stderr)
            return 1
        return 0
    DRAWING.write_text(text, encoding="utf-8")
    print(f"wrote {DRAWING}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
