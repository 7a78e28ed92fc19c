"""Definition questions: "Where is X defined?" in four spellings (`Session.request`, "the
request method of Session", `sessionRequest`, "session request") -> X."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_code.text import split_identifier

from .definitions import Definition, searchable
from .questions import DEFAULT_SEED, Category, CodeQuestion, answer_ids, pick

__all__ = ["definition_questions", "spellings"]


def _camel(words: Sequence[str]) -> str:
    return words[0] + "".join(word.capitalize() for word in words[1:])


def spellings(definition: Definition) -> dict[str, str]:
    """How people write a symbol: dotted (`Session.request`), a phrase ("the request method
    of Session"), one identifier in the other case convention (`sessionRequest`,
    `get_netrc_auth` -> `getNetrcAuth`, `HTTPAdapter` -> `http_adapter`) and plain words."""
    name = definition.name
    words = split_identifier(name)
    if definition.kind == "method":
        owner = definition.owner
        everything = split_identifier(owner) + words
        return {
            "dotted": f"`{owner}.{name}`",
            "phrase": f"the {name} method of {owner}",
            "joined": _camel(everything),
            "words": " ".join(everything),
        }
    is_snake = name.lower() == name
    joined = _camel(words) if is_snake else "_".join(words)
    if joined == name:  # one word: nothing to re-case
        joined = name.capitalize() if is_snake else name.lower()
    return {
        "dotted": f"`{name}`",
        "phrase": f"the {name} {definition.kind}",
        "joined": joined,
        "words": " ".join(words),
    }


def definition_questions(
    definitions: Sequence[Definition], repo: str, *, sample: int, seed: int = DEFAULT_SEED
) -> list[CodeQuestion]:
    """Questions "Where is X defined?" in every spelling of `spellings`, for `sample` symbols
    whose name (methods: class and name) no other definition shares."""
    counts: dict[tuple[str, ...], int] = {}

    def key(d: Definition) -> tuple[str, ...]:
        return (d.owner, d.name) if d.kind == "method" else (d.name,)

    for definition in definitions:
        counts[key(definition)] = counts.get(key(definition), 0) + 1
    eligible = [
        d
        for d in definitions
        if searchable(d) and counts[key(d)] == 1 and not d.name.startswith("_") and len(d.name) >= 4
    ]
    questions: list[CodeQuestion] = []
    for definition in pick(eligible, sample, seed):
        for variant, spelled in spellings(definition).items():
            questions.append(
                CodeQuestion(
                    id=f"{repo}/definition/{len(questions) + 1:03d}",
                    question=f"Where is {spelled} defined?",
                    category=Category.DEFINITION,
                    repo=repo,
                    relevant=answer_ids(repo, [definition.qualified_name]),
                    subject=definition.qualified_name,
                    variant=variant,
                )
            )
    return questions
