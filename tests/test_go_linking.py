"""The Go linker, offline: CALLS tiers, IMPORTS, INHERITS by embedding, the fixture `go_shop`."""

from __future__ import annotations

from pathlib import Path

from graphrag_code.ingest.rows import file_rows
from graphrag_code.model import EdgeKind, Resolution

from .linking_helpers import assert_calls, link_folder, link_snippet

GO_MOD = "module example.com/m\n\ngo 1.22\n"
SHOP = Path(__file__).parent / "fixtures" / "go_shop"


def test_package_functions_in_any_file_are_exact() -> None:
    assert_calls(
        {
            "go.mod": GO_MOD,
            "a/a.go": "package a\n\nfunc F() { g() }\n",
            "a/b.go": "package a\n\nfunc g() {}\n\ntype T int\n\nfunc h() { _ = T(3) }\n",
        },
        ("a.F", "a.g", "exact"),
    )


def test_imported_package_functions_by_go_mod_path_and_alias() -> None:
    linked = assert_calls(
        {
            "go.mod": GO_MOD,
            "lib/util/util.go": "package util\n\nfunc Do() {}\n",
            "main.go": (
                'package main\n\nimport (\n\t"fmt"\n\tu "example.com/m/lib/util"\n)\n\n'
                "func main() {\n\tu.Do()\n\tfmt.Println()\n}\n"
            ),
        },
        (".main", "lib/util.Do", "exact"),
    )
    imports = {pair for pair in linked.of(EdgeKind.IMPORTS)}
    assert imports == {("./main.go", "lib/util/util.go"), ("./main.go", "fmt")}
    assert linked.calls()[(".main", "fmt.Println")] == ("exact", None)


METHODS = {
    "go.mod": GO_MOD,
    "s/types.go": """package s

import "bytes"

type Base struct{}

func (b *Base) Hello() {}

type DB struct{}

type Server struct {
\tBase
\tdb  *DB
\tbuf bytes.Buffer
}

func NewServer() (*Server, error) { return &Server{}, nil }
""",
    "s/methods.go": """package s

func (d *DB) Query() {}

func (s Server) Run() {}

func Use(p *Server, x interface{}) {
\tp.Run()
\tp.db.Query()
\tp.Hello()
\tv := Server{}
\tv.Run()
\tw := &Server{}
\tw.Run()
\tn := new(DB)
\tn.Query()
\tc, _ := NewServer()
\tc.Run()
\tNewServer().Run()
\tServer{}.Run()
\tif a, ok := x.(*DB); ok {
\t\ta.Query()
\t}
\tswitch t := x.(type) {
\tcase *Server:
\t\tt.Run()
\t}
\tp.buf.WriteString("")
\tvar unknown interface{ Run() }
\tunknown.Run()
}
""",
}


def test_methods_through_declared_and_inferred_types() -> None:
    linked = assert_calls(
        METHODS,
        ("s.Use", "s.Server.Run", "inferred"), ("s.Use", "s.DB.Query", "inferred"),
        ("s.Use", "s.Base.Hello", "inferred"), ("s.Use", "s.NewServer", "exact"),
    )  # fmt: skip
    edges = linked.of(EdgeKind.CALLS)
    assert edges[("s.Use", "s.Server.Run")].edge.lines == (8, 12, 14, 18, 19, 20, 26)
    assert edges[("s.Use", "s.DB.Query")].edge.lines == (9, 16, 22)
    assert linked.calls()[("s.Use", "bytes.Buffer.WriteString")] == ("inferred", None)
    assert linked.unresolved_calls("s.Use") == [1]  # `unknown.Run()`: an anonymous interface


def test_method_declared_in_another_file_belongs_to_its_type() -> None:
    linked = link_snippet(METHODS)
    run = next(s for f in linked.repository.parsed.values() for s in f.symbols if s.name == "Run")
    assert (run.parent, linked.repository.parsed["s/methods.go"].module) == (
        "s.Server", "s/methods.go",
    )  # fmt: skip


def test_embedding_is_inherits_saying_which() -> None:
    linked = link_snippet(
        {
            "go.mod": GO_MOD,
            "p/p.go": (
                'package p\n\nimport "io"\n\ntype A struct{}\n\ntype B struct {\n\tA\n}\n\n'
                "type R interface {\n\tio.Reader\n\tS\n}\n\ntype S interface{ M() }\n"
            ),
        }
    )
    inherits = {pair: link.edge.via for pair, link in linked.of(EdgeKind.INHERITS).items()}
    assert inherits == {
        ("p.B", "p.A"): "struct embedding", ("p.R", "io.Reader"): "interface embedding",
        ("p.R", "p.S"): "interface embedding",
    }  # fmt: skip


