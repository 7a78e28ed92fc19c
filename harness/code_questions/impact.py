"""Impact questions: "What breaks if I change M?" -> M's reverse transitive importers (grimp),
scored per module: a hit counts for the module that contains it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .questions import DEFAULT_SEED, Category, CodeQuestion, answer_ids, pick

__all__ = ["MAX_IMPORTERS", "impact_questions", "reverse_importers"]

MAX_IMPORTERS = 20


def reverse_importers(internal_imports: Iterable[Sequence[Any]]) -> dict[str, set[str]]:
    """Module -> every module that imports it directly or transitively (itself excluded)."""
    direct: dict[str, set[str]] = {}
    for importer, imported, *_ in internal_imports:
        if importer != imported:
            direct.setdefault(str(imported), set()).add(str(importer))
    closure: dict[str, set[str]] = {}
    for module in direct:
        seen: set[str] = set()
        todo = list(direct[module])
        while todo:
            current = todo.pop()
            if current in seen or current == module:
                continue
            seen.add(current)
            todo.extend(direct.get(current, ()))
        closure[module] = seen
    return closure


def impact_questions(
    imports: Mapping[str, Any],
    repo: str,
    *,
    sample: int,
    seed: int = DEFAULT_SEED,
    max_importers: int = MAX_IMPORTERS,
    type_checking: bool = False,
) -> list[CodeQuestion]:
    """Questions "What breaks if I change M?" (M as a file path and as a dotted module name)
    for modules with 1..`max_importers` reverse transitive importers in grimp's import graph.

    Imports under `if TYPE_CHECKING:` are left out unless `type_checking`: they break no
    running code, and with them Flask's modules form one cycle in which every module
    "breaks" 21 of the other 23."""
    files: Mapping[str, str] = imports["module_files"]
    skipped = set() if type_checking else {(a, b) for a, b, *_ in imports["type_checking_imports"]}
    pairs = [p for p in imports["internal_imports"] if (p[0], p[1]) not in skipped]
    importers = reverse_importers(pairs)
    eligible = sorted(m for m, found in importers.items() if 1 <= len(found) <= max_importers)
    questions: list[CodeQuestion] = []
    for module in pick(eligible, sample, seed):
        relevant = answer_ids(repo, importers[module])
        for variant, spelled in (("path", files[module]), ("module", f"`{module}`")):
            questions.append(
                CodeQuestion(
                    id=f"{repo}/impact/{len(questions) + 1:03d}",
                    question=f"What breaks if I change {spelled}?",
                    category=Category.IMPACT,
                    repo=repo,
                    relevant=relevant,
                    subject=module,
                    variant=variant,
                )
            )
    return questions
