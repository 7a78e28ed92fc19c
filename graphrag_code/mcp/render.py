"""Compact text for each answer: what a model reads. One line per item, every item with its
`path:line` evidence, certain and possible apart, and the graph's freshness at the end."""

from __future__ import annotations

from collections.abc import Sequence

from ..graph import VECTOR_KINDS, AnswerWarning, Definition, EntryPoint, PathStep, SymbolRef
from ..impact import Affected, ChangedSymbol, TestToRun
from ..retrieval.relations import Related, RelationsResult
from ..retrieval.search import Hit
from .freshness import Freshness, describe_freshness
from .guard import narrowing_hint

__all__ = [
    "affected_line",
    "changed_line",
    "entry_point_line",
    "freshness_lines",
    "freshness_warnings",
    "hit_line",
    "path_lines",
    "related_line",
    "relation_hint",
    "relations_notes",
    "symbol_lines",
    "symbol_ref",
    "test_line",
    "warning_lines",
]

_MAX_LINES_SHOWN = 5  # call-site lines per edge


def symbol_ref(symbol: SymbolRef) -> str:
    return f"{symbol.qualified_name} ({symbol.kind}, {symbol.repo}: {symbol.location})"


def _lines(lines: Sequence[int]) -> str:
    shown = ", ".join(str(line) for line in lines[:_MAX_LINES_SHOWN])
    return shown + (", …" if len(lines) > _MAX_LINES_SHOWN else "")


def related_line(related: Related, home: str | None = None) -> str:
    """`2. pkg.mod.f — src/pkg/mod.py:10-20, calls at line 14 [exact]; via pkg.mod.g`; a node
    of another repository than `home` (the subject's) names it: `— lib: src/lib/x.py:3-9`."""
    where = "external" if related.external else str(related.location)
    if related.repo is not None and home is not None and related.repo != home:
        where = f"{related.repo}: {where}"
    line = f"{related.distance}. {related.qualified_name} — {where}"
    if related.lines:
        line += f", {related.edge.lower()} at line {_lines(related.lines)}"
    elif related.edge != "CALLS":
        line += f", {related.edge.lower()}"
    if related.resolution:
        line += f" [{related.resolution}]"
    if related.resolution in ("dispatch", "many", "signature", "partial") and related.why:
        line += f" ({related.why})"
    if len(related.via) > 2:
        line += "; via " + " -> ".join(related.via[1:-1])
    return line


_NARROWER_SUBJECT = "a narrower subject: a method, not its class or module"


def relation_hint(
    result: RelationsResult, depth: int, *, within: bool = True, possible: bool = False
) -> str:
    """How to ask for fewer answers of a relation than `result` holds (`narrowing_hint`):
    staying in the subject's repository only where the answer left it, dropping possible
    edges only where some were asked for and shown."""
    home = result.subject.repo
    left = any(r.repo not in (None, home) for r in result.certain + result.possible)
    return narrowing_hint(
        depth=depth,
        within=within or not left,
        possible=possible and bool(result.possible),
        narrower=_NARROWER_SUBJECT,
    )


def relations_notes(
    result: RelationsResult, depth: int, *, within: bool = True, possible: bool = False
) -> list[str]:
    """What the lists do not show: unresolved call sites, possible callers no edge records,
    a walk cut short."""
    notes: list[str] = []
    if result.unresolved_call_sites:
        notes.append(
            f"{result.unresolved_call_sites} call site(s) inside it could not be resolved "
            "(dynamic calls): the callees above may be incomplete"
        )
    if result.unresolved_candidates:
        short = result.subject.qualified_name.rsplit(".", 1)[-1]
        shown = "; ".join(
            f"{c.qualified_name} ({c.location})" for c in result.unresolved_candidates[:10]
        )
        more = len(result.unresolved_candidates) - 10
        notes.append(
            f"{len(result.unresolved_candidates)} function(s) have an unresolved call named "
            f"{short!r} and might call it: {shown}" + (f"; and {more} more" if more > 0 else "")
        )
    if result.truncated:
        hint = relation_hint(result, depth, within=within, possible=possible)
        notes.append(f"the walk hit a size cap at depth {depth}: more exist ({hint})")
    return notes


def hit_line(rank: int, hit: Hit) -> str:
    """`1. pkg.mod.f (Function) — src/pkg/mod.py:10-20 [text 1, graph 2] why: …`."""
    legs = ", ".join(f"{leg} {position}" for leg, position in sorted(hit.ranks.items()))
    line = f"{rank}. {hit.qualified_name} ({hit.kind}) — {hit.location} [{legs}]"
    if hit.explain:
        line += f" why: {hit.explain}"
    if hit.possible:
        line += " (possible: through a name match or a dispatch to an override)"
    return line


