"""TypeScript and JavaScript beside Python in one repository: every import and call form and
the tiers, linked offline; indexed into the real Neo4j: the report, the nodes, search and
relations on TS/JS symbols, incremental runs and the watcher."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.schema import SchemaConfig, ensure_schema
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest.pipeline import IndexOptions, build_graph
from graphrag_code.ingest.report import IngestReport
from graphrag_code.model import EdgeKind
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe
from .linking_helpers import Linked, assert_stored_as_linked, link_folder
from .shop_graph import embed_with_hashing
from .test_ingest import assert_equals_a_clean_index, dump

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end

MIXED = Path(__file__).parent / "fixtures" / "mixed"
REPO = "mixed"


@pytest.fixture(scope="module")
def indexed(
    session_client: Neo4jClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[CodeGraph, IngestReport]]:
    """The mixed fixture indexed once, with hashing-embedder vectors for search."""
    wipe(session_client)
    drop_search_indexes(session_client)
    embedder = HashingEmbedder()
    ensure_schema(session_client, SchemaConfig(dimensions=embedder.dimensions, model=embedder.name))
    report = build_graph(
        MIXED, session_client, repo=REPO, state_dir=tmp_path_factory.mktemp("state")
    )
    embed_with_hashing(session_client, REPO, embedder)
    yield CodeGraph(Settings(embedder="hashing"), client=session_client, embedder=embedder), report
    drop_search_indexes(session_client)


@pytest.fixture
def graph(indexed: tuple[CodeGraph, IngestReport]) -> CodeGraph:
    return indexed[0]


@pytest.fixture(scope="module")
def mixed() -> Linked:
    """The mixed fixture linked offline."""
    return link_folder(MIXED, repo=REPO)


def _edges(graph: CodeGraph, kind: str) -> dict[tuple[str, str], dict[str, Any]]:
    rows = graph.client.read(
        f"MATCH (s:Code {{repo: $repo}})-[r:{kind}]->(t) "
        "RETURN s.qualified_name AS s, coalesce(t.qualified_name, t.id) AS t, "
        "properties(r) AS props",
        {"repo": REPO},
    )
    return {(row["s"], row["t"]): row["props"] for row in rows}


def test_one_run_reads_every_language_and_reports_each(
    indexed: tuple[CodeGraph, IngestReport],
) -> None:
    graph, report = indexed
    assert set(report.languages) == {"python", "typescript", "javascript"}
    assert report.languages["python"].files == 2
    assert report.languages["javascript"].files == 4  # legacy.js util.cjs app.jsx bin/cli
    assert report.languages["typescript"].symbols > 20
    assert report.languages["typescript"].edges["CALLS/exact"] > 10
    assert {s.path: s.reason for s in report.skipped} == {
        "web/generated.js": "minified or generated: a line of 6008 characters",
        "web/vendor.min.js": "minified bundle (*.min.*)",
    }
    # an invalid tsconfig.json is reported, never a crash; a syntax error keeps what parses
    assert "invalid JSON" in report.parse_issues["packages/other/tsconfig.json"][0].message
    assert "web/broken.ts" in report.parse_issues
    languages = graph.client.read(
        "MATCH (n:Code {repo: $repo}) RETURN n.language AS language, count(*) AS n",
        {"repo": REPO},
    )
    assert {row["language"] for row in languages} == {"python", "typescript", "javascript"}


def test_the_index_stores_the_edges_linked_offline(graph: CodeGraph, mixed: Linked) -> None:
    assert_stored_as_linked(graph.client, mixed)


def test_utils_ts_beside_utils_py_do_not_collide(graph: CodeGraph) -> None:
    rows = graph.client.read(
        "MATCH (n:Code {repo: $repo}) WHERE n.name = 'slugify' "
        "RETURN n.id AS id, n.language AS language, n.docstring AS doc ORDER BY id",
        {"repo": REPO},
    )
    assert [(r["id"], r["language"]) for r in rows] == [
        ("mixed:./utils.ts.slugify", "typescript"),
        ("mixed:utils.slugify", "python"),
    ]
    assert rows[0]["doc"] == "Turn a title into a URL slug, the way the server does."
    calls = _edges(graph, "CALLS")
    assert ("server.page_path", "utils.slugify") in calls
    assert ("web/index.ts.main", "./utils.ts.slugify") in calls


def test_declarations_are_nodes_with_their_kind(graph: CodeGraph) -> None:
    rows = graph.client.read(
        "MATCH (m:Module {repo: $repo, path: 'web/base.ts'})-[:DEFINES*]->(n) "
        "RETURN n.name AS name, labels(n) AS labels, n.declared_as AS declared, "
        "n.signature AS signature ORDER BY n.start_line, name",
        {"repo": REPO},
    )
    found = {(r["name"], r["declared"]) for r in rows}
    assert found == {
        ("Priced", "interface"), ("price", "signature"), ("Entity", "abstract class"),
        ("constructor", "constructor"), ("describe", None), ("kind", "abstract method"),
    }  # fmt: skip
    entity = next(r for r in rows if r["name"] == "Entity")
    assert "Class" in entity["labels"]
    assert entity["signature"] == "export abstract class Entity"


def test_es_module_import_forms(mixed: Linked) -> None:
    imports = mixed.of(EdgeKind.IMPORTS)
    index = "web/index.ts"
    assert imports[(index, "web/cart.ts")].edge.names == ("ShoppingCart", "default")  # tsconfig
    assert imports[(index, "web/catalog.ts")].edge.names == ("ShoppingCart", "makeStore")
    # `makeStore` comes through `export * from "./store"` in catalog.ts: a re-export edge
    assert imports[(index, "web/store.ts")].edge.via == "web/catalog.ts"
    assert (index, "web/polyfill.ts") in imports  # side-effect import
    assert imports[(index, "web/base.ts")].edge.names == ("Priced",)  # import type
    assert imports[(index, "web/lazy.ts")].tier == "name"  # dynamic import(): possible
    assert imports[(index, "react")].edge.names == ("default",)  # external, by package name
    assert ("web/cart.ts", "web/store.ts") in imports  # "./store.js" written for store.ts
    assert ("web/cart.ts", "web/money.ts") in imports  # import * as money
    assert ("web/catalog.ts", "web/cart.ts") in imports  # export { … } from
    assert ("web/cycle-a.ts", "web/cycle-b.ts") in imports  # circular imports
    assert ("web/cycle-b.ts", "web/cycle-a.ts") in imports


def test_workspace_and_commonjs_import_forms(mixed: Linked) -> None:
    imports = mixed.of(EdgeKind.IMPORTS)
    # workspace packages by name: `main: dist/index.js` read from its source, `exports` subpath
    assert ("web/index.ts", "packages/shared/src/index.ts") in imports
    assert ("web/index.ts", "packages/other/src/extra.ts") in imports
    assert ("packages/other/src/main.ts", "packages/other/src/extra.ts") in imports
    assert imports[("web/legacy.js", "web/util.cjs")].edge.names == ("pad", "trim")  # require
    assert ("web/app.jsx", "web/legacy.js") in imports  # ES import of a CommonJS module
    assert ("bin/cli", "web/legacy.js") in imports  # a `#!/usr/bin/env node` script


def test_call_forms_and_tiers(mixed: Linked) -> None:
    main = "web/index.ts.main"
    exact = {
        (main, "web/store.ts.makeStore"),  # re-exported through `export *`
        (main, "web/cart.ts.Cart.constructor"),  # new of a default export, via tsconfig paths
        (main, "web/money.ts.format"),  # an arrow function bound to a name
        (main, "packages/shared/src/index.ts.share"),  # a workspace package by name
        (main, "packages/other/src/extra.ts.extra"),
        (main, "web/lazy.ts.later"),  # through `const lazy = await import("./lazy")`
        ("web/cart.ts.Cart.total", "web/money.ts.sum"),  # import * as money; money.sum()
        ("web/cart.ts.Cart.describe", "web/base.ts.Entity.describe"),  # super.describe()
        ("web/cart.ts.Cart.constructor", "web/base.ts.Entity.constructor"),  # super(id)
        ("web/base.ts.Entity.describe", "web/base.ts.Entity.kind"),  # this.kind()
        ("web/cycle-a.ts.ping", "web/cycle-b.ts.pong"),
        ("web/legacy.js.Counter.increment", "web/legacy.js.Counter.log"),  # this.m(), prototype
        ("web/legacy.js.Counter.increment", "web/util.cjs.clamp"),  # util.clamp via require
        ("web/legacy.js.Counter.log", "web/util.cjs.trim"),  # destructured require, renamed
        ("web/legacy.js.Counter.create", "web/legacy.js.Counter"),  # new of a function
        ("web/app.jsx.App", "web/legacy.js.Counter.create"),  # module.exports = Counter
        ("web/view.tsx.View", "./utils.ts.titleCase"),
    }
    inferred = {
        (main, "web/cart.ts.Cart.add"),  # a `new` result
        (main, "web/cart.ts.Cart.total"),  # annotated `other: ShoppingCart` (a re-export alias)
        (main, "web/store.ts.Store.load"),  # a return type (makeStore(): Store)
        (main, "web/item.ts.Item.price"),  # `Item | undefined` from Store.load
        (main, "packages/shared/src/index.ts.Shared.greet"),  # new Shared().greet()
        ("web/cart.ts.Cart.add", "web/store.ts.Store.save"),  # a field and a parameter property
        ("web/cart.ts.Cart.total", "web/base.ts.Priced.price"),  # a callback's parameter type
    }
    calls = mixed.of(EdgeKind.CALLS)
    assert {pair: calls[pair].tier for pair in exact if pair in calls} == dict.fromkeys(
        exact, "exact"
    )
    assert {pair: calls[pair].tier for pair in inferred if pair in calls} == dict.fromkeys(
        inferred, "inferred"
    )
    assert calls[(main, "web/cart.ts.Cart.constructor")].edge.lines == (15, 17)
    # `Counter.create().increment()`: create's every `return` is `new Counter(0)`
    assert calls[("web/app.jsx.App", "web/legacy.js.Counter.increment")].tier == "inferred"


def test_external_callees_are_nodes_of_their_package(graph: CodeGraph) -> None:
    main = "web/index.ts.main"
    externals = graph.client.read(
        "MATCH (:Code {qualified_name: $main})-[r:CALLS]->(e:External) "
        "RETURN e.qualified_name AS name, e.package AS package",
        {"main": main},
    )
    assert {(r["name"], r["package"]) for r in externals} >= {
        ("react.createElement", "react"),
        ("<builtin>.console.log", "<builtin>"),
    }


def test_inheritance_and_type_uses(mixed: Linked) -> None:
    inherits = mixed.of(EdgeKind.INHERITS)
    assert not inherits[("web/item.ts.Item", "web/base.ts.Entity")].edge.implements
    assert inherits[("web/item.ts.Item", "web/base.ts.Priced")].edge.implements is True
    assert ("web/cart.ts.Cart", "web/base.ts.Entity") in inherits
    uses = mixed.of(EdgeKind.USES_TYPE)
    assert ("web/index.ts.main", "web/item.ts.Item") in uses  # instanceof, new
    assert ("web/index.ts.main", "web/base.ts.Priced") in uses  # satisfies
    assert ("web/cart.ts.Cart", "web/item.ts.Item") in uses  # a generic's argument (Item[])
    assert ("web/item.ts.Item.constructor", "web/item.ts.ItemId") in uses  # a type alias


def test_unresolved_call_sites_are_counted_per_function(mixed: Linked) -> None:
    add = "web/cart.ts.Cart.add"
    assert mixed.unresolved_calls(add) == [1]
    assert mixed.unresolved_names(add) == [("push",)]  # this.lines.push: an array's method


def test_relations_on_typescript_symbols(graph: CodeGraph) -> None:
    callers = graph.callers("Store.save", repo=REPO, depth=2)
    assert callers.subject.qualified_name == "web/store.ts.Store.save"
    assert {c.qualified_name: c.distance for c in callers.certain} == {
        "web/cart.ts.Cart.add": 1,
        "web/index.ts.main": 2,
    }
    callees = {c.qualified_name for c in graph.callees("web/index.ts.main", repo=REPO).certain}
    assert {"web/cart.ts.Cart.add", "./utils.ts.slugify", "react.createElement"} <= callees
    importers = {i.qualified_name for i in graph.importers("web/base.ts", repo=REPO).certain}
    assert {"web/cart.ts", "web/item.ts", "web/index.ts"} <= importers
    impact = {r.qualified_name: r.distance for r in graph.impact("web/store.ts", repo=REPO).all}
    assert impact["web/cart.ts.Cart.add"] == 1
    assert impact["web/index.ts.main"] <= 2
    path = graph.path("main", "Store.save", repo=REPO)
    assert [step.qualified_name for step in path.steps] == [
        "web/index.ts.main", "web/cart.ts.Cart.add", "web/store.ts.Store.save",
    ]  # fmt: skip


def test_search_and_context_on_typescript(graph: CodeGraph) -> None:
    result = graph.search("shopping cart add item", repo=REPO, k=5)
    assert any(hit.qualified_name.startswith("web/cart.ts") for hit in result.hits)
    context = graph.build_context("How does the cart add an item to the store?", repo=REPO)
    typescript = [item for item in context.items if item.location.path.endswith(".ts")]
    assert typescript
    assert all("```typescript\n" in item.text for item in typescript)
    python = graph.build_context("turn a title into a URL slug", repo=REPO)
    python_items = [item for item in python.items if item.location.path.endswith(".py")]
    assert python_items  # the Python twin of slugify sits beside the TypeScript one
    assert all("```python\n" in item.text for item in python_items)


def test_languages_option_restricts_a_run(neo4j: Neo4jClient, tmp_path: Path) -> None:
    ensure_schema(neo4j, SchemaConfig())
    state = tmp_path / "state"
    only_python = build_graph(
        MIXED, neo4j, repo="langs", state_dir=state,
        options=IndexOptions(languages=frozenset({"py"})),
    )  # fmt: skip
    assert set(only_python.languages) == {"python"}
    assert only_python.files_total == 2
    everything = build_graph(MIXED, neo4j, repo="langs", state_dir=state)
    assert everything.mode == "full"  # another choice of languages: rebuilt
    assert set(everything.languages) == {"python", "typescript", "javascript"}
    again = build_graph(
        MIXED, neo4j, repo="langs", state_dir=state,
        options=IndexOptions(languages=frozenset({"ts", "js"})),
    )  # fmt: skip
    rows = neo4j.read(
        "MATCH (n:Code {repo: 'langs'}) RETURN DISTINCT n.language AS language ORDER BY language"
    )
    assert [r["language"] for r in rows] == ["javascript", "typescript"]
    assert again.files_total == 22


def _edit_web(root: Path) -> None:
    """A body edit, an interface change, a new file, a deleted file and a renamed file."""
    money = root / "web/money.ts"
    money.write_text(money.read_text().replace("a + b", "b + a"))
    store = root / "web/store.ts"
    store.write_text(store.read_text().replace("save(item: Item)", "put(item: Item)"))
    cart = root / "web/cart.ts"
    cart.write_text(cart.read_text().replace(".save(item)", ".put(item)"))
    (root / "web/report.ts").write_text(
        'import { Cart } from "./cart";\n\nexport function report(cart: Cart): number {\n'
        "  return cart.total();\n}\n"
    )
    (root / "web/cycle-b.ts").unlink()
    (root / "web/legacy.js").rename(root / "web/counter.js")
    app = root / "web/app.jsx"
    app.write_text(app.read_text().replace("'./legacy'", "'./counter'"))


def test_incremental_equals_a_clean_index_after_typescript_edits(
    neo4j: Neo4jClient, tmp_path: Path
) -> None:
    ensure_schema(neo4j, SchemaConfig())
    root = tmp_path / "mixed"
    shutil.copytree(MIXED, root)
    state = tmp_path / "state"
    build_graph(root, neo4j, repo="inc", state_dir=state)
    _edit_web(root)
    report = build_graph(root, neo4j, repo="inc", state_dir=state)
    assert report.mode == "incremental"
    # money, store, cart, report, counter (renamed), app; not the 15 other files
    assert report.files_parsed == 6
    assert report.files_removed == 2
    incremental = dump(neo4j, "inc")
    assert any(
        r[0] == "inc:web/cart.ts.Cart.add" and r[2] == "inc:web/store.ts.Store.put"
        for r in incremental["rels"]
    )
    assert_equals_a_clean_index(neo4j, root, "inc", incremental, tmp_path / "clean")


def test_a_tsconfig_change_relinks_and_equals_a_clean_index(
    neo4j: Neo4jClient, tmp_path: Path
) -> None:
    ensure_schema(neo4j, SchemaConfig())
    root = tmp_path / "mixed"
    shutil.copytree(MIXED, root)
    state = tmp_path / "state"
    build_graph(root, neo4j, repo="cfg", state_dir=state)
    tsconfig = root / "tsconfig.json"
    tsconfig.write_text(tsconfig.read_text().replace('"@app/*"', '"@shop/*"'))
    index = root / "web/index.ts"
    index.write_text(index.read_text().replace('"@app/cart"', '"@shop/cart"'))
    report = build_graph(root, neo4j, repo="cfg", state_dir=state)
    assert report.mode == "incremental"
    assert report.files_relinked > 10  # every TS/JS file: its imports may resolve anew
    incremental = dump(neo4j, "cfg")
    assert any(
        r[0] == "cfg:web/index.ts" and r[1] == "IMPORTS" and r[2] == "cfg:web/cart.ts"
        for r in incremental["rels"]
    )
    GraphWriter(neo4j, "cfg").delete_repository()
    build_graph(root, neo4j, repo="cfg", state_dir=tmp_path / "clean")
    assert dump(neo4j, "cfg") == incremental


def test_watch_picks_up_typescript_changes(neo4j: Neo4jClient, tmp_path: Path) -> None:
    from graphrag_code.api import watch_repository
    from graphrag_code.ingest.watch import relevant_change

    assert relevant_change(str(tmp_path / "web" / "a.tsx"), tmp_path)
    assert relevant_change(str(tmp_path / "tsconfig.json"), tmp_path)
    assert relevant_change(str(tmp_path / "tsconfig.build.json"), tmp_path)
    assert not relevant_change(str(tmp_path / "node_modules" / "x" / "a.ts"), tmp_path)
    root = tmp_path / "mixed"
    shutil.copytree(MIXED, root)
    settings = Settings(cache_dir=tmp_path / "cache", embedder="hashing")
    embedder = HashingEmbedder()
    ensure_schema(neo4j, SchemaConfig(dimensions=embedder.dimensions, model=embedder.name))
    build_graph(root, neo4j, repo="watched", state_dir=settings.cache_dir / "graphs")
    reports: list[IngestReport] = []
    stop = threading.Event()
    watcher = threading.Thread(
        target=watch_repository,
        args=(root, "watched"),
        kwargs={
            "client": neo4j, "settings": settings, "on_report": reports.append,
            "debounce_ms": 200, "stop_after": 1, "embed": False, "embedder": embedder,
            "stop_event": stop,
        },
    )  # fmt: skip
    watcher.start()
    try:
        time.sleep(1.0)  # let the watcher subscribe before the edit
        money = root / "web" / "money.ts"
        money.write_text(money.read_text() + "\nexport function addedWhileWatching() {}\n")
        watcher.join(timeout=60)
    finally:
        stop.set()
        watcher.join(timeout=10)
    assert len(reports) == 1
    assert reports[0].files_parsed == 1
    found = neo4j.read(
        "MATCH (n:Function {id: 'watched:web/money.ts.addedWhileWatching'}) "
        "RETURN n.language AS language"
    )
    assert found == [{"language": "typescript"}]
