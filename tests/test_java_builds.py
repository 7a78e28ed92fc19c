"""Multi-module Java builds offline: files that several build modules hold are named apart by
their build module, and a name several declare is read as the importer's build sees it."""

from __future__ import annotations

from pathlib import Path

from benchmarks.accuracy.java_builds import measure
from graphrag_code.conventions import ClassTree
from graphrag_code.impact import runner_id
from graphrag_code.languages.java.builds import Builds
from graphrag_code.languages.java.conventions import JavaConventions
from graphrag_code.languages.java.modules import (
    build_folder,
    java_module_names,
    module_package,
    module_qualifier,
)
from graphrag_code.model import EdgeKind
from tests.linking_helpers import assert_calls, link_snippet

UTIL_A = "package p;\npublic class Util {\n  public static int one() { return 1; }\n}\n"
UTIL_B = "package p;\npublic class Util {\n  public static int two() { return 2; }\n}\n"


def _pom(artifact: str, *needs: str) -> str:
    deps = "".join(f"<dependency><artifactId>{n}</artifactId></dependency>" for n in needs)
    return (
        '<project xmlns="http://maven.apache.org/POM/4.0.0"><parent><artifactId>root'
        f"</artifactId></parent><artifactId>{artifact}</artifactId>"
        f"<dependencies>{deps}</dependencies></project>"
    )


def test_only_files_that_collide_are_qualified_by_their_build_module() -> None:
    names = java_module_names(
        [
            "core/src/main/java/p/Util.java",
            "web/src/main/java/p/Util.java",
            "web/src/main/java/p/Page.java",
            "libs/json/src/main/java/module-info.java",
            "libs/xml/src/main/java/module-info.java",
        ],
        frozenset(),
        None,
    )
    modules = {path: name.module for path, name in names.items()}
    assert modules == {
        "core/src/main/java/p/Util.java": "core/p/Util.java",
        "web/src/main/java/p/Util.java": "web/p/Util.java",
        "web/src/main/java/p/Page.java": "p/Page.java",
        "libs/json/src/main/java/module-info.java": "libs/json//module-info.java",
        "libs/xml/src/main/java/module-info.java": "libs/xml//module-info.java",
    }
    assert module_package("libs/json/com.x/Util.java") == "com.x"
    assert module_package("com.x/Util.java") == "com.x"
    assert module_qualifier("libs/json/com.x/Util.java") == "libs/json"
    assert module_qualifier("com.x/Util.java") == ""


def test_one_build_modules_main_and_test_copies_are_told_apart_by_source_root() -> None:
    names = java_module_names(
        [
            "core/src/main/java/p/Util.java",
            "core/src/test/java/p/Util.java",
            "src/main/java/p/Util.java",
        ],
        frozenset(),
        None,
    )
    assert [names[p].module for p in sorted(names)] == [
        "core/src/main/java/p/Util.java",
        "core/src/test/java/p/Util.java",
        "src/main/java/p/Util.java",
    ]
    assert build_folder("core/src/test/java/p/Util.java") == "core"
    assert build_folder("lib/src/p/Util.java") == "lib"
    assert build_folder("src/main/java/p/Util.java") == ""


def test_the_root_modules_file_keeps_its_plain_name() -> None:
    names = java_module_names(
        ["src/main/java/p/Util.java", "web/src/main/java/p/Util.java"], frozenset(), None
    )
    assert names["src/main/java/p/Util.java"].module == "p/Util.java"
    assert names["web/src/main/java/p/Util.java"].module == "web/p/Util.java"


def test_symbols_of_a_qualified_file_carry_its_build_module() -> None:
    linked = link_snippet(
        {
            "a/src/main/java/p/Util.java": UTIL_A,
            "b/src/main/java/p/Util.java": UTIL_B,
            "a/src/main/java/Main.java": "class Main {}\n",
            "b/src/main/java/Main.java": "class Main {\n  class In {}\n}\n",
        }
    )
    names = {s.qualified_name for f in linked.repository.parsed.values() for s in f.symbols}
    assert names == {
        "a/p.Util", "a/p.Util.one", "b/p.Util", "b/p.Util.two", "a/Main", "b/Main", "b/Main.In",
    }  # fmt: skip


def test_imports_and_calls_read_the_importers_own_build_module_first() -> None:
    linked = assert_calls(
        {
            "a/src/main/java/p/Util.java": UTIL_A,
            "b/src/main/java/p/Util.java": UTIL_B,
            "a/src/main/java/q/Other.java": "package q;\nimport p.Util;\n"
            "class Other {\n  void run() { Util.one(); }\n}\n",
            "b/src/main/java/q/Use.java": "package q;\nimport static p.Util.two;\n"
            "class Use {\n  void run() { two(); p.Util.two(); }\n}\n",
            "b/src/test/java/p/UtilTest.java": "package p;\n"
            "class UtilTest {\n  void t() { Util.two(); }\n}\n",
        },
        ("q.Other.run", "a/p.Util.one", "exact"),
        ("q.Use.run", "b/p.Util.two", "exact"),
        ("p.UtilTest.t", "b/p.Util.two", "exact"),
    )
    imports = {(k.source, k.target) for k in linked.of(EdgeKind.IMPORTS).values()}
    assert ("q/Other.java", "a/p/Util.java") in imports
    assert ("q/Use.java", "b/p/Util.java") in imports


