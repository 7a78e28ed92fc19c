"""The Java linker offline: imports, exact and inferred calls, overloads, constructors,
inheritance, and the java_shop fixture."""

from __future__ import annotations

from pathlib import Path

from graphrag_code.conventions import ClassTree
from graphrag_code.languages.java.conventions import JavaConventions
from graphrag_code.languages.java.overloads import Argument, Candidate, choose
from graphrag_code.languages.java.parser import JavaParser
from graphrag_code.model import EdgeKind
from tests.linking_helpers import assert_calls, link_folder, link_snippet

SHOP = Path(__file__).parent / "fixtures" / "java_shop"
ROOT = "src/main/java/p/"


def test_static_unqualified_and_constructor_calls_are_exact() -> None:
    assert_calls(
        {
            ROOT + "Util.java": "package p;\npublic class Util {\n"
            "  static int twice(int x) { return x * 2; }\n}\n",
            ROOT + "Main.java": "package p;\nclass Main {\n  Main() { this(1); }\n"
            "  Main(int x) { helper(); }\n  void helper() { Util.twice(2); new Util(); }\n}\n",
        },
        ("p.Main.Main()", "p.Main.Main(int)", "exact"),
        ("p.Main.Main(int)", "p.Main.helper", "exact"),
        ("p.Main.helper", "p.Util.twice", "exact"),
        ("p.Main.helper", "p.Util", "exact"),
    )


def test_instance_calls_through_declared_types_are_inferred() -> None:
    assert_calls(
        {
            ROOT + "Box.java": "package p;\nclass Box {\n  Box next() { return this; }\n"
            "  void open() {}\n}\n",
            ROOT + "Use.java": "package p;\nclass Use {\n  private Box field;\n"
            "  void run(Box param) {\n    var made = new Box();\n    Box declared = made;\n"
            "    param.open();\n    field.open();\n    made.next().open();\n"
            "    declared.open();\n  }\n}\n",
        },
        ("p.Use.run", "p.Box", "exact"),
        ("p.Use.run", "p.Box.open", "inferred"),
        ("p.Use.run", "p.Box.next", "inferred"),
    )


def test_inherited_and_outer_class_methods() -> None:
    assert_calls(
        {
            ROOT + "Base.java": "package p;\npublic class Base {\n  void shared() {}\n}\n",
            ROOT + "Sub.java": "package p;\nclass Sub extends Base {\n  void own() { shared(); }\n"
            "  class Inner {\n    void deep() { own(); super.hashCode(); }\n  }\n"
            "  void sup() { super.shared(); }\n}\n",
        },
        ("p.Sub.own", "p.Base.shared", "exact"),
        ("p.Sub.Inner.deep", "p.Sub.own", "exact"),
        ("p.Sub.sup", "p.Base.shared", "inferred"),
        ("p.Sub", "p.Base", "exact"),  # the default constructor's implicit super()
    )


def test_overloads_by_arity_then_by_evident_types_else_many() -> None:
    linked = assert_calls(
        {
            ROOT + "O.java": "package p;\nclass O {\n  void f(int x) {}\n  void f(String s) {}\n"
            '  void f(int a, int b) {}\n  void g(Object o) {\n    f(1, 2);\n    f("s");\n'
            "    String s = null;\n    f(s);\n    f(o.get());\n  }\n}\n",
        },
        ("p.O.g", "p.O.f(int,int)", "exact"),
        ("p.O.g", "p.O.f(String)", "exact"),
        ("p.O.g", "p.O.f(int)", "many"),
    )
    assert linked.calls()[("p.O.g", "p.O.f(String)")][0] == "exact"


def test_choose_prefers_exact_types_then_widening() -> None:
    ints = Candidate("f(int)", ("int",))
    longs = Candidate("f(long)", ("long",))
    objects = Candidate("f(Object)", ("Object",))
    numbers = Candidate("f(Number)", ("Number",))
    strings = Candidate("f(String)", ("String",))
    assert choose([ints, longs], [Argument("int")]) == [ints]
    assert choose([ints, longs], [Argument("long")]) == [longs]
    assert choose([ints, objects], [Argument("String")]) == [objects]
    assert choose([ints, longs], [None]) == [ints, longs]
    assert choose([numbers, strings], [Argument("Long")]) == [numbers]
    items = Candidate("f(Item)", ("Item",))
    assert choose([items, strings], [Argument("Order", frozenset({"Item", "Object"}))]) == [items]
    varargs = Candidate("f(String[])", ("String[]",), varargs=True)
    assert choose([varargs, ints], [Argument("String"), Argument("String")]) == [varargs]


