"""Concept questions: the first sentence of a function's docstring -> that function, asked of
a copy of the package without docstrings (so the answer is not a copy of the question)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence

from .definitions import Definition, searchable
from .questions import DEFAULT_SEED, Category, CodeQuestion, answer_ids, pick

__all__ = ["MAX_DOCSTRING_WORDS", "MIN_DOCSTRING_WORDS", "concept_questions", "docstring_question"]

MIN_DOCSTRING_WORDS = 5
MAX_DOCSTRING_WORDS = 60
_ROLE = re.compile(r":[\w:.-]+:`~?([^`<]+?)(?:\s*<[^`>]*>)?`")
_LITERAL = re.compile(r"``([^`]+)``")
_SENTENCE = re.compile(r"(.+?[.!?])(?:\s|$)")
_WORDS = re.compile(r"[A-Za-z]{2,}")
_POINTERS = re.compile(
    r"^(deprecated|alias|see |same as|like |shortcut|internal|backwards?[- ]compat|"
    r"this (function|method) is deprecated|:|\.\.|>>>)",
    re.IGNORECASE,
)


def docstring_question(docstring: str | None) -> str | None:
    """The first sentence of a docstring, without reST markup; None when it says too little
    (fewer than MIN_DOCSTRING_WORDS words) or only points elsewhere ("Alias for ...")."""
    if not docstring:
        return None
    paragraph = inspect.cleandoc(docstring).split("\n\n", 1)[0]
    paragraph = " ".join(paragraph.split())
    paragraph = _LITERAL.sub(r"`\1`", _ROLE.sub(r"\1", paragraph))
    match = _SENTENCE.match(paragraph)
    sentence = (match.group(1) if match else paragraph).strip()
    words = _WORDS.findall(sentence)
    if not MIN_DOCSTRING_WORDS <= len(words) <= MAX_DOCSTRING_WORDS:
        return None
    if _POINTERS.match(sentence):
        return None
    return sentence


def concept_questions(
    definitions: Sequence[Definition], repo: str, *, sample: int, seed: int = DEFAULT_SEED
) -> list[CodeQuestion]:
    """Docstring first sentences of functions and methods as questions, that function as the
    answer. Sentences shared by several definitions are skipped: they have no single answer."""
    candidates: dict[str, list[Definition]] = {}
    for definition in definitions:
        if definition.kind == "class" or not searchable(definition):
            continue
        sentence = docstring_question(definition.docstring)
        if sentence is not None:
            candidates.setdefault(sentence, []).append(definition)
    unique = sorted(
        (defs[0].qualified_name, sentence)
        for sentence, defs in candidates.items()
        if len(defs) == 1
    )
    return [
        CodeQuestion(
            id=f"{repo}/concept/{number:03d}",
            question=sentence,
            category=Category.CONCEPT,
            repo=repo,
            relevant=answer_ids(repo, [qualified]),
            subject=qualified,
        )
        for number, (qualified, sentence) in enumerate(pick(unique, sample, seed), start=1)
    ]
