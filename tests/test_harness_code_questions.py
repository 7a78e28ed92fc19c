"""Code questions: the pure question builders, and one run of ablations against the real Neo4j
(hashing embedder) on a tiny package whose oracle outputs are written by hand."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_code.embedding import HashingEmbedder
from graphrag_code.errors import ConfigurationError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.settings import Settings
from harness.code_questions import (
    Answer,
    Category,
    CodeQuestion,
    Definition,
    PackageSource,
    caller_questions,
    concept_questions,
    copy_package,
    definition_questions,
    docstring_question,
    impact_questions,
    read_questions,
    reverse_importers,
    run_code_benchmark,
    scan_definitions,
    score_answers,
    scored_ranking,
    shortest_unique_name,
    spellings,
    strip_docstrings,
    write_questions,
)

from .conftest import drop_search_indexes, wipe

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end


# -- docstring removal --------------------------------------------------------------------------
def test_strip_docstrings_blanks_every_docstring_and_keeps_every_line() -> None:
    source = (
        '"""Module doc."""\n'
        "from __future__ import annotations\n"
        "class A:\n"
        '    """Class doc\n'
        '    on two lines."""; x = 1\n'
        "    async def f(self):\n"
        '        ("""paren\n'
        '        thesised""")\n'
        '        return "not a docstring"\n'
        "def g():\n"
        "    '''Only a docstring.\n"
        "\n"
        "    More.'''\n"
    )
    stripped = strip_docstrings(source)
    assert stripped.count("\n") == source.count("\n")
    tree = ast.parse(stripped)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            assert not ast.get_docstring(node)
    lines = {n.name: n.lineno for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef)}
    assert lines == {"f": 6}
    assert '"not a docstring"' in stripped
    assert "x = 1" in stripped
    assert [n.lineno for n in tree.body if isinstance(n, ast.FunctionDef)] == [10]


def test_copy_package_mirrors_python_files_only_and_only_rewrites_changes(tmp_path: Path) -> None:
    root = tmp_path / "src"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text('"""Doc."""\nX = 1\n')
    (root / "pkg" / "sub" / "m.py").write_text("def f():\n    '''Doc.'''\n    return 1\n")
    (root / "pkg" / "data.txt").write_text("not code")
    target = tmp_path / "copy"
    assert copy_package(root, "pkg", target, without_docstrings=True) == 2
    assert (target / "pkg" / "__init__.py").read_text() == '""\nX = 1\n'
    assert not (target / "pkg" / "data.txt").exists()
    assert copy_package(root, "pkg", target, without_docstrings=True) == 0
    (root / "pkg" / "sub" / "m.py").unlink()
    assert copy_package(root, "pkg", target, without_docstrings=True) == 1
    assert not (target / "pkg" / "sub" / "m.py").exists()


# -- builders -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("docstring", "expected"),
    [
        (
            "Constructs a :class:`Request <Request>`, prepares it and sends it.\nReturns x.",
            "Constructs a Request, prepares it and sends it.",
        ),
        (
            "Return the ``value`` of the header named here.\n\nMore.",
            "Return the `value` of the header named here.",
        ),
        ("Close it.", None),  # too short to be a question
        ("Alias for :meth:`get` kept for backwards compatibility.", None),
        (None, None),
    ],
)
def test_docstring_question(docstring: str | None, expected: str | None) -> None:
    assert docstring_question(docstring) == expected


def test_shortest_unique_name() -> None:
    names = ["p.api.request", "p.sessions.Session.request", "p.sessions.Session", "p.utils.f"]
    assert shortest_unique_name("p.utils.f", names) == "f"
    assert shortest_unique_name("p.api.request", names) == "api.request"
    assert shortest_unique_name("p.sessions.Session.request", names, minimum=2) == "Session.request"


def _definition(qualified: str, kind: Any = "function", doc: str | None = None) -> Definition:
    module = qualified.rsplit(".", 2 if kind == "method" else 1)[0]
    return Definition(
        qualified_name=qualified,
        name=qualified.rsplit(".", 1)[1],
        kind=kind,
        module=module,
        path=module.replace(".", "/") + ".py",
        line=1,
        docstring=doc,
        nested=False,
        overloaded=False,
    )


def test_caller_questions_group_jedi_call_sites_by_target() -> None:
    definitions = [
        _definition("p.store.Store", "class"),
        _definition("p.store.Store.save", "method"),
        _definition("p.service.place"),
        _definition("p.service.busy"),
    ]
    calls = {
        "classes": [{"qname": "p.store.Store"}],
        "call_sites": [
            {"caller": "p.service.place", "targets": ["p.store.Store.save"]},
            {"caller": "p.service.place", "targets": ["p.store.Store.save"]},
            {"caller": "p.cli", "targets": ["p.store.Store.save", "p.store.Store"]},
            {"caller": "p.cli", "targets": []},
            *({"caller": f"p.x.f{i}", "targets": ["p.service.busy"]} for i in range(11)),
        ],
    }
    questions = caller_questions(calls, definitions, "r", sample=10)
    assert [(q.question, q.relevant) for q in questions] == [
        ("What calls `Store.save`?", ("r:p.cli", "r:p.service.place")),
    ]  # the class (construction) and the target with 11 callers are left out
    assert questions[0].category is Category.CALLERS