def test_a_local_function_value_is_not_the_package_function() -> None:
    assert_calls(
        {"go.mod": GO_MOD, "a/a.go": "package a\n\nfunc g() {}\n\nfunc F(g func()) { g() }\n"},
    )


def test_without_go_mod_an_import_path_ending_in_a_folder_leads_there() -> None:
    assert_calls(
        {
            "util/u.go": "package util\n\nfunc Do() {}\n",
            "cmd/main.go": (
                'package main\n\nimport "github.com/x/y/util"\n\nfunc main() { util.Do() }\n'
            ),
        },
        ("cmd.main", "util.Do", "exact"),
    )


def test_the_shop_fixture() -> None:
    linked = link_folder(SHOP)
    assert_calls(
        linked,
        ("cmd/shop.main", "internal/order.NewOrder", "exact"),
        ("cmd/shop.main", "internal/order.Order.Add", "inferred"),
        ("cmd/shop.main", "internal/order.Order.Total", "inferred"),
        ("cmd/shop.main", "internal/order.Base.Describe", "inferred"),
        ("cmd/shop.main", "cmd/shop.report", "exact"),
        ("cmd/shop.report", "internal/order.Pricer.Price", "inferred"),
        ("cmd/shop.report", "internal/order.Order.Price", "dispatch"),
        ("internal/order.Order.Add", "internal/order.describe", "exact"),
        ("internal/order.Order.Price", "internal/order.Order.Total", "inferred"),
        ("internal/order.TestTotal", "internal/order.NewOrder", "exact"),
        ("internal/order.TestTotal", "internal/order.Order.Add", "inferred"),
        ("internal/order.TestTotal", "internal/order.Order.Total", "inferred"),
        ("internal/order.BenchmarkAdd", "internal/order.Order.Add", "inferred"),
    )
    assert not linked.unresolved_kinds()


def test_elements_results_chains_and_package_values() -> None:
    linked = assert_calls(
        {
            "go.mod": GO_MOD,
            "c/c.go": """package c

type Level int

const (
\tLow Level = iota
\tHigh
)

func (l Level) String() string { return "" }

type Cmd struct{ subs []*Cmd }

type Cmds []*Cmd

func (c *Cmd) Name() string { return "" }

func (c *Cmd) Root() *Cmd { return c }

func (c *Cmd) Subs() []*Cmd { return c.subs }

func Pair() (*Level, *Cmd) { return nil, nil }

var All = []Level{Low, High}
""",
            "c/use.go": """package c

func Use(cs Cmds, more ...*Cmd) {
\tfor _, c := range cs[0].Subs() {
\t\tc.Name()
\t}
\tfor _, c := range more {
\t\tc.Root().Root().Name()
\t}
\tcs[1].Name()
\t_, second := Pair()
\tsecond.Name()
\tHigh.String()
\tx := cs[0]
\tx.Name()
}
""",
            "d/d_test.go": """package d_test

import (
\t"testing"

\t. "example.com/m/c"
)

func TestLevels(t *testing.T) {
\tfor _, l := range All {
\t\tl.String()
\t}
\tLow.String()
}
""",
        },
        ("c.Use", "c.Cmd.Subs", "inferred"), ("c.Use", "c.Cmd.Name", "inferred"),
        ("c.Use", "c.Cmd.Root", "inferred"), ("c.Use", "c.Pair", "exact"),
        ("c.Use", "c.Level.String", "inferred"),
        ("d_test.TestLevels", "c.Level.String", "inferred"),
        exactly=False,
    )  # fmt: skip
    edges = linked.of(EdgeKind.CALLS)
    assert edges[("c.Use", "c.Cmd.Name")].edge.lines == (5, 8, 10, 12, 15)
    assert edges[("c.Use", "c.Cmd.Root")].edge.lines == (8,)
    assert edges[("d_test.TestLevels", "c.Level.String")].edge.lines == (11, 13)


