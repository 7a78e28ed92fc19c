"""Java overloads whose parameters are type variables: named by their erasure, one node each
(the shape that failed commons-lang3's index: `Validate.notEmpty(T)` three times)."""

from __future__ import annotations

from graphrag_code.languages.java.parser import JavaParser
from graphrag_code.model import ParsedFile
from tests.linking_helpers import assert_calls

ROOT = "src/main/java/p/"


def parse(source: str) -> ParsedFile:
    return JavaParser().parse(
        path=ROOT + "A.java", module="p.A", is_package=False, source=source.encode(), sha256=""
    )


def names(source: str) -> list[tuple[str, int]]:
    return [(s.qualified_name, s.ordinal) for s in parse(source).symbols]


VALIDATE = """package p;
import java.util.*;
public class Validate {
  public static <T extends Collection<?>> T notEmpty(final T c) { return c; }
  public static <T extends Map<?, ?>> T notEmpty(final T m) { return m; }
  public static <T extends CharSequence> T notEmpty(final T s) { return s; }
  public static <T> T[] notEmpty(final T[] a) { return a; }
  public static <T extends Collection<?>> T notEmpty(T c, String message, Object... values) {
    return notEmpty(c);
  }
  public static <T extends Map<?, ?>> T notEmpty(T m, String message, Object... values) {
    return m;
  }
}
"""


def test_overloads_differing_in_bounds_are_named_by_their_erasure() -> None:
    found = names(VALIDATE)
    assert [name for name, _ in found] == [
        "p.Validate",
        "p.Validate.notEmpty(Collection)",
        "p.Validate.notEmpty(Map)",
        "p.Validate.notEmpty(CharSequence)",
        "p.Validate.notEmpty(Object[])",
        "p.Validate.notEmpty(Collection,String,Object[])",
        "p.Validate.notEmpty(Map,String,Object[])",
    ]
    assert {ordinal for _, ordinal in found} == {1}
    # the signature keeps the source's text for readers
    signatures = [s.signature for s in parse(VALIDATE).symbols]
    assert "public static <T extends Map<?, ?>> T notEmpty(final T m)" in signatures


def test_class_variables_unbounded_chained_arrays_and_varargs() -> None:
    found = names(
        "package p;\nclass A<E extends Number, F> {\n"
        "  void put(E e) {}\n  void put(F f, int i) {}\n  void put(String s) {}\n"
        "  <T> void any(T x) {}\n  <T> void any(T[] xs, T... more) {}\n"
        "  <U extends Comparable<U>, V extends U> void chain(V v) {}\n  void chain() {}\n"
        "  <E> void shadow(E e) {}\n  void shadow() {}\n"
        "  class Inner {\n    void m(E e) {}\n    void m() {}\n  }\n"
        "  static class Nested<E> {\n    void m(E e) {}\n    void m() {}\n  }\n"
        "  void lists(java.util.List<E> list) {}\n  void lists() {}\n}\n"
    )
    assert [name for name, _ in found] == [
        "p.A",
        "p.A.put(Number)",
        "p.A.put(Object,int)",
        "p.A.put(String)",
        "p.A.any(Object)",
        "p.A.any(Object[],Object[])",
        "p.A.chain(Comparable)",
        "p.A.chain()",
        "p.A.shadow(Object)",  # the method's own E hides the class's
        "p.A.shadow()",
        "p.A.Inner",
        "p.A.Inner.m(Number)",  # an inner class sees its outer class's E
        "p.A.Inner.m()",
        "p.A.Nested",
        "p.A.Nested.m(Object)",  # a static one has its own
        "p.A.Nested.m()",
        "p.A.lists(List)",
        "p.A.lists()",
    ]


def test_a_name_declared_twice_in_a_file_gets_the_next_ordinal() -> None:
    found = names(
        "package p;\nclass A {\n  void dup() {}\n  void dup() {}\n"
        "  void m(boolean b) {\n    if (b) { class L { void a() {} } }\n"
        "    else { class L { void a() {} } }\n  }\n}\n"
    )
    assert found == [
        ("p.A", 1), ("p.A.dup()", 1), ("p.A.dup()", 2), ("p.A.m", 1),
        ("p.A.m.L", 1), ("p.A.m.L.a", 1), ("p.A.m.L", 2), ("p.A.m.L.a", 2),
    ]  # fmt: skip


def test_calls_reach_each_overload_named_by_erasure() -> None:
    assert_calls(
        {
            ROOT + "Validate.java": VALIDATE,
            ROOT + "Use.java": "package p;\nimport java.util.*;\nclass Use {\n"
            "  void run(List<String> list, String[] words) {\n"
            '    Validate.notEmpty(list, "m");\n    Validate.notEmpty(list);\n'
            "    Validate.notEmpty(words);\n  }\n}\n",
        },
        # by arity: the three-argument ones, javac's choice among them
        ("p.Use.run", "p.Validate.notEmpty(Collection,String,Object[])", "many"),
        ("p.Use.run", "p.Validate.notEmpty(Map,String,Object[])", "many"),
        # one argument: every overload whose parameter the argument may fit (`c`, a `T`, no
        # array)
        ("p.Use.run", "p.Validate.notEmpty(Collection)", "many"),
        ("p.Use.run", "p.Validate.notEmpty(Map)", "many"),
        ("p.Use.run", "p.Validate.notEmpty(CharSequence)", "many"),
        ("p.Use.run", "p.Validate.notEmpty(Object[])", "many"),
        ("p.Validate.notEmpty(Collection,String,Object[])", "p.Validate.notEmpty(Collection)",
         "many"),
        ("p.Validate.notEmpty(Collection,String,Object[])", "p.Validate.notEmpty(Map)", "many"),
        ("p.Validate.notEmpty(Collection,String,Object[])", "p.Validate.notEmpty(CharSequence)",
         "many"),
    )  # fmt: skip
