"""What javac writes that the source does not, offline: the implicit `super()` of a
constructor and of a default constructor."""

from __future__ import annotations

from tests.linking_helpers import assert_calls

ROOT = "src/main/java/p/"
BASE = "package p;\npublic class Base {\n  Base() {}\n  Base(int x) { this(); }\n}\n"


def test_a_constructor_without_this_or_super_calls_the_superclass_no_argument_one() -> None:
    assert_calls(
        {
            ROOT + "Base.java": BASE,
            ROOT + "Sub.java": "package p;\nclass Sub extends Base {\n"
            "  Sub() {\n    // first a comment\n    int y = 1;\n  }\n"
            "  Sub(int x) { super(x); }\n  Sub(String s) { this(); }\n}\n",
        },
        ("p.Base.Base(int)", "p.Base.Base()", "exact"),
        ("p.Sub.Sub()", "p.Base.Base()", "exact"),
        ("p.Sub.Sub(int)", "p.Base.Base(int)", "exact"),
        ("p.Sub.Sub(String)", "p.Sub.Sub()", "exact"),
    )


def test_a_class_without_constructors_calls_it_from_the_class() -> None:
    linked = assert_calls(
        {
            ROOT + "Base.java": BASE,
            ROOT + "Plain.java": "package p;\nclass Plain {}\n",
            ROOT + "Sub.java": "package p;\nclass Sub extends Base {\n"
            "  static class Deeper extends Sub { Deeper() {} }\n}\n",
            ROOT + "Leaf.java": "package p;\nclass Leaf extends Plain {\n"
            "  Leaf make() { return new Leaf(); }\n}\n",
        },
        ("p.Base.Base(int)", "p.Base.Base()", "exact"),
        ("p.Sub", "p.Base.Base()", "exact"),
        ("p.Sub.Deeper.Deeper", "p.Sub", "exact"),
        ("p.Leaf", "p.Plain", "exact"),  # Plain's default constructor is its class
        ("p.Leaf.make", "p.Leaf", "exact"),
    )
    lines = {line for link in linked.links if link.source == "p.Sub" for line in link.edge.lines}
    assert lines == {2}  # the class's name, where javac places its default constructor


def test_external_superclasses_enums_records_and_anonymous_classes_have_none() -> None:
    linked = assert_calls(
        {
            ROOT + "Base.java": BASE,
            ROOT + "Ext.java": "package p;\nclass Ext extends java.util.ArrayList<String> {\n"
            "  Ext() {}\n}\n",
            ROOT + "E.java": "package p;\nenum E { A; E() {} }\n",
            ROOT + "R.java": "package p;\nrecord R(int a) { R {} }\n",
            ROOT + "Use.java": "package p;\nclass Use {\n  Object f = new Base(2) {};\n}\n",
        },
        ("p.Base.Base(int)", "p.Base.Base()", "exact"),
        ("p.E", "p.E.E", "exact"),
        ("p.Use", "p.Base.Base(int)", "exact"),
    )
    assert not [link for link in linked.links if link.source.startswith("p.Ext") and link.tier]
    assert linked.unresolved_calls("p.Ext.Ext") == [0]  # nor an unresolved call


RECORDS = {
    ROOT + "Point.java": "package p;\npublic record Point(int x,\n    String y) {\n"
    "  public String y() { return y; }\n  int x(int scale) { return x * scale; }\n"
    '  static Point origin() { return new Point(0, ""); }\n}\n',
    ROOT + "Pair.java": "package p;\nrecord Pair(String a, int... b) {\n"
    "  Pair(String a) { this(a, 0); }\n}\n",
    ROOT + "Full.java": "package p;\nrecord Full(int n) {\n  Full { n = n + 1; }\n"
    "  Full() { this(1); }\n}\n",
    ROOT + "Use.java": "package p;\nclass Use {\n  int run(Point p, Pair q) {\n"
    '    new Pair("z");\n    new Full(2);\n'
    "    return p.x() + p.y().length() + q.a().length() + q.b().length + p.x(2);\n  }\n}\n",
}


