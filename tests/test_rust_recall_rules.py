"""Rust linking rules of stop 65 (recall, found on petgraph and rand): offline, small snippets."""

from __future__ import annotations

from graphrag_code.model import EdgeKind
from tests.linking_helpers import assert_calls, link_snippet


def test_an_item_a_module_level_macro_declares_is_imported_from_that_module() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "pub mod visit;\nuse crate::visit::{IntoNeighbors, GraphRef, Gone};\n",
            "src/visit/mod.rs": "macro_rules! trait_template { ($($t:tt)*) => { $($t)* } }\n"
            "pub trait GraphRef {}\n"
            "trait_template! {\n"
            "/// Neighbors.\n"
            "pub trait IntoNeighbors : GraphRef {\n"
            "    @section self\n"
            "    fn neighbors(self);\n"
            "}\n"
            "}\n",
        }
    )
    imports = {
        (link.target, link.edge.names)
        for link in linked.links
        if link.edge.kind == EdgeKind.IMPORTS and link.source == "src/lib.rs"
    }
    # `neighbors`, in the trait's braces, is no item of the module; `Gone` is declared nowhere
    assert imports == {("src/visit/mod.rs", ("GraphRef", "IntoNeighbors"))}


def test_slices_arrays_and_vecs_have_the_methods_of_the_crates_impl_on_slices() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait SliceRandom {\n    fn choose(&self) -> u8;\n"
            "    fn shuffle(&mut self);\n}\n"
            "impl<T> SliceRandom for [T] {\n    fn choose(&self) -> u8 { 0 }\n"
            "    fn shuffle(&mut self) {}\n}\n"
            "pub trait Bytes {\n    fn shuffle(&mut self);\n}\n"
            "impl Bytes for [u8] {\n    fn shuffle(&mut self) {}\n}\n"
            "fn f(r: u8) {\n    let chars = ['a', 'b'];\n    chars.choose();\n"
            "    let v = vec![1, 2];\n    v.choose();\n    let mut e: [isize; 0] = [];\n"
            "    e.choose();\n    let s: &mut Vec<u8> = g();\n    s.choose();\n"
            "    chars.shuffle();\n    chars.len();\n    let n = 3;\n    n.choose();\n}\n"
            "fn g() -> &'static mut Vec<u8> { todo!() }\n",
        },
        ("crate::f", "crate::[T]::SliceRandom::choose", "inferred"),
        ("crate::f", "crate::g", "exact"),
        exactly=True,  # `shuffle`: two slice impls have one; `len`: std's; `n`: no slice
    )


def test_a_let_of_a_method_chain_has_the_type_of_its_last_call() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct It;\npub struct Out;\n"
            "impl It {\n    fn len(&self) -> usize { 0 }\n"
            "    fn out(&self) -> Option<Out> { None }\n}\n"
            "impl Out {\n    fn done(&self) {}\n}\n"
            "fn make() -> Result<It, u8> { Ok(It) }\n"
            "fn f() {\n    let all = make()\n        .unwrap()\n        .collect::<Vec<_>>();\n"
            '    all.len();\n    let it = make().expect("it").clone();\n    it.len();\n'
            "    let o = it.out().unwrap_or_default();\n    o.done();\n}\n",
        },
        ("crate::f", "crate::make", "exact"),
        ("crate::f", "crate::It::len", "inferred"),
        ("crate::f", "crate::It::out", "inferred"),
        ("crate::f", "crate::Out::done", "inferred"),
        exactly=True,
    )
    # `all.len()` (line 15) is std's: `collect` makes a `Vec`, not an `It`
    linked = assert_calls(
        {
            "src/lib.rs": "pub struct It;\nimpl It {\n    fn len(&self) -> usize { 0 }\n}\n"
            "fn make() -> It { It }\n"
            "fn f() {\n    let all = make().collect::<Vec<_>>();\n    all.len();\n}\n"
        },
        ("crate::f", "crate::make", "exact"),
        exactly=True,
    )
    assert linked


