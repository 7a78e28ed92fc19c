"""Java offline: `dispatch` edges (a virtual call may run the overrides in the subtypes of its
receiver's declared type; static, private, final and `super.` calls run one method), method
references and the untyped parameters of lambdas."""

from __future__ import annotations

from graphrag_code.languages.java.dispatch import JAVA_RULES, SUBTYPES_KEY, overridable
from graphrag_code.languages.java.parser import JavaParser
from graphrag_code.model import SymbolKind
from tests.linking_helpers import assert_calls, link_snippet

ROOT = "src/main/java/p/"
SHAPES = {
    ROOT + "Shape.java": "package p;\npublic interface Shape {\n  double area();\n"
    '  default String label() { return "s"; }\n}\n',
    ROOT + "Base.java": "package p;\nabstract class Base implements Shape {\n"
    "  public abstract double area();\n  final void fin() {}\n  private void own() {}\n"
    "  static void help() {}\n  void scale(int by) {}\n  void run() { own(); scale(1); }\n}\n",
    ROOT + "Circle.java": "package p;\nclass Circle implements Shape {\n"
    '  public double area() { return 1; }\n  @Override public String label() { return "c"; }\n}\n',
    ROOT + "Square.java": "package p;\nclass Square extends Base {\n"
    '  @SuppressWarnings("x") public double area() { return 2; }\n'
    "  void scale(long by) {}\n  @Override void scale(int by) { super.scale(by); }\n}\n",
}


def test_calls_through_interfaces_and_abstract_methods_reach_every_override() -> None:
    code = {
        **SHAPES,
        ROOT + "Use.java": "package p;\nclass Use {\n  double run(Shape s, Base b) {\n"
        "    s.label(); b.fin(); Base.help();\n    return s.area() + b.area();\n  }\n}\n",
    }
    linked = assert_calls(
        code,
        ("p.Use.run", "p.Shape.area", "inferred"),
        ("p.Use.run", "p.Shape.label", "inferred"),
        ("p.Use.run", "p.Base.area", "inferred"),
        ("p.Use.run", "p.Base.fin", "inferred"),
        ("p.Use.run", "p.Base.help", "exact"),
        ("p.Use.run", "p.Circle.area", "dispatch", "dispatch via `p.Shape.area`"),
        ("p.Use.run", "p.Circle.label", "dispatch"),
        ("p.Use.run", "p.Square.area", "dispatch", "dispatch via `p.Base.area`"),
        # from Base.run: `scale(1)` on `this` may run Square's override of scale(int) only
        ("p.Base.run", "p.Base.own", "exact"),
        ("p.Base.run", "p.Base.scale", "exact"),
        ("p.Base.run", "p.Square.scale(int)", "dispatch"),
        ("p.Square.scale(int)", "p.Base.scale", "inferred"),
        ("p.Square", "p.Base", "exact"),  # the default constructor's implicit super()
        exactly=True,
    )
    assert ("p.Use.run", "p.Square.area") in linked.calls(external=False)


def test_anonymous_classes_enum_constants_and_generic_parameters_override() -> None:
    assert_calls(
        {
            ROOT + "Handler.java": "package p;\ninterface Handler<T> {\n  void on(T event);\n}\n",
            ROOT + "Mode.java": "package p;\nenum Mode {\n  FAST { void go() {} },\n  SLOW;\n"
            "  void go() {}\n}\n",
            ROOT + "Use.java": "package p;\nclass Use {\n  void run(Handler<String> h, Mode m) {\n"
            "    h.on(null); m.go();\n"
            "    Handler<String> inline = new Handler<String>() {\n"
            "      public void on(String event) {}\n    };\n  }\n}\n"
            "class Named implements Handler<String> {\n  public void on(String event) {}\n"
            "  public void on(String event, int times) {}\n}\n",
        },
        ("p.Use.run", "p.Handler.on", "inferred"),
        ("p.Use.run", "p.Mode.go", "inferred"),
        ("p.Use.run", "p.Mode.FAST.go", "dispatch"),
        ("p.Use.run", "p.Use.$1.on", "dispatch"),
        ("p.Mode", "p.Mode", "exact"),  # the constants' construction
        ("p.Use.run", "p.Named.on(String)", "dispatch"),
        exactly=True,
    )


def test_a_caller_that_certainly_calls_an_override_keeps_its_certain_edge() -> None:
    code = {
        **SHAPES,
        ROOT + "Use.java": "package p;\nclass Use {\n"
        "  double run(Shape s, Circle c) { return s.area() + c.area(); }\n}\n",
    }
    calls = link_snippet(code).calls(external=False)
    assert calls[("p.Use.run", "p.Circle.area")] == ("inferred", None)
    assert calls[("p.Use.run", "p.Square.area")][0] == "dispatch"


def test_overridable_reads_the_modifiers_before_the_name_only() -> None:
    parsed = JavaParser().parse(
        path="p/A.java",
        module="p/A.java",
        is_package=False,
        sha256="",
        source=b"package p;\nclass A {\n"
        b'  @SuppressWarnings("static") public void a(final int x) {}\n'
        b"  public static void b() {}\n  private void c() {}\n  protected final void d() {}\n}\n",
    )
    methods = {s.name: s for s in parsed.symbols if s.kind == SymbolKind.METHOD}
    assert [name for name in "abcd" if overridable(methods[name])] == ["a"]


def test_files_offer_and_consult_the_subtype_keys_incremental_runs_compare() -> None:
    code = {
        **SHAPES,
        ROOT
        + "Use.java": "package p;\nclass Use {\n  double run(Shape s) { return s.area(); }\n}\n",
    }
    linked = link_snippet(code)
    square = linked.repository.parsed[ROOT + "Square.java"]
    assert JAVA_RULES.offered_names(square) == [SUBTYPES_KEY + "Base"]
    consulted = linked.repository.links[ROOT + "Use.java"].names_consulted
    assert {SUBTYPES_KEY + "Shape", SUBTYPES_KEY + "Base", "area"} <= consulted


