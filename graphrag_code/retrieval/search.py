"""`search()`: analyse the question, run the ONE hybrid query, fuse the legs with RRF.

Every hit carries its rank in each leg and, when the graph leg found it, the path that led
there (`explain`), so an answer can say *why* a symbol is relevant.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..embedding.base import Embedder
from ..errors import ConfigurationError, InvalidArgumentError, RepositoryNotFoundError
from ..graph import (
    AnswerWarning,
    GraphReader,
    Neo4jClient,
    RepositorySize,
    VectorSearchForm,
    check_fulltext_index,
    check_vector_index,
    file_text_index,
    fulltext_index_properties,
    hop_bound,
    repository_text_index,
    repository_vector_index,
    vector_index_info,
)
from ..graph.repositories import repository_statuses
from ..location import Location
from .fusion import rrf
from .legs import FILE_TEXT, LEGS, UNIT_LEGS
from .question import Intent, Question, analyse, clean_question, lucene_query, target_query
from .units import FileRanking, Unit, UnitScore, rank_units, unit_key

__all__ = [
    "FILE_TEXT",
    "LEGS",
    "UNIT_LEGS",
    "Hit",
    "Reranker",
    "SearchOptions",
    "SearchResult",
    "Searcher",
    "fetch_without_tests",
    "keeps_tests",
    "seed_names",
]

_DUNDER = re.compile(r"__\w+__")
_EDGE_TYPES = frozenset({"CALLS", "IMPORTS", "INHERITS", "USES_TYPE", "DEFINES"})

# How much each leg counts per intent, from the code-question benchmark (BENCHMARKS.md): the
# graph leg decides relationship questions (callers MRR .32 -> .96) and hurts concept ones. A
# leg weighted 0 is not run at all.
DEFAULT_WEIGHTS: dict[Intent, dict[str, float]] = {
    intent: {"vector": 1.0, "text": 1.0, "graph": 1.0} for intent in Intent
}
# concept: the graph leg lowered MRR at every weight tried (BENCHMARKS.md, code questions);
# with bge-small's vectors the text leg helps little more (MRR .664 vector alone, .659 at text
# weight 0.1, .627 at 1; a text weight chosen on two packages held out on the third: §5)
DEFAULT_WEIGHTS[Intent.CONCEPT] = {"vector": 1.0, "text": 0.1, "graph": 0.0}
DEFAULT_WEIGHTS[Intent.DEFINITION] = {"vector": 0.5, "text": 1.0, "graph": 0.25}
# concept questions asked as questions ("how does rich measure the width of a string in
# terminal cells", "where are failed queries retried"): the answer is often the code that the
# best vector and text hits share (rich's `cell_len`, which the measuring methods all call),
# which only the graph leg, seeded with those hits, finds (issue 55: BENCHMARKS.md §5c).
# Statements (a docstring's first sentence, the code-question benchmark's concept questions)
# keep the weights above: there the graph leg names a neighbour before the function described.
ASKED_CONCEPT_WEIGHTS = {"vector": 1.0, "text": 0.1, "graph": 1.0}
# relationship: without the vector leg callers and impact scored the same or better (MRR .960
# vs .958, .950 vs .950) and the question needs no embedding; without the text leg callers
# R@10 fell from .989 to .954
for _relationship in (Intent.CALLERS, Intent.CALLEES, Intent.IMPACT, Intent.IMPORTERS,
                      Intent.DEPENDENCIES, Intent.TRACE):  # fmt: skip
    DEFAULT_WEIGHTS[_relationship] = {"vector": 0.0, "text": 0.5, "graph": 2.0}


@dataclass(frozen=True)
class Hit:
    """One file or symbol, with its fused score and where each leg ranked it. After the
    reranker, `score` is the fused score of the place the hit holds (scores descend)."""

    id: str
    kind: str
    qualified_name: str
    location: Location
    signature: str | None
    repo: str
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # leg -> rank from 1
    leg_scores: dict[str, float] = field(default_factory=dict)
    explain: str | None = None  # the graph path that reached it
    possible: bool = False  # reached only through possible edges (a name match, a dispatch)
    pagerank: float = 0.0

    # the fields of a Hit before it had a `location`
    @property
    def path(self) -> str:
        return self.location.path

    @property
    def start_line(self) -> int | None:
        return self.location.start_line

    @property
    def end_line(self) -> int | None:
        return self.location.end_line


@dataclass(frozen=True)
class SearchResult:
    question: Question
    hits: list[Hit]
    seeds: list[str]  # ids of the symbols and files the question named
    timings_ms: dict[str, float]
    legs: dict[str, list[str]]  # leg -> ids, best first (before fusion)
    # why hits may be missing: the repository's last indexing run did not finish, nodes
    # without vectors (`CodeGraph.search` adds those), an unknown repository
    warnings: tuple[AnswerWarning, ...] = ()
    vectors_used: bool = False  # the vector leg ran (a relationship question skips it)
    tests: bool = True  # whether test code could be a hit (`keeps_tests`)


class Reranker(Protocol):
    """Optional second stage: reorder the fused hits (e.g. a cross-encoder)."""

    def rerank(self, question: str, hits: Sequence[Hit]) -> list[Hit]: ...


@dataclass(frozen=True)
class SearchOptions:
    k: int = 10
    # how deep each leg ranks before fusion (at least k); 10 scored as well as 20-50 on the
    # code-question benchmark (MRR .808 vs .801 at 50) and is what keeps search fast
    candidates_per_leg: int = 10
    weights: Mapping[str, float] | None = None  # None: the per-intent defaults
    rrf_k: float = 60.0
    centrality_prior: float = 0.0  # > 0 adds prior * normalised log-PageRank to fused scores
    fanout: int = 25
    hub_degree: int = 200
    max_seeds: int = 8
    seed_k: int = 3
    max_hops: int | None = None  # None: the intent's default
    # some of the legs, e.g. ("text",) or ("vector", "text"): each runs, weighted 1 (file-level
    # search adds `FILE_TEXT` to all of them, and takes it by name too)
    legs: tuple[str, ...] = LEGS
    # the graph leg's walk stays in each seed's repository (by default it follows
    # cross-repository edges; `repo` filters the hits either way)
    within: bool = False
    # test code (the nodes of files a language's conventions mark as tests: `test_code`):
    # True keeps it, False leaves it out of every leg; None: `keeps_tests` decides
    tests: bool | None = None

    def __post_init__(self) -> None:
        if self.tests is not None and not isinstance(self.tests, bool):
            raise InvalidArgumentError(f"tests must be True, False or None, not {self.tests!r}")
        for name in ("k", "candidates_per_leg", "fanout", "max_seeds", "seed_k"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidArgumentError(
                    f"{name} must be a whole number of at least 1, not {value!r}"
                )


def keeps_tests(question: Question, options: SearchOptions) -> bool:
    """Whether a search keeps test code: as `options.tests` says; by default, not for a
    concept question that does not mention tests ("where are validators run?" ranked a test
    above the code it tests: issue 55), and always for the others (a test is a real caller,
    a change breaks its tests, a named symbol is wanted wherever it is)."""
    if options.tests is not None:
        return options.tests
    return question.intent is not Intent.CONCEPT or question.mentions_tests


def fetch_without_tests(wanted: int, nodes: int, tests: int) -> int:
    """How many candidates to fetch from an index so that about `wanted` remain once the
    `tests` of `nodes` are filtered out: twice `wanted` over the share of nodes that are not
    tests (a concept question's nearest nodes hold more than their share of tests: they test
    that very code), at most 10x; `wanted` when there are no tests."""
    if tests <= 0 or nodes <= 0:
        return wanted
    share = (nodes - tests) / nodes
    return min(10 * wanted, math.ceil(2 * wanted / share)) if share > 0 else 10 * wanted


def seed_names(question: Question) -> list[str]:
    """The names the graph leg seeds from: those the question names, less, in a concept
    question, protocol names (dunders) that nearly every class defines. "How does attrs
    generate the __init__ method source" names no one `__init__`: seeded with the most
    central of attrs' 16 of them, the leg walked away from `_make_init` (issue 55); without
    a name, the best vector and text hits seed it."""
    if question.intent is not Intent.CONCEPT:
        return list(question.identifiers)
    return [name for name in question.identifiers if not _DUNDER.fullmatch(name)]


def _render_path(via: Sequence[str]) -> str:
    return " ".join(via)


# Neo4j caches a plan per query text, parameter types and size class of lists (1 item, more)
# and strings (up to 9, 10-100, over 100 characters; measured on 5.26). Planning this query
# costs 1-3 s, so the parameters that vary with the question have one size class whatever it
# says, and every question shares one plan: lists are padded with '' (which matches no node,
# path or relationship type; a question naming more symbols keeps the first), Lucene queries
# with trailing spaces (which Lucene ignores).
_LIST_SIZE = 8
_STRING_SIZE = 101


def _weights(question: Question, options: SearchOptions) -> dict[str, float]:
    """The fusion weight of each leg: the caller's; else, when the caller picked some of the
    legs, 1 for each of them (a leg asked for by name runs whatever the intent); else the
    measured default for the intent (for a concept question asked as a question, the graph
    leg's too)."""
    if options.weights is not None:
        return dict(options.weights)
    if set(options.legs) != set(LEGS):
        return dict.fromkeys(options.legs, 1.0)
    if question.intent is Intent.CONCEPT and question.asks:
        return dict(ASKED_CONCEPT_WEIGHTS)
    return dict(DEFAULT_WEIGHTS[question.intent])


def _active_legs(question: Question, options: SearchOptions) -> frozenset[str]:
    """The legs worth running: asked for and fused with a weight above 0 (a leg weighted 0
    could not change the ranking; skipping the vector leg also skips the query embedding)."""
    weights = _weights(question, options)
    return frozenset(leg for leg in options.legs if weights.get(leg, 1.0) > 0)


def _fixed_size(values: Sequence[str], size: int = _LIST_SIZE) -> list[str]:
    """`values` cut or padded with '' to exactly `size` items."""
    items = list(values)[:size]
    return items + [""] * (size - len(items))


def _fixed_length(text: str) -> str:
    """`text` padded with spaces to the longest size class."""
    return text.ljust(_STRING_SIZE)


class Searcher:
    """Runs hybrid searches against one Neo4j database with one embedder."""

    def __init__(
        self,
        client: Neo4jClient,
        embedder: Embedder | None,
        *,
        vector_index: str,
        fulltext_index: str,
        reranker: Reranker | None = None,
        vector_form: VectorSearchForm | None = None,
    ) -> None:
        self.client = client
        self.reader = GraphReader(client)
        self.embedder = embedder
        self.vector_index = vector_index
        self.fulltext_index = fulltext_index
        self.reranker = reranker
        self._requested_form = vector_form  # None: chosen from the server (`vector_form()`)
        self._form: VectorSearchForm | None = None
        self._own_text_index: dict[str, bool] = {}  # repo -> has a full-text index of its own
        self._own_vector_index: dict[str, str | None] = {}  # repo -> its own vector index
        self._file_indexes: dict[str | None, str | None] = {}  # repo -> whole-file index read
        self._vectors_checked = False
        self._text_checked = False
        self._sizes: dict[str, RepositorySize] | None = None
        self._placeholder: list[float] | None = None
        self._statuses: dict[str, str] | None = None  # repo -> status of its last run

    def vector_form(self) -> VectorSearchForm:
        """How the vector leg searches, chosen once per searcher: the Cypher 25 `SEARCH` with
        the repository filter inside the index where the server has it (2026.01+) and the
        index carries the `repo` filter (`ensure_schema` creates it so), else the
        `queryNodes` over-fetch. A form passed to the constructor is checked, not chosen."""
        if self._form is None:
            supported = self.client.capabilities().vector_search_filters
            info = vector_index_info(self.client, self.vector_index) if supported else None
            filtered = info is not None and info.filters_by_repo
            if self._requested_form is VectorSearchForm.SEARCH and not filtered:
                raise ConfigurationError(
                    f"the SEARCH form of the vector leg needs Neo4j 2026.01 or later (this is "
                    f"{self.client.capabilities().version}) and a vector index "
                    f"{self.vector_index!r} with the repo filter, which indexing creates"
                )
            self._form = self._requested_form or (
                VectorSearchForm.SEARCH if filtered else VectorSearchForm.PROCEDURE
            )
        return self._form

    def _text_index(self, repo: str | None) -> tuple[str, bool]:
        """The full-text index a search in `repo` reads, and whether it is the repository's own
        (indexing creates one per repository: its BM25 statistics are the repository's alone,
        so other repositories cannot change the leg); else the shared one. Read once per
        repository."""
        if repo is None:
            return self.fulltext_index, False
        own = repository_text_index(self.fulltext_index, repo)
        if repo not in self._own_text_index:
            found = fulltext_index_properties(self.client, own) is not None
            self._own_text_index[repo] = found
        return (own, True) if self._own_text_index[repo] else (self.fulltext_index, False)

    def _vector_index(self, repo: str | None) -> tuple[str, bool]:
        """The vector index the `PROCEDURE` form reads for a search in `repo`, and whether it is
        the repository's own (indexing creates one per repository on servers whose vector
        search cannot filter inside the index: other repositories' vectors cannot crowd its
        hits out); else the shared one, over-fetched by the repository's share. One of
        another dimension count than the embedder's is not used. Read once per repository."""
        if repo is None or self.embedder is None:
            return self.vector_index, False
        if repo not in self._own_vector_index:
            name = repository_vector_index(self.vector_index, repo)
            own = vector_index_info(self.client, name)
            fits = own is not None and own.dimensions == self.embedder.dimensions
            self._own_vector_index[repo] = name if fits else None
        own_name = self._own_vector_index[repo]
        return (own_name, True) if own_name is not None else (self.vector_index, False)

    def _file_index(self, repo: str | None) -> str | None:
        """The whole-file index a file-level search in `repo` reads: the repository's own, else
        the shared one; None when neither exists (a graph written before it: the leg is
        skipped and the search says so). Read once per repository."""
        if repo not in self._file_indexes:
            names = [file_text_index(self.fulltext_index, repo)] if repo is not None else []
            names.append(file_text_index(self.fulltext_index))
            found = [n for n in names if fulltext_index_properties(self.client, n) is not None]
            self._file_indexes[repo] = found[0] if found else None
        return self._file_indexes[repo]

    def _candidates(self, repo: str | None, wanted: int) -> int:
        """How many candidates an index leg that filters after the index search (the
        `PROCEDURE` vector leg; the shared full-text index) fetches to keep about `wanted`
        of `repo`: a repository holding a tenth of the vectors needs ten times as many (at
        most 10x)."""
        if repo is None:
            return wanted
        if self._sizes is None:
            self._sizes = self.reader.repository_sizes()
        size = self._sizes.get(repo, RepositorySize(0, 0))
        nodes, vectors = size.nodes, size.vectors
        total_nodes = sum(s.nodes for s in self._sizes.values())
        total_vectors = sum(s.vectors for s in self._sizes.values())
        share = min(
            (vectors / total_vectors) if vectors and total_vectors else 1.0,
            (nodes / total_nodes) if nodes and total_nodes else 1.0,
        )
        return min(10 * wanted, math.ceil(wanted / share))

    def _without_tests(self, repo: str | None, wanted: int) -> int:
        """How many candidates an index leg fetches to keep about `wanted` once the test code
        of `repo` (every repository when None) is left out after the index search."""
        if self._sizes is None:
            self._sizes = self.reader.repository_sizes()
        chosen = [size for name, size in self._sizes.items() if repo is None or name == repo]
        return fetch_without_tests(
            wanted, sum(size.nodes for size in chosen), sum(size.tests for size in chosen)
        )

    def statuses(self, repo: str | None = None) -> dict[str, str]:
        """Repository -> status of its last run, read once per searcher (again when `repo`
        is missing: it may have been indexed since). `RepositoryNotFoundError`, naming the
        nearest names, when the graph holds no `repo`: a misspelt `--repo` was a warning
        listing every name and then an empty table (issue 55)."""
        if self._statuses is None or (repo is not None and repo not in self._statuses):
            self._statuses = repository_statuses(self.client)
        if repo is not None and repo not in self._statuses:
            raise RepositoryNotFoundError(repo, known=list(self._statuses))
        return self._statuses

    def _placeholder_vector(self) -> list[float] | None:
        """A vector of the embedder's type for questions that skip the vector leg (one
        query plan for all), made once."""
        if self.embedder is None:
            return None
        if self._placeholder is None:
            self._placeholder = [0.0] * self.embedder.dimensions
        return self._placeholder

    def check_text_index(self) -> None:
        """Fail clearly (once per searcher) when the full-text index does not exist, instead
        of letting the query fail inside `db.index.fulltext.queryNodes`."""
        if self._text_checked:
            return
        check_fulltext_index(self.client, self.fulltext_index)
        self._text_checked = True

    def check_vector_index(self) -> None:
        """Fail clearly (once per searcher) when the vector index holds another model's vectors,
        instead of letting Neo4j reject the query vector."""
        if self._vectors_checked or self.embedder is None:
            return
        check_vector_index(
            self.client,
            self.vector_index,
            model=self.embedder.name,
            dimensions=self.embedder.dimensions,
        )
        self._vectors_checked = True

    def parameters(
        self, question: Question, options: SearchOptions, repo: str | None, embedding: Any
    ) -> dict[str, Any]:
        """The query parameters for one question (validated; nothing pasted into Cypher)."""
        plan = question.plan
        unknown = set(plan.types) - _EDGE_TYPES
        if unknown:
            raise ConfigurationError(f"unknown edge types {sorted(unknown)}")
        unknown_legs = set(options.legs) - set(UNIT_LEGS)
        if unknown_legs:
            raise ConfigurationError(f"unknown legs {sorted(unknown_legs)}; use {UNIT_LEGS}")
        active = _active_legs(question, options)
        file_index = self._file_index(repo) if FILE_TEXT in active else None
        own_file_index = file_index is not None and file_index != file_text_index(
            self.fulltext_index
        )
        use_graph = "graph" in active
        names = seed_names(question) if use_graph else []
        trace = question.intent == Intent.TRACE and use_graph
        depth = max(options.k, options.candidates_per_leg)  # each leg ranks this many
        # inside the indexes where they allow it (no over-fetch then), else over-fetch by the
        # repository's share and filter afterwards
        in_index = self.vector_form() is VectorSearchForm.SEARCH
        vector_index, own_vectors = (
            (self.vector_index, False) if in_index else self._vector_index(repo)
        )
        text_index, own_text_index = self._text_index(repo)
        keep = keeps_tests(question, options)
        # the index legs filter test code out after the index search: they fetch more
        fetch = depth if keep else self._without_tests(repo, depth)
        return {
            "vector_index": vector_index,
            "fulltext_index": text_index,
            # without the vector leg, a placeholder of the same type keeps the one shared plan
            "embedding": embedding if embedding is not None else self._placeholder_vector(),
            "use_vector": "vector" in active and embedding is not None,
            "lucene": _fixed_length((lucene_query(question) if "text" in active else "") or ""),
            "repo": repo,
            "k": depth,
            "candidates": fetch if in_index or own_vectors else self._candidates(repo, fetch),
            # a margin over `depth`, so that the id breaks ties at the cut-off
            "text_candidates": 2 * fetch if own_text_index else self._candidates(repo, fetch),
            "file_index": file_index or text_index,
            "file_lucene": _fixed_length((lucene_query(question) if file_index else "") or ""),
            "file_candidates": 2 * fetch if own_file_index else self._candidates(repo, fetch),
            "tests": keep,
            "names": _fixed_size(names),
            "short_names": _fixed_size([n for n in names if "." not in n]),
            "dotted": _fixed_size([n for n in names if "." in n]),
            "paths": _fixed_size(question.paths if use_graph else ()),
            "seed_from_hits": use_graph and (not names and not question.paths),
            "seed_k": options.seed_k,
            "include_seeds": question.intent in (Intent.DEFINITION, Intent.CONCEPT),
            "trace": trace,
            "target_lucene": _fixed_length((target_query(question) if trace else "") or ""),
            "types": _fixed_size(plan.types, len(_EDGE_TYPES)),
            "direction": plan.direction,
            "max_hops": hop_bound(
                plan.max_hops if options.max_hops is None else options.max_hops,
                minimum=0,
                maximum=3,
            ),
            "fanout": options.fanout,
            "expand_cap": options.fanout * 8,
            "hub_degree": options.hub_degree,
            "stay_in_repo": options.within,
            "max_seeds": options.max_seeds if use_graph else 0,
            "graph_k": depth if use_graph else 0,
        }

    def search(
        self,
        text: str,
        *,
        repo: str | None = None,
        options: SearchOptions | None = None,
        unit: Unit | str = Unit.SYMBOL,
        files: FileRanking | None = None,
    ) -> SearchResult:
        """The `options.k` best symbols (or, with `unit` "file" / "package", the files or
        folders ranked by the evidence of all their hits: `units.py`, tuned by `files`)."""
        options = options or SearchOptions()
        unit = Unit(unit)
        files = files or FileRanking()
        question, options, row, timings = self._query(text, repo, options, unit, files)
        started = time.perf_counter()
        if unit is Unit.SYMBOL:
            hits, legs = self._fuse(question, row, options)
            if self.reranker is not None:
                hits = self.reranker.rerank(question.text, hits)
        else:
            hits, legs = self._fuse_units(row, options, unit, files)
        timings["fuse"] = (time.perf_counter() - started) * 1000
        # how completely the answer's repositories are indexed, `CodeGraph` adds
        warnings: tuple[AnswerWarning, ...] = ()
        if FILE_TEXT in _active_legs(question, options) and self._file_index(repo) is None:
            warnings += (
                AnswerWarning(
                    "no_file_index",
                    "this graph has no whole-file text index (it was indexed by an earlier "
                    "version): files are ranked by their symbols alone; index the repository "
                    "again to add it",
                    repo,
                ),
            )
        vectors_used = self.embedder is not None and "vector" in _active_legs(question, options)
        return SearchResult(
            question, hits[: options.k], list(row["seeds"]), timings, legs, warnings,
            vectors_used, tests=keeps_tests(question, options),
        )  # fmt: skip

    def unit_legs(
        self,
        text: str,
        *,
        repo: str | None = None,
        options: SearchOptions | None = None,
        unit: Unit | str = Unit.FILE,
        files: FileRanking | None = None,
    ) -> dict[str, list[dict[str, Any]]]:
        """The entries of each leg that a file- or package-level search ranks units by, best
        first (id, path, kind, score, ...), before `rank_units`: for scoring other rankings of
        the same evidence offline (benchmarks)."""
        unit = Unit(unit)
        if unit is Unit.SYMBOL:
            raise InvalidArgumentError("unit_legs ranks files or packages, not symbols")
        files = files or FileRanking()
        _, options, row, _ = self._query(text, repo, options or SearchOptions(), unit, files)
        return _unit_entries(row, options)

    def _query(
        self, text: str, repo: str | None, options: SearchOptions, unit: Unit, files: FileRanking
    ) -> tuple[Question, SearchOptions, Mapping[str, Any], dict[str, float]]:
        """Run the one Cypher query of a search: the question analysed, the options it ran
        with (a file search reads every leg deeper), the legs' row and the timings."""
        self.statuses(repo)  # an unknown repository fails before any work
        if unit is Unit.SYMBOL and FILE_TEXT in options.legs:
            raise InvalidArgumentError(
                f"the {FILE_TEXT!r} leg ranks files, not symbols: search with unit='file'"
            )
        if unit is not Unit.SYMBOL:
            options = replace(
                options,
                candidates_per_leg=max(options.candidates_per_leg, files.depth),
                seed_k=files.seed_k,
                weights=options.weights
                if options.weights is not None
                else _file_weights(files, options),
                legs=UNIT_LEGS if set(options.legs) == set(LEGS) else options.legs,
            )
        text = clean_question(text)
        if not text.strip():
            raise InvalidArgumentError(
                'empty question: ask about the code, e.g. "where are orders saved?"'
            )
        question = analyse(text)
        timings: dict[str, float] = {}
        embedding = None
        if "text" in _active_legs(question, options):
            self.check_text_index()
        if self.embedder is not None and "vector" in _active_legs(question, options):
            self.check_vector_index()
            started = time.perf_counter()
            embedding = self.embedder.embed_query(text)
            timings["embed"] = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        parameters = self.parameters(question, options, repo, embedding)
        row = self.reader.hybrid_search(parameters, form=self.vector_form())
        timings["query"] = (time.perf_counter() - started) * 1000
        return question, options, row, timings

    def _fuse(
        self, question: Question, row: Mapping[str, Any], options: SearchOptions
    ) -> tuple[list[Hit], dict[str, list[str]]]:
        legs = {leg: [entry["id"] for entry in row[leg]] for leg in LEGS if leg in options.legs}
        weights = _weights(question, options)
        fused = rrf(legs, k=options.rrf_k, weights=weights)
        entries: dict[str, dict[str, Any]] = {}
        ranks: dict[str, dict[str, int]] = {}
        scores: dict[str, dict[str, float]] = {}
        for leg in legs:
            for position, entry in enumerate(row[leg], start=1):
                entries.setdefault(entry["id"], entry)
                ranks.setdefault(entry["id"], {}).setdefault(leg, position)
                scores.setdefault(entry["id"], {}).setdefault(leg, float(entry["score"]))
                if leg == "graph":
                    entries[entry["id"]] = {**entries[entry["id"]], "graph": entry}
        if options.centrality_prior > 0:
            fused = _with_prior(fused, entries, options.centrality_prior, rrf_k=options.rrf_k)
        hits = []
        for node_id, score in fused:
            entry = entries[node_id]
            graph = entry.get("graph")
            hits.append(
                Hit(
                    id=node_id,
                    kind=str(entry.get("kind") or ""),
                    qualified_name=str(entry.get("qualified_name") or ""),
                    location=Location(
                        str(entry.get("path") or ""), entry.get("start_line"), entry.get("end_line")
                    ),
                    signature=entry.get("signature"),
                    repo=str(entry.get("repo") or ""),
                    score=score,
                    ranks=ranks.get(node_id, {}),
                    leg_scores=scores.get(node_id, {}),
                    explain=_render_path(graph["via"]) if graph else None,
                    possible=bool(graph["possible"]) if graph else False,
                    pagerank=float(entry.get("pagerank") or 0.0),
                )
            )
        return hits, legs

    def _fuse_units(
        self, row: Mapping[str, Any], options: SearchOptions, unit: Unit, files: FileRanking
    ) -> tuple[list[Hit], dict[str, list[str]]]:
        entries = _unit_entries(row, options)
        weights = dict(options.weights or {})
        ranked = rank_units(entries, weights, unit_key(unit), decay=files.decay, rrf_k=files.rrf_k)[
            : options.k
        ]
        modules = self.reader.modules_at([u.key for u in ranked]) if unit is Unit.FILE else {}
        legs = {leg: [entry["id"] for entry in leg_entries] for leg, leg_entries in entries.items()}
        return [_unit_hit(u, unit, modules.get(u.key)) for u in ranked], legs


def _unit_entries(
    row: Mapping[str, Any], options: SearchOptions
) -> dict[str, list[dict[str, Any]]]:
    """The entries of each leg a unit search ran, best first: what files are ranked by."""
    return {leg: list(row.get(leg) or ()) for leg in UNIT_LEGS if leg in options.legs}


def _unit_hit(score: UnitScore, unit: Unit, module: Any) -> Hit:
    """A file (its module node's id and name when it has one) or a folder as a `Hit`; `explain`
    names the hits that made its score, best first."""
    repo, path = score.key
    shown = ", ".join(member.split(":", 1)[-1] for member in score.members[:5])
    more = len(score.members) - 5
    return Hit(
        id=module.id if module is not None else f"{repo}:{path}",
        kind="File" if unit is Unit.FILE else "Package",
        qualified_name=module.qualified_name if module is not None else path,
        location=Location(path),
        signature=None,
        repo=repo,
        score=score.score,
        ranks=dict(score.ranks),
        leg_scores=dict(score.leg_scores),
        explain=f"{len(score.members)} hits: {shown}" + (f" (+{more})" if more > 0 else ""),
    )


def _file_weights(files: FileRanking, options: SearchOptions) -> dict[str, float]:
    """The file ranking's leg weights when the caller asked for every leg; else 1 for each
    leg asked for."""
    if set(options.legs) not in (set(LEGS), set(UNIT_LEGS)):
        return dict.fromkeys(options.legs, 1.0)
    return {leg: files.weights.get(leg, 0.0) for leg in UNIT_LEGS}


def _with_prior(
    fused: list[tuple[str, float]],
    entries: Mapping[str, Mapping[str, Any]],
    weight: float,
    *,
    rrf_k: float,
) -> list[tuple[str, float]]:
    """Add weight * (log PageRank scaled to 0..1 over the candidates) to each fused score,
    scaled to the RRF score of a first rank, 1 / (rrf_k + 1), so the prior breaks ties rather
    than dominates."""
    logs = {
        node: math.log(max(float(entries[node].get("pagerank") or 0.0), 1e-12)) for node, _ in fused
    }
    low, high = min(logs.values(), default=0.0), max(logs.values(), default=0.0)
    span = (high - low) or 1.0
    step = 1.0 / (rrf_k + 1.0)
    boosted = [(node, score + weight * step * (logs[node] - low) / span) for node, score in fused]
    return sorted(boosted, key=lambda pair: (-pair[1], pair[0]))
