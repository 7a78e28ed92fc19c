"""Code questions with ground truth that does not come from our graph, and the runs over them.

Four categories, each answered by an independent source:

    concept     the first sentence of a function's docstring -> that function, searched in a
                copy of the package whose docstrings are blanked (so the answer is not a
                copy of the question)
    callers     "What calls `X`?" -> the callers jedi's `goto` finds (the calls oracle)
    impact      "What breaks if I change M?" -> M's reverse transitive importers (grimp),
                scored per module: a hit counts for the module that contains it
    definition  "Where is X defined?" in four spellings (`Session.request`, "the request
                method of Session", `sessionRequest`, "session request") -> X

Ground truth is computed with Python's `ast` and the oracles' JSON
(`benchmarks/oracles`), never with our parser or linker. Relevant ids use our id scheme
(`repo:qualified.name`, modules `repo:module`); hit ids are compared without the `#2` / `@path`
suffixes our ids add to redefinitions.

    result = run_code_benchmark(
        ["requests==2.32.3"], output_dir=Path("benchmarks/results"), sources=oracle_source
    )
    print(result.to_markdown())

(`oracle_source` is `benchmarks/retrieval/code_questions.py`'s: it fetches the pinned sdists and
runs the oracles.)

Every ablation searches the same indexes: full text only, vector only, vector + text, the full
hybrid (per-intent weights), hybrid + centrality prior, a sweep of the graph leg's weight, and
neo4j-graphrag's `HybridRetriever` on the same vector and full-text indexes.

One module per job:

    questions     the question record and question sets as JSONL
    definitions   a package's classes, functions and methods, read with `ast`
    concept, callers, impact, definition
                  the question builders of each category (pure)
    package       a pinned package's source and oracles, its copy without docstrings, indexing
    generate      the four question sets of one package
    ablations     the configurations compared
    running       asking questions under one ablation (our search or the baseline)
    scoring       the metrics, per category, spelling and package
    report        the results as JSON and Markdown
    benchmark     all of it, recorded in a run log
"""

from .ablations import ABLATIONS, DEFAULT_ABLATIONS
from .benchmark import DEFAULT_PACKAGES, run_code_benchmark
from .callers import caller_questions, shortest_unique_name
from .concept import concept_questions, docstring_question
from .definition import definition_questions, spellings
from .definitions import Definition, module_files, scan_definitions
from .generate import build_questions
from .impact import impact_questions, reverse_importers
from .package import PackageSource, copy_package, prepare_package, strip_docstrings
from .questions import DEFAULT_SEED, Category, CodeQuestion, read_questions, write_questions
from .report import CodeBenchmarkResult
from .running import Answer, run_ablation, scored_ranking
from .scoring import code_metrics, score_answers

__all__ = [
    "ABLATIONS",
    "DEFAULT_ABLATIONS",
    "DEFAULT_PACKAGES",
    "DEFAULT_SEED",
    "Answer",
    "Category",
    "CodeBenchmarkResult",
    "CodeQuestion",
    "Definition",
    "PackageSource",
    "build_questions",
    "caller_questions",
    "code_metrics",
    "concept_questions",
    "copy_package",
    "definition_questions",
    "docstring_question",
    "impact_questions",
    "module_files",
    "prepare_package",
    "read_questions",
    "reverse_importers",
    "run_ablation",
    "run_code_benchmark",
    "scan_definitions",
    "score_answers",
    "scored_ranking",
    "shortest_unique_name",
    "spellings",
    "strip_docstrings",
    "write_questions",
]
