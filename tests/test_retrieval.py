"""Retrieval on the shop fixture against the real Neo4j: relationships, hybrid search per
intent, hostile questions, context assembly; plus the pure parts (RRF, question analysis)."""

from __future__ import annotations

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.errors import (
    AmbiguousSymbolError,
    InvalidArgumentError,
    Neo4jQueryError,
    RepositoryNotFoundError,
    SymbolNotFoundError,
)
from graphrag_code.retrieval.fusion import rrf
from graphrag_code.retrieval.question import Intent, analyse, lucene_query
from graphrag_code.retrieval.search import SearchOptions

from .shop_graph import REPO, shop_graph_fixture  # noqa: F401 - provides `shop_graph`

HOSTILE = [
    "foo) OR (",
    "a/b",
    '~^"',
    "title: AND NOT",
    "\\",
    "((((",
    "*?",
    "x:y || z && !w",
    "[1 TO 5] {a TO b}",
    "\u0000\u202e",
    "select * from users; drop table x; --",
]


# -- pure ---------------------------------------------------------------------------------------
def test_rrf_matches_a_hand_computed_example() -> None:
    rankings = {"vector": ["a", "b", "c"], "text": ["b", "d"]}
    fused = dict(rrf(rankings, k=60))
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["d"] == pytest.approx(1 / 62)
    assert [item for item, _ in rrf(rankings, k=60)] == ["b", "a", "d", "c"]


def test_rrf_weights_ties_and_purity() -> None:
    rankings = {"x": ["p", "q"], "y": ["q", "p"]}
    frozen = {leg: list(ids) for leg, ids in rankings.items()}
    # equal scores: the tie breaks on best rank, then on id
    assert [item for item, _ in rrf(rankings)] == ["p", "q"]
    assert [item for item, _ in rrf(rankings, weights={"x": 1.0, "y": 2.0})] == ["q", "p"]
    assert rrf(rankings, weights={"x": 0.0, "y": 1.0})[0][0] == "q"
    assert rankings == frozen
    repeated = rrf({"x": ["a", "a", "b"]})  # a repeat counts at its first position only
    assert [item for item, _ in repeated] == ["a", "b"]
    assert [score for _, score in repeated] == pytest.approx([1 / 61, 1 / 63])
    with pytest.raises(ValueError, match="non-negative"):
        rrf(rankings, weights={"x": -1.0})


@pytest.mark.parametrize(
    ("question", "intent", "identifiers", "paths"),
    [
        ("What calls validate_path?", Intent.CALLERS, ("validate_path",), ()),
        ("who calls `SqliteStorage.save`?", Intent.CALLERS, ("SqliteStorage.save",), ()),
        ("what does createOrder call", Intent.CALLEES, ("createOrder",), ()),
        ("What breaks if I change shop/models.py?", Intent.IMPACT, (), ("shop/models.py",)),
        ("What breaks if I change web/app.ts?", Intent.IMPACT, (), ("web/app.ts",)),
        ("who imports `lib/cli/cli.js`", Intent.IMPORTERS, (), ("lib/cli/cli.js",)),
        # a path ends in a suffix of a language read (`LANGUAGES`): no language reads `.pyi`
        ("who imports shop/api.pyi", Intent.IMPORTERS, ("api.pyi",), ()),
        ("who imports shop.models", Intent.IMPORTERS, ("shop.models",), ()),
        ("what does shop.api import", Intent.DEPENDENCIES, ("shop.api",), ()),
        (
            "trace create_order_endpoint to the database",
            Intent.TRACE,
            ("create_order_endpoint",),
            (),
        ),
        ("Where is OrderRepository defined?", Intent.DEFINITION, ("OrderRepository",), ()),
        ("where is payment handled", Intent.CONCEPT, (), ()),
        ("who calls save?", Intent.CALLERS, ("save",), ()),
    ],
)
def test_question_analysis(
    question: str, intent: Intent, identifiers: tuple[str, ...], paths: tuple[str, ...]
) -> None:
    analysed = analyse(question)
    assert analysed.intent == intent
    assert analysed.identifiers == identifiers
    assert analysed.paths == paths


def test_a_named_path_gives_its_words_without_its_suffix() -> None:
    python = lucene_query(analyse("What breaks if I change shop/models.py?")) or ""
    typescript = lucene_query(analyse("What breaks if I change web/app.tsx?")) or ""
    assert (python, typescript) == ("shop models py", "web app tsx")  # the suffix: a word


