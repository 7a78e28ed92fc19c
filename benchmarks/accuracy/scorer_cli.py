"""The command line the Go, Java and Rust scorers share: pick pinned code bases or a set,
check the plug-in and the oracle's output are there, score, print and write the tables."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from benchmarks.accuracy.located import speed_table
from graphrag_code.errors import ConfigurationError
from graphrag_code.languages import select_languages

__all__ = ["Scorer", "score_main", "set_of"]

JsonDict = dict[str, Any]


class _Pinned(Protocol):
    @property
    def root_name(self) -> str: ...


@dataclass(frozen=True)
class Scorer:
    """What differs between the scorers: the language, its sets, its oracle, its tables."""

    language: str  # the plug-in's name (`select_languages`)
    title: str  # as prose names it: "Go"
    unit: str  # what one code base is called: "module", "crate", "code base"
    example: str  # a pinned name, for --help
    sets: Mapping[str, Sequence[_Pinned]]
    out_dir: Path
    output_suffix: str  # the oracle output a code base needs: ".json", ".dispatch.json"
    oracle_module: str  # the module that writes it
    pinned: Callable[[str], _Pinned]
    setup_error: type[Exception]  # what `pinned` raises for an unknown name
    evaluate: Callable[[str, int, int], JsonDict]
    markdown: Callable[[Sequence[JsonDict]], str]
    name_key: str  # the result's field naming the code base


def set_of(sets: Mapping[str, Sequence[_Pinned]], name: str) -> str | None:
    """`tuning` or `heldout` for a code base folder (`gson-2.11.0`), else None."""
    for label in ("tuning", "heldout"):
        if any(entry.root_name == name for entry in sets[label]):
            return label
    return None


def score_main(scorer: Scorer, argv: list[str] | None, description: str) -> int:
    """Parse `argv`, score what it names, print the tables; the exit status."""
    parser = argparse.ArgumentParser(description=description)
    plural = f"{scorer.unit}s" if not scorer.unit.endswith("s") else scorer.unit
    parser.add_argument(
        "names", nargs="*", metavar=scorer.unit.upper().replace(" ", "_"),
        help=f"pinned {scorer.unit} names ({scorer.example})",
    )  # fmt: skip
    parser.add_argument("--set", choices=sorted(scorer.sets), help=f"every {scorer.unit} of a set")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--md", type=Path, help="write the tables as Markdown")
    parser.add_argument("--show-errors", type=int, default=0, metavar="N")
    parser.add_argument("--repeat", type=int, default=1, help="link N times, report the best")
    parser.add_argument(
        "--speed-baseline", nargs="+", type=Path, default=[], metavar="TREE",
        help="also time link_repository on these trees (e.g. a Python and a TS code base)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    try:
        names = [scorer.pinned(n).root_name for n in args.names]
    except scorer.setup_error as error:
        parser.error(str(error))
    names += [entry.root_name for entry in scorer.sets.get(args.set or "", ())]
    if not names:
        parser.error(f"name {plural} or give --set tuning|heldout|all")
    try:
        select_languages([scorer.language])
    except ConfigurationError as error:
        print(
            f"error: this graphrag_code reads no {scorer.title} ({error}); "
            f"put a checkout with the {scorer.title} plug-in on PYTHONPATH"
        )
        return 1
    out = scorer.out_dir
    missing = [n for n in names if not (out / f"{n}{scorer.output_suffix}").is_file()]
    if missing:
        print(
            f"error: no oracle output for {', '.join(missing)} in {out}: run "
            f"`python -m {scorer.oracle_module} --set ...` first"
        )
        return 1
    results = [
        {"set": set_of(scorer.sets, name), **scorer.evaluate(name, args.show_errors, args.repeat)}
        for name in names
    ]
    table = scorer.markdown(results)
    if args.speed_baseline:
        try:
            table += "\n\n" + speed_table(args.speed_baseline, args.repeat)
        except NotADirectoryError as error:
            print(f"error: {error}")
            return 1
    print(table)
    if args.md:
        args.md.parent.mkdir(parents=True, exist_ok=True)
        args.md.write_text(table + "\n", encoding="utf-8")
    if args.show_errors:
        print(json.dumps({r[scorer.name_key]: r["errors"] for r in results}, indent=1))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0
