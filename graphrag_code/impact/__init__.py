"""Change impact: a diff's changed symbols, their blast radius and the tests to run; the
tests of a symbol; untested public code; dead code.

    diff (git or a patch) ──sources──▶ both sides of each file ──changes──▶ changed symbols
        ──blast──▶ affected code (callers, importers, subclasses, type users)
        ──tests──▶ the tests that ran the change under imported coverage (RAN edges,
                   `coverage_import.py`), then those from which a REACHES chain leads to it

Reads the graph through `graphrag_code.graph.GraphReader`; the reach graph (REACHES edges,
`test_reach`), test roles and entry points it relies on are written at ingest
(`ingest/tests_stage.py`).
"""

from __future__ import annotations

from .analysis import ImpactOptions, analyse_changes
from .coverage_import import CoverageImport, import_coverage
from .deadcode import dead_code
from .markdown import coverage_line, impact_markdown
from .records import (
    Affected,
    ChangedSymbol,
    CoverageUse,
    DeadSymbol,
    DiffImpact,
    FailPolicy,
    GraphSide,
    RiskSummary,
    TestsFor,
    TestToRun,
    UntestedSymbol,
)
from .sources import DiffSpec, FileChange, git_root, read_changes
from .tests import (
    TESTS_CUT,
    change_tests,
    coverage_use,
    exercising_tests,
    runner_id,
    untested_symbols,
)
from .unified import looks_like_diff, parse_unified_diff

__all__ = [
    "TESTS_CUT",
    "Affected",
    "ChangedSymbol",
    "CoverageImport",
    "CoverageUse",
    "DeadSymbol",
    "DiffImpact",
    "DiffSpec",
    "FailPolicy",
    "FileChange",
    "GraphSide",
    "ImpactOptions",
    "RiskSummary",
    "TestToRun",
    "TestsFor",
    "UntestedSymbol",
    "analyse_changes",
    "change_tests",
    "coverage_line",
    "coverage_use",
    "dead_code",
    "exercising_tests",
    "git_root",
    "impact_markdown",
    "import_coverage",
    "looks_like_diff",
    "parse_unified_diff",
    "read_changes",
    "runner_id",
    "untested_symbols",
]