@pytest.mark.parametrize("hostile", HOSTILE)
def test_lucene_query_contains_no_operator_or_unescaped_special(hostile: str) -> None:
    query = lucene_query(analyse(hostile)) or ""
    assert not any(op in query.split() for op in ("AND", "OR", "NOT", "TO"))
    for special in '()[]{}"~^*?:/!&|\\':
        assert special not in query.replace(f"\\{special}", "")


# -- against Neo4j --------------------------------------------------------------------------------


def _shape(value: object) -> object:
    if isinstance(value, list):
        return ("list", len(value), sorted({type(item).__name__ for item in value}))
    if isinstance(value, str):  # Neo4j's size classes: up to 9, 10-100, over 100 characters
        return ("str", 0 if len(value) < 10 else 1 if len(value) <= 100 else 2)
    return type(value).__name__


def test_every_intent_shares_one_query_plan(shop_graph: CodeGraph) -> None:
    """Neo4j plans per parameter types and size classes of lists and strings (1-3 s each): the
    parameters of every question must have the same shape, whatever it names."""
    questions = [
        "where is payment handled",
        "a",
        "What calls validate_path?",
        "What calls a, b, c, d, e, f, g, h, i or j?",
        "What breaks if I change shop/models.py and shop/api.py?",
        "Where is OrderRepository defined?",
        "who imports shop.models",
        "trace create_order_endpoint to the database",
    ]
    shapes = {
        question: {
            name: _shape(value)
            for name, value in shop_graph.searcher.parameters(
                analyse(question), SearchOptions(), REPO, [0.5, 0.25]
            ).items()
        }
        for question in questions
    }
    first = shapes[questions[0]]
    for question, shape in shapes.items():
        assert shape == first, question


def _names(results: list) -> list[str]:  # type: ignore[type-arg]
    return [r.qualified_name for r in results]


def test_callers_transitive_with_distances(shop_graph: CodeGraph) -> None:
    result = shop_graph.callers("SqliteStorage.save", depth=3, repo=REPO)
    assert result.subject.qualified_name == "shop.storage.sqlite.SqliteStorage.save"
    distances = {r.qualified_name: r.distance for r in result.certain}
    assert distances == {
        "shop.repositories.OrderRepository.add": 1,
        "shop.services.orders.OrderService.place_order": 2,
        "shop.api.create_order_endpoint": 3,
    }
    assert result.possible == []
    # cli.main has an unresolved `thing.save()`: a possible caller that no edge records
    [candidate] = result.unresolved_candidates
    assert candidate.qualified_name == "shop.cli.main"
    assert (candidate.kind, candidate.repo) == ("Function", REPO)
    assert candidate.location.path == "src/shop/cli.py"
    assert str(candidate.location).startswith("src/shop/cli.py:")


def test_callees_separate_certain_and_possible(shop_graph: CodeGraph) -> None:
    result = shop_graph.callees("shop.cli.main", repo=REPO, possible=True)
    assert "shop.api.create_order_endpoint" in _names(result.certain)
    assert "requests.post" in _names(result.certain)
    assert _names(result.possible) == ["shop.util.unique_helper_name"]
    assert result.leaned_on == "possible"
    assert result.unresolved_call_sites == 1


def test_callees_leave_name_matches_out_where_certain_ones_exist(shop_graph: CodeGraph) -> None:
    result = shop_graph.callees("shop.cli.main", repo=REPO)
    assert "requests.post" in _names(result.certain)
    assert (result.possible, result.leaned_on, result.leaning) == ([], "certain", None)
    assert shop_graph.related("callees", "shop.cli.main", repo=REPO).possible == []


def test_importers_and_dependencies(shop_graph: CodeGraph) -> None:
    importers = set(_names(shop_graph.importers("shop.models", repo=REPO).certain))
    assert importers == {"shop", "shop.api", "shop.repositories", "shop.services.orders"}
    dependencies = set(_names(shop_graph.dependencies("shop/storage/sqlite.py", repo=REPO).certain))
    assert dependencies == {"shop.storage.base", "sqlite3", "json"}


