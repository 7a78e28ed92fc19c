"""The Go parser: declarations, names, doc comments, imports, call sites and bindings."""

from __future__ import annotations

from graphrag_code.languages.go.parser import GoParser
from graphrag_code.model import ParsedFile, SymbolKind


def parse(source: str, path: str = "shop/order.go") -> ParsedFile:
    return GoParser().parse(
        path=path, module=path if "/" in path else f"./{path}", is_package=False,
        source=source.encode(), sha256="",
    )  # fmt: skip


ORDER = """\
// Package shop sells.
package shop

import (
\t"fmt"
\tb "bytes"
\t. "strings"
\t_ "embed"
)

// Order is an order.
// It has items.
type Order[T any] struct {
\tBase
\t*Other
\tItems []Item
\tbuf   *b.Buffer
}

type Reader interface {
\tio.Reader
\tRead(p []byte) (int, error)
}

type ID = string

// Total sums.
func (o *Order[T]) Total(x int) (int, error) {
\tfmt.Println(x)
\treturn 0, nil
}

func init() {}

func NewOrder() (*Order, error) { return nil, nil }
"""


def test_declarations_are_named_by_package_and_type() -> None:
    parsed = parse(ORDER)
    symbols = {s.qualified_name: s for s in parsed.symbols}
    assert set(symbols) == {
        "shop.Order", "shop.Reader", "shop.Reader.Read", "shop.ID", "shop.Order.Total",
        "shop/order.go.init", "shop.NewOrder",
    }  # fmt: skip
    total = symbols["shop.Order.Total"]
    assert (total.kind, total.parent, total.start_line) == (SymbolKind.METHOD, "shop.Order", 28)
    assert total.parameters == ("x",)
    assert total.returns == ("int",)
    assert symbols["shop.NewOrder"].returns == ("Order",)
    assert symbols["shop.NewOrder"].parent == "shop/order.go"
    order = symbols["shop.Order"]
    assert order.declared_as == "struct"
    assert order.bases == (("Base",), ("Other",))
    assert order.docstring == "Order is an order.\nIt has items."
    assert order.start_line == 13
    assert symbols["shop.Reader"].bases == (("io", "Reader"),)
    assert symbols["shop.Reader.Read"].parent == "shop.Reader"
    assert symbols["shop.ID"].declared_as == "type alias"
    assert parsed.docstring == "Package shop sells."


def test_root_package_and_external_test_package_names() -> None:
    assert [s.qualified_name for s in parse("package main\nfunc F() {}\n", "main.go").symbols] == [
        ".F"
    ]
    external = parse("package order_test\nfunc TestF() {}\n", "order/order_test.go")
    assert [s.qualified_name for s in external.symbols] == ["order_test.TestF"]


def test_imports_keep_alias_dot_and_blank() -> None:
    imports = [(i.module, i.alias, i.binds, i.line) for i in parse(ORDER).imports]
    assert imports == [
        ("fmt", None, True, 5), ("bytes", "b", True, 6), ("strings", ".", True, 7),
        ("embed", "_", False, 8),
    ]  # fmt: skip


def test_struct_fields_bind_their_types() -> None:
    fields = {b.target: b.value for b in parse(ORDER).bindings if b.scope == "shop.Order"}
    assert fields[("buf",)] == ("b", "Buffer")
    assert fields[("Items",)] == ("[]", "Item")  # an element of the slice is an Item
    assert fields[("Base",)] == ("Base",)


CALLS = """\
package shop

func (s *Server) Run(h Handler) {
\tf()
\tpkg.F()
\ts.M()
\ts.db.
\t\tQuery()
\tT{}.M()
\t(&T{}).M()
\tNewT().M()
\titems[0].M()
\tlen(items)
\tgo func() { g() }()
\ta.B().C().D()
}
"""


def test_call_shapes_and_lines() -> None:
    calls = [(c.callee, c.line) for c in parse(CALLS).calls]
    assert calls == [
        (("f",), 4), (("pkg", "F"), 5), (("s", "M"), 6), (("s", "db", "Query"), 8),
        (("T{}", "M"), 9), (("T{}", "M"), 10), (("NewT()", "M"), 11), (("NewT",), 11),
        (("[]", "items", "M"), 12), (("<expr>",), 14), (("g",), 14),
        (("a", "B()", "C()", "D"), 15), (("a", "B()", "C"), 15), (("a", "B"), 15),
    ]  # fmt: skip
    assert {c.scope for c in parse(CALLS).calls} == {"shop.Server.Run"}


BINDINGS = """\
package shop

func F(p *Param) {
\tvar v Value
\ta := T{}
\tb := &T{}
\tc := new(T)
\td, err := NewD()
\te := x.(*E)
\tswitch t := y.(type) {
\tcase *A:
\t\t_ = t
\tcase B, C:
\t}
\tg := d
}
"""


def test_bindings_say_what_types_a_name() -> None:
    found = {(b.target[0], b.line): (b.kind, b.value) for b in parse(BINDINGS).bindings}
    assert found[("p", 3)] == ("annotation", ("Param",))
    assert found[("v", 4)] == ("annotation", ("Value",))
    assert found[("a", 5)] == found[("b", 6)] == found[("c", 7)] == ("annotation", ("T",))
    assert found[("d", 8)] == ("call", ("NewD",))
    assert found[("err", 8)] == ("call", ("NewD", "#1"))  # f's second result
    assert found[("e", 9)] == ("annotation", ("E",))
    assert found[("t", 11)] == ("annotation", ("A",))
    assert found[("t", 13)][0] == "opaque"
    assert found[("g", 15)] == ("alias", ("d",))


def test_unparsable_input_is_an_issue_not_a_traceback() -> None:
    parsed = parse("package x\nfunc (\n{{{ ]]\n")
    assert parsed.issues
    assert parsed.issues[0].line >= 1


def test_vendor_and_testdata_are_skipped() -> None:
    parser = GoParser()
    assert parser.skip_reason("a/testdata/x.go", b"") is not None
    assert parser.skip_reason("vendor/x/y.go", b"") is not None
    assert parser.skip_reason("a/data/x.go", b"") is None