def test_satisfaction_by_method_sets_and_dispatch_through_interfaces() -> None:
    linked = link_snippet(
        {
            "go.mod": GO_MOD,
            "s/s.go": """package s

import "io"

type Namer interface{ Name() string }

type Store interface {
\tNamer
\tSave() error
}

type Stream interface {
\tio.Reader
\tName() string
}

type Base struct{}

func (b *Base) Name() string { return "" }

type File struct{ Base }

func (f File) Save() error { return nil }

type Other struct{}

func (o Other) Name() string { return "" }

func Keep(s Store, n Namer) {
\ts.Save()
\tn.Name()
}
""",
        }
    )
    satisfies = {
        pair for pair, link in linked.of(EdgeKind.INHERITS).items() if link.edge.via == "satisfies"
    }
    assert satisfies == {
        ("s.File", "s.Store"),
        ("s.File", "s.Namer"),
        ("s.Base", "s.Namer"),
        ("s.Other", "s.Namer"),
    }  # fmt: skip  (Stream embeds io.Reader: its methods are unknown, none satisfies it)
    assert all(link.edge.implements for link in linked.of(EdgeKind.INHERITS).values()
               if link.edge.via == "satisfies")  # fmt: skip
    calls = linked.calls(external=False)
    assert calls[("s.Keep", "s.Store.Save")] == ("inferred", None)
    assert calls[("s.Keep", "s.File.Save")] == ("dispatch", "dispatch via `s.Store.Save`")
    assert calls[("s.Keep", "s.Base.Name")][0] == "dispatch"  # File's, promoted, and Base's
    assert calls[("s.Keep", "s.Other.Name")][0] == "dispatch"


def test_external_methods_the_self_shadowing_name_and_the_same_line() -> None:
    linked = link_snippet(
        {
            "go.mod": GO_MOD,
            "a/a_test.go": """package a

import (
\t"os"
\t"testing"

\t"github.com/stretchr/testify/assert"
)

type Node struct{ up *Node }

func (n *Node) Parent() *Node { return n.up }

func TestWalk(t *testing.T) {
\tassert := assert.New(t)
\tfor p := &Node{}; p != nil; p = p.Parent() {
\t\tt.Errorf("at %v", p)
\t}
\tvar err error
\t_ = err.Error()
\t_ = assert
\tf, _ := os.Create("x")
\tf.Close()
}
""",
        }
    )
    calls = linked.calls()
    assert calls[("a.TestWalk", "github.com/stretchr/testify/assert.New")] == ("exact", None)
    assert calls[("a.TestWalk", "a.Node.Parent")] == ("inferred", None)
    assert calls[("a.TestWalk", "testing.common.Errorf")] == ("inferred", None)  # promoted
    assert calls[("a.TestWalk", "error.Error")] == ("inferred", None)
    assert calls[("a.TestWalk", "os.File.Close")] == ("inferred", None)  # os.Create's result


def test_nested_modules_and_a_local_replace() -> None:
    assert_calls(
        {
            "go.mod": "module example.com/app\n\nreplace example.com/lib => ./third/lib\n",
            "third/lib/go.mod": "module github.com/other/lib\n",
            "third/lib/lib.go": "package lib\n\nfunc Help() {}\n",
            "tools/go.mod": "module example.com/tools\n",
            "tools/t/t.go": "package t\n\nfunc Tool() {}\n",
            "main.go": (
                'package main\n\nimport (\n\t"example.com/lib"\n\t"example.com/tools/t"\n'
                '\tother "github.com/other/lib"\n)\n\nfunc main() {\n\tlib.Help()\n\tt.Tool()\n'
                "\tother.Help()\n}\n"
            ),
        },
        (".main", "third/lib.Help", "exact"),
        (".main", "tools/t.Tool", "exact"),
    )


CLOSURES = {
    "go.mod": GO_MOD,
    "r/r.go": """package r

type Request struct{}

func (q *Request) Header() {}

type Route struct{}

func (t *Route) Host(h string) *Route { return t }

func (t *Route) Sub() *Router { return nil }

type Router struct{ routes []*Route }

func (o *Router) Handle(f func(w int, r *Request)) *Route { return nil }

func (o *Router) Use() {}

func (o *Router) Routes() []*Route { return o.routes }

type Level int

func (l Level) String() string { return "" }
""",
    "r/use.go": """package r

func Use() {
\tnew(Route).Host("a").Sub().Use()
\tr := new(Router)
\tr.Handle(func(w int, r *Request) {
\t\tr.Header()
\t})
\tr.Use()
\tpair := func(t *Route) (*Route, *Router) {
\t\treturn t, t.Sub()
\t}
\t_, second := pair(nil)
\tsecond.Use()
\tget := func() *Router { return nil }
\tget().Use()
\tfirst := r.Routes()[0]
\tfirst.Host("b")
\tvar level Level
\tlevel = 3
\tlevel.String()
\tuse := r.Use
\tuse()
}
""",
}