def test_impact_of_a_file_is_transitive_with_distances(shop_graph: CodeGraph) -> None:
    result = shop_graph.impact("storage/base.py", repo=REPO)
    distances = {r.qualified_name: r.distance for r in result.all}
    assert distances["shop.storage.sqlite"] == 1
    assert distances["shop.storage.sqlite.SqliteStorage"] == 1  # subclasses Storage
    assert distances["shop.services.orders.make_service"] == 1  # constructs it
    assert distances["shop.api.create_order_endpoint"] == 2
    assert distances["shop.cli.main"] == 3
    assert "shop.models" not in distances


def test_path_from_endpoint_to_storage(shop_graph: CodeGraph) -> None:
    path = shop_graph.path("create_order_endpoint", "write_audit_log", repo=REPO)
    assert [step.qualified_name for step in path.steps] == [
        "shop.api.create_order_endpoint",
        "shop.services.orders.OrderService.place_order",
        "shop.repositories.OrderRepository.add",
        "shop.storage.sqlite.SqliteStorage.save",
        "shop.storage.sqlite.write_audit_log",
    ]
    # the first step is the source; every later one holds the call that led to it
    assert path.steps[0].edge is None
    assert path.steps[0].id == path.source.id
    assert path.steps[-1].id == path.target.id
    assert [step.edge for step in path.steps[1:]] == ["CALLS"] * 4
    assert all(step.resolution in ("exact", "inferred") for step in path.steps[1:])
    assert all(step.lines for step in path.steps[1:])
    assert path.steps[-1].location.path == "src/shop/storage/sqlite.py"
    assert path.certain
    assert not shop_graph.path("write_audit_log", "create_order_endpoint", repo=REPO).found


def test_entry_points(shop_graph: CodeGraph) -> None:
    points = shop_graph.entry_points(REPO)
    assert "shop.cli.main" in [point.qualified_name for point in points.roots]
    main = next(point for point in points.roots if point.qualified_name == "shop.cli.main")
    assert main.location.path == "src/shop/cli.py"
    assert main.in_degree == 0
    assert main.out_degree > 0
    assert points.central
    ranks = [point.pagerank for point in points.central]
    assert ranks == sorted(ranks, reverse=True)
    assert ranks[0] > 0


def test_callers_through_an_overridden_method_are_possible(shop_graph: CodeGraph) -> None:
    """`Storage.__init__` calls `self.connect()`, which resolves to `Storage.connect`; on a
    `SqliteStorage` it runs the override, so it is a possible caller of the override (a
    stored dispatch edge, issue 19, listed once)."""
    result = shop_graph.callers("SqliteStorage.connect", repo=REPO, depth=2)
    assert result.certain == []
    # no certain caller: the possible ones stand in, and the answer says so
    assert result.leaned_on == "fallback"
    assert result.leaning == (
        "no certain callers; possible ones (name matches, dispatch to overrides) below"
    )
    possible = {r.qualified_name: r for r in result.possible}
    init = possible["shop.storage.base.Storage.__init__"]
    assert init.distance == 1
    assert init.via == (
        "shop.storage.sqlite.SqliteStorage.connect",
        "shop.storage.base.Storage.__init__",
    )
    assert (init.resolution, init.why) == (
        "dispatch",
        "dispatch via `shop.storage.base.Storage.connect`",
    )
    assert [r.qualified_name for r in result.all].count("shop.storage.base.Storage.__init__") == 1
    assert possible["shop.services.orders.make_service"].distance == 2
    base = shop_graph.callers("Storage.connect", repo=REPO)  # the base's own callers: certain
    assert {r.qualified_name for r in base.certain} == {
        "shop.storage.base.Storage.__init__",
        "shop.storage.sqlite.SqliteStorage.connect",  # super().connect()
    }
    assert base.possible == []


def test_ambiguous_and_unknown_names(shop_graph: CodeGraph) -> None:
    with pytest.raises(AmbiguousSymbolError) as caught:
        shop_graph.callers("save", repo=REPO)
    assert set(caught.value.candidates) == {
        "shop.storage.base.Storage.save (shop: src/shop/storage/base.py)",
        "shop.storage.sqlite.SqliteStorage.save (shop: src/shop/storage/sqlite.py)",
    }
    with pytest.raises(SymbolNotFoundError):
        shop_graph.callers("does_not_exist", repo=REPO)


def test_a_methods_code_keeps_its_first_lines_indentation(shop_graph: CodeGraph) -> None:
    """Its stored code starts at `def`: shown flush left above a body indented twice until
    the reader put the indentation back (issue 55)."""
    definition = shop_graph.symbol("SqliteStorage.save", repo=REPO).definition
    assert definition is not None
    assert (definition.code or "").startswith("    def save(self")
    context = shop_graph.build_context("SqliteStorage.save", max_tokens=3000, repo=REPO)
    assert "\n    def save(self" in context.text