def test_impact_questions_follow_runtime_imports_transitively() -> None:
    imports = {
        "module_files": {"p": "p/__init__.py", "p.a": "p/a.py", "p.b": "p/b.py", "p.c": "p/c.py"},
        "internal_imports": [["p.b", "p.a", [1]], ["p.c", "p.b", [1]], ["p.a", "p.c", [3]]],
        "type_checking_imports": [["p.a", "p.c", [3]]],
    }
    assert reverse_importers(imports["internal_imports"])["p.a"] == {"p.b", "p.c"}
    questions = impact_questions(imports, "r", sample=10)
    assert [(q.question, q.relevant) for q in questions] == [
        ("What breaks if I change p/a.py?", ("r:p.b", "r:p.c")),
        ("What breaks if I change `p.a`?", ("r:p.b", "r:p.c")),
        ("What breaks if I change p/b.py?", ("r:p.c",)),
        ("What breaks if I change `p.b`?", ("r:p.c",)),
    ]  # p.c's only importer is a TYPE_CHECKING import
    with_checking = impact_questions(imports, "r", sample=10, type_checking=True)
    assert {q.subject for q in with_checking} == {"p.a", "p.b", "p.c"}


def test_spellings_of_methods_functions_and_classes() -> None:
    assert spellings(_definition("p.s.Session.request", "method")) == {
        "dotted": "`Session.request`",
        "phrase": "the request method of Session",
        "joined": "sessionRequest",
        "words": "session request",
    }
    assert spellings(_definition("p.u.get_netrc_auth"))["joined"] == "getNetrcAuth"
    assert spellings(_definition("p.a.HTTPAdapter", "class"))["joined"] == "http_adapter"
    assert spellings(_definition("p.a.Session", "class"))["joined"] == "session"


def test_concept_and_definition_questions_skip_ambiguous_answers() -> None:
    shared = "Send the prepared request over the wire."
    definitions = [
        _definition("p.a.send", doc=shared),
        _definition("p.b.send", doc=shared),
        _definition("p.c.Client.fetch", "method", doc="Fetch one page of results from the API."),
    ]
    concept = concept_questions(definitions, "r-nodoc", sample=10)
    assert [(q.question, q.relevant) for q in concept] == [
        ("Fetch one page of results from the API.", ("r-nodoc:p.c.Client.fetch",)),
    ]
    definition = definition_questions(definitions, "r", sample=10)
    assert {q.subject for q in definition} == {"p.c.Client.fetch"}  # `send` is defined twice
    assert [q.variant for q in definition] == ["dotted", "phrase", "joined", "words"]


def test_scan_definitions_reads_nesting_and_overloads(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "__init__.py").write_text(
        "from typing import overload\n"
        "class A:\n"
        "    def m(self):\n"
        "        def inner(): pass\n"
        "@overload\n"
        "def f(x: int) -> int: ...\n"
        "def f(x): return x\n"
    )
    definitions = scan_definitions(tmp_path, "p")
    found = {(d.qualified_name, d.kind, d.nested, d.overloaded) for d in definitions}
    assert found == {
        ("p.A", "class", False, False),
        ("p.A.m", "method", False, False),
        ("p.A.m.inner", "function", True, False),
        ("p.f", "function", False, True),
        ("p.f", "function", False, False),
    }


# -- scoring ------------------------------------------------------------------------------------
def test_scoring_maps_impact_hits_to_modules_and_strips_id_suffixes() -> None:
    impact = CodeQuestion("q1", "What breaks?", Category.IMPACT, "r", ("r:p.b", "r:p.c"))
    modules = {"p/b.py": "p.b", "p/c.py": "p.c"}
    hits = [
        ("r:p.b.f", "p/b.py"),
        ("r:p.b", "p/b.py"),
        ("x:y", "elsewhere.py"),
        ("r:p.c", "p/c.py"),
    ]
    assert scored_ranking(impact, hits, modules) == ("r:p.b", "r:p.c")
    callers = CodeQuestion("q2", "What calls `f`?", Category.CALLERS, "r", ("r:p.g", "r:p.h"))
    ranking = scored_ranking(callers, [("r:p.x", ""), ("r:p.g#2", ""), ("r:p.h@p/h.py", "")], {})
    assert ranking == ("r:p.x", "r:p.g", "r:p.h")
    answers = [
        Answer(impact, "hybrid", scored_ranking(impact, hits, modules), (), {}),
        Answer(callers, "hybrid", ranking, (), {}),
    ]
    scores = score_answers(answers)
    assert scores["impact"].means["R@1"] == 0.5
    assert scores["impact"].means["Acc@5"] == 1.0
    assert scores["callers"].means["MRR"] == 0.5
    assert scores["callers"].means["Acc@5"] == 1.0
    assert scores["all"].queries == 2


