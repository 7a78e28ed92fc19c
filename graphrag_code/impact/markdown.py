"""A `DiffImpact` as Markdown, fit for a pull-request comment: risk, changed symbols,
affected code, tests to run, untested changes."""

from __future__ import annotations

from .records import ChangedSymbol, CoverageUse, DiffImpact
from .tests import TESTS_CUT

__all__ = ["coverage_line", "impact_markdown"]

_ICON = {"low": "🟢", "medium": "🟡", "high": "🔴"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _change(change: ChangedSymbol) -> str:
    what: str = change.change
    if change.old_qualified_name:
        what += f" from `{_cell(change.old_qualified_name)}`"
    if change.aspects:
        what += f" ({', '.join(change.aspects)})"
    return what


def impact_markdown(impact: DiffImpact, *, rows: int = 30) -> str:
    """The report; each table is cut at `rows` lines, with a count of what was left out."""
    risk = impact.risk
    out = [
        f"## Change impact: {_ICON[risk.level]} {risk.level} risk",
        "",
        f"{len(impact.changes)} changed symbol(s), {len(impact.affected)} affected, "
        f"{len(impact.tests)} test(s) to run, {len(impact.untested)} untested change(s). "
        f"Compared: {impact.source}; graph of `{impact.graph.repo}`"
        + (f" at `{impact.graph.head[:12]}`" if impact.graph.head else "")
        + (" (updated)" if impact.graph.updated else "")
        + ".",
    ]
    if risk.reasons:
        out += ["", *(f"- {_cell(reason)}" for reason in risk.reasons)]
    for warning in impact.warnings:
        out += ["", f"> ⚠️ {_cell(warning)}"]
    out += [
        "",
        "### Changed symbols",
        "",
        "| symbol | kind | change | location |",
        "|---|---|---|---|",
    ]
    out += [
        f"| `{_cell(c.qualified_name)}` | {c.kind} | {_cell(_change(c))} | `{c.location}` |"
        for c in impact.changes[:rows]
    ]
    out += _more(len(impact.changes), rows)
    if impact.other_files:
        out += ["", "Other files: " + ", ".join(f"`{p}`" for p in impact.other_files[:rows])]
    out += ["", f"### Affected code (depth {impact.depth})", ""]
    if impact.affected:
        out += ["| symbol | distance | certain | via | location |", "|---|---|---|---|---|"]
        out += [
            f"| `{_cell(a.qualified_name)}` | {a.distance} | {'yes' if a.certain else 'possible'}"
            f" | {_cell(' → '.join(a.path))} | `{a.location}` |"
            for a in impact.affected[:rows]
        ]
        out += _more(len(impact.affected), rows)
        if impact.truncated:
            out += ["", "_The blast radius was cut at its size cap._"]
    else:
        out += ["Nothing in the graph depends on the changed code."]
    out += ["", "### Tests to run", ""]
    out += [coverage_line(impact.coverage, sum(t.ran for t in impact.tests)), ""]
    to_run = impact.to_run
    extras = [t for t in impact.tests if t.extra]
    if to_run:
        out += ["```", *(t.runner_id for t in to_run[:rows]), "```"]
        out += _more(len(to_run), rows)
    elif extras:
        out += ["No test ran the changed code under the coverage."]
    if extras:
        out += ["", f"Also predicted from the call graph, but the coverage says they do not run "
                f"the changed code ({len(extras)} extra):", ""]  # fmt: skip
        out += ["```", *(t.runner_id for t in extras[:rows]), "```"]
        out += _more(len(extras), rows)
    if not impact.tests:
        out += ["No test reaches the changed code."]
    if impact.tests_truncated:
        out += ["", f"_{TESTS_CUT[0].upper()}{TESTS_CUT[1:]}._"]
    if impact.untested:
        out += ["", "### Untested changes", ""]
        out += [
            f"- `{_cell(c.qualified_name)}` ({_change(c)}) at `{c.location}`"
            for c in impact.untested[:rows]
        ]
        out += _more(len(impact.untested), rows)
    return "\n".join(out) + "\n"


def coverage_line(
    coverage: CoverageUse | None, ran: int, *, subject: str = "the changed code"
) -> str:
    """One sentence on what the tests to run come from: imported coverage (its age and
    commit, the changed code it no longer speaks for) or the static prediction alone."""
    if coverage is None:
        return (
            "Predicted from the call graph (no coverage imported: `graphrag-code coverage import`)."
        )
    commit = f" at `{coverage.commit[:12]}`" if coverage.commit else ""
    text = f"Coverage recorded{commit}, {coverage.age()}: {ran} test(s) ran {subject}"
    if coverage.static:
        names = ", ".join(f"`{s}` ({why})" for s, why in coverage.static[:5])
        more = ", …" if len(coverage.static) > 5 else ""
        text += (
            "; predicted from the call graph, the coverage being stale, missing, shared "
            "or blind to an interface change: "
            f"{names}{more}"
        )
    return text + (
        "; then the tests the call graph predicts for code the coverage does not speak for "
        "(for the rest, as extras)."
    )


def _more(total: int, shown: int) -> list[str]:
    return ["", f"_… and {total - shown} more._"] if total > shown else []