def test_a_misspelt_repository_is_named_not_answered_with_nothing(shop_graph: CodeGraph) -> None:
    misspelt = REPO + "_typo"
    with pytest.raises(RepositoryNotFoundError) as unknown:
        shop_graph.entry_points(misspelt)
    assert unknown.value.repo == misspelt
    assert REPO in unknown.value.known  # the message lists what the graph holds
    with pytest.raises(RepositoryNotFoundError):  # not "no symbol named ... in repository"
        shop_graph.callers("shop.cli.main", repo=misspelt)
    with pytest.raises(RepositoryNotFoundError):
        shop_graph.path("shop.cli.main", "write_audit_log", repo=misspelt)
    with pytest.raises(RepositoryNotFoundError, match="did you mean 'shop'"):  # not a warning
        shop_graph.search("where are orders saved?", repo=misspelt)
    # the repository exists: a name it lacks is still a missing symbol
    with pytest.raises(SymbolNotFoundError) as missing:
        shop_graph.callers("does_not_exist", repo=REPO)
    assert not isinstance(missing.value, RepositoryNotFoundError)


@pytest.mark.parametrize(
    ("question", "expected", "top"),
    [
        ("What calls SqliteStorage.save?", "shop.repositories.OrderRepository.add", 1),
        ("what does create_order_endpoint call", "shop.services.orders.make_service", 4),
        ("What breaks if I change shop/storage/base.py?", "shop.storage.sqlite", 1),
        ("who imports shop.models", "shop.repositories", 4),
        (
            "trace create_order_endpoint to the database",
            "shop.storage.sqlite.SqliteStorage.save",
            3,
        ),
        ("Where is OrderRepository defined?", "shop.repositories.OrderRepository", 1),
        ("where is the audit log written", "shop.storage.sqlite.write_audit_log", 3),
    ],
)
def test_hybrid_search_per_intent(
    shop_graph: CodeGraph, question: str, expected: str, top: int
) -> None:
    result = shop_graph.search(question, repo=REPO, k=10)
    names = [hit.qualified_name for hit in result.hits]
    assert expected in names[:top], names


def test_graph_leg_explains_its_hits(shop_graph: CodeGraph) -> None:
    result = shop_graph.search("What calls SqliteStorage.save?", repo=REPO)
    top = result.hits[0]
    assert top.ranks["graph"] == 1
    assert top.explain == (
        "shop.storage.sqlite.SqliteStorage.save <-CALLS- shop.repositories.OrderRepository.add"
    )
    assert result.seeds == [f"{REPO}:shop.storage.sqlite.SqliteStorage.save"]


def test_each_leg_contributes(shop_graph: CodeGraph) -> None:
    question = "insert or replace one record in the database"
    for legs in (("vector",), ("text",), ("vector", "text", "graph")):
        result = shop_graph.search(question, repo=REPO, options=SearchOptions(k=5, legs=legs))
        assert result.hits, legs
        assert all(set(hit.ranks) <= set(legs) for hit in result.hits)
    text_only = shop_graph.search(question, repo=REPO, options=SearchOptions(k=5, legs=("text",)))
    assert text_only.hits[0].qualified_name == "shop.storage.sqlite.SqliteStorage.save"


def test_a_leg_weighted_zero_is_not_run(shop_graph: CodeGraph) -> None:
    question = "What calls OrderRepository.add?"
    default = shop_graph.search(question, repo=REPO)
    assert default.legs["graph"]
    assert default.seeds
    # relationship questions weigh the vector leg 0: no query embedding, no vector hits
    assert default.legs["vector"] == []
    assert "embed" not in default.timings_ms
    concept = shop_graph.search("where is the audit log written", repo=REPO)
    assert concept.legs["vector"]
    assert "embed" in concept.timings_ms
    zero = shop_graph.search(
        question,
        repo=REPO,
        options=SearchOptions(weights={"vector": 1.0, "text": 1.0, "graph": 0.0}),
    )
    assert zero.legs["graph"] == []
    assert zero.seeds == []
    assert all("graph" not in hit.ranks for hit in zero.hits)
    # a leg asked for by name runs, whatever the intent's default weight
    chosen = shop_graph.search(question, repo=REPO, options=SearchOptions(legs=("vector",)))
    assert chosen.legs["vector"]
    assert all(set(hit.ranks) == {"vector"} for hit in chosen.hits)


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_questions_never_raise(shop_graph: CodeGraph, hostile: str) -> None:
    result = shop_graph.search(hostile, repo=REPO)
    assert isinstance(result.hits, list)


