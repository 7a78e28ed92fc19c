"""Cross-repository edges against a real Neo4j: a service calling its team's library.

The service (`tests/fixtures/crossrepo/service`) imports `billing_lib.money`, calls
`billing_lib.invoices.total` (also as `billing_lib.total`, which the package re-exports) and
`tax`, and subclasses `billing_lib.money.Money`. With the
library indexed too, those edges end at the library's nodes whatever the order of indexing,
re-indexing and deletion; without it (or when two copies make the choice ambiguous and the
service declares neither) they end at `:External` nodes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mcp.types import TextContent

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.errors import SymbolNotFoundError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.crossrepo import Provider, choose_provider
from graphrag_code.graph.queries import load_query
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.dependencies import project_names, provided_packages
from graphrag_code.ingest.pipeline import IndexOptions, build_graph
from graphrag_code.mcp.freshness import FreshnessTracker
from graphrag_code.mcp.options import ServerOptions
from graphrag_code.mcp.tools import GraphTools
from graphrag_code.model import ParsedFile
from graphrag_code.retrieval.relations import Relations
from graphrag_code.retrieval.search import Searcher, SearchOptions
from graphrag_code.text import package_name

FIXTURES = Path(__file__).parent / "fixtures" / "crossrepo"
SERVICE, LIBRARY = FIXTURES / "service", FIXTURES / "billing_lib"
TOTAL = "billing_lib:billing_lib.invoices.total"
Edge = tuple[str, str, str, str | None]

# what the service's code reaches in the library, once both are indexed
CROSS = {
    ("service:service.checkout", "IMPORTS", "billing_lib:billing_lib.money"),
    ("service:service.checkout", "IMPORTS", "billing_lib:billing_lib.invoices"),
    ("service:service.api", "IMPORTS", "billing_lib:billing_lib"),
    # `from billing_lib import total`: the package re-exports billing_lib.invoices.total
    ("service:service.api.quote", "CALLS", TOTAL),
    ("service:service.checkout.checkout", "CALLS", TOTAL),
    ("service:service.checkout.tax_only", "CALLS", "billing_lib:billing_lib.invoices.tax"),
    ("service:service.checkout.Balance", "INHERITS", "billing_lib:billing_lib.money.Money"),
}


@pytest.fixture
def graph(neo4j: Neo4jClient) -> Neo4jClient:
    ensure_schema(neo4j, SchemaConfig())
    return neo4j


def edges(client: Neo4jClient) -> set[Edge]:
    """Every resolved edge of the graph with both ends' ids (an external's qualified name)
    and its tier."""
    rows = client.read(
        "MATCH (s:Code)-[r:CALLS|IMPORTS|INHERITS|USES_TYPE]->(t) "
        "RETURN s.id AS s, type(r) AS type, coalesce(t.id, 'external:' + t.qualified_name) AS t, "
        "r.resolution AS resolution"
    )
    return {(row["s"], row["type"], row["t"], row["resolution"]) for row in rows}


def plain(found: set[Edge]) -> set[tuple[str, str, str]]:
    return {(s, kind, t) for s, kind, t, _tier in found}


def externals(client: Neo4jClient) -> set[str]:
    rows = client.read("MATCH (e:External) RETURN e.qualified_name AS name")
    return {row["name"] for row in rows}


def index(client: Neo4jClient, path: Path, repo: str, state: Path, **options: bool) -> int:
    report = build_graph(path, client, repo=repo, state_dir=state, options=IndexOptions(**options))
    return report.cross_repo_edges


def test_both_orders_give_the_same_graph_with_the_same_tiers(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    assert index(graph, SERVICE, "service", tmp_path) == 0  # nothing to link to yet
    before = edges(graph)
    assert "billing_lib.invoices.total" in externals(graph)
    assert index(graph, LIBRARY, "billing_lib", tmp_path) == len(CROSS)
    library_first = edges(graph)
    assert plain(library_first) >= CROSS
    # no stale external left: every name the library provides now ends at its node
    assert not {name for name in externals(graph) if name.startswith("billing_lib.")}
    # the same tier (and lines) as the external edge each replaced, which it remembers
    tiers = {(s, kind, t): tier for s, kind, t, tier in before}
    crossing = graph.read(
        "MATCH (s:Code {repo: 'service'})-[r]->(:Code {repo: 'billing_lib'}) "
        "RETURN s.id AS s, type(r) AS kind, r.external_name AS name, r.resolution AS tier"
    )
    assert len(crossing) == len(CROSS)
    for row in crossing:
        assert tiers[(row["s"], row["kind"], "external:" + row["name"])] == row["tier"]

    GraphWriter(graph, "service").delete_repository()
    GraphWriter(graph, "billing_lib").delete_repository()
    assert edges(graph) == set()
    index(graph, LIBRARY, "billing_lib", tmp_path / "other", full=True)
    assert index(graph, SERVICE, "service", tmp_path / "other", full=True) == len(CROSS)
    assert edges(graph) == library_first


def test_callers_of_a_library_function_include_the_service(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    index(graph, LIBRARY, "billing_lib", tmp_path)
    index(graph, SERVICE, "service", tmp_path)
    relations = Relations(graph)
    callers = relations.callers("billing_lib.invoices.total", depth=2)
    found = {(r.qualified_name, r.repo) for r in callers.all}
    assert ("service.checkout.checkout", "service") in found
    assert ("service.api.handle_order", "service") in found  # two hops, across the boundary
    # --within: the walk stays in the library; --repo: only the answers in that repository
    assert relations.callers("billing_lib.invoices.total", depth=2, within=True).all == []
    in_service = relations.callers("billing_lib.invoices.total", depth=2, repo="service")
    assert in_service.subject.repo == "billing_lib"  # looked up everywhere: not in the service
    assert {r.repo for r in in_service.all} == {"service"}
    with pytest.raises(SymbolNotFoundError) as missing:  # nowhere: the error names the repo asked
        relations.callers("no_such_function", repo="service")
    assert missing.value.repo == "service"
    with pytest.raises(SymbolNotFoundError):  # --within: only the repository named
        relations.callers("billing_lib.invoices.total", repo="service", within=True)
    callees = relations.callees("service.checkout.checkout", repo="service", within=True)
    assert [r.external for r in callees.all] == []  # the library's node is outside
    callees = relations.callees("service.checkout.checkout")
    assert {(r.qualified_name, r.repo) for r in callees.all} == {
        ("billing_lib.invoices.total", "billing_lib")
    }
    path = relations.path("handle_order", "billing_lib.money.cents")
    assert [step.repo for step in path.steps] == [
        "service",
        "service",
        "billing_lib",
        "billing_lib",
    ]
    assert not relations.path("handle_order", "billing_lib.money.cents", within=True).found
    impact = relations.impact("billing_lib/money.py", depth=2)
    assert ("service.checkout.Balance", "service") in {
        (r.qualified_name, r.repo) for r in impact.all
    }
    impact = relations.impact("billing_lib/money.py", repo="billing_lib", depth=2)
    assert "service.checkout.Balance" not in {r.qualified_name for r in impact.all}


def test_the_graph_leg_of_search_crosses_repositories_unless_within(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    index(graph, LIBRARY, "billing_lib", tmp_path)
    index(graph, SERVICE, "service", tmp_path)
    searcher = Searcher(
        graph, None, vector_index="code_embedding", fulltext_index="code_search_text"
    )
    question = "What does checkout call?"
    across = searcher.search(question, options=SearchOptions(legs=("graph",)))
    reached = {(hit.qualified_name, hit.repo) for hit in across.hits}
    assert ("billing_lib.invoices.total", "billing_lib") in reached
    within = searcher.search(question, options=SearchOptions(legs=("graph",), within=True))
    assert "billing_lib" not in {hit.repo for hit in within.hits}
    # --repo filters the hits of a walk that still crosses: the library's nodes are not hits
    scoped = searcher.search(question, repo="service", options=SearchOptions(legs=("graph",)))
    assert {hit.repo for hit in scoped.hits} <= {"service"}


def test_deleting_the_library_turns_the_edges_back_into_externals(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    index(graph, SERVICE, "service", tmp_path)
    alone = edges(graph)
    index(graph, LIBRARY, "billing_lib", tmp_path)
    GraphWriter(graph, "billing_lib").delete_repository()
    assert edges(graph) == alone
    dangling = graph.read(
        "MATCH (:Code {repo: 'service'})-[r]->(t:Code {repo: 'billing_lib'}) RETURN count(r) AS n"
    )
    assert dangling[0]["n"] == 0


def test_reindexing_either_side_keeps_the_edges(graph: Neo4jClient, tmp_path: Path) -> None:
    library = tmp_path / "billing_lib"
    service = tmp_path / "service"
    shutil.copytree(LIBRARY, library)
    shutil.copytree(SERVICE, service)
    state = tmp_path / "state"
    index(graph, library, "billing_lib", state)
    index(graph, service, "service", state)
    linked = edges(graph)
    assert plain(linked) >= CROSS

    # an edit of the library (incremental): tax() changes, a function is added, and the
    # service's edges into the library stay where they were
    invoices = library / "src" / "billing_lib" / "invoices.py"
    invoices.write_text(
        invoices.read_text().replace("amount // 5", "amount // 4")
        + "\n\ndef discount(amount: int) -> int:\n    return amount // 10\n"
    )
    assert index(graph, library, "billing_lib", state) == len(CROSS)
    assert plain(edges(graph)) >= CROSS

    # the service starts calling the new function: linked once the service is re-indexed
    checkout = service / "src" / "service" / "checkout.py"
    checkout.write_text(
        checkout.read_text().replace("import tax, total", "import discount, tax, total")
        + "\n\ndef with_discount(amount: int) -> int:\n    return discount(amount)\n"
    )
    index(graph, service, "service", state)
    new_call = (
        "service:service.checkout.with_discount",
        "CALLS",
        "billing_lib:billing_lib.invoices.discount",
    )
    assert plain(edges(graph)) >= CROSS | {new_call}
    assert not {name for name in externals(graph) if name.startswith("billing_lib.")}

    # the call through the re-exported name moves a line: the edge diff replaces that edge
    # (found by the name it stands for), and the cross stage links it again, once
    api = service / "src" / "service" / "api.py"
    api.write_text(
        api.read_text().replace("    return invoice_total", "    # moved\n    return invoice_total")
    )
    index(graph, service, "service", state)
    quote = graph.read(
        "MATCH (:Code {id: 'service:service.api.quote'})-[r:CALLS]->(t) "
        "RETURN coalesce(t.id, t.qualified_name) AS t, r.lines AS lines"
    )
    line = api.read_text().splitlines().index("    return invoice_total(prices).cents") + 1
    assert [(row["t"], row["lines"]) for row in quote] == [(TOTAL, [line])]

    # the library drops tax(): the service's call falls back to an external, nothing dangles
    invoices.write_text(
        invoices.read_text()
        .replace('def tax(amount: int) -> int:\n    """The VAT on an amount in cents."""\n'
                 "    return amount // 4\n", "")
        .replace("subtotal + tax(subtotal)", "subtotal")
    )  # fmt: skip
    index(graph, library, "billing_lib", state)
    now = plain(edges(graph))
    assert (
        "service:service.checkout.tax_only",
        "CALLS",
        "external:billing_lib.invoices.tax",
    ) in now
    assert ("service:service.checkout.checkout", "CALLS", TOTAL) in now


def _copy(source: Path, target: Path, name: str) -> Path:
    shutil.copytree(source, target)
    pyproject = target / "pyproject.toml"
    text = pyproject.read_text()
    pyproject.write_text(text.replace('name = "Billing_Lib"', f'name = "{name}"'))
    return target


def test_two_copies_of_the_library_are_chosen_by_the_declared_dependency(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    fork = _copy(LIBRARY, tmp_path / "billing_fork", "billing-fork")
    index(graph, fork, "billing_fork", tmp_path / "state")
    index(graph, SERVICE, "service", tmp_path / "state")
    forked = {(s, k, t.replace("billing_fork:", "billing_lib:")) for s, k, t in plain(edges(graph))}
    assert forked >= CROSS  # the only provider so far
    report = build_graph(LIBRARY, graph, repo="billing_lib", state_dir=tmp_path / "state")
    assert report.cross_repo_ambiguous == 0
    assert plain(edges(graph)) >= CROSS  # the service declares billing-lib
    into_fork = {
        t for s, _k, t in plain(edges(graph)) if s.startswith("service:") and "billing_fork:" in t
    }
    assert not into_fork


def test_two_copies_without_a_declared_dependency_stay_unresolved(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    service = tmp_path / "service"
    shutil.copytree(SERVICE, service)
    (service / "pyproject.toml").write_text('[project]\nname = "order-service"\n')
    fork = _copy(LIBRARY, tmp_path / "billing_fork", "billing-fork")
    index(graph, LIBRARY, "billing_lib", tmp_path / "state")
    index(graph, fork, "billing_fork", tmp_path / "state")
    report = build_graph(service, graph, repo="service", state_dir=tmp_path / "state")
    assert report.cross_repo_edges == 0
    assert report.cross_repo_ambiguous == len(CROSS)
    assert "billing_lib.invoices.total" in externals(graph)
    # deleting one copy leaves one provider: the edges link to it
    GraphWriter(graph, "billing_fork").delete_repository()
    assert plain(edges(graph)) >= CROSS


def test_project_names_read_every_declaration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "My.Service"\ndependencies = ["Billing_Lib>=1", "requests[socks]"]\n'
        "[project.optional-dependencies]\nfast = [\"orjson; python_version > '3.8'\"]\n"
    )
    (tmp_path / "requirements-dev.txt").write_text("# tools\n-r base.txt\npytest==8.0\n-e .\n")
    (tmp_path / "setup.cfg").write_text("[options]\ninstall_requires =\n    click>=8\n")
    (tmp_path / "package.json").write_text('{"name": "web", "dependencies": {"lodash": "4"}}')
    names = project_names(tmp_path)
    assert names.distributions == {"my-service", "web"}
    assert names.dependencies == {"billing-lib", "requests", "orjson", "pytest", "click", "lodash"}
    assert package_name("Billing__Lib.x") == "billing-lib-x"


def test_project_names_of_poetry_and_go(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.poetry]\nname = "svc"\n[tool.poetry.dependencies]\npython = "^3.10"\n'
        'Billing-Lib = "^1"\n'
    )
    (tmp_path / "go.mod").write_text(
        "module example.com/svc\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1 // indirect\n)\n"
        "require golang.org/x/sync v0.7.0\n"
    )
    names = project_names(tmp_path)
    assert names.distributions == {"svc", "example-com/svc"}
    assert names.dependencies == {"billing-lib", "github-com/pkg/errors", "golang-org/x/sync"}
    (tmp_path / "pyproject.toml").write_text("[project\nbroken")  # unreadable: absent
    assert project_names(tmp_path).distributions == {"example-com/svc"}


def test_provided_packages_leave_out_tests_and_setup() -> None:
    modules = {
        "src/billing_lib/invoices.py": "billing_lib.invoices",
        "tests/test_invoices.py": "tests.test_invoices",
        "setup.py": "setup",
        "tools.py": "tools",
    }
    web = {"web/app.ts": "web/app.ts"}  # TypeScript modules are not imported by package name
    parsed = {
        path: ParsedFile(
            path, module, False, "typescript" if path in web else "python", "", 0, "", None
        )
        for path, module in (modules | web).items()
    }
    assert provided_packages(parsed) == {"billing_lib", "tools"}


def test_choose_provider_never_guesses() -> None:
    def provider(repo: str, dist: str, deps: frozenset[str] = frozenset()) -> Provider:
        return Provider(repo, frozenset({"billing_lib"}), frozenset({dist}), deps)

    service = Provider("svc", frozenset({"svc"}), frozenset({"svc"}), frozenset({"billing-lib"}))
    one = [provider("lib", "billing-lib"), service]
    assert choose_provider("svc", "billing_lib", one) == ("lib", False)
    two = [*one, provider("fork", "billing-fork")]
    assert choose_provider("svc", "billing_lib", two) == ("lib", False)
    undeclared = [provider("lib", "billing-lib"), provider("fork", "billing-fork"), service]
    undeclared[2] = Provider("svc", frozenset({"svc"}), frozenset({"svc"}), frozenset())
    assert choose_provider("svc", "billing_lib", undeclared) == (None, True)
    assert choose_provider("lib", "billing_lib", one[:1]) == (None, False)  # never itself
    # a repository providing the package itself keeps its unresolved names external
    assert choose_provider("lib", "billing_lib", two) == (None, False)


def test_mcp_callers_name_the_other_repository_and_stay_home_within(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    index(graph, LIBRARY, "billing_lib", tmp_path)
    index(graph, SERVICE, "service", tmp_path)
    code = CodeGraph(client=graph, embedder=HashingEmbedder())
    tools = GraphTools(code, ServerOptions(), FreshnessTracker(code.repositories))
    across = tools.callers("billing_lib.invoices.total")
    text = "\n".join(part.text for part in across.content if isinstance(part, TextContent))
    assert "service.checkout.checkout — service: src/service/checkout.py:" in text
    within = tools.callers("billing_lib.invoices.total", within=True)
    text = "\n".join(part.text for part in within.content if isinstance(part, TextContent))
    assert "nothing found" in text


def _index_scans(client: Neo4jClient, query: str, parameters: dict[str, object]) -> set[str]:
    """The relationship types `query`'s plan reads through a relationship index."""
    with client._driver.session(database=client.database) as session:
        plan = session.run(f"EXPLAIN {query}", parameters).consume().plan
    found: set[str] = set()
    stack = [plan]
    while stack:
        operator = stack.pop()
        stack.extend(operator.get("children", []))
        if "RelationshipIndexScan" in operator["operatorType"]:
            details = str(operator.get("args", {}).get("Details", ""))
            found.update(
                kind for kind in ("CALLS", "IMPORTS", "INHERITS") if f":{kind}(" in details
            )
    return found


def test_the_cross_stage_reads_a_repositorys_cross_edges_through_their_index(
    graph: Neo4jClient, tmp_path: Path
) -> None:
    """Only edges linked to another repository carry `external_name`: counting and releasing
    a repository's cross edges read them through that property's index, one per edge type,
    not every relationship of the repository (Django beside two others: 0.08-0.15 s ->
    0.002 s a query, warm)."""
    index(graph, LIBRARY, "billing_lib", tmp_path / "lib")
    assert index(graph, SERVICE, "service", tmp_path / "svc") == len(CROSS)
    every = {"CALLS", "IMPORTS", "INHERITS"}
    assert _index_scans(graph, load_query("crossrepo/touching"), {"repo": "service"}) == every
    release = {"ids": [], "into": "billing_lib", "packages": None, "from": "service", "limit": 1}
    assert _index_scans(graph, load_query("crossrepo/release"), release) == every
