"""Dead code: symbols with no certain or possible inbound edge that are not entry points,
each with a confidence and the reasons it looks unreachable.

The graph finds the candidates (no inbound CALLS, USES_TYPE or INHERITS edge of any tier,
no import by name; a class none of whose methods is called; nested functions left to their
outer function). Entry points the conventions recognised at ingest (console scripts, CLI
commands, framework registrations, `__all__`, dunders, tests and fixtures, exported
TypeScript) are not dead; an override of a called base method is reachable by dispatch.
The rest is weighed by what the graph cannot see: a name mentioned elsewhere (an attribute
access, a callback passed by reference, a `getattr` string) lowers the confidence, as does a
decorator that may register the function or an external base class it may override. Public
code (module functions and the methods of public classes) may be used outside the repository,
and a framework or protocol hook (each language's `hooks` table: IPython's `_repr_*_`,
Django's `get_queryset`) is called by a name no call in the repository shows: both say so,
hooks with a low confidence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from fnmatch import fnmatchcase

from ..errors import ConfigurationError
from ..graph import GraphReader
from ..graph.records import DeadCandidate
from ..languages import Hook, language_named
from .records import DeadSymbol

__all__ = ["dead_code", "judge"]

_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# entry-point reasons that only make a symbol *possibly* live
_WEAK = ("decorated by @", "may override a method of external base")
_ATTRIBUTES = frozenset({"property", "cached_property", "setter", "getter", "deleter"})
_PUBLIC = "public: code outside the repository may use it"
_HOOK_CONFIDENCE = 0.3  # as a decorator that may register it: a framework calls it by name


def _hook_caller(candidate: DeadCandidate, hooks: Sequence[Hook]) -> str | None:
    kind = candidate.symbol.kind
    return next(
        (h.caller for h in hooks if kind in h.kinds and fnmatchcase(candidate.name, h.pattern)),
        None,
    )


def _public(candidate: DeadCandidate) -> bool:
    """A module's public function or class, or a public method of a public class."""
    if candidate.name.startswith("_"):
        return False
    if candidate.symbol.kind != "Method":
        return candidate.parent_kind == "Module"
    return candidate.parent_kind == "Class" and not (candidate.parent_name or "_").startswith("_")


def _hooks(language: str | None) -> Sequence[Hook]:
    try:
        return language_named(language).hooks if language else ()
    except ConfigurationError:  # a language this version does not know
        return ()


def _mentions(codes: Iterable[str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for code in codes:
        counts.update(_WORD.findall(code))
    return counts


def judge(candidate: DeadCandidate, mentions: int, hooks: Sequence[Hook] = ()) -> DeadSymbol | None:
    """The verdict on one candidate: None when it is live (an entry point, or reachable by
    dispatch or from a test), else how sure it is dead and why. `mentions`: how often its
    name appears in the repository besides its own definitions; `hooks`: its language's
    framework and protocol hooks."""
    strong = [e for e in candidate.entry_points if not e.startswith(_WEAK)]
    if strong or candidate.overrides_used or candidate.test_reach:
        return None
    if mentions and any(
        d.split("(", 1)[0].rsplit(".", 1)[-1] in _ATTRIBUTES for d in candidate.decorators
    ):
        return None  # a property is read as an attribute: a mention of its name is a use
    symbol = candidate.symbol
    kind = {"Function": "function", "Method": "method", "Class": "class"}.get(symbol.kind, "code")
    reasons = [f"no call, import, subclass or type use of this {kind} in the repository"]
    confidence = 0.9
    if mentions:
        reasons.append(
            f"but its name appears {mentions} more time(s) (an attribute access, a callback "
            "or a string the graph does not resolve)"
        )
        confidence = 0.35 if mentions < 3 else 0.2
    else:
        reasons.append("and its name appears nowhere else")
    weak = [e for e in candidate.entry_points if e.startswith(_WEAK)]
    if weak:
        reason = weak[0]
        reasons.append(
            "though it " + ("is " + reason if reason.startswith("decorated") else reason)
        )
        confidence = min(confidence, 0.3 if weak[0].startswith("decorated") else 0.25)
    caller = _hook_caller(candidate, hooks)
    if caller is not None:
        reasons.append(f"{_PUBLIC}: a hook {caller} calls by its name")
        confidence = min(confidence, _HOOK_CONFIDENCE)
    elif candidate.name.startswith("_") and not candidate.name.startswith("__"):
        confidence = min(1.0, confidence + 0.05)
    elif _public(candidate):
        reasons.append(_PUBLIC)
        confidence = max(0.05, confidence - 0.1)
    return DeadSymbol(
        id=symbol.id,
        qualified_name=symbol.qualified_name,
        kind=symbol.kind,
        location=symbol.location,
        confidence=round(confidence, 2),
        reasons=tuple(reasons),
    )


def dead_code(reader: GraphReader, repo: str, *, min_confidence: float = 0.0) -> list[DeadSymbol]:
    """The dead-code list of `repo`, surest first."""
    candidates = reader.dead_code_candidates(repo)
    if not candidates:
        return []
    mentions = _mentions(code for code, _test in reader.module_code(repo).values())
    definitions = reader.symbol_name_counts(repo)
    found = []
    for candidate in candidates:
        elsewhere = max(0, mentions[candidate.name] - definitions.get(candidate.name, 1))
        verdict = judge(candidate, elsewhere, _hooks(candidate.language))
        if verdict is not None and verdict.confidence >= min_confidence:
            found.append(verdict)
    return sorted(found, key=lambda d: (-d.confidence, d.location.path, d.location.start_line or 0))
