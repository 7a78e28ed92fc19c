"""Test and entry-point conventions: the protocol each language implements (pure: no I/O, no
Neo4j), and what is common to all of them.

Each `Language` of the registry names its `Conventions` (in its folder under
`graphrag_code.languages`): which files are test code, which
functions are tests, fixtures and set-ups, and which code runs without a caller in the
repository. `fixtures` wires tests to the fixtures and set-ups they run; `exercise` computes
the code each test reaches on the reach graph (REACHES edges).
"""

from __future__ import annotations

from .base import ClassTree, ConventionConfig, Conventions, FileRoles, Fixture, TestKind, TestUnit
from .exercise import Exercised, exercising, reach_rank, reached_ranks
from .fixtures import Seed, seeds_of_tests

__all__ = [
    "ClassTree",
    "ConventionConfig",
    "Conventions",
    "Exercised",
    "FileRoles",
    "Fixture",
    "Seed",
    "TestKind",
    "TestUnit",
    "exercising",
    "reach_rank",
    "reached_ranks",
    "seeds_of_tests",
]
