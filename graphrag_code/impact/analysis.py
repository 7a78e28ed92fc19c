"""From changed files to a `DiffImpact`: changed symbols, blast radius, tests to run, risk.

The graph says where each changed symbol lives and who depends on it; the two sides of each
file say what changed (`changes.py`). Files no language plug-in reads are listed apart.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..graph import GraphReader
from ..graph.records import FileNode
from ..languages import Language, language_named, routes
from ..location import Location
from ..model import ParsedFile, symbol_content_hash
from ..parsing import ModuleName
from .blast import BlastOptions, blast_radius
from .changes import SymbolChange, file_changes, pair_moves
from .records import Affected, ChangedSymbol, DiffImpact, GraphSide, RiskSummary
from .sources import FileChange
from .tests import change_tests, coverage_use

__all__ = ["ImpactOptions", "analyse_changes", "module_name_for"]

_REDEFINED = re.compile(r"#(\d+)$")  # a node id's mark of a later definition of its name


@dataclass(frozen=True)
class ImpactOptions:
    depth: int = 2  # blast radius hops
    limit: int = 200  # affected symbols at most
    limit_per_node: int = 100  # inbound edges followed per node and hop
    possible: bool = False  # walk on through possible edges (else: list what they reach only)


def _language(path: str) -> str | None:
    return routes().suffixes.get(os.path.splitext(path)[1])


def module_name_for(
    path: str,
    language: Language,
    known: Mapping[str, str],
    folders: Mapping[str, Mapping[str, str]],
) -> ModuleName:
    """The module of `path`: the graph's name, else the language's guess from the graph's
    modules in its folder (`Language.guess_module`)."""
    folder = path.rpartition("/")[0]
    guess = language.guess_module(path, folders.get(folder + "/" if folder else "", {}))
    return replace(guess, module=known[path]) if path in known else guess


def _parse(
    path: str, text: str | None, module: ModuleName, language: Language
) -> ParsedFile | None:
    if text is None:
        return None
    return language.parser().parse(
        path=path, module=module.module, is_package=module.is_package, source=text.encode(),
        sha256="", symbols_only=True,
    )  # fmt: skip  # `changes.py` compares symbols: no calls or value flow


def _public(qualified_name: str, module: str) -> bool:
    inner = qualified_name[len(module) + 1 :] if qualified_name.startswith(module + ".") else ""
    return not any(part.startswith("_") and not part.endswith("__") for part in inner.split("."))


class _Nodes:
    """The graph's nodes of the changed files, by (path, qualified name): a name defined
    twice in a file has a node per definition, in line order (the later ones' ids end in
    `#2`, `#3`, ...; `ids.symbol_id`)."""

    def __init__(self, nodes: Sequence[FileNode]) -> None:
        self.by_key: dict[tuple[str, str], list[FileNode]] = {}
        for node in nodes:
            key = (node.symbol.location.path, node.symbol.qualified_name)
            self.by_key.setdefault(key, []).append(node)
        self.modules = {n.symbol.location.path: n for n in nodes if n.symbol.kind == "Module"}

    def find(self, path: str | None, qualified_name: str, ordinal: int = 1) -> FileNode | None:
        """The node of the `ordinal`-th definition of the name (a change in the first
        `view` of flask's `View.as_view` is not one in the second)."""
        for node in self.by_key.get((path or "", qualified_name), []):
            mark = _REDEFINED.search(node.symbol.id)
            if (int(mark.group(1)) if mark else 1) == ordinal:
                return node
        return None


def _symbols(
    changes: Sequence[FileChange], reader: GraphReader, repo: str
) -> tuple[list[ChangedSymbol], list[str], _Nodes]:
    readable = [c for c in changes if _language(c.diff.path) and not c.diff.binary]
    others = sorted(c.diff.path for c in changes if c not in readable)
    paths = sorted({p for c in readable for p in (c.diff.old_path, c.diff.new_path) if p})
    nodes = _Nodes(reader.file_nodes(repo, paths) if paths else [])
    known = {path: node.symbol.qualified_name for path, node in nodes.modules.items()}
    folders = reader.folder_modules(
        repo, sorted({p.rpartition("/")[0] + "/" if "/" in p else "" for p in paths})
    )
    found: list[SymbolChange] = []
    modules: dict[str, str] = {}
    old_hashes: dict[tuple[str, str, int], str] = {}
    for change in readable:
        diff = change.diff
        language = language_named(_language(diff.path) or "")
        none = ModuleName("", False, "")
        old_module = (
            module_name_for(diff.old_path, language, known, folders) if diff.old_path else none
        )
        new_module = (
            module_name_for(diff.new_path, language, known, folders) if diff.new_path else none
        )
        modules[diff.path] = new_module.module or old_module.module
        if diff.old_path:
            modules.setdefault(diff.old_path, old_module.module)
        old = _parse(diff.old_path or "", change.old_text, old_module, language)
        new = _parse(diff.new_path or "", change.new_text, new_module, language)
        if old is None and new is None:
            others.append(diff.path)
            continue
        found.extend(file_changes(diff, old, new))
        if old is not None:
            for before in old.symbols:
                key = (old.path, before.qualified_name, before.ordinal)
                old_hashes[key] = symbol_content_hash(old.path, before)
    result = []
    for symbol in pair_moves(found):
        node = nodes.find(symbol.path, symbol.qualified_name, symbol.ordinal)
        module = modules.get(symbol.path, "")
        result.append(
            ChangedSymbol(
                qualified_name=symbol.qualified_name,
                kind=symbol.kind,
                change=symbol.change,
                aspects=symbol.aspects,
                location=Location(symbol.path, symbol.start_line, symbol.end_line),
                language=symbol.language,
                id=node.symbol.id if node else None,
                public=_public(symbol.qualified_name, module),
                test_code=(
                    node.test_code
                    if node
                    else language_named(symbol.language).test_path(symbol.path)
                ),
                test_role=node.test_role if node else None,
                old_qualified_name=symbol.old_qualified_name,
                old_path=symbol.old_path,
                old_hash=old_hashes.get(
                    (
                        symbol.old_path or symbol.path,
                        symbol.old_qualified_name or symbol.qualified_name,
                        symbol.ordinal,
                    )
                )
                if symbol.change != "added"
                else None,
            )
        )
    return result, sorted(set(others)), nodes


def _risk(
    changes: Sequence[ChangedSymbol],
    affected: Sequence[Affected],
    untested: Sequence[ChangedSymbol],
) -> RiskSummary:
    public = [c for c in changes if c.public and not c.test_code and c.kind != "Module"]
    signature = [c for c in public if "signature" in c.aspects]
    gone = [c for c in public if c.change in ("removed", "renamed", "moved")]
    direct = [a for a in affected if a.distance == 1 and a.certain]
    callers: dict[str, int] = {}
    for a in affected:
        if a.distance == 1:
            callers[a.changed] = callers.get(a.changed, 0) + 1
    reasons: list[str] = []
    for change in [*signature, *gone]:
        count = callers.get(change.qualified_name, 0)
        if count:
            what = "signature changed" if change in signature else change.change
            reasons.append(f"{change.qualified_name}: {what}, {count} caller(s) or user(s)")
    level = "high" if reasons else "low"
    untested_used = [c for c in untested if callers.get(c.qualified_name)]
    if level == "low" and (untested_used or len(affected) > 25):
        level = "medium"
        reasons.extend(
            f"{c.qualified_name}: no test reaches it, {callers[c.qualified_name]} caller(s)"
            for c in untested_used[:10]
        )
        if len(affected) > 25:
            reasons.append(f"{len(affected)} affected symbols")
    return RiskSummary(
        level=level,  # type: ignore[arg-type]
        reasons=tuple(reasons[:20]),
        changed_public=len(public),
        signature_changes=len(signature),
        removed_public=len([c for c in public if c.change == "removed"]),
        certain_callers=len(direct),
        untested=len(untested),
    )


def analyse_changes(
    reader: GraphReader,
    repo: str,
    changes: Sequence[FileChange],
    *,
    source: str,
    graph: GraphSide,
    options: ImpactOptions | None = None,
) -> DiffImpact:
    """The impact of `changes` on the graph of `repo`."""
    options = options or ImpactOptions()
    symbols, others, nodes = _symbols(changes, reader, repo)
    modules = {
        path: (node.symbol.qualified_name, node.symbol.id) for path, node in nodes.modules.items()
    }
    blast = BlastOptions(options.depth, options.limit, options.limit_per_node, options.possible)
    affected, truncated = blast_radius(reader, repo, symbols, modules, blast)
    tests, untested, tests_truncated, uncovered = change_tests(reader, symbols)
    changed = {c.id: [c.qualified_name] for c in symbols if c.id is not None}
    warnings = []
    stale = sorted(c.diff.path for c in changes if not c.new_on_disk)
    if stale:
        warnings.append(
            f"the graph describes the working tree, which differs from the diff's new side in "
            f"{len(stale)} file(s) ({', '.join(stale[:5])}{', …' if len(stale) > 5 else ''}): "
            "callers and tests are those of the working tree"
        )
    missing = [c.qualified_name for c in symbols if c.id is None and c.change != "removed"]
    if missing:
        warnings.append(
            f"{len(missing)} changed symbol(s) are not in the graph (index the repository "
            f"again): {', '.join(missing[:5])}"
        )
    return DiffImpact(
        source=source,
        graph=replace(graph, note=warnings[0] if stale else graph.note),
        changes=symbols,
        other_files=others,
        affected=affected,
        tests=tests,
        untested=untested,
        risk=_risk(symbols, affected, untested),
        truncated=truncated,
        tests_truncated=tests_truncated,
        depth=options.depth,
        warnings=warnings,
        coverage=coverage_use(reader, repo, changed, uncovered),
    )