def test_questions_round_trip_through_jsonl(tmp_path: Path) -> None:
    question = CodeQuestion("q", "Where is `f` defined?", Category.DEFINITION, "r", ("r:p.f",))
    write_questions(tmp_path / "q.jsonl", [question])
    assert read_questions(tmp_path / "q.jsonl") == [question]
    (tmp_path / "bad.jsonl").write_text('{"id": "q"}\n')
    with pytest.raises(ConfigurationError):
        read_questions(tmp_path / "bad.jsonl")


# -- one run against the real Neo4j -------------------------------------------------------------
PACKAGE = {
    "__init__.py": '"""Demo shop."""\n',
    "store.py": (
        "class Store:\n"
        "    def save(self, order):\n"
        '        """Write the order to the ledger so that it survives a restart."""\n'
        "        return order\n"
    ),
    "service.py": (
        "from demo.store import Store\n"
        "def place_order(order):\n"
        '    """Validate an order and hand it to the store for safekeeping."""\n'
        "    return Store().save(order)\n"
    ),
    "cli.py": (
        "from demo.service import place_order\n"
        "def main():\n"
        '    """Parse the command line and place the requested order."""\n'
        "    place_order({})\n"
    ),
}
ORACLE_CALLS = {
    "classes": [{"qname": "demo.store.Store"}],
    "call_sites": [
        {"caller": "demo.service.place_order", "targets": ["demo.store.Store"]},
        {"caller": "demo.service.place_order", "targets": ["demo.store.Store.save"]},
        {"caller": "demo.cli.main", "targets": ["demo.service.place_order"]},
    ],
}
ORACLE_IMPORTS = {
    "module_files": {
        f"demo.{n[:-3]}" if n != "__init__.py" else "demo": f"demo/{n}" for n in PACKAGE
    },
    "internal_imports": [["demo.service", "demo.store", [1]], ["demo.cli", "demo.service", [1]]],
    "type_checking_imports": [],
}


@pytest.fixture(name="demo_source")
def demo_source_fixture(tmp_path: Path) -> PackageSource:
    root = tmp_path / "src"
    (root / "demo").mkdir(parents=True)
    for name, text in PACKAGE.items():
        (root / "demo" / name).write_text(text)
    (tmp_path / "calls.json").write_text(json.dumps(ORACLE_CALLS))
    (tmp_path / "imports.json").write_text(json.dumps(ORACLE_IMPORTS))
    return PackageSource(
        "demo", "1.0", root, "demo", tmp_path / "calls.json", tmp_path / "imports.json"
    )


@pytest.fixture(name="clean_neo4j")
def clean_neo4j_fixture(session_client: Neo4jClient) -> Iterator[Neo4jClient]:
    wipe(session_client)
    drop_search_indexes(session_client)
    yield session_client
    drop_search_indexes(session_client)


@pytest.mark.integration
def test_ablations_run_on_the_same_indexes(
    clean_neo4j: Neo4jClient, demo_source: PackageSource, tmp_path: Path
) -> None:
    out = tmp_path / "results"
    result = run_code_benchmark(
        ["demo==1.0"],
        output_dir=out,
        # ablations whose query parameters have the same types share one Cypher plan
        # (planning the hybrid query costs seconds on a fresh server)
        ablations=["vector+text", "hybrid", "neo4j-graphrag"],
        sample=10,
        client=clean_neo4j,
        settings=Settings(embedder="hashing", cache_dir=tmp_path / "cache"),
        embedder=HashingEmbedder(),
        sources=lambda spec: demo_source,
    )
    # the concept copy lost its docstrings; the other copy kept them
    documented = clean_neo4j.read(
        "MATCH (n:Code) WHERE n.docstring IS NOT NULL RETURN DISTINCT n.repo AS repo"
    )
    assert [row["repo"] for row in documented] == ["cq-demo-1.0"]
    per_category = result.scores["demo==1.0"]
    assert set(per_category["hybrid"]) == {"all", "concept", "callers", "impact", "definition"}
    # "What calls `Store.save`?" / `place_order`: the graph leg finds the callers jedi found
    assert per_category["hybrid"]["callers"].means["MRR"] == 1.0
    assert per_category["hybrid"]["callers"].means["Acc@5"] == 1.0
    assert per_category["vector+text"]["callers"].means["MRR"] < 1.0
    # the baseline sends "demo/store.py?" to Lucene as typed: a lexical error, counted
    assert result.baseline_failures["demo==1.0"] >= 1
    assert result.summary_json is not None
    assert result.summary_md is not None
    assert result.run_log is not None
    summary = json.loads(result.summary_json.read_text())
    assert summary["pooled"]["hybrid"]["callers"]["n"] == 2
    assert "| hybrid |" in result.summary_md.read_text()
    records = [json.loads(line) for line in result.run_log.read_text().splitlines()]
    assert records[0]["type"] == "run"
    assert records[0]["git"].keys() == {"commit", "dirty"}
    answers = [r for r in records if r["type"] == "answer" and r["ablation"] == "hybrid"]
    assert answers
    assert any("graph" in hit["ranks"] for a in answers for hit in a["hits"])
    assert all("query" in a["timings_ms"] for a in answers)
    questions = read_questions(out / "code_questions-demo.questions.jsonl")
    assert {q.category for q in questions} == set(Category)