def test_imports_reach_files_and_externals_and_static_members_their_class() -> None:
    linked = link_snippet(
        {
            ROOT + "a/A.java": "package p.a;\npublic class A { public static void go() {} }\n",
            ROOT + "b/B.java": "package p.b;\nimport p.a.A;\nimport java.util.List;\n"
            "import static org.junit.Assert.assertTrue;\nimport p.a.*;\n"
            "class B { void t() { A.go(); assertTrue(true); } }\n",
        }
    )
    imports = set(linked.of(EdgeKind.IMPORTS))
    assert ("p.b/B.java", "p.a/A.java") in imports
    assert ("p.b/B.java", "java.util.List") in imports
    assert ("p.b/B.java", "org.junit.Assert") in imports
    calls = linked.calls()
    assert calls[("p.b.B.t", "p.a.A.go")][0] == "exact"
    assert calls[("p.b.B.t", "org.junit.Assert.assertTrue")][0] == "exact"


def test_inherits_says_extends_or_implements() -> None:
    linked = link_snippet(
        {
            ROOT + "I.java": "package p;\ninterface I { void m(); }\n",
            ROOT + "C.java": "package p;\nclass C extends java.util.AbstractList<String>"
            " implements I {\n  public void m() { size(); }\n}\n",
        }
    )
    inherits = linked.of(EdgeKind.INHERITS)
    assert inherits[("p.C", "p.I")].edge.implements
    assert not inherits[("p.C", "java.util.AbstractList")].edge.implements
    assert ("p.C.m", "java.util.AbstractList.size") in linked.calls()


def test_java_shop_fixture() -> None:
    linked = link_folder(SHOP)
    assert_calls(
        linked,
        ("com.shop.model.Cart.add(String,long)", "com.shop.model.Cart.add(Item)", "exact"),
        ("com.shop.model.Item.Item(String)", "com.shop.model.Item.Item(String,long)", "exact"),
        ("com.shop.service.Checkout.main", "com.shop.model.Cart.add(String,long)", "inferred"),
        ("com.shop.service.Checkout.main", "com.shop.model.Cart.add(Item)", "inferred"),
        ("com.shop.service.Checkout.pay", "com.shop.service.Pricing.price", "inferred"),
        ("com.shop.service.DiscountPricing.price", "com.shop.model.Cart.total", "inferred"),
        ("com.shop.service.CheckoutTest.halvesTheTotal", "com.shop.service.Checkout.pay"),
        exactly=False,
    )
    inherits = linked.of(EdgeKind.INHERITS)
    assert inherits[
        ("com.shop.service.DiscountPricing", "com.shop.service.Pricing")
    ].edge.implements


def test_junit_tests_setups_and_entry_points() -> None:
    conventions = JavaConventions()
    tree = ClassTree({}, {})
    test_path = "src/test/java/com/shop/service/CheckoutTest.java"
    test_file = JavaParser().parse(
        path=test_path, module="com.shop.service/CheckoutTest.java", is_package=False,
        source=(SHOP / test_path).read_bytes(), sha256="",
    )  # fmt: skip
    roles = conventions.roles(test_file, conventions.configure({}), tree)
    assert roles.test_code
    assert [t.qualified_name for t in roles.tests] == [
        "com.shop.service.CheckoutTest.halvesTheTotal"
    ]
    assert roles.tests[0].setups == ("com.shop.service.CheckoutTest.setUp",)
    main_path = "src/main/java/com/shop/service/Checkout.java"
    main_file = JavaParser().parse(
        path=main_path, module="com.shop.service/Checkout.java", is_package=False,
        source=(SHOP / main_path).read_bytes(), sha256="",
    )  # fmt: skip
    entry = dict(conventions.roles(main_file, conventions.configure({}), tree).entry_points)
    assert entry["com.shop.service.Checkout.main"] == "main method"
    assert entry["com.shop.service.Checkout.pay"] == "public API"


