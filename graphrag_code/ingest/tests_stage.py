"""Test roles and the reach graph, kept true under incremental runs.

After the links are written, each language's conventions say which files are test code,
which functions are tests, fixtures and set-ups, and which code runs without a caller (entry
points); those become node properties (`test_code`, `test_role`, `entry_points`). Then the
graph a test's reach is read from becomes REACHES edges: each node's callees with tiers (plus
nested functions, overrides, the protocol methods of a built class, a decorator's wrapper and
the namesakes of an unresolved call), and each test's fixtures and set-ups. Which tests reach a
node is walked on that graph when asked (`conventions.exercising`); only the best tier by which
any test reaches each node is stored (`test_reach`), for `untested` and dead code.

An incremental run recomputes the roles and the reach graph of every file (cheap, pure) but
writes only the nodes whose roles, reach tier or outgoing REACHES edges changed.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass, replace
from typing import Any

from ..conventions import ClassTree, FileRoles, reach_rank, reached_ranks, seeds_of_tests
from ..graph.writer import GraphWriter
from ..languages import language_named
from ..linking.edges import FileLinks, NodeIds
from ..model import EdgeKind, ParsedFile, Resolution, SymbolKind
from .languages import LanguageRun
from .receivers import by_function, fixture_types, receiver_calls, typed_calls
from .state import Role, SeedIds, TestsBook, packed, unpacked
from .write_behind import WriteBehind

__all__ = ["TestsBook", "TestsReport", "update_tests"]

_EXACT, _INFERRED, _NAME = Resolution.EXACT.rank, Resolution.INFERRED.rank, Resolution.NAME.rank
_REACH = {resolution: reach_rank(resolution) for resolution in Resolution}  # per call edge
# a reach rank as REACHES edges and `test_reach` store it: "exact", "inferred" or "name"
_STORED = {rank: Resolution.of_rank(rank).value for rank in (_EXACT, _INFERRED, _NAME)}
_FUNCTIONS = (SymbolKind.FUNCTION, SymbolKind.METHOD)
# An unresolved call whose name a few repository functions share may run any of them; more
# namesakes than this, or a name of a built-in type's method (`x.get()`: the caller's
# `Language.builtin_methods`), says nothing.
MAX_NAMESAKES = 4
# a tier is the `Resolution.rank` of the call (`reach_rank`) or of the weakest call on a path
Adjacency = dict[str, tuple[tuple[str, int], ...]]  # source id -> (target id, tier)
ReachGraph = dict[str, dict[str, tuple[int, str | None]]]  # source -> target -> (tier, via)


@dataclass
class TestsReport:
    __test__ = False  # a record, not a pytest test class

    tests: int = 0
    edges_written: int = 0  # REACHES edges
    sources_rewritten: int = 0  # nodes whose REACHES edges this run replaced
    roles_written: int = 0  # nodes whose role or reach tier this run set
    reached: int = 0  # nodes some test reaches


def _shape(parsed: ParsedFile) -> str:
    """A digest of what roles, seeds and nested edges read from a parse (not line numbers
    or bodies): a body edit keeps it."""
    digest = hashlib.sha256(f"{parsed.path}\0{parsed.module}\0{parsed.all_names}".encode())
    for s in parsed.symbols:
        digest.update(
            repr(
                (s.qualified_name, s.kind.value, s.parent, s.decorators, s.parameters,
                 s.returns, s.ordinal, s.signature[:6])
            ).encode()
        )  # fmt: skip
    language = language_named(parsed.language)
    receivers = receiver_calls(parsed, language.implicit_parameters) if parsed.calls else ()
    digest.update(repr(receivers).encode())
    runner = any(site.callee[-1] in language.runner_calls for site in parsed.calls)
    digest.update(b"runner" if runner else b"")
    return digest.hexdigest()[:32]


def _facts(links: FileLinks) -> bytes:
    """What the closure needs of one file's links: internal calls with tiers, base classes,
    and the names of the calls left unresolved in each node."""
    calls = tuple(
        (e.source, e.target, _REACH[e.resolution or Resolution.EXACT])
        for e in links.edges
        if e.kind == EdgeKind.CALLS and not e.external
    )
    inherits = tuple(
        (e.source, e.target, e.external) for e in links.edges if e.kind == EdgeKind.INHERITS
    )
    unresolved = tuple(sorted(links.unresolved_names.items()))
    return packed((calls, inherits, unresolved))


class _Names:
    """Node ids <-> (path, qualified name) for every file of the run."""

    def __init__(self, parsed: Mapping[str, ParsedFile], ids: NodeIds) -> None:
        self.qualified: dict[str, str] = {}  # id -> qualified name
        self.by_path: dict[tuple[str, str], str] = {}  # (path, qn) -> id (first definitions)
        self.every: dict[tuple[str, str], list[str]] = defaultdict(list)  # redefinitions too
        self.by_name: dict[str, str] = {}  # qn -> id (first definitions, canonical)
        self.of_file: dict[str, list[str]] = {}
        self.path_of: dict[str, str] = {}
        for path, file in parsed.items():
            module = ids.of_module(file)
            nodes = [module]
            self.qualified[module] = file.module
            self.by_path[(path, file.module)] = module
            for symbol in file.symbols:
                node = ids.of_symbol(symbol.qualified_name, ordinal=symbol.ordinal, path=path)
                nodes.append(node)
                self.qualified[node] = symbol.qualified_name
                self.every[(path, symbol.qualified_name)].append(node)
                if symbol.ordinal == 1:
                    self.by_path.setdefault((path, symbol.qualified_name), node)
                    self.by_name.setdefault(symbol.qualified_name, node)
            self.of_file[path] = nodes
            for node in nodes:
                self.path_of[node] = path

    def find(self, path: str, qualified_name: str) -> str | None:
        found = self.by_path.get((path, qualified_name)) if path else None
        return found or self.by_name.get(qualified_name)


def _class_tree(
    parsed: Mapping[str, ParsedFile], inherits: Iterable[tuple[str, str, bool]], names: _Names
) -> ClassTree:
    bases: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for source, target, external in inherits:
        cls = names.qualified.get(source)
        base = target if external else names.qualified.get(target)
        if cls is not None and base is not None:
            bases[cls].append((base, external))
    methods: dict[str, list[str]] = defaultdict(list)
    for file in parsed.values():
        for symbol in file.symbols:
            if symbol.kind == SymbolKind.METHOD and symbol.ordinal == 1:
                methods[symbol.parent].append(symbol.name)
    return ClassTree(bases, methods)


def _wrappers(
    parsed: Mapping[str, ParsedFile],
    names: _Names,
    candidates: Mapping[str, list[str]],
    add: Callable[[str, str, int], None],
) -> None:
    """A function decorated with a repository decorator runs that decorator's nested
    functions when called (`@setupmethod` -> `setupmethod.wrapper_func`): possible edges."""
    nested: dict[str, list[str]] = defaultdict(list)
    for path, file in parsed.items():
        for symbol in file.symbols:
            if symbol.ordinal == 1 and symbol.kind == SymbolKind.FUNCTION:
                parent = names.by_path.get((path, symbol.parent))
                node = names.by_path.get((path, symbol.qualified_name))
                if parent is not None and node is not None:
                    nested[parent].append(node)
    for path, file in parsed.items():
        for symbol in file.symbols:
            if symbol.ordinal != 1 or symbol.kind not in _FUNCTIONS or not symbol.decorators:
                continue
            node = names.by_path.get((path, symbol.qualified_name))
            for decorator in symbol.decorators:
                if "(" in decorator:
                    continue  # a factory: registers or configures, see entry points
                found = candidates.get(decorator.rsplit(".", 1)[-1], [])
                if node is not None and len(found) == 1:
                    for wrapper in nested.get(found[0], ()):
                        add(node, wrapper, _NAME)


def _callables_by_name(parsed: Mapping[str, ParsedFile], names: _Names) -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for path, file in parsed.items():
        for symbol in file.symbols:
            if symbol.ordinal == 1 and symbol.kind in _FUNCTIONS:
                node = names.by_path.get((path, symbol.qualified_name))
                if node is not None:
                    found[symbol.name].append(node)
    return found


def _node_roles(roles: Mapping[str, FileRoles], names: _Names) -> dict[str, Role]:
    test_code: set[str] = set()
    kind: dict[str, str] = {}
    runners: dict[str, str] = {}
    cases: dict[str, list[str]] = defaultdict(list)  # test -> the ids it runs under
    # tests some class has from a base, or a test module imports: run as several cases
    inherited: set[str] = set()
    entries: dict[str, list[str]] = defaultdict(list)
    for path, file in roles.items():
        if file.test_code:
            test_code.update(names.of_file.get(path, ()))
        for qualified_name in file.test_symbols:
            node = names.find(path, qualified_name)
            if node is not None:
                test_code.add(node)
        for setup in file.setups:
            node = names.find(path, setup)
            if node is not None:
                kind[node] = "setup"
        for fixture in file.fixtures:
            node = names.find(path, fixture.qualified_name)
            if node is not None:
                kind[node] = "fixture"
        for test in file.tests:
            node = names.find(path, test.qualified_name)
            if node is not None:
                kind[node] = "test"
                if test.runner is not None:
                    runners[node] = test.runner
                if test.case is not None and test.case not in cases[node]:
                    cases[node].append(test.case)
                if test.inherited or test.imported:
                    inherited.add(node)
        for qualified_name, reason in file.entry_points:
            # an overload's reasons hold for the implementation that redefines it
            for node in names.every.get((path, qualified_name), ()):
                if reason not in entries[node]:
                    entries[node].append(reason)
    return {
        node: (
            node in test_code,
            kind.get(node),
            tuple(entries.get(node, ())),
            runners.get(node),
            tuple(sorted(cases[node])) if node in inherited else (),
        )
        for node in test_code | kind.keys() | entries.keys()
    }


def _role_props(role: Role | None, reach: int | None) -> dict[str, Any]:
    # a book an older version kept has no runner nor cases: such a role differs from this
    # run's, so its node is written again
    code, kind, entries, runner, cases = (
        (*role, None, ())[:5] if role else (False, None, (), None, ())
    )
    return {
        "test_code": True if code else None,
        "test_role": kind,
        "entry_points": list(entries) if entries else None,
        "test_reach": _STORED[reach] if reach else None,
        "test_runner": runner,
        "test_cases": list(cases) if cases else None,
    }


def _adjacency(
    parsed: Mapping[str, ParsedFile],
    calls: Iterable[tuple[str, str, int]],
    unresolved: Iterable[tuple[str, tuple[str, ...]]],
    tree: ClassTree,
    names: _Names,
    ids: NodeIds,
    test_code: Set[str],
) -> dict[str, Adjacency]:
    """Per file of the source: each node's callees with tiers, its nested functions (exact:
    defined to be called or returned), the overrides of a method and the methods a built
    instance runs by syntax (name: dispatch), and for a call left unresolved because a few
    functions share its name, each of them (name).

    A call from code under test into `test_code` is left out: the library runs a test's
    callback (a hook, a view, a signal receiver) only for the test that registered it, and
    that test reaches it as its own nested function or call; through the library, every test
    would reach every other test's callbacks."""
    edges: dict[str, dict[str, int]] = defaultdict(dict)

    def add(source: str, target: str, tier: int) -> None:
        if target in test_code and source not in test_code:
            return
        if edges[source].get(target, 0) < tier:
            edges[source][target] = tier

    for source, target, tier in calls:
        add(source, target, tier)
    candidates = _callables_by_name(parsed, names)
    _wrappers(parsed, names, candidates, add)
    builtin = {path: language_named(file.language).builtin_methods for path, file in parsed.items()}
    for source, called in unresolved:
        common = builtin.get(names.path_of.get(source, ""), frozenset())
        for name in called:
            found = candidates.get(name, ())
            if 1 < len(found) <= MAX_NAMESAKES and name not in common:
                for target in found:
                    add(source, target, _NAME)
    for path, file in parsed.items():
        language = language_named(file.language)
        kinds = {s.qualified_name: s.kind for s in file.symbols if s.ordinal == 1}
        for symbol in file.symbols:
            if symbol.ordinal != 1:
                continue
            node = ids.of_symbol(symbol.qualified_name, path=path)
            if symbol.kind == SymbolKind.FUNCTION and kinds.get(symbol.parent) in _FUNCTIONS:
                parent = names.find(path, symbol.parent)
                if parent is not None:
                    add(parent, node, _EXACT)
            if symbol.kind == SymbolKind.METHOD:
                base = tree.overridden(symbol.parent, symbol.name)
                base_node = names.by_name.get(base) if base else None
                if base_node is not None:
                    add(base_node, node, _NAME)
                if language.runs_by_syntax(symbol):
                    # built instances get these run by syntax, not by a call naming them
                    built = (
                        names.find(path, f"{symbol.parent}.{language.constructor}")
                        if language.constructor
                        else None
                    )
                    owner = built or names.find(path, symbol.parent)
                    if owner is not None and owner != node:
                        add(owner, node, _NAME)
    by_file: dict[str, Adjacency] = defaultdict(dict)
    for source in sorted(edges):
        home = names.path_of.get(source)
        if home is not None:
            by_file[home][source] = tuple(sorted(edges[source].items()))
    return dict(by_file)


