"""The Java parser offline: declarations, names of overloads, lines, Javadoc, imports, call
sites and the module names of Maven and Gradle layouts."""

from __future__ import annotations

from graphrag_code.languages.java.modules import java_module_names
from graphrag_code.languages.java.parser import JavaParser
from graphrag_code.model import Name, ParsedFile

SOURCE = """\
package com.x;

import java.util.*;
import static java.lang.Math.max;
import com.y.Z;

/** The outer type. */
@Deprecated
public class A<T> extends B<T> implements I, J {
  private final List<String> items = new ArrayList<>();

  /** The first m. */
  @Override
  public void m(int x, String... ys) {
    var q = new Foo();
    q.bar(1)
      .baz();
    new Runnable() { public void run() { go(); } };
  }

  void m(java.util.List<String> l) { this.m(1); }

  A(int x) { this(x, 2); }

  enum E { X { void f() {} }, Y; }

  record R(int a, String b) { R { } }

  interface Inner { default void d() {} }
}
"""


def parse(source: str, path: str = "src/main/java/com/x/A.java") -> ParsedFile:
    return JavaParser().parse(
        path=path, module="com.x/A.java", is_package=False, source=source.encode(), sha256=""
    )


def symbols(parsed: ParsedFile) -> dict[str, tuple[int, str | None]]:
    return {s.qualified_name: (s.start_line, s.declared_as) for s in parsed.symbols}


def test_declarations_are_named_by_package_and_enclosing_types_at_their_names_line() -> None:
    found = symbols(parse(SOURCE))
    assert found["com.x.A"] == (9, None)
    assert found["com.x.A.A"] == (23, "constructor")
    assert found["com.x.A.E"] == (25, "enum")
    assert found["com.x.A.E.X"] == (25, "enum constant")
    assert found["com.x.A.E.X.f"] == (25, None)
    assert found["com.x.A.R"] == (27, "record")
    assert found["com.x.A.R.R"] == (27, "constructor")
    assert found["com.x.A.Inner"] == (29, "interface")
    assert found["com.x.A.$1"][1] == "anonymous class"
    assert "com.x.A.$1.run" in found


def test_overloads_carry_their_parameter_types_and_a_single_method_its_plain_name() -> None:
    found = symbols(parse(SOURCE))
    assert found["com.x.A.m(int,String[])"] == (14, None)
    assert found["com.x.A.m(List)"] == (21, None)
    assert "com.x.A.m" not in found
    assert "com.x.A.Inner.d" in found


def test_javadoc_annotations_bases_and_parameters() -> None:
    parsed = parse(SOURCE)
    by_name = {s.qualified_name: s for s in parsed.symbols}
    outer = by_name["com.x.A"]
    assert outer.docstring == "The outer type."
    assert outer.decorators == ("Deprecated",)
    assert outer.bases == (("B",),)
    assert outer.implements == (("I",), ("J",))
    method = by_name["com.x.A.m(int,String[])"]
    assert method.docstring == "The first m."
    assert method.parameters == ("x", "ys")
    assert method.parameter_kinds == "p*"


def test_imports_single_on_demand_and_static() -> None:
    imports = {(i.module, i.name) for i in parse(SOURCE).imports}
    assert imports == {("java.util", "*"), ("java.lang.Math", "max"), ("com.y", "Z")}


def test_call_sites_sit_on_the_line_of_the_name_they_call() -> None:
    calls = {(c.callee, c.line) for c in parse(SOURCE).calls}
    assert (("q", "bar"), 16) in calls
    assert (("<expr>", "baz"), 17) in calls
    assert (("new", "Foo"), 15) in calls
    assert (("this",), 23) in calls
    assert (("go",), 18) in calls


def test_locals_are_bound_to_their_declared_or_created_types() -> None:
    bindings = {(b.scope, b.target, b.value, b.kind) for b in parse(SOURCE).bindings}
    assert ("com.x.A.m(int,String[])", ("q",), ("Foo",), "annotation") in bindings
    assert ("com.x.A", ("items",), ("List",), "annotation") in bindings
    assert ("com.x.A.m(List)", ("l",), ("java", "util", "List"), "annotation") in bindings


def test_broken_source_is_an_issue_not_an_exception() -> None:
    parsed = parse("package a;\nclass B { void m( { }\n")
    assert parsed.issues
    assert parse("\x00\x01 not java at all").issues


def test_a_chained_call_keeps_its_receiver_expression() -> None:
    site = next(c for c in parse(SOURCE).calls if c.callee == ("<expr>", "baz"))
    assert site.value is not None
    inner = site.value.callee.value  # type: ignore[attr-defined]
    assert inner.callee.value == Name(("q",))


def test_module_names_follow_maven_gradle_and_plain_source_roots() -> None:
    names = java_module_names(
        [
            "src/main/java/com/shop/Order.java",
            "core/src/test/java/com/shop/OrderTest.java",
            "app/src/integrationTest/java/com/shop/It.java",
            "lib/src/com/shop/Util.java",
            "com/google/gson/Gson.java",
            "Main.java",
        ],
        frozenset(),
        None,
    )
    assert names["src/main/java/com/shop/Order.java"].module == "com.shop/Order.java"
    assert names["core/src/test/java/com/shop/OrderTest.java"].module == "com.shop/OrderTest.java"
    assert names["app/src/integrationTest/java/com/shop/It.java"].module == "com.shop/It.java"
    assert names["lib/src/com/shop/Util.java"].module == "com.shop/Util.java"
    assert names["com/google/gson/Gson.java"].module == "com.google.gson/Gson.java"
    assert names["Main.java"].module == "/Main.java"
