"""Test and entry-point conventions, one plug-in per language (pure: no I/O, no Neo4j).

Each `Language` of the registry names its `Conventions`: which files are test code, which
functions are tests, fixtures and set-ups, and which code runs without a caller in the
repository. `fixtures` wires tests to the fixtures and set-ups they run; `exercise` computes
the code each test reaches on the reach graph (REACHES edges).
"""

from __future__ import annotations

from .base import ClassTree, ConventionConfig, Conventions, FileRoles, Fixture, TestKind, TestUnit
from .ecmascript import EcmaScriptConventions, is_test_file
from .exercise import EXACT, INFERRED, NAME, TIER_OF, TIERS, Exercised, exercising, reached_tiers
from .fixtures import Seed, seeds_of_tests
from .python import PythonConventions, decorator_name

__all__ = [
    "EXACT",
    "INFERRED",
    "NAME",
    "TIERS",
    "TIER_OF",
    "ClassTree",
    "ConventionConfig",
    "Conventions",
    "EcmaScriptConventions",
    "Exercised",
    "FileRoles",
    "Fixture",
    "PythonConventions",
    "Seed",
    "TestKind",
    "TestUnit",
    "decorator_name",
    "exercising",
    "is_test_file",
    "reached_tiers",
    "seeds_of_tests",
]