def test_self_in_an_impl_of_a_type_written_through_a_re_export_is_that_type() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub mod graph_impl;\npub mod data;\npub use crate::graph_impl::Graph;\n",
            "src/graph_impl.rs": "pub struct Graph;\nimpl Graph {\n"
            "    pub fn node_weight(&self) -> u8 { 0 }\n"
            "    pub fn node_count(&self) -> usize { 0 }\n}\n",
            "src/data.rs": "use crate::Graph;\npub trait DataMap {\n"
            "    fn node_weight(&self) -> u8;\n    fn count(&self) -> usize;\n}\n"
            "impl DataMap for Graph {\n    fn node_weight(&self) -> u8 {\n"
            "        self.node_weight()\n    }\n"
            "    fn count(&self) -> usize {\n        self.node_count()\n    }\n}\n",
        },
        # the inherent method comes before the trait's method of the same name
        ("crate::Graph::DataMap::node_weight", "crate::graph_impl::Graph::node_weight", "inferred"),
        ("crate::Graph::DataMap::count", "crate::graph_impl::Graph::node_count", "inferred"),
        exactly=True,
    )


def test_an_element_of_a_vec_or_array_field_parameter_or_let_has_the_element_type() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct Ix;\nimpl Ix {\n    fn index(&self) -> usize { 0 }\n}\n"
            "pub struct Node {\n    next: [Ix; 2],\n}\n"
            "pub struct G {\n    nodes: Vec<Node>,\n    count: usize,\n}\n"
            "impl G {\n    fn f(&self, label: &mut Vec<Ix>, i: usize) {\n"
            "        self.nodes[i].next[0].index();\n        label[i].index();\n"
            "        let v: Vec<Ix> = Vec::new();\n        v[0].index();\n"
            "        self.count[0].index();\n        i[0].index();\n    }\n}\n",
        },
        ("crate::G::f", "crate::Ix::index", "inferred"),
        exactly=True,
    )


def test_a_let_of_a_field_or_an_element_has_its_type() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct Ix;\nimpl Ix {\n    fn index(&self) -> usize { 0 }\n}\n"
            "pub struct Node {\n    next: [Ix; 2],\n}\n"
            "pub struct G {\n    free: Ix,\n    nodes: Vec<Node>,\n    n: usize,\n}\n"
            "impl G {\n    fn f(&self, node: &Node) {\n"
            "        let mut free = self.free;\n        free.index();\n"
            "        let mut edix = node.next[0];\n        edix.index();\n"
            "        let first = &self.nodes[0];\n        first.next[1].index();\n"
            "        let n = self.n;\n        n.index();\n    }\n}\n",
        },
        ("crate::G::f", "crate::Ix::index", "inferred"),
        exactly=True,
    )


def test_each_name_of_a_tuple_let_of_a_call_has_the_type_of_its_place_in_the_result() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct List;\nimpl List {\n    fn count(&self) -> usize { 0 }\n}\n"
            "pub struct Err;\nimpl Err {\n    fn show(&self) {}\n}\n"
            "fn pair() -> (List, Err) { (List, Err) }\n"
            "fn maybe() -> Result<(Err, List), Err> { Err(Err) }\n"
            "fn f() -> Result<(), Err> {\n    let (list, err) = pair();\n"
            "    list.count();\n    err.show();\n"
            "    let (e, l) = maybe()?;\n    e.show();\n    l.count();\n"
            "    let (a, b) = (1, 2);\n    a.count();\n    b.show();\n    Ok(())\n}\n",
        },
        ("crate::f", "crate::pair", "exact"),
        ("crate::f", "crate::maybe", "exact"),
        ("crate::f", "crate::List::count", "inferred"),
        ("crate::f", "crate::Err::show", "inferred"),
        exactly=True,
    )