def _seed_ids(
    roles: Mapping[str, FileRoles],
    names: _Names,
    typed: Callable[[str, dict[str, str]], list[tuple[str, str]]],
) -> dict[str, SeedIds]:
    """Each test's seeds: its fixtures and set-ups (exact), and the methods it and its
    fixtures call on fixture-given objects of a known class (inferred)."""
    found: dict[str, SeedIds] = {}
    for (path, test), seeds in seeds_of_tests(roles).items():
        node = names.find(path, test)
        if node is None:
            continue
        ids = [
            (seed_id, seed.via, _EXACT)
            for seed in seeds
            if (seed_id := names.find(seed.path, seed.qualified_name)) is not None
        ]
        given = {
            seed.via.removeprefix("fixture "): seed.qualified_name
            for seed in reversed(seeds)
            if seed.via.startswith("fixture ")
        }
        for function in (test, *(s.qualified_name for s in seeds)):
            for method, parameter in typed(function, given):
                method_id = names.by_name.get(method)
                if method_id is not None:
                    ids.append((method_id, f"fixture {parameter}", _INFERRED))
        # an inherited test method runs the set-ups of each class that collects it
        found[node] = tuple(dict.fromkeys((*found.get(node, ()), *ids)))
    return found


def _instantiated(
    calls: Iterable[tuple[str, str, int]],
    names: _Names,
    tree: ClassTree,
    parsed: Mapping[str, ParsedFile],
) -> dict[str, set[str]]:
    """Function -> the repository classes whose constructor it calls (the class itself, or
    its language's constructor method)."""
    constructors = {
        path: f".{constructor}"
        for path, file in parsed.items()
        if (constructor := language_named(file.language).constructor)
    }
    found: dict[str, set[str]] = defaultdict(set)
    for source, target, _tier in calls:
        callee = names.qualified.get(target, "")
        constructor = constructors.get(names.path_of.get(target, ""))
        owner = callee.removesuffix(constructor) if constructor else callee
        if tree.is_class(owner):
            function = names.qualified.get(source)
            if function is not None:
                found[function].add(owner)
    return found