NODE = {
    ROOT + "Node.java": "package p;\nimport java.util.List;\nimport java.util.Map;\n"
    "import java.util.function.Consumer;\npublic class Node {\n  List<Node> kids;\n"
    "  Map<String, Node> byId;\n  String text() { return null; }\n"
    "  static Node parse(String s) { return null; }\n"
    "  static Node parse(String s, int at) { return null; }\n"
    "  void each(Consumer<Node> action) {}\n  void walk(Visitor v) {}\n}\n",
    ROOT + "Visitor.java": "package p;\ninterface Visitor {\n  void head(Node node, int depth);\n"
    "  default void tail(Node node, int depth) {}\n}\n",
    ROOT + "Item.java": "package p;\nclass Item {\n  Item() {}\n  void text() {}\n"
    "  void use(Node node) {}\n}\n",
}


def test_method_references_call_every_overload_of_their_name() -> None:
    code = {
        **NODE,
        ROOT + "Use.java": "package p;\nclass Use {\n  void go() {}\n  void run(Node n) {\n"
        "    Runnable a = this::go;\n    Runnable b = n::text;\n"
        "    java.util.function.Supplier<Item> c = Item::new;\n"
        "    java.util.function.Function<String, Node> d = Node::parse;\n  }\n}\n",
    }
    assert_calls(
        code,
        ("p.Use.run", "p.Use.go", "inferred"),
        ("p.Use.run", "p.Node.text", "inferred"),
        ("p.Use.run", "p.Item.Item", "exact"),
        ("p.Use.run", "p.Node.parse(String)", "many"),
        ("p.Use.run", "p.Node.parse(String,int)", "many"),
        exactly=True,
    )


def test_untyped_lambda_parameters_typed_by_the_call_they_are_passed_to() -> None:
    code = {
        **NODE,
        ROOT + "Use.java": "package p;\nclass Use {\n  Item text;\n  void run(Node n) {\n"
        "    n.kids.forEach(k -> k.text());\n"
        "    java.util.List<Node> nodes = n.kids;\n"
        "    nodes.forEach(text -> text.text());\n"
        "    nodes.stream().filter(m -> m.text() != null);\n"
        "    n.byId.forEach((id, v) -> v.walk(null));\n"
        "    n.each(e -> e.each(null));\n"
        "    n.walk((node, depth) -> node.text());\n  }\n}\n",
    }
    linked = link_snippet(code)
    calls = linked.calls(external=False)
    # `text` shadows the field (an Item): the lambda's parameter is a Node
    assert calls[("p.Use.run", "p.Node.text")] == ("inferred", None)
    assert ("p.Use.run", "p.Item.text") not in calls
    assert calls[("p.Use.run", "p.Node.each")][0] == "inferred"
    assert calls[("p.Use.run", "p.Node.walk")][0] == "inferred"
    lines = {link.edge.lines for link in linked.links if link.target == "p.Node.text"}
    assert lines == {(7, 8, 11)}  # `n.kids` is no local: its elements stay unknown


def test_a_lambda_parameter_with_nothing_evident_stays_untyped() -> None:
    code = {
        **NODE,
        ROOT + "Use.java": "package p;\nclass Use {\n  Item text;\n"
        "  void run(Object o, java.util.List<?> any) {\n"
        "    any.forEach(text -> text.text());\n    o.equals(text);\n  }\n}\n",
    }
    calls = link_snippet(code).calls(external=False)
    assert not [pair for pair in calls if pair[1].endswith(".text")]  # not the field's Item


def test_results_of_generic_classes_array_elements_and_map_entry_values() -> None:
    code = {
        **NODE,
        ROOT
        + "Box.java": "package p;\nclass Box<K, T extends Node> {\n  T get() { return null; }\n"
        "  K key() { return null; }\n}\n",
        ROOT + "Use.java": "package p;\nimport java.util.Map;\nclass Use {\n"
        "  void run(Box<String, Node> box, Node[] nodes, Map.Entry<String, Item> entry) {\n"
        "    box.get().text();\n    box.key().length();\n    nodes[0].walk(null);\n"
        "    entry.getValue().use(null);\n  }\n}\n",
    }
    assert_calls(
        code,
        ("p.Use.run", "p.Box.get", "inferred"),
        ("p.Use.run", "p.Box.key", "inferred"),
        ("p.Use.run", "p.Node.text", "inferred"),  # T, the last type parameter: Node
        ("p.Use.run", "p.Node.walk", "inferred"),
        ("p.Use.run", "p.Item.use", "inferred"),
        exactly=True,
    )


def test_an_unbound_method_reference_dispatches_like_a_call_on_its_type() -> None:
    code = {
        **SHAPES,
        ROOT + "Use.java": "package p;\nimport java.util.function.ToDoubleFunction;\n"
        "class Use {\n  ToDoubleFunction<Shape> run() { return Shape::area; }\n}\n",
    }
    assert_calls(
        code,
        ("p.Use.run", "p.Shape.area", "exact"),
        ("p.Use.run", "p.Circle.area", "dispatch"),
        ("p.Use.run", "p.Square.area", "dispatch"),
        ("p.Base.run", "p.Base.own", "exact"),
        ("p.Base.run", "p.Base.scale", "exact"),
        ("p.Base.run", "p.Square.scale(int)", "dispatch"),
        ("p.Square.scale(int)", "p.Base.scale", "inferred"),
        ("p.Square", "p.Base", "exact"),  # the default constructor's implicit super()
        exactly=True,
    )