def test_a_loop_variable_has_the_type_of_the_items_its_iterable_gives() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct Edge;\nimpl Edge {\n    fn source(&self) -> usize { 0 }\n}\n"
            "pub struct Edges;\nimpl Iterator for Edges {\n    type Item = Edge;\n"
            "    fn next(&mut self) -> Option<Edge> { None }\n}\n"
            "pub struct G {\n    edges: Vec<Edge>,\n}\n"
            "impl G {\n    fn refs(&self) -> Edges { Edges }\n"
            "    fn f(&self, g: &G, e: Edge) {\n"
            "        for edge in self.refs() {\n            edge.source();\n        }\n"
            "        for x in &self.edges {\n            x.source();\n        }\n"
            "        for mut y in g.edges.iter() {\n            y.source();\n        }\n"
            "        for (i, e) in g.edges.iter().enumerate() {\n            e.source();\n"
            "        }\n    }\n}\n",
        },
        ("crate::G::f", "crate::G::refs", "inferred"),
        ("crate::G::f", "crate::Edge::source", "inferred"),
        exactly=True,
    )
    linked = link_snippet(
        {
            "src/lib.rs": "pub struct Edge;\nimpl Edge {\n    fn source(&self) -> usize { 0 }\n}\n"
            "fn f(e: Edge, v: Vec<Edge>) {\n    e.source();\n"
            "    for (i, e) in v.iter().enumerate() {\n        e.source();\n    }\n}\n"
        }
    )
    # `(i, e)` shadows the parameter `e`: its type is not read
    lines = {e.edge.lines for e in linked.links if e.edge.kind == EdgeKind.CALLS}
    assert lines == {(6,)}


def test_self_m_in_one_of_two_impls_of_a_trait_for_a_type_runs_the_same_impls_m() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "pub struct Value;\n"
            "pub trait De<'de> {\n    fn any(self) -> u8;\n    fn string(self) -> u8;\n}\n"
            "impl<'de> De<'de> for Value {\n    fn any(self) -> u8 { self.string() }\n"
            "    fn string(self) -> u8 { 0 }\n}\n"
            "impl<'de> De<'de> for &'de Value {\n    fn any(self) -> u8 { self.string() }\n"
            "    fn string(self) -> u8 { self.string() }\n}\n"
            "pub trait Cmp<T> {\n    fn cmp(&self, t: T) -> u8;\n    fn le(&self) -> u8;\n}\n"
            "impl Cmp<u8> for Value {\n    fn cmp(&self, t: u8) -> u8 { self.le() }\n"
            "    fn le(&self) -> u8 { 0 }\n}\n"
            "impl Cmp<u16> for Value {\n    fn cmp(&self, t: u16) -> u8 { 0 }\n"
            "    fn le(&self) -> u8 { 1 }\n}\n",
        }
    )
    calls = {
        (link.edge.source, link.edge.target, link.edge.lines)
        for link in linked.links
        if link.edge.kind == EdgeKind.CALLS
    }
    # `string` calling its own name, and `Cmp<u8>`'s `self.le()` (the trait's argument may
    # choose another impl): no edge
    assert calls == {
        ("t:crate::Value::De::any", "t:crate::Value::De::string", (7,)),
        ("t:crate::Value::De::any#2", "t:crate::Value::De::string#2", (11,)),
    }


def test_a_closure_parameter_of_an_iterator_adaptor_is_an_item_of_its_receiver() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct Edge;\nimpl Edge {\n    fn source(&self) -> usize { 0 }\n}\n"
            "pub struct Edges;\nimpl Iterator for Edges {\n    type Item = Edge;\n"
            "    fn next(&mut self) -> Option<Edge> { None }\n}\n"
            "pub struct G {\n    edges: Vec<Edge>,\n}\n"
            "impl G {\n    fn refs(&self) -> Edges { Edges }\n    fn f(&self) {\n"
            "        self.refs().map(|e| e.source());\n"
            "        self.edges.iter().filter(|x| x.source() > 0);\n"
            "        self.edges.iter().enumerate().map(|y| y.source());\n"
            "        self.edges.iter().fold(0, |z, w| w.source());\n    }\n}\n",
        },
        ("crate::G::f", "crate::G::refs", "inferred"),
        ("crate::G::f", "crate::Edge::source", "inferred"),
        exactly=True,
    )
    linked = link_snippet(
        {
            "src/lib.rs": "pub struct Edge;\nimpl Edge {\n    fn source(&self) -> usize { 0 }\n}\n"
            "fn f(edges: Vec<Edge>, xs: Edge) {\n    for e in e.edges() {\n        e.source();\n"
            "    }\n    xs.iter().map(|xs| xs.source());\n}\n"
        }
    )
    # a name bound to a call on that name itself: no type, and no endless search
    assert not [link for link in linked.links if link.edge.kind == EdgeKind.CALLS]