def _reach_graph(adjacency: Mapping[str, Adjacency], seeds: Mapping[str, SeedIds]) -> ReachGraph:
    """The call graph of the tests stage with each test's fixtures and set-ups added: a seed
    keeps its `via`, and wins over a direct call of the same node at the same tier."""
    graph: ReachGraph = {}
    for part in adjacency.values():
        for source, callees in part.items():
            graph[source] = {target: (tier, None) for target, tier in callees}
    for test, test_seeds in seeds.items():
        edges = graph.setdefault(test, {})
        for seed, via, tier in test_seeds:
            known = edges.get(seed)
            if seed != test and (known is None or known[0] <= tier):
                edges[seed] = (tier, via)
    return graph


def _changed_sources(old: Mapping[str, bytes], new: Mapping[str, bytes]) -> set[str]:
    changed: set[str] = set()
    for path in old.keys() | new.keys():
        before, after = old.get(path), new.get(path)
        if before == after:
            continue
        old_adjacency: Adjacency = unpacked(before) if before is not None else {}
        new_adjacency: Adjacency = unpacked(after) if after is not None else {}
        changed.update(
            node
            for node in old_adjacency.keys() | new_adjacency.keys()
            if old_adjacency.get(node) != new_adjacency.get(node)
        )
    return changed


