"""A code question, the ids that answer it, and question sets as JSONL.

Relevant ids use our id scheme (`repo:qualified.name`, modules `repo:module`), computed from
Python's `ast` and the oracles' JSON, never from our parser or linker.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from graphrag_code.errors import ConfigurationError

__all__ = [
    "DEFAULT_SEED",
    "Category",
    "CodeQuestion",
    "answer_ids",
    "pick",
    "read_questions",
    "write_questions",
]

DEFAULT_SEED = 20250101


class Category(str, Enum):
    CONCEPT = "concept"
    CALLERS = "callers"
    IMPACT = "impact"
    DEFINITION = "definition"


@dataclass(frozen=True)
class CodeQuestion:
    """One question, the repository it is asked about, and the ids that answer it."""

    id: str
    question: str
    category: Category
    repo: str
    relevant: tuple[str, ...]
    subject: str = ""  # the symbol or module the question is about
    variant: str = ""  # how it is phrased (definition spellings, impact path/module)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "question": self.question,
            "category": self.category.value,
            "repo": self.repo,
            "relevant": list(self.relevant),
            "subject": self.subject,
            "variant": self.variant,
        }

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> CodeQuestion:
        try:
            return cls(
                id=str(record["id"]),
                question=str(record["question"]),
                category=Category(record["category"]),
                repo=str(record["repo"]),
                relevant=tuple(str(r) for r in record["relevant"]),
                subject=str(record.get("subject") or ""),
                variant=str(record.get("variant") or ""),
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise ConfigurationError(f"not a code question: {exc}") from exc


def write_questions(path: Path, questions: Iterable[CodeQuestion]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for question in questions:
            handle.write(json.dumps(question.to_json(), ensure_ascii=False) + "\n")


def read_questions(path: Path) -> list[CodeQuestion]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError as exc:
        raise ConfigurationError(f"question file not found: {path}") from exc
    return [CodeQuestion.from_json(json.loads(line)) for line in lines if line.strip()]


def pick(items: Sequence[Any], count: int, seed: int) -> list[Any]:
    """`count` of `items` chosen with `seed`, in their original order (all when fewer)."""
    if count >= len(items):
        return list(items)
    chosen = set(random.Random(seed).sample(range(len(items)), count))
    return [item for index, item in enumerate(items) if index in chosen]


def answer_ids(repo: str, names: Iterable[str]) -> tuple[str, ...]:
    """Our ids of the qualified `names` in `repo`, sorted and unique."""
    return tuple(sorted({f"{repo}:{name}" for name in names}))