def test_a_loop_over_a_name_has_its_elements_or_its_items() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct Edge;\nimpl Edge {\n    fn source(&self) -> usize { 0 }\n}\n"
            "pub struct Edges;\nimpl Iterator for Edges {\n    type Item = Edge;\n"
            "    fn next(&mut self) -> Option<Edge> { None }\n}\n"
            "fn refs() -> Edges { Edges }\n"
            "fn f(v: Vec<Edge>, n: usize) {\n    for a in v {\n        a.source();\n    }\n"
            "    let it = refs();\n    for b in it {\n        b.source();\n    }\n"
            "    for c in n {\n        c.source();\n    }\n}\n",
        },
        ("crate::f", "crate::refs", "exact"),
        ("crate::f", "crate::Edge::source", "inferred"),
        exactly=True,
    )


def test_default_default_as_a_fields_value_runs_the_fields_types_default() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct Table {\n    n: u8,\n}\n"
            "impl Default for Table {\n    fn default() -> Self { Table { n: 0 } }\n}\n"
            "pub struct Outer {\n    inner: Table,\n    n: u8,\n}\n"
            "fn f() -> Outer {\n    Outer { inner: Default::default(), n: Default::default() }\n}\n"
            "fn g() -> Table {\n    Default::default()\n}\n",
        },
        ("crate::f", "crate::Table::Default::default", "inferred"),
        exactly=True,  # `n: u8` and `g`'s (no field) have no impl of ours that surely runs
    )


def test_a_crates_own_type_named_like_a_std_wrapper_is_not_unwrapped() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub mod core;\npub mod map;\n",
            "src/core.rs": "pub struct RefMut<'a, K> {\n    k: &'a K,\n}\n"
            "impl<'a, K> RefMut<'a, K> {\n    pub fn reserve(&mut self) {}\n}\n"
            "pub struct Core<K> {\n    k: K,\n}\nimpl<K> Core<K> {\n"
            "    fn borrow_mut(&mut self) -> RefMut<'_, K> { todo!() }\n"
            "    fn f(&mut self) {\n        self.borrow_mut().reserve();\n    }\n}\n",
            "src/map.rs": "use crate::core::RefMut;\nuse std::cell::Ref;\npub struct Inner;\n"
            "impl Inner {\n    fn get(&self) {}\n}\n"
            "pub type Result<T> = std::result::Result<T, ()>;\n"
            "fn make() -> Result<Inner> { Ok(Inner) }\n"
            "fn g(r: RefMut<'_, u8>, c: Ref<'_, Inner>) {\n    r.reserve();\n    c.get();\n"
            "    make().unwrap().get();\n}\n",
        },
        ("crate::core::Core::f", "crate::core::Core::borrow_mut", "inferred"),
        ("crate::core::Core::f", "crate::core::RefMut::reserve", "inferred"),
        ("crate::map::g", "crate::core::RefMut::reserve", "inferred"),
        ("crate::map::g", "crate::map::Inner::get", "inferred"),  # std's `Ref`, own `Result`
        ("crate::map::g", "crate::map::make", "exact"),
        exactly=True,
    )


def test_a_place_of_a_tuple_typed_parameter_has_its_declared_type() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct State;\nimpl State {\n    fn next_out(&self) -> u8 { 0 }\n}\n"
            "pub struct Other;\nimpl Other {\n    fn done(&self) -> bool { true }\n}\n"
            "fn f(st: &mut (State, Other), n: (u8, u8)) {\n    st.0.next_out();\n"
            "    st.1.done();\n    st.1.next_out();\n    n.0.done();\n}\n",
        },
        ("crate::f", "crate::State::next_out", "inferred"),
        ("crate::f", "crate::Other::done", "inferred"),
        exactly=True,
    )