def _changed_nodes(old: TestsBook, new: TestsBook, names: _Names) -> list[str]:
    """The nodes (still in the repository) whose role or reach tier differs between books."""
    nodes = old.roles.keys() | new.roles.keys() | old.reach.keys() | new.reach.keys()
    return sorted(
        node
        for node in nodes
        if node in names.path_of
        and (old.roles.get(node), old.reach.get(node)) != (new.roles.get(node), new.reach.get(node))
    )


def _changed_seeds(old: TestsBook, new: TestsBook) -> set[str]:
    """The tests whose fixtures and set-ups differ between books (or that came or went)."""
    return {t for t in old.seeds.keys() | new.seeds.keys() if old.seeds.get(t) != new.seeds.get(t)}


def update_tests(
    *,
    parsed: Mapping[str, ParsedFile],
    links: Mapping[str, FileLinks],
    relink: set[str],
    fresh: set[str],
    ids: NodeIds,
    langs: LanguageRun,
    writer: GraphWriter,
    writes: WriteBehind,
    previous: TestsBook | None,
    all_nodes: Iterable[str],
    project_changed: bool = False,
    progress: Callable[[int], None] | None = None,
) -> tuple[TestsBook, TestsReport]:
    """Write the changed roles, reach tiers and REACHES edges (handed to `writes`); the book
    the next run starts from. `previous` None: a full run (every role and edge is written)."""
    report = TestsReport()
    book = TestsBook()
    old = previous or TestsBook()
    for path, file_links in links.items():
        blob = old.facts.get(path) if previous is not None and path not in relink else None
        book.facts[path] = blob if blob is not None else _facts(file_links)
    book.shapes = {
        path: old.shapes[path]
        if previous is not None and path not in fresh and path in old.shapes
        else _shape(file)
        for path, file in parsed.items()
    }
    if (
        previous is not None
        and not project_changed
        and book.shapes == old.shapes
        and all(book.facts[path] == old.facts.get(path) for path in relink)
    ):
        # a body edit that changes no call, name, decorator or parameter: nothing here moves
        report.tests, report.reached = old.tests, old.reached
        return replace(old, facts=book.facts, shapes=book.shapes), report
    old.unpack()
    calls: list[tuple[str, str, int]] = []
    inherits: list[tuple[str, str, bool]] = []
    unresolved: list[tuple[str, tuple[str, ...]]] = []
    for blob in book.facts.values():
        file_calls, file_inherits, file_unresolved = unpacked(blob)
        calls.extend(file_calls)
        inherits.extend(file_inherits)
        unresolved.extend(file_unresolved)
    names = _Names(parsed, ids)
    tree = _class_tree(parsed, inherits, names)
    roles = {path: langs.roles(file, tree) for path, file in parsed.items()}
    book.roles = _node_roles(roles, names)

    test_code = {
        node
        for path, file in roles.items()
        if file.test_code
        for node in names.of_file.get(path, ())
    }
    adjacency = _adjacency(parsed, calls, unresolved, tree, names, ids, test_code)
    book.adjacency = {path: packed(value) for path, value in sorted(adjacency.items())}
    book.receivers = {
        path: receiver_calls(file, language_named(file.language).implicit_parameters)
        if previous is None or path in fresh or path not in old.receivers
        else old.receivers[path]
        for path, file in parsed.items()
    }
    receivers = by_function(r for found in book.receivers.values() for r in found)
    types = fixture_types(
        [f for file in roles.values() for f in file.fixtures],
        parsed,
        _instantiated(calls, names, tree, parsed),
        receivers,
        tree,
    )
    book.seeds = _seed_ids(
        roles, names, lambda function, given: typed_calls(function, given, types, receivers, tree)
    )
    report.tests = book.tests = len(book.seeds)
    graph = _reach_graph(adjacency, book.seeds)
    book.reach = reached_ranks(
        book.seeds,
        {source: [(t, tier) for t, (tier, _) in out.items()] for source, out in graph.items()},
    )
    report.reached = book.reached = len(book.reach)
    if previous is None:
        changed_nodes = sorted(all_nodes)
        writes.submit(writer.delete_all_reach_edges)
        sources = set(graph)
    else:
        changed_nodes = _changed_nodes(old, book, names)
        sources = _changed_sources(old.adjacency, book.adjacency) | _changed_seeds(old, book)
        writes.submit(writer.delete_reach_edges, sources)
    node_roles = [
        (node, _role_props(book.roles.get(node), book.reach.get(node))) for node in changed_nodes
    ]
    report.roles_written = len(changed_nodes)
    rows = [
        {"source": source, "target": target, "props": {"resolution": _STORED[tier], "via": via}}
        for source in sorted(sources & graph.keys())
        for target, (tier, via) in sorted(graph[source].items())
    ]
    writes.submit(writer.write_roles_and_reach, node_roles, rows, progress)
    report.sources_rewritten, report.edges_written = len(sources), len(rows)
    return book, report
