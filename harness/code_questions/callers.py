"""Callers questions: "What calls `X`?" -> the callers jedi's `goto` finds (the calls oracle)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .definitions import Definition, searchable
from .questions import DEFAULT_SEED, Category, CodeQuestion, answer_ids, pick

__all__ = ["MAX_CALLERS", "caller_questions", "shortest_unique_name"]

MAX_CALLERS = 10


def shortest_unique_name(qualified: str, all_names: Iterable[str], *, minimum: int = 1) -> str:
    """The shortest dotted suffix of `qualified` (at least `minimum` parts) that no other name
    ends with: how a person names a symbol unambiguously (`Session.request`, `get_netrc_auth`).
    """
    parts = qualified.split(".")
    others = [name.split(".") for name in set(all_names) if name != qualified]
    for length in range(max(1, minimum), len(parts) + 1):
        suffix = parts[-length:]
        if not any(other[-length:] == suffix for other in others if len(other) >= length):
            return ".".join(suffix)
    return qualified


def caller_questions(
    calls: Mapping[str, Any],
    definitions: Sequence[Definition],
    repo: str,
    *,
    sample: int,
    seed: int = DEFAULT_SEED,
    max_callers: int = MAX_CALLERS,
) -> list[CodeQuestion]:
    """Questions "What calls `X`?" for functions and methods with 1..`max_callers` callers in
    jedi's call-graph oracle (call sites grouped by target). Classes (construction), dunders and
    nested functions are left out: people ask about them differently or not at all."""
    by_name = {d.qualified_name: d for d in definitions if searchable(d)}
    classes = {str(c["qname"]) for c in calls.get("classes", [])}
    callers: dict[str, set[str]] = {}
    for site in calls["call_sites"]:
        for target in site["targets"]:
            callers.setdefault(str(target), set()).add(str(site["caller"]))
    eligible = sorted(
        target
        for target, found in callers.items()
        if target in by_name
        and target not in classes
        and by_name[target].kind != "class"
        and not by_name[target].name.startswith("__")
        and 1 <= len(found) <= max_callers
    )
    names = [d.qualified_name for d in definitions]
    questions = []
    for number, target in enumerate(pick(eligible, sample, seed), start=1):
        minimum = 2 if by_name[target].kind == "method" else 1
        spelled = shortest_unique_name(target, names, minimum=minimum)
        questions.append(
            CodeQuestion(
                id=f"{repo}/callers/{number:03d}",
                question=f"What calls `{spelled}`?",
                category=Category.CALLERS,
                repo=repo,
                relevant=answer_ids(repo, callers[target]),
                subject=target,
            )
        )
    return questions
