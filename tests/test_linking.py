"""Resolution on the shop fixture: the edges a reader of the code would draw, and no others."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.model import EdgeKind, Resolution

SHOP = Path(__file__).parent / "fixtures" / "shop"


@pytest.fixture(scope="module")
def shop() -> LinkedRepository:
    return link_repository(SHOP, repo="shop")


def _edges(shop: LinkedRepository, kind: EdgeKind) -> dict[tuple[str, str], str | None]:
    found = {}
    for edge in shop.edges():
        if edge.kind == kind:
            source = edge.source.removeprefix("shop:")
            target = edge.target if edge.external else edge.target.removeprefix("shop:")
            found[(source, target)] = edge.resolution.value if edge.resolution else None
    return found


def test_imports_absolute_relative_aliases_and_reexports(shop: LinkedRepository) -> None:
    imports = _edges(shop, EdgeKind.IMPORTS)
    expected = {
        ("shop", "shop.models"),
        ("shop", "shop.services.orders"),
        ("shop.services.orders", "shop.models"),
        ("shop.services.orders", "shop.repositories"),
        ("shop.services.orders", "shop.storage.sqlite"),  # from ..storage import sqlite
        ("shop.api", "shop.services.orders"),  # import shop.services.orders as orders_module
        ("shop.api", "shop"),  # from shop import Product, as written
        ("shop.api", "shop.models"),  # ... and where Product is defined (re-export)
        ("shop.api", "shop.util"),
        ("shop.storage.sqlite", "shop.storage.base"),
        ("shop.repositories", "shop.models"),
        ("shop.repositories", "shop.storage.sqlite"),
        ("shop.cli", "shop.api"),
        ("shop.cli", "requests"),  # external
        ("shop.storage.sqlite", "sqlite3"),
        ("shop.storage.sqlite", "json"),
        ("shop.models", "dataclasses"),
    }
    assert set(imports) == expected


def test_calls_resolve_through_scopes_imports_mro_and_inference(shop: LinkedRepository) -> None:
    calls = _edges(shop, EdgeKind.CALLS)
    expected = {
        # module alias + attribute
        ("shop.api.create_order_endpoint", "shop.services.orders.make_service"): "exact",
        # re-exported class without __init__ (a dataclass): the class itself
        ("shop.api.create_order_endpoint", "shop.models.Product"): "exact",
        # return annotation of make_service -> OrderService
        (
            "shop.api.create_order_endpoint",
            "shop.services.orders.OrderService.place_order",
        ): "inferred",
        # return annotation of place_order -> Order
        ("shop.api.create_order_endpoint", "shop.models.Order.total_cents"): "inferred",
        ("shop.api.health", "shop.api.health.check"): "exact",  # enclosing scope
        ("shop.api", "shop.util.route"): "exact",  # the decorator runs in the module
        ("shop.services.orders.OrderService.place_order", "shop.models.Order"): "exact",
        (
            "shop.services.orders.OrderService.place_order",
            "shop.services.orders.OrderService.validate",
        ): "exact",
        # self.repository typed by the __init__ parameter annotation
        (
            "shop.services.orders.OrderService.place_order",
            "shop.repositories.OrderRepository.add",
        ): "inferred",
        (
            "shop.repositories.OrderRepository.add",
            "shop.storage.sqlite.SqliteStorage.save",
        ): "inferred",
        ("shop.repositories.OrderRepository.add", "shop.models.Order.total_cents"): "inferred",
        # Class() -> the __init__ it runs, inherited from the base class
        ("shop.services.orders.make_service", "shop.storage.base.Storage.__init__"): "exact",
        (
            "shop.services.orders.make_service",
            "shop.services.orders.OrderService.__init__",
        ): "exact",
        (
            "shop.services.orders.make_service",
            "shop.repositories.OrderRepository.__init__",
        ): "exact",
        ("shop.storage.base.Storage.__init__", "shop.storage.base.Storage.connect"): "exact",
        # ... and on a SqliteStorage, its override (possible: dispatch, issue 19)
        ("shop.storage.base.Storage.__init__", "shop.storage.sqlite.SqliteStorage.connect"): (
            "dispatch"
        ),
        # super().connect() -> the base class method
        ("shop.storage.sqlite.SqliteStorage.connect", "shop.storage.base.Storage.connect"): "exact",
        ("shop.storage.sqlite.SqliteStorage.save", "shop.storage.sqlite.write_audit_log"): "exact",
        ("shop.models.Product.display_price", "shop.models.format_cents"): "exact",
        ("shop.cli.main", "shop.api.create_order_endpoint"): "exact",
        ("shop.cli.main", "shop.cli.load_thing"): "exact",
        # fallback: the only definition with this name in the repository
        ("shop.cli.main", "shop.util.unique_helper_name"): "name",
    }
    internal = {
        k: v
        for k, v in calls.items()
        if not k[1].startswith(("<builtin>", "requests", "sqlite3", "json", "dataclasses"))
    }
    assert internal == expected
    assert calls[("shop.cli.main", "requests.post")] == "exact"
    assert calls[("shop.storage.sqlite.SqliteStorage.connect", "sqlite3.connect")] == "exact"
    assert calls[("shop.storage.sqlite.write_audit_log", "<builtin>.print")] == "exact"


def test_ambiguous_names_get_no_edge_and_are_counted(shop: LinkedRepository) -> None:
    calls = _edges(shop, EdgeKind.CALLS)
    # thing.save(): Storage.save and SqliteStorage.save both exist -> never guess
    assert not [k for k in calls if k[0] == "shop.cli.main" and k[1].endswith(".save")]
    unresolved = shop.links["src/shop/cli.py"].unresolved_calls
    assert unresolved == {"shop:shop.cli.main": 1}


def test_inheritance_and_type_uses(shop: LinkedRepository) -> None:
    assert _edges(shop, EdgeKind.INHERITS) == {
        ("shop.storage.sqlite.SqliteStorage", "shop.storage.base.Storage"): None
    }
    uses = set(_edges(shop, EdgeKind.USES_TYPE))
    assert (
        "shop.repositories.OrderRepository.__init__",
        "shop.storage.sqlite.SqliteStorage",
    ) in uses
    assert ("shop.services.orders.OrderService.place_order", "shop.models.Order") in uses
    assert ("shop.services.orders.OrderService.place_order", "shop.models.Product") in uses
    assert ("shop.api.create_order_endpoint", "shop.models.Product") in uses  # constructor use


def test_local_names_shadow_module_functions(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(
        "def helper():\n    return 1\n\n"
        "def uses_local(helper):\n    return helper()\n\n"
        "def uses_assigned():\n    helper = make()\n    return helper()\n\n"
        "def uses_global():\n    return helper()\n"
    )
    linked = link_repository(tmp_path, repo="t")
    calls = {(e.source, e.target) for e in linked.edges() if e.kind == EdgeKind.CALLS}
    assert ("t:mod.uses_global", "t:mod.helper") in calls
    assert ("t:mod.uses_local", "t:mod.helper") not in calls
    assert ("t:mod.uses_assigned", "t:mod.helper") not in calls


def test_star_imports_and_conditional_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .impl import *\n")
    (pkg / "impl.py").write_text("__all__ = ['run']\ndef run():\n    pass\n")
    (pkg / "fast.py").write_text("def dumps():\n    pass\n")
    (pkg / "slow.py").write_text("def dumps():\n    pass\n")
    (pkg / "user.py").write_text(
        "import pkg\nfrom pkg import run\n"
        "try:\n    from .fast import dumps\nexcept ImportError:\n    from .slow import dumps\n"
        "def go():\n    run()\n    pkg.run()\n    dumps()\n"
    )
    linked = link_repository(tmp_path, repo="t")
    calls = {(e.source, e.target) for e in linked.edges() if e.kind == EdgeKind.CALLS}
    assert ("t:pkg.user.go", "t:pkg.impl.run") in calls
    # two different functions can be bound to `dumps`: an inferred edge to each (issue 15)
    dumps = {
        e.target: e.resolution
        for e in linked.edges()
        if e.kind == EdgeKind.CALLS and e.source == "t:pkg.user.go" and "dumps" in e.target
    }
    inferred = Resolution.INFERRED
    assert dumps == {"t:pkg.fast.dumps": inferred, "t:pkg.slow.dumps": inferred}


def test_modules_that_import_a_name_from_each_other_in_a_cycle(tmp_path: Path) -> None:
    """numpy and scipy star-import and re-import names in cycles: value flow once recursed
    until Python's stack ran out (a RecursionError ended the whole index)."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .a import *\nfrom .b import *\n")
    (pkg / "a.py").write_text("from .b import *\nfrom .b import handler\n")
    (pkg / "b.py").write_text("from .a import *\nfrom .a import handler\ndef real():\n    pass\n")
    (pkg / "user.py").write_text(
        "from pkg import handler, real\nfrom .a import real as again\n"
        "def go():\n    handler()\n    real()\n    again()\n"
    )
    linked = link_repository(tmp_path, repo="t")
    calls = {(e.source, e.target) for e in linked.edges() if e.kind == EdgeKind.CALLS}
    assert ("t:pkg.user.go", "t:pkg.b.real") in calls
    assert not any(target.endswith("handler") for _source, target in calls)  # bound nowhere