def path_lines(steps: Sequence[PathStep]) -> list[str]:
    """The chain, one node per line, each later one with the edge that led to it."""
    lines: list[str] = []
    home = steps[0].repo if steps else None
    for step in steps:
        where = str(step.location)
        if step.repo is not None and step.repo != home:  # the chain crossed repositories
            where = f"{step.repo}: {where}"
        if step.edge is None:
            lines.append(f"{step.qualified_name} — {where}")
            continue
        tier = f" [{step.resolution}]" if step.resolution else ""
        at = f" at line {_lines(step.lines)}" if step.lines else ""
        why = f" (possible: {step.why or step.resolution})" if not step.certain else ""
        lines.append(f"  -{step.edge}{tier}{at}-> {step.qualified_name} — {where}{why}")
    return lines


def entry_point_line(point: EntryPoint) -> str:
    return (
        f"{point.qualified_name} ({point.kind}) — {point.location}; pagerank "
        f"{point.pagerank:.4f}, called by {point.in_degree}, calls {point.out_degree}"
    )


def symbol_lines(definition: Definition) -> list[str]:
    """Header, signature, docstring and degrees of a definition (its code comes apart)."""
    symbol = definition.symbol
    language = f", {definition.language}" if definition.language else ""
    lines = [
        f"{symbol.qualified_name} ({symbol.kind}{language}) — {symbol.repo}: {symbol.location}"
    ]
    if definition.signature:
        lines.append(f"signature: {definition.signature}")
    if definition.docstring:
        lines.append("docstring: " + definition.docstring.strip().split("\n\n", 1)[0])
    lines.append(
        f"called by {definition.in_degree}, calls {definition.out_degree}, "
        f"pagerank {definition.pagerank:.4f}"
    )
    return lines


def freshness_lines(freshness: Sequence[Freshness], *, vectors: bool = False) -> list[str]:
    """A warning line for each way a repository is incomplete (missing vectors only for
    answers that used them: `vectors`), then one freshness line."""
    if not freshness:
        return []
    line = "graph freshness: " + "; ".join(describe_freshness(f) for f in freshness)
    return [*warning_lines(freshness_warnings(freshness, vectors=vectors)), line]


def freshness_warnings(
    freshness: Sequence[Freshness], *, vectors: bool = False
) -> list[AnswerWarning]:
    return [
        warning
        for fresh in freshness
        for warning in fresh.warnings
        if vectors or warning.kind not in VECTOR_KINDS
    ]


def warning_lines(warnings: Sequence[AnswerWarning]) -> list[str]:
    return [f"warning: {warning.text}" for warning in warnings]


def changed_line(change: ChangedSymbol) -> str:
    """`pkg.mod.f (Function) modified: body, signature — src/pkg/mod.py:10-20; no test`."""
    what: str = change.change
    if change.old_qualified_name:
        what += f" from {change.old_qualified_name}"
    if change.aspects:
        what += ": " + ", ".join(change.aspects)
    role = f", {change.test_role}" if change.test_role else ""
    return f"{change.qualified_name} ({change.kind}{role}) {what} — {change.location}"


def affected_line(affected: Affected) -> str:
    """`1. pkg.api.get — src/pkg/api.py:5-9, calls [exact]; from pkg.mod.f via pkg.mod.g`."""
    certainty = "certain" if affected.certain else "possible"
    tier = f" [{affected.resolution}]" if affected.resolution else ""
    line = (
        f"{affected.distance}. {affected.qualified_name} — {affected.location}, "
        f"{affected.edge.lower()}{tier} ({certainty}); from {affected.changed}"
    )
    if len(affected.path) > 2:
        line += " via " + " -> ".join(affected.path[1:-1])
    return line


def test_line(test: TestToRun) -> str:
    """`tests/test_x.py::test_y — tests/test_x.py:4-9; reaches pkg.mod.f (distance 2, certain,
    via fixture client)`, or `(ran it under coverage)` for a test that ran the code."""
    if test.changed:
        why = "changed itself"
    elif test.ran:
        why = "ran it under coverage"
    elif test.kept:
        why = f"reads what it kept under coverage: {test.kept}"
    else:
        certainty = "certain" if test.certain else "possible"
        why = f"distance {test.distance}, {certainty}"
        if test.via:
            why += f", via {test.via}"
        if test.extra:
            why = f"extra: {why}; did not run it under coverage"
    reaches = f"; reaches {', '.join(test.reaches)}" if test.reaches else ""
    return f"{test.runner_id} — {test.location}{reaches} ({why})"