def test_anonymous_classes_enum_constants_and_super_without_extends() -> None:
    linked = link_snippet(
        {
            ROOT + "I.java": "package p;\ninterface I { void m(); }\n",
            ROOT + "E.java": "package p;\nenum E {\n  A { void go() {} };\n  void go() {}\n"
            "  static void run() { A.go(); }\n}\n",
            ROOT + "C.java": "package p;\nclass C implements Cloneable {\n"
            "  Object copy() throws Exception {\n    new I() { public void m() {} };\n"
            "    return super.clone();\n  }\n}\n",
        }
    )
    calls = linked.calls()
    assert not [pair for pair in calls if pair[0] == "p.C.copy" and pair[1] == "p.I"]
    assert calls[("p.C.copy", "java.lang.Object.clone")][0] == "inferred"
    assert calls[("p.E.run", "p.E.go")][0] == "inferred"
    assert calls[("p.E.run", "p.E.A.go")][0] == "dispatch"  # the constant's body overrides go


def test_overloads_by_the_declared_results_and_hierarchy_of_arguments() -> None:
    assert_calls(
        {
            ROOT + "Base.java": "package p;\nclass Base {}\n",
            ROOT + "Sub.java": "package p;\nclass Sub extends Base {}\n",
            ROOT + "O.java": "package p;\nclass O {\n  void f(Base b) {}\n  void f(String s) {}\n"
            "  Sub make() { return new Sub(); }\n  void g() { f(make()); }\n}\n",
        },
        ("p.O.make", "p.Sub", "exact"),
        ("p.O.g", "p.O.make", "exact"),
        ("p.O.g", "p.O.f(Base)", "exact"),
        ("p.Sub", "p.Base", "exact"),  # the default constructor's implicit super()
    )


def test_arguments_typed_by_operators_arrays_and_fixed_arity_first() -> None:
    assert_calls(
        {
            ROOT
            + "V.java": "package p;\nclass V {\n  void h(String s) {}\n  void h(String... ss) {}\n"
            "  void k(int i) {}\n  void k(String s) {}\n"
            '  void g(int n, V[] vs) {\n    h("a" + n);\n    k(n > 1 ? n : 2);\n'
            "    vs[0].k(--n);\n  }\n}\n",
        },
        ("p.V.g", "p.V.h(String)", "exact"),
        ("p.V.g", "p.V.k(int)", None),
    )


def test_elements_of_declared_generic_containers() -> None:
    assert_calls(
        {
            ROOT + "N.java": "package p;\nimport java.util.List;\nimport java.util.Map;\n"
            "class N {\n  void open() {}\n  private Map<String, N> byName;\n"
            '  void g(List<N> nodes) {\n    nodes.get(0).open();\n    byName.get("a").open();\n'
            "  }\n}\n",
        },
        ("p.N.g", "p.N.open", "inferred"),
    )


def test_the_modules_of_a_multi_module_build_each_have_their_source_root() -> None:
    """The folders a root `pom.xml` lists under `<modules>` (nested ones too) hold their own
    `src/main/java` and `src/test/java`: packages and calls across modules as in one."""
    linked = assert_calls(
        {
            "pom.xml": "<project><modules><module>core</module><module>libs/util</module>"
            "<module>app</module></modules></project>",
            "core/src/main/java/com/x/core/Engine.java": "package com.x.core;\n"
            "import com.x.util.Strings;\npublic class Engine {\n"
            '  public void start() { Strings.trim("a"); }\n}\n',
            "libs/util/src/main/java/com/x/util/Strings.java": "package com.x.util;\n"
            "public class Strings {\n  public static String trim(String s) { return s; }\n}\n",
            "app/src/test/java/com/x/app/MainTest.java": "package com.x.app;\n"
            "import com.x.core.Engine;\nclass MainTest {\n"
            "  void t() { new Engine().start(); }\n}\n",
        },
        ("com.x.core.Engine.start", "com.x.util.Strings.trim", "exact"),
        ("com.x.app.MainTest.t", "com.x.core.Engine", "exact"),
        ("com.x.app.MainTest.t", "com.x.core.Engine.start", "inferred"),
    )
    modules = {path: parsed.module for path, parsed in linked.repository.parsed.items()}
    assert modules["libs/util/src/main/java/com/x/util/Strings.java"] == "com.x.util/Strings.java"
    assert modules["app/src/test/java/com/x/app/MainTest.java"] == "com.x.app/MainTest.java"