def test_new_chains_closure_parameters_and_results_and_method_values() -> None:
    linked = assert_calls(
        CLOSURES,
        ("r.Use", "r.Route.Host", "inferred"), ("r.Use", "r.Route.Sub", "inferred"),
        ("r.Use", "r.Router.Use", "inferred"), ("r.Use", "r.Router.Handle", "inferred"),
        ("r.Use", "r.Request.Header", "inferred"), ("r.Use", "r.Router.Routes", "inferred"),
        ("r.Use", "r.Level.String", "inferred"),
    )  # fmt: skip
    edges = linked.of(EdgeKind.CALLS)
    # `new(Route).Host`; the router before and after the closure whose parameter `r` shadows
    # it; results of local closures (a second result too); `use := r.Use; use()`
    assert edges[("r.Use", "r.Router.Use")].edge.lines == (4, 9, 14, 16, 23)
    assert edges[("r.Use", "r.Request.Header")].edge.lines == (7,)
    assert edges[("r.Use", "r.Route.Host")].edge.lines == (4, 18)  # `r.Routes()[0]`
    assert edges[("r.Use", "r.Level.String")].edge.lines == (21,)  # `level = 3` keeps Level


def test_one_name_declared_per_build_tag_is_a_node_per_file() -> None:
    linked = link_snippet(
        {
            "go.mod": GO_MOD,
            "t/a_unix.go": "//go:build unix\n\npackage t\n\nfunc isTerm() bool { return true }\n",
            "t/a_windows.go": (
                "//go:build windows\n\npackage t\n\nfunc isTerm() bool { return g() }\n"
            ),
            "t/b.go": "package t\n\nfunc g() bool { return false }\n\nfunc F() { isTerm() }\n",
        }
    )
    repository = linked.repository
    rows = [
        row.id
        for path in sorted(repository.parsed)
        for row in file_rows("r", repository.parsed[path], repository.ids)
    ]
    assert len(rows) == len(set(rows))  # Neo4j's id constraint holds
    unix = repository.ids.of_symbol("t.isTerm", path="t/a_unix.go")
    windows = repository.ids.of_symbol("t.isTerm", path="t/a_windows.go")
    assert windows != unix == repository.ids.of_target("t.isTerm")  # calls: the first file's
    calls = {(e.source, e.target) for e in repository.links["t/a_windows.go"].edges}
    assert (windows, repository.ids.of_target("t.g")) in calls


def test_satisfaction_counts_parameters_and_keeps_unexported_methods_home() -> None:
    linked = link_snippet(
        {
            "go.mod": GO_MOD,
            "h/h.go": """package h

type Handler interface{ Serve(int, string) }

type matcher interface{ match(r int) bool }

type Good struct{}

func (g *Good) Serve(code int, text string) {}

func (g *Good) match(int) bool { return true }

type Short struct{}

func (s Short) Serve(code int) {}
""",
            "o/o.go": """package o

type Other struct{}

func (o Other) match(r int) bool { return false }

func (o Other) Serve(a int, b string) {}
""",
        }
    )
    satisfies = {
        pair for pair, link in linked.of(EdgeKind.INHERITS).items() if link.edge.via == "satisfies"
    }
    assert satisfies == {("h.Good", "h.Handler"), ("h.Good", "h.matcher"), ("o.Other", "h.Handler")}


def test_fields_of_anonymous_struct_rows() -> None:
    linked = assert_calls(
        {
            "go.mod": GO_MOD,
            "c/c_test.go": """package c

type Cmd struct{}

func (c *Cmd) Run() {}

type Level int

func (l Level) String() string { return "" }

var table = []struct {
\tname string
\tcmd  *Cmd
}{{"a", &Cmd{}}}

func TestRows() {
\tcases := []struct{ cmd *Cmd }{{&Cmd{}}}
\tfor _, tc := range cases {
\t\ttc.cmd.Run()
\t}
\tfor _, val := range []struct{ level Level }{{1}} {
\t\tval.level.String()
\t}
\tfor _, row := range table {
\t\trow.cmd.Run()
\t}
\tvar one struct{ cmd *Cmd }
\tone.cmd.Run()
}
""",
        },
        ("c.TestRows", "c.Cmd.Run", "inferred"), ("c.TestRows", "c.Level.String", "inferred"),
    )  # fmt: skip
    assert linked.of(EdgeKind.CALLS)[("c.TestRows", "c.Cmd.Run")].edge.lines == (19, 25, 28)