def test_a_sibling_module_it_depends_on_is_read_next_maven_and_gradle() -> None:
    use = "package q;\nimport p.Util;\nclass {name} {{\n  void run() {{ Util.{method}(); }}\n}}\n"
    linked = assert_calls(
        {
            "pom.xml": "<project><modules><module>a</module><module>b</module>"
            "<module>app</module></modules></project>",
            "a/pom.xml": _pom("lib-a"),
            "b/pom.xml": _pom("lib-b"),
            "mid/pom.xml": _pom("mid", "lib-b", "junit"),
            "app/pom.xml": _pom("app", "mid"),
            "a/src/main/java/p/Util.java": UTIL_A,
            "b/src/main/java/p/Util.java": UTIL_B,
            "app/src/main/java/q/App.java": use.format(name="App", method="two"),
            "lone/src/main/java/q/Lone.java": use.format(name="Lone", method="two"),
            "g/build.gradle": "dependencies {\n  implementation project(':a')\n}\n",
            "g/src/main/java/q/G.java": use.format(name="G", method="one"),
        },
        ("q.App.run", "b/p.Util.two", "exact"),  # through mid, transitively
        ("q.G.run", "a/p.Util.one", "exact"),
    )
    # Lone depends on neither: which `Util` it means is not evident, so its call is left to
    # name matches (not an external `p.Util`) and it imports each
    assert linked.unresolved_names("q.Lone.run") == [("two",)]
    imports = {
        k.target
        for (source, _), k in linked.of(EdgeKind.IMPORTS).items()
        if source == "q/Lone.java"
    }
    assert imports == {"a/p/Util.java", "b/p/Util.java"}


def test_build_files_that_do_not_parse_declare_no_dependencies() -> None:
    builds = Builds.read({"a/pom.xml": "<project><artifactId>a", "b/pom.xml": _pom("b", "a")})
    assert builds.depends == {"a": (), "b": ()}
    order = Builds.read({"a/pom.xml": _pom("a"), "b/pom.xml": _pom("b", "a")})
    assert order.order("b", [("a/p.U", "a"), ("c/p.U", "c")]) == ["a/p.U"]
    assert order.order("c", [("a/p.U", "a"), ("b/p.U", "b")]) == []


def test_a_tests_runner_id_without_a_stored_one_is_the_maven_command() -> None:
    core = "core/src/test/java/com/x/UtilTest.java"
    assert runner_id(core, "com.x.UtilTest.trims", "com.x/UtilTest.java") == (
        "mvn -pl core test -Dtest='UtilTest#trims'"
    )
    assert runner_id(core, "core/com.x.UtilTest.Nested.trims(int)", "core/com.x/UtilTest.java") == (
        "mvn -pl core test -Dtest='UtilTest$Nested#trims'"
    )
    root = "src/test/java/UtilTest.java"
    assert runner_id(root, "UtilTest.trims", "/UtilTest.java") == "mvn test -Dtest='UtilTest#trims'"
    assert runner_id("libs/a/src/test/java/p/T.java", "p.T", None) == "mvn -pl libs/a test"


def _runners(files: dict[str, str]) -> dict[str, str | None]:
    linked = link_snippet(files)
    tools = JavaConventions().configure(
        {path: text for path, text in files.items() if not path.endswith(".java")}
    )
    tree = ClassTree({}, {})
    return {
        test.qualified_name: test.runner
        for parsed in linked.repository.parsed.values()
        for test in JavaConventions().roles(parsed, tools, tree).tests
    }


def test_the_build_files_say_whether_maven_or_gradle_runs_a_test() -> None:
    test = "package p;\nclass {name} {{\n  @org.junit.jupiter.api.Test void ok() {{}}\n}}\n"
    runners = _runners(
        {
            "pom.xml": _pom("root"),
            "m/pom.xml": _pom("m"),
            "m/src/test/java/p/MTest.java": test.format(name="MTest"),
            "g/build.gradle": "plugins { id 'java' }\n",
            "g/src/test/java/p/GTest.java": test.format(name="GTest"),
            "g/sub/src/integrationTest/java/p/ItTest.java": test.format(name="ItTest"),
            "src/test/java/p/RootTest.java": test.format(name="RootTest"),
        }
    )
    assert runners == {
        "p.MTest.ok": "mvn -pl m test -Dtest='MTest#ok'",
        "p.GTest.ok": "gradle :g:test --tests 'p.GTest.ok'",
        "p.ItTest.ok": "gradle :g:sub:integrationTest --tests 'p.ItTest.ok'",
        "p.RootTest.ok": "mvn test -Dtest='RootTest#ok'",
    }
    gradle_only = {"settings.gradle.kts": 'include("m")\n'}
    bare = _runners({**gradle_only, "m/src/test/java/p/MTest.java": test.format(name="MTest")})
    assert bare == {"p.MTest.ok": "gradle :m:test --tests 'p.MTest.ok'"}
    assert _runners({"src/test/java/p/T.java": test.format(name="T")}) == {"p.T.ok": None}


def test_the_builds_benchmark_counts_qualified_and_shadowed_files(tmp_path: Path) -> None:
    for path, text in {
        "a/src/main/java/p/Util.java": UTIL_A,
        "b/src/main/java/p/Util.java": UTIL_B,
        "b/src/main/java/q/Use.java": "package q;\nclass Use {\n  void r() { p.Util.two(); }\n}\n",
    }.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    found = measure(tmp_path)
    assert (found["files"], found["qualified_files"], found["shadowed_files"]) == (3, 2, 0)
    assert found["calls"] == {"internal exact": 1}
