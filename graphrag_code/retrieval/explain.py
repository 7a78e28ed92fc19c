"""Why a CALLS edge exists, in words: by name, by a type, or through a value (issue 15).

The linker stores on each edge found through values the way the call reached its target
(`via`: "the return value of `pkg.factory`", "the dict `HANDLERS`"; several ways joined by
"; "); an edge found by name has none. `explain_call` turns an edge into sentences a user can
check against the code.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..graph import AnswerWarning, CallEdge, SymbolRef

__all__ = ["CallExplanation", "explain_call"]

_IMPLICIT = "implicit: "  # the linker's marker of calls no call expression wrote
_DISPATCH = "dispatch via "  # languages/python/dispatch.py: a call of a base method, to an override
_TIERS = {
    "exact": "by its name (scopes and imports)",
    "inferred": "by the type of a value (a constructor, an annotation or `self`)",
    "name": "only because it is the one definition with that name (a possible call)",
    "dispatch": "possibly: it overrides the method the call reaches (dispatch)",
    "many": "possibly: one of more values than a certain call may have (value flow)",
    "signature": "possibly: its signature fits the callable type the callee is declared as",
    "partial": "possibly: one of the values known to reach the call, where others may too",
}


@dataclass(frozen=True)
class CallExplanation:
    """Whether and why `source` calls `target`: the edge's tier, its lines, and one reason
    per way the linker found it."""

    source: SymbolRef
    target: str  # the target's qualified name
    found: bool
    resolution: str | None = None
    lines: tuple[int, ...] = ()
    reasons: tuple[str, ...] = ()
    warnings: tuple[AnswerWarning, ...] = ()  # `CodeGraph` adds them

    @property
    def text(self) -> str:
        """One paragraph: what calls what, where, and why."""
        if not self.found:
            return f"`{self.source.qualified_name}` has no recorded call to `{self.target}`."
        where = ", ".join(str(line) for line in self.lines)
        head = (
            f"`{self.source.qualified_name}` calls `{self.target}` "
            f"({self.resolution}, line{'s' if len(self.lines) > 1 else ''} {where})"
        )
        return f"{head}: " + "; ".join(self.reasons) + "."


def explain_call(source: SymbolRef, target: str, edge: CallEdge | None) -> CallExplanation:
    if edge is None:
        return CallExplanation(source, target, found=False)
    return CallExplanation(
        source,
        edge.qualified_name,
        found=True,
        resolution=edge.resolution,
        lines=edge.lines,
        reasons=reasons(edge.resolution, edge.via),
    )


def reasons(resolution: str | None, via: str | None) -> tuple[str, ...]:
    """The ways an edge was found, as phrases ("via the dict `HANDLERS`")."""
    if via is None:
        return (_TIERS.get(resolution or "", "by its name"),)
    found = []
    for reason in via.split("; "):
        if reason.startswith(_IMPLICIT):
            found.append(f"implicitly, {reason.removeprefix(_IMPLICIT)}")
        elif reason.startswith(_DISPATCH):
            base = reason.removeprefix(_DISPATCH)
            found.append(f"possibly: it overrides {base}, which the call reaches (dispatch)")
        else:
            found.append(f"via {reason}")
    return tuple(found)