def test_a_package_level_function_value_is_a_function_of_its_own() -> None:
    assert_calls(
        {
            "go.mod": GO_MOD,
            "a/a.go": (
                "package a\n\nfunc g() {}\n\n// handler says why.\n"
                "var handler = func(n int) { g() }\n\nfunc F() { handler(1) }\n"
            ),
        },
        ("a.handler", "a.g", "exact"), ("a.F", "a.handler", "inferred"),
    )  # fmt: skip


def test_standard_library_conversions_are_no_calls() -> None:
    linked = link_snippet(
        {
            "go.mod": GO_MOD,
            "a/a.go": (
                'package a\n\nimport (\n\t"net/http"\n\t"time"\n)\n\n'
                "func F(f func(http.ResponseWriter, *http.Request)) {\n"
                "\th := http.HandlerFunc(f)\n\t_ = h\n\t_ = time.Duration(3).Seconds()\n"
                '\thttp.Error(nil, "x", 500)\n}\n'
            ),
        }
    )
    assert set(linked.calls()) == {("a.F", "time.Duration.Seconds"), ("a.F", "net/http.Error")}


def test_calls_through_standard_library_interfaces_dispatch_to_satisfying_types() -> None:
    linked = link_snippet(
        {
            "go.mod": GO_MOD,
            "w/w.go": """package w

import (
\t"fmt"
\t"io"
\t"net/http"
)

type Buffer struct{}

func (b *Buffer) Write(p []byte) (int, error) { return 0, nil }

func (b *Buffer) String() string { return "" }

type Pair struct{}

func (p Pair) Write(a, b []byte) (int, error) { return 0, nil }

type Fail struct{}

func (f Fail) Error() string { return "" }

type Page struct{}

func (p Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

func Emit(out io.Writer, s fmt.Stringer, err error, h http.Handler, rw io.ReadWriteCloser) {
\tout.Write(nil)
\trw.Read(nil)
\t_ = s.String()
\t_ = err.Error()
\th.ServeHTTP(nil, nil)
}
""",
        }
    )
    calls = linked.calls(external=False)
    dispatched = {pair: via for pair, (tier, via) in calls.items() if tier == "dispatch"}
    assert dispatched == {
        ("w.Emit", "w.Buffer.Write"): "dispatch via `io.Writer.Write`",
        ("w.Emit", "w.Buffer.String"): "dispatch via `fmt.Stringer.String`",
        ("w.Emit", "w.Fail.Error"): "dispatch via `error.Error`",
        ("w.Emit", "w.Page.ServeHTTP"): "dispatch via `net/http.Handler.ServeHTTP`",
    }  # Pair.Write takes two parameters: it is no io.Writer
    assert not any(  # no INHERITS edge to an interface outside the repository
        link.edge.via == "satisfies" for link in linked.of(EdgeKind.INHERITS).values()
    )
    # a type gaining `Close` in another file (Buffer and Read are never declared) makes it
    # an io.ReadWriteCloser: `rw.Read` must be linked again (incremental runs)
    assert "Close" in linked.repository.links["w/w.go"].names_consulted


def test_a_possible_line_does_not_join_a_certain_edge_of_the_same_pair() -> None:
    linked = link_snippet(
        {
            "go.mod": GO_MOD,
            "r/r.go": """package r

import "net/http"

type Router struct{}

func (r *Router) ServeHTTP(w http.ResponseWriter, q *http.Request) {}

func Serve(r *Router, h http.Handler) {
\tr.ServeHTTP(nil, nil)
\th.ServeHTTP(nil, nil)
}
""",
        }
    )
    [link] = [
        link for pair, link in linked.of().items() if pair == ("r.Serve", "r.Router.ServeHTTP")
    ]
    assert (link.edge.resolution, link.edge.lines) == (Resolution.INFERRED, (10,))