@pytest.mark.parametrize("empty", ["", "   ", "\n\t"])
def test_an_empty_question_is_refused_not_answered(shop_graph: CodeGraph, empty: str) -> None:
    with pytest.raises(InvalidArgumentError, match="empty question"):
        shop_graph.search(empty, repo=REPO)


def test_reads_run_in_read_transactions(shop_graph: CodeGraph) -> None:
    with pytest.raises(Neo4jQueryError, match=r"Neo\.ClientError"):
        shop_graph.client.read("CREATE (:ShouldNotExist)")


def test_context_has_code_citations_and_respects_the_budget(shop_graph: CodeGraph) -> None:
    context = shop_graph.build_context("How is an order saved to the database?", repo=REPO)
    assert context.tokens <= context.max_tokens
    assert context.items[0].role == "hit"
    assert any(item.role in ("callee", "type", "sibling") for item in context.items)
    for item in context.items:
        assert item.text.startswith(f"### {item.location} — {item.qualified_name}")
        assert item.citation == str(item.location)
        assert item.location.start_line is not None
    # the storage call is reached either as a hit or as a callee of one (signature only)
    assert "shop:shop.storage.sqlite.SqliteStorage.save" in {item.id for item in context.items}
    assert "def save(self, key: str, value: dict) -> None" in context.text
    small = shop_graph.build_context(
        "How is an order saved to the database?", max_tokens=120, repo=REPO
    )
    assert small.truncated
    assert small.tokens <= 120


def test_a_query_embedder_of_another_model_is_a_clear_error(shop_graph: CodeGraph) -> None:
    from graphrag_code.embedding import HashingEmbedder
    from graphrag_code.errors import EmbeddingMismatchError

    other = CodeGraph(shop_graph.settings, client=shop_graph.client, embedder=HashingEmbedder(64))
    with pytest.raises(EmbeddingMismatchError, match="64 dimensions"):
        other.search("anything", repo=REPO)


def test_trace_follows_the_call_chain_to_the_named_destination(shop_graph: CodeGraph) -> None:
    result = shop_graph.search("trace create_order_endpoint to the database", repo=REPO)
    by_name = {hit.qualified_name: hit for hit in result.hits}
    save = by_name["shop.storage.sqlite.SqliteStorage.save"]
    assert save.explain == (
        "shop.api.create_order_endpoint -CALLS-> shop.services.orders.OrderService.place_order "
        "-CALLS-> shop.repositories.OrderRepository.add -CALLS-> "
        "shop.storage.sqlite.SqliteStorage.save"
    )


def test_graph_leg_stops_expanding_without_changing_the_answer(shop_graph: CodeGraph) -> None:
    """A seed expands one hop further only while it has reached fewer nodes than the leg
    returns. With one seed nearer nodes rank first, so the shallower leg is exactly the first
    part of the deeper one."""
    question = "What breaks if I change shop/storage/base.py?"

    def graph_leg(depth: int) -> list[tuple[str, str]]:
        options = SearchOptions(k=depth, candidates_per_leg=depth, legs=("graph",))
        result = shop_graph.search(question, repo=REPO, options=options)
        return [(hit.qualified_name, hit.explain) for hit in result.hits]

    deep = graph_leg(10)
    hops = [explain.count("<-IMPORTS-") for _, explain in deep]
    assert hops == sorted(hops)
    assert hops[0] == 1  # one node one hop away: it went on, to three hops
    assert hops[-1] == 3
    for depth in range(1, len(deep)):
        assert graph_leg(depth) == deep[:depth], depth


def test_definition_questions_take_the_named_symbols_without_expanding(
    shop_graph: CodeGraph,
) -> None:
    result = shop_graph.search("Where is OrderRepository defined?", repo=REPO)
    assert result.legs["graph"] == result.seeds == [f"{REPO}:shop.repositories.OrderRepository"]
    deeper = shop_graph.search(
        "Where is OrderRepository defined?", repo=REPO, options=SearchOptions(max_hops=1)
    )
    assert set(deeper.legs["graph"]) > set(result.legs["graph"])  # its methods, its module