def test_a_records_implicit_accessors_are_nodes_that_calls_reach() -> None:
    linked = assert_calls(
        RECORDS,
        ("p.Point.origin", "p.Point", "exact"),  # the canonical constructor: the record
        ("p.Pair.Pair", "p.Pair", "exact"),  # this(a, 0): the canonical one, not written
        ("p.Full.Full()", "p.Full.Full(int)", "exact"),  # the compact one is canonical
        ("p.Use.run", "p.Pair.Pair", "exact"),
        ("p.Use.run", "p.Full.Full(int)", "exact"),
        ("p.Use.run", "p.Point.x()", "inferred"),
        ("p.Use.run", "p.Point.x(int)", "inferred"),
        ("p.Use.run", "p.Point.y", "inferred"),
        ("p.Use.run", "p.Pair.a", "inferred"),
        ("p.Use.run", "p.Pair.b", "inferred"),
    )
    accessors = {
        symbol.qualified_name: (symbol.start_line, symbol.returns)
        for parsed in linked.repository.parsed.values()
        for symbol in parsed.symbols
        if symbol.declared_as == "accessor"
    }
    # at their components; `y()` is written, so it is no accessor of javac's
    assert accessors == {
        "p.Point.x()": (2, ("int",)),
        "p.Pair.a": (2, ("String",)),
        "p.Pair.b": (2, ("int[]",)),
        "p.Full.n": (2, ("int",)),
    }
    # `q.a().length()`: the accessor's result type reaches String's method
    assert ("p.Use.run", "java.lang.String.length") in linked.calls(external=True)


def test_calls_on_a_jdk_interface_dispatch_to_the_repositorys_implementations() -> None:
    linked = assert_calls(
        {
            ROOT + "Job.java": "package p;\nclass Job implements Runnable, Comparable<Job> {\n"
            "  public void run() {}\n  public int compareTo(Job o) { return 0; }\n"
            "  static void run(int times) {}\n}\n",
            ROOT + "Later.java": "package p;\nclass Later extends Job {\n"
            "  @Override public void run() {}\n}\n",
            ROOT + "ByName.java": "package p;\nimport java.util.Comparator;\n"
            "class ByName implements Comparator<Job> {\n"
            "  public int compare(Job a, Job b) { return 0; }\n"
            "  int compare(Job a) { return 1; }\n}\n",
            ROOT + "Use.java": "package p;\nimport java.util.Comparator;\nclass Use {\n"
            "  void go(Runnable r, Comparator<Job> c, Job j, Comparable<Job> k) {\n"
            "    r.run();\n    c.compare(j, j);\n    k.compareTo(j);\n    j.run();\n  }\n}\n",
        },
        ("p.Use.go", "p.Job.run()", "inferred"),
        ("p.Use.go", "p.Later.run", "dispatch"),  # through Job.run, as before
        # r.run() may run Job.run() too: go certainly calls it (j.run()), so that edge stands
        ("p.Use.go", "p.ByName.compare(Job,Job)", "dispatch"),  # not compare(Job)
        ("p.Use.go", "p.Job.compareTo", "dispatch"),
        exactly=False,
    )
    dispatched = {
        (link.target, link.edge.lines)
        for link in linked.links
        if link.source == "p.Use.go" and link.tier == "dispatch"
    }
    assert dispatched == {
        ("p.Later.run", (5, 8)),  # through Runnable.run and through Job.run
        ("p.ByName.compare(Job,Job)", (6,)),
        ("p.Job.compareTo", (7,)),
    }


def test_calls_on_a_jdk_class_reach_overrides_the_arguments_fit() -> None:
    assert_calls(
        {
            ROOT + "Out.java": "package p;\nclass Out extends java.io.Writer {\n"
            "  @Override public void write(int c) {}\n"
            "  @Override public void write(char[] b, int at, int n) {}\n"
            "  @Override public void flush() {}\n  @Override public void close() {}\n"
            "  @Override public Out append(CharSequence s) { return this; }\n}\n",
            ROOT + "Use.java": "package p;\nimport java.io.Writer;\nclass Use {\n"
            "  void go(Writer w) throws Exception {\n    w.write('x');\n    w.write(\"null\");\n"
            '    w.write("abc", 0, 1);\n    w.append((char) 1);\n  }\n}\n',
        },
        # write("null"), write(String, int, int) and append(char) are Writer's own: no
        # override here runs
        ("p.Use.go", "p.Out.write(int)", "dispatch", "dispatch via `java.io.Writer.write`"),
    )


def test_a_call_on_a_map_reaches_a_class_extending_the_jdks_abstract_map() -> None:
    assert_calls(
        {
            ROOT + "Tree.java": "package p;\nimport java.util.AbstractMap;\nimport java.util.Map;\n"
            "import java.util.Set;\n"
            "class Tree<K, V> extends AbstractMap<K, V> {\n"
            "  @Override public V put(K k, V v) { return v; }\n"
            "  @Override public Set<Map.Entry<K, V>> entrySet() { return null; }\n}\n",
            ROOT + "Use.java": "package p;\nimport java.util.Map;\nclass Use {\n"
            '  void go(Map<String, Integer> m) { m.put("a", 1); }\n}\n',
        },
        ("p.Use.go", "p.Tree.put", "dispatch", "dispatch via `java.util.Map.put`"),
    )
