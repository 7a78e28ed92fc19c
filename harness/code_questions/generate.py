"""The four question sets of one package, built from its source and its oracles' outputs."""

from __future__ import annotations

from .callers import caller_questions
from .concept import concept_questions
from .definition import definition_questions
from .definitions import scan_definitions
from .impact import impact_questions
from .package import PackageSource, load_oracle
from .questions import DEFAULT_SEED, CodeQuestion

__all__ = ["build_questions"]


def build_questions(
    source: PackageSource, *, sample: int, seed: int = DEFAULT_SEED
) -> list[CodeQuestion]:
    """The four question sets of one package (definitions read with `ast`, oracles' JSON)."""
    definitions = scan_definitions(source.import_root, source.package)
    calls = load_oracle(source.calls_oracle)
    imports = load_oracle(source.imports_oracle)
    return [
        *concept_questions(definitions, source.nodoc_repo, sample=sample, seed=seed),
        *caller_questions(calls, definitions, source.repo, sample=sample, seed=seed),
        *impact_questions(imports, source.repo, sample=sample, seed=seed),
        *definition_questions(definitions, source.repo, sample=max(1, sample // 4), seed=seed),
    ]