def test_a_call_too_deep_for_the_stack_stays_unresolved_and_the_file_still_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from graphrag_code.languages.python import calls as calls_module

    (tmp_path / "mod.py").write_text(
        "def helper():\n    pass\ndef deep():\n    pass\ndef go():\n    deep()\n    helper()\n"
    )
    real = calls_module.CallLinker.link

    def link(self: Any, site: Any) -> Any:
        if site.callee[-1] == "deep":
            raise RecursionError("maximum recursion depth exceeded")
        return real(self, site)

    monkeypatch.setattr(calls_module.CallLinker, "link", link)
    linked = link_repository(tmp_path, repo="t")
    calls = {(e.source, e.target) for e in linked.edges() if e.kind == EdgeKind.CALLS}
    assert ("t:mod.go", "t:mod.helper") in calls
    assert ("t:mod.go", "t:mod.deep") not in calls
    assert linked.links["mod.py"].unresolved_kinds == {"values:too-deep": 1}


VALUEFLOW = Path(__file__).parent / "fixtures" / "valueflow"


def _link_in_order(parsed: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """Link `order`'s files one after the other, sharing one run's value-flow results."""
    return _link_sharing(parsed, order, shared_mb=None)[0]


def _link_sharing(
    parsed: dict[str, Any], order: list[str], shared_mb: int | None
) -> tuple[dict[str, Any], int]:
    """The links of `order`'s files linked in one run, its shared results kept within
    `shared_mb` of growth (memory read as constant: with 0, reached after every file), and
    how often they were dropped."""
    from graphrag_code.ingest.languages import LanguageRun
    from graphrag_code.languages import index_rules
    from graphrag_code.linking.edges import NodeIds
    from graphrag_code.linking.index import RepositoryIndex

    langs = LanguageRun.of(None)
    index = RepositoryIndex(parsed.values(), index_rules())
    ids = NodeIds("vf", index)
    langs.prepare(index, {}, shared_mb)
    langs.contexts["python"].budget.measure = lambda: 100.0
    links = {path: langs.link(parsed[path], index, ids) for path in order}
    return links, langs.contexts["python"].budget.drops


def test_shared_results_dropped_at_their_budget_change_no_link() -> None:
    """A link process drops the value-flow results it shares once they grow it by its budget
    (an 11k-file tree grew one past 12 GB); a file links the same without them."""
    parsed = link_repository(VALUEFLOW, repo="vf").parsed
    paths = sorted(parsed)
    kept, never = _link_sharing(parsed, paths, shared_mb=None)
    dropped, drops = _link_sharing(parsed, paths, shared_mb=0)  # reached after every file
    assert never == 0
    assert drops > 0
    assert dropped == kept


@pytest.mark.parametrize(("steps", "depth"), [(120, 24), (5_000_000, 3)])
def test_a_file_links_the_same_whatever_was_linked_before_it(
    monkeypatch: pytest.MonkeyPatch, steps: int, depth: int
) -> None:
    """Value flow shares results between the files of a run; a reused result must cost (steps,
    depth) what computing it did, and replay what it consulted, or a file linked after others
    gets other edges, or other dependencies, than one linked first (a split between processes,
    an incremental run relinking a few files)."""
    from graphrag_code.languages.python.values import budget

    parsed = link_repository(VALUEFLOW, repo="vf").parsed
    paths = sorted(parsed)
    unlimited = _link_in_order(parsed, paths)
    monkeypatch.setattr(budget, "_MAX_STEPS", steps)
    monkeypatch.setattr(budget, "_MAX_DEPTH", depth)
    forward = _link_in_order(parsed, paths)
    backward = _link_in_order(parsed, paths[::-1])
    alone = {path: _link_in_order(parsed, [path])[path] for path in paths}
    assert forward != unlimited  # the limit cuts
    assert backward == forward
    assert alone == forward


_SHALLOW_OR_DEEP = {
    # `pick` returns a `Leaf` at once, or one from the end of a chain of calls
    "lib.py": "class Leaf:\n    def run(self):\n        pass\n"
    + "def chain0():\n    return Leaf()\n"
    + "".join(f"def chain{n}():\n    return chain{n - 1}()\n" for n in range(1, 6))
    + "def pick(flag):\n    if flag:\n        return Leaf()\n    return chain5()\n",
    # asks for it where all of it fits under the depth limit
    "a.py": "from lib import pick\ndef use_a():\n    pick(True).run()\n",
    # asks for it from deep down a chain of its own, where only its first answer fits
    "b.py": "from lib import pick\ndef w0():\n    return pick(False)\n"
    + "".join(f"def w{n}():\n    return w{n - 1}()\n" for n in range(1, 4))
    + "def use_b():\n    w3().run()\n",
}


def test_a_result_too_tall_for_where_it_is_reused_is_computed_there_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result from the shared cache that needed more depth than is left where it is asked
    for again is computed there again, not taken as unknown: cut short, a computation still
    finds some values and consults less than it would in full, so a file linked after the one
    that filled the cache would otherwise differ from the same file linked first (found on
    Django: 3 of 2,895 files recorded other dependencies linked on two processes than on one)."""
    from graphrag_code.languages.python.values import budget

    for name, text in _SHALLOW_OR_DEEP.items():
        (tmp_path / name).write_text(text)
    parsed = link_repository(tmp_path, repo="vf").parsed
    monkeypatch.setattr(budget, "_MAX_DEPTH", 6)
    after = _link_in_order(parsed, ["lib.py", "a.py", "b.py"])["b.py"]
    alone = _link_in_order(parsed, ["b.py"])["b.py"]
    assert after == alone
    # what the cut-short computation read: a change there must relink b.py
    assert "flows:lib.chain5/<return>" in after.modules_consulted


_DEEP_CHAIN = (
    "class Leaf:\n    def run(self):\n        pass\n"
    "def leaf():\n    return Leaf()\n"
    + "def chain0():\n    return leaf()\n"
    + "".join(f"def chain{n}():\n    return chain{n - 1}()\n" for n in range(1, 6))
    + "def use():\n"
    + "".join(f"    v{n} = chain5()\n    v{n}.run()\n" for n in range(12))
    # a cycle that closes above the result reused below it: a parameter its own calls pass on
    + "def walk(node, depth):\n    if depth:\n        walk(node, depth - 1)\n"
    + "".join(f"    n{n} = node\n    n{n}.run()\n" for n in range(6))
    + "def start():\n    walk(Leaf(), 3)\n"
)


def test_a_result_cut_short_where_it_ran_is_reused_there_and_links_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result cut short by the depth limit, or by a cycle closing at a computation still
    under way above it, holds only where it ran, so it is not shared between files; computing
    it again at every use made sympy's `concrete/delta.py` link in 18 s. It is reused at the
    same depth while that computation is under way, and the links are those of computing it
    every time."""
    from graphrag_code.languages.python.values import budget, results

    (tmp_path / "mod.py").write_text(_DEEP_CHAIN)
    monkeypatch.setattr(budget, "_MAX_DEPTH", 4)
    computed: list[str] = []
    real = results._function_result_uncached

    def counted(self: Any, function: str) -> Any:
        computed.append(function)
        return real(self, function)

    monkeypatch.setattr(results, "_function_result_uncached", counted)
    reused = link_repository(tmp_path, repo="t").links["mod.py"]
    reused_computes = computed.count("mod.chain5")
    # once per way it is asked for (shallow or with parameters followed), not once per use
    assert 1 <= reused_computes <= 2
    computed.clear()
    monkeypatch.setattr(budget._LocalResult, "holds", lambda self, stack: False)
    every_time = link_repository(tmp_path, repo="t").links["mod.py"]
    assert computed.count("mod.chain5") == 12 * reused_computes
    assert reused == every_time
    calls = {(e.source, e.target) for e in reused.edges if e.kind == EdgeKind.CALLS}
    assert ("t:mod.start", "t:mod.walk") in calls
    assert ("t:mod.use", "t:mod.chain5") in calls


def test_updating_the_index_in_place_keeps_descriptor_names_as_a_fresh_build(
    tmp_path: Path,
) -> None:
    """Watch mode swaps a changed file's part of the index in place: the count of class
    bodies assigning each name a call (where a descriptor may stand) must end as a fresh
    build of the same files would have it, names that no class assigns any more removed."""
    from graphrag_code.languages import index_rules
    from graphrag_code.linking.index import RepositoryIndex

    (tmp_path / "a.py").write_text("class A:\n    size = Meter()\n    name = Meter()\n")
    (tmp_path / "b.py").write_text("class B:\n    size = Meter()\n    flag = 1\n")
    before = link_repository(tmp_path, repo="t").parsed
    index = RepositoryIndex(before.values(), index_rules())
    assert index.descriptor_names == {"size": 2, "name": 1}
    (tmp_path / "a.py").write_text("class A:\n    size = 2\n    label = Meter()\n")
    after = link_repository(tmp_path, repo="t").parsed
    assert index.update([before["a.py"]], [after["a.py"]])
    assert index.descriptor_names == RepositoryIndex(after.values(), index_rules()).descriptor_names
    assert index.descriptor_names == {"size": 1, "label": 1}


def test_updating_the_index_in_place_keeps_overload_returns_as_a_fresh_build(
    tmp_path: Path,
) -> None:
    """The returns an `@overload` stub's later definitions declare (its own return type
    stands only if they all declare it, the implementation included) follow an edit in
    place as a fresh build has them."""
    from graphrag_code.languages import index_rules
    from graphrag_code.linking.index import Lookups, RepositoryIndex

    stubs = (
        "from typing import overload\nclass A: ...\nclass B: ...\n"
        "@overload\ndef make(x: int) -> A: ...\n"
        "@overload\ndef make(x: str) -> B: ...\n"
        "def make(x: int | str) -> A | B:\n    return A() if isinstance(x, int) else B()\n"
    )
    (tmp_path / "a.py").write_text(stubs)
    before = link_repository(tmp_path, repo="t").parsed
    index = RepositoryIndex(before.values(), index_rules())
    make = index.symbols["a.make"]
    assert Lookups(index).declared_return(make) is None  # A or B: the body says which
    (tmp_path / "a.py").write_text(stubs.replace("-> B", "-> A").replace("-> A | B", "-> A"))
    after = link_repository(tmp_path, repo="t").parsed
    assert index.update([before["a.py"]], [after["a.py"]])
    assert (
        index.redefined_returns == RepositoryIndex(after.values(), index_rules()).redefined_returns
    )
    assert Lookups(index).declared_return(index.symbols["a.make"]) == ("A",)
