"""Rust linking rules found on the nom tuning crate (stop 63): `use` items in function
bodies, methods of impls on types the repository does not declare, trait-qualified calls."""

from __future__ import annotations

from graphrag_code.model import EdgeKind
from tests.linking_helpers import assert_calls, link_snippet


def test_a_use_in_a_function_body_shadows_the_module_names() -> None:
    snippet = {
        "src/lib.rs": "pub mod streaming;\npub mod complete;\nmod tests;\n",
        "src/streaming.rs": "pub fn tag() {}\n",
        "src/complete.rs": "pub fn tag() {}\npub fn take() {}\n",
        "src/tests.rs": "use crate::complete::tag;\n"
        "fn take() {\n    use crate::streaming::tag;\n    use crate::complete::*;\n"
        "    fn inner() {\n        tag();\n        take();\n    }\n    tag();\n}\n"
        "fn other() {\n    tag();\n    take();\n}\n",
    }
    assert_calls(
        snippet,
        ("crate::tests::take::inner", "crate::streaming::tag", "exact"),
        ("crate::tests::take::inner", "crate::complete::take", "exact"),
        ("crate::tests::take", "crate::streaming::tag", "exact"),
        ("crate::tests::other", "crate::complete::tag", "exact"),
        ("crate::tests::other", "crate::tests::take", "exact"),
        exactly=True,
    )
    imports = {
        (e.source, e.target, e.edge.lines)
        for e in link_snippet(snippet).links
        if e.edge.kind == EdgeKind.IMPORTS
    }
    assert ("src/tests.rs", "src/streaming.rs", (3,)) in imports
    assert ("src/tests.rs", "src/complete.rs", (1, 4)) in imports


def test_a_body_use_of_an_outside_item_hides_the_module_item_of_that_name() -> None:
    assert_calls(
        {"src/lib.rs": "fn write() {}\nfn f() {\n    use std::fmt::write;\n    write();\n}\n"},
        exactly=True,
    )


def test_impls_on_built_in_types_have_their_methods() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait AsChar {\n    fn is_a(self) -> bool;\n"
            "    fn is_b(self) -> bool;\n    fn len(self) -> usize;\n}\n"
            "impl AsChar for u8 {\n    fn is_a(self) -> bool { true }\n"
            "    fn is_b(self) -> bool { self.is_a() || self.len() > 0 }\n"
            "    fn len(self) -> usize { 1 }\n}\n"
            "impl<'a> AsChar for &'a u8 {\n    fn is_a(self) -> bool { false }\n"
            "    fn is_b(self) -> bool { self.is_a() }\n    fn len(self) -> usize { 1 }\n}\n",
        },
        ("crate::u8::AsChar::is_b", "crate::u8::AsChar::is_a", "inferred"),
        ("crate::&u8::AsChar::is_b", "crate::&u8::AsChar::is_a", "inferred"),
        exactly=True,  # `self.len()`: std's inherent `len` of the name comes first
    )


def test_two_impls_of_one_trait_for_one_type_leave_the_method_unresolved() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Cmp<T> {\n    fn cmp_to(&self, t: T) -> bool;\n}\n"
            "pub struct S;\nimpl Cmp<u8> for S {\n    fn cmp_to(&self, t: u8) -> bool { true }\n}\n"
            "impl Cmp<char> for S {\n    fn cmp_to(&self, t: char) -> bool { true }\n}\n"
            "fn run(s: S) {\n    s.cmp_to(1u8);\n}\n",
        },
        exactly=True,
    )


def test_a_blanket_impl_on_a_type_parameter_is_no_owner() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Sink {\n    fn put(&mut self);\n}\n"
            "impl<S: Sink + ?Sized> Sink for &mut S {\n"
            "    fn put(&mut self) { (**self).put() }\n}\n",
        },
        exactly=True,
    )


def test_a_trait_qualified_call_reaches_the_impl_for_its_first_argument() -> None:
    assert_calls(
        {
            "src/lib.rs": "use std::fmt::{self, Display};\npub struct E;\n"
            "impl Display for E {\n"
            "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }\n}\n"
            "pub trait Named {\n    fn name(&self) -> u8;\n}\npub struct N;\n"
            "impl Named for N {\n    fn name(&self) -> u8 { 1 }\n}\n"
            "fn run(e: &E, n: N, f: &mut fmt::Formatter) {\n"
            "    Display::fmt(e, f);\n    Named::name(&n);\n}\n",
        },
        ("crate::run", "crate::E::Display::fmt", "inferred"),
        ("crate::run", "crate::N::Named::name", "inferred"),
        exactly=True,
    )


def test_generic_parameters_and_associated_types_reach_the_bound_traits() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Config {\n    fn pad(&self) -> bool;\n}\n"
            "pub trait Engine {\n    type Config: Config;\n    fn config(&self) -> &Self::Config;\n"
            "    fn standard() -> Self;\n}\n"
            "pub struct Gp;\npub struct GpConfig;\n"
            "impl Config for GpConfig {\n    fn pad(&self) -> bool { true }\n}\n"
            "impl Engine for Gp {\n    type Config = GpConfig;\n"
            "    fn config(&self) -> &GpConfig { &GpConfig }\n"
            "    fn standard() -> Self { Gp }\n}\n"
            "fn run<E: Engine>(e: &E) {\n    e.config().pad();\n    E::standard();\n}\n"
            "fn direct(g: Gp) {\n    g.config().pad();\n}\n",
        },
        ("crate::run", "crate::Engine::config", "inferred"),
        ("crate::run", "crate::Gp::Engine::config", "dispatch"),
        ("crate::run", "crate::Config::pad", "inferred"),
        ("crate::run", "crate::GpConfig::Config::pad", "dispatch"),
        ("crate::run", "crate::Engine::standard", "inferred"),
        ("crate::run", "crate::Gp::Engine::standard", "dispatch"),
        ("crate::direct", "crate::Gp::Engine::config", "inferred"),
        ("crate::direct", "crate::GpConfig::Config::pad", "inferred"),
        exactly=True,
    )


def test_a_const_receiver_has_its_declared_type_through_uses_and_re_exports() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub mod engine;\npub use engine::STANDARD as STD;\n"
            "pub const LOCAL: engine::Gp = engine::Gp;\n"
            "fn run() {\n    STD.decode();\n    LOCAL.decode();\n}\n",
            "src/engine.rs": "pub struct Gp;\nimpl Gp {\n    pub fn decode(&self) {}\n}\n"
            "pub const STANDARD: Gp = Gp;\n",
            "src/user.rs": "use crate::STD;\nfn f() {\n    STD.decode();\n}\n",
        },
        ("crate::run", "crate::engine::Gp::decode", "inferred"),
        ("crate::user::f", "crate::engine::Gp::decode", "inferred"),
        exactly=True,
    )


def test_path_calls_into_other_crates_are_external_edges() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "mod lib2 {\n    pub mod std {\n        pub use core::mem;\n    }\n}\n"
            "use serde_json::to_string;\nuse crate::lib2::std::mem;\n"
            "pub struct Own;\nfn run<T: Default>(a: &mut u8, b: &mut u8) {\n"
            "    std::mem::swap(a, b);\n    to_string(a);\n    Vec::new();\n    mem::take(a);\n"
            "    T::default();\n    Own;\n    helper();\n}\n",
        }
    )
    external = {
        (link.source, link.target, link.tier)
        for link in linked.links
        if link.edge.kind == EdgeKind.CALLS and link.edge.external
    }
    assert external == {
        ("crate::run", "std::mem::swap", "exact"),
        ("crate::run", "serde_json::to_string", "exact"),
        ("crate::run", "alloc::vec::Vec::new", "exact"),
        ("crate::run", "core::mem::take", "exact"),
    }


def test_a_value_of_a_generic_type_has_the_methods_of_each_bound() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Len {\n    fn input_len(&self) -> usize;\n}\n"
            "pub trait Take {\n    fn take_split(&self, n: usize);\n}\n"
            "fn run<T: Clone + Len>(input: T)\nwhere\n    T: Take,\n{\n"
            "    input.input_len();\n    input.take_split(1);\n    T::take_split(&input, 1);\n}\n",
        },
        ("crate::run", "crate::Len::input_len", "inferred"),
        ("crate::run", "crate::Take::take_split", "inferred"),
        exactly=True,
    )


def test_typed_closure_parameters_and_clones_keep_their_types() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Len {\n    fn input_len(&self) -> usize;\n}\n"
            "pub struct Buf;\nimpl Buf {\n    fn size(&self) -> usize { 0 }\n}\n"
            "pub fn char<I>(c: char) -> impl Fn(I) -> usize\nwhere\n    I: Len,\n{\n"
            "    move |i: I| {\n        let j = i.clone();\n        j.input_len()\n    }\n}\n"
            "fn run() {\n    let f = |b: &Buf| b.size();\n}\n",
        },
        ("crate::char", "crate::Len::input_len", "inferred"),
        ("crate::run", "crate::Buf::size", "inferred"),
        exactly=True,
    )


def test_if_let_and_match_bind_the_unwrapped_value() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct Line;\nimpl Line {\n    fn amount(&self) -> u8 { 1 }\n}\n"
            "pub struct Order;\nimpl Order {\n    fn first(&self) -> Option<Line> { None }\n"
            "    fn last(&self) -> Result<Line, ()> { Err(()) }\n}\n"
            "fn run(o: Order) {\n    if let Some(line) = o.first() {\n"
            "        line.amount();\n    }\n"
            "    match o.last() {\n        Ok(l) => {\n            l.amount();\n        }\n"
            "        Err(e) => {}\n    }\n}\n",
        },
        ("crate::run", "crate::Order::first", "inferred"),
        ("crate::run", "crate::Order::last", "inferred"),
        ("crate::run", "crate::Line::amount", "inferred"),
        exactly=True,
    )


def test_a_glob_of_the_files_own_enum_is_an_import_of_the_file() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "pub mod a;\n",
            "src/a.rs": "use self::Needed::*;\npub enum Needed {\n    Unknown,\n}\nuse self::*;\n",
        }
    )
    imports = {
        (e.source, e.target, e.edge.lines) for e in linked.links if e.edge.kind == EdgeKind.IMPORTS
    }
    assert imports == {("src/a.rs", "src/a.rs", (1,))}


def test_a_call_belongs_to_the_definition_of_a_repeated_name_whose_lines_hold_it() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "pub struct Map;\nimpl Map {\n    fn iter(&self) {}\n"
            "    fn iter_mut(&mut self) {}\n}\n"
            "impl<'a> IntoIterator for &'a Map {\n    fn into_iter(self) { self.iter() }\n}\n"
            "impl<'a> IntoIterator for &'a mut Map {\n"
            "    fn into_iter(self) { self.iter_mut() }\n}\n",
        }
    )
    calls = {
        (link.edge.source.split(":", 1)[1], link.target)
        for link in linked.links
        if link.edge.kind == EdgeKind.CALLS
    }
    assert calls == {
        ("crate::Map::IntoIterator::into_iter", "crate::Map::iter"),
        ("crate::Map::IntoIterator::into_iter#2", "crate::Map::iter_mut"),
    }


def test_a_let_of_an_unread_type_shadows_the_earlier_binding_of_its_name() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct A;\nimpl A {\n    fn key(&self) {}\n}\n"
            "pub struct B;\nimpl B {\n    fn key(&self) {}\n}\n"
            "fn f(flag: bool) {\n    {\n        let e = A {};\n        e.key();\n    }\n"
            "    {\n        let e = if flag { B {} } else { B {} };\n        e.key();\n    }\n}\n",
        },
        ("crate::f", "crate::A::key", "inferred"),
        exactly=True,
    )


def test_global_paths_and_prelude_roots_name_other_crates() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "mod core;\nuse ::core::cmp::Ordering;\nuse ::core::mem;\n"
            "use Option::{self as State, Some as Ready};\nuse Result::{Err as Break};\n"
            "fn f() {\n    mem::swap(a, b);\n    ::std::mem::take(c);\n}\n",
            "src/core.rs": "pub mod cmp {}\n",
        }
    )
    imports = {
        (link.target, link.edge.lines)
        for link in linked.links
        if link.edge.kind == EdgeKind.IMPORTS
    }
    assert imports == {("core", (2, 3, 4, 5))}
    assert set(linked.calls()) == {("crate::f", "core::mem::swap"), ("crate::f", "std::mem::take")}


def test_a_use_of_enum_variants_through_a_re_export_imports_the_enums_file() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "mod minmax;\npub use crate::minmax::MinMax;\n"
            "fn f() {\n    use crate::MinMax::{One, Two};\n}\n",
            "src/minmax.rs": "pub enum MinMax {\n    One,\n    Two,\n}\n",
        }
    )
    imports = {
        (link.target, link.edge.lines)
        for link in linked.links
        if link.edge.kind == EdgeKind.IMPORTS
    }
    assert imports == {("src/minmax.rs", (2, 4))}


def test_a_constructor_or_prelude_trait_of_another_crate_is_no_certain_call() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "use either::Either;\nuse Option::Some as Ready;\n"
            "fn f(x: u8) {\n    Either::Left(x);\n    Ready(x);\n    std::num::Wrapping(x);\n"
            "    std::mem::drop(x);\n    Default::default();\n}\n",
        }
    )  # `Default::default()`: some impl runs, maybe one of ours
    assert linked.calls() == {("crate::f", "std::mem::drop"): ("exact", None)}


def test_a_nested_fn_calls_its_siblings_and_itself() -> None:
    assert_calls(
        {
            "src/lib.rs": "fn outer() {\n    fn inner0() {}\n"
            "    fn inner(n: u8) {\n        inner0();\n        inner(n);\n    }\n"
            "    inner(1);\n}\nfn inner0() {}\n"
            "pub struct T;\nimpl T {\n    fn new() {}\n"
            "    fn m(&self) {\n        new();\n    }\n}\n",
        },  # a bare `new()` in a method is no `Self::new`
        ("crate::outer::inner", "crate::outer::inner0", "exact"),
        ("crate::outer::inner", "crate::outer::inner", "exact"),
        ("crate::outer", "crate::outer::inner", "exact"),
        exactly=True,
    )


def test_a_local_typed_by_its_own_associated_path_ends_the_search() -> None:
    assert_calls(
        {"src/lib.rs": "fn f() {\n    let x = x::Y();\n    x.m();\n}\n"},
        exactly=True,
    )


def test_associated_functions_of_impls_on_built_in_types_are_called_by_path() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Errors {\n    fn scale() -> u32;\n    fn half() -> u32;\n}\n"
            "impl Errors for u64 {\n    fn scale() -> u32 { 8 }\n"
            "    fn half() -> u32 { u64::scale() / 2 + Self::scale() }\n}\n"
            "fn f() -> u32 {\n    u64::half()\n}\n",
        },
        ("crate::u64::Errors::half", "crate::u64::Errors::scale", "exact"),
        ("crate::f", "crate::u64::Errors::half", "exact"),
        exactly=True,
    )


def test_a_trait_qualified_call_on_a_value_of_no_known_type_may_run_each_impl() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Float {\n    fn sign(self, o: Self) -> Self;\n"
            "    fn deg(self) -> Self { self }\n}\n"
            "pub struct A;\nimpl Float for A {\n    fn sign(self, o: Self) -> Self { o }\n}\n"
            "fn f(p: A) {\n    let q = p;\n    Float::sign(q, q);\n    Float::deg(1.0);\n"
            "    Float::sign(p, p);\n}\n",
        },
        ("crate::f", "crate::A::Float::sign", "inferred"),  # `p: A`
        ("crate::f", "crate::Float::deg", "dispatch"),  # its default body may run
        exactly=True,
    )


def test_use_items_bind_in_any_order() -> None:
    snippet = {
        "src/lib.rs": "mod map;\nmod set;\n",
        "src/map.rs": "pub fn make_hash() {}\n",
        "src/set.rs": "use map::make_hash;\nuse super::map::{self};\n"
        "fn f() {\n    make_hash();\n}\nmod tests {\n    use super::make_hash;\n}\n",
    }
    assert_calls(snippet, ("crate::set::f", "crate::map::make_hash", "exact"), exactly=True)
    linked = link_snippet(snippet)
    imports = {(e.target, e.edge.lines) for e in linked.links if e.edge.kind == EdgeKind.IMPORTS}
    assert imports == {("src/map.rs", (1, 2, 7))}


def test_an_impl_of_a_type_written_through_a_re_export_holds_the_types_methods() -> None:
    snippet = {
        "src/lib.rs": "mod map;\nmod raw_entry;\npub use crate::map::HashMap;\n",
        "src/map.rs": "pub struct HashMap;\nimpl HashMap {\n    pub fn new() -> Self {\n"
        "        HashMap\n    }\n}\n",
        "src/raw_entry.rs": "use crate::HashMap;\nimpl HashMap {\n"
        "    pub fn raw_entry(&self) {}\n}\nfn f() {\n    let a = HashMap::new();\n"
        "    a.raw_entry();\n}\n",
    }
    assert_calls(
        snippet,
        ("crate::raw_entry::f", "crate::map::HashMap::new", "exact"),
        ("crate::raw_entry::f", "crate::HashMap::raw_entry", "inferred"),
        exactly=True,
    )


def test_a_variant_pattern_binds_the_variants_one_value() -> None:
    snippet = {
        "src/lib.rs": "pub struct Vacant;\nimpl Vacant {\n    pub fn insert(self) {}\n}\n"
        "pub struct Occupied;\nimpl Occupied {\n    pub fn get(&self) {}\n}\n"
        "pub enum Entry {\n    Occupied(Occupied),\n    Vacant(crate::Vacant),\n"
        "    Pair(Vacant, Occupied),\n}\n"
        "fn f(e: Entry) {\n    match e {\n        Entry::Occupied(ref o) => o.get(),\n"
        "        Entry::Vacant(o) => o.insert(),\n        Entry::Pair(o, _) => o.insert(),\n"
        "    }\n    if let Entry::Occupied(mut v) = e {\n        v.get();\n    }\n}\n",
    }
    assert_calls(
        snippet,
        ("crate::f", "crate::Occupied::get", "inferred"),
        ("crate::f", "crate::Vacant::insert", "inferred"),
        exactly=True,
    )
    linked = link_snippet(snippet)
    lines = sorted(
        line for e in linked.links if e.edge.kind == EdgeKind.CALLS for line in e.edge.lines
    )
    assert lines == [16, 17, 21]  # a variant of two values binds nothing


def test_a_type_alias_names_the_type_it_aliases() -> None:
    snippet = {
        "src/lib.rs": "mod map;\npub type HM = crate::map::Map;\ntype A = B;\ntype B = A;\n"
        "fn f(m: HM, a: A) {\n    let n = HM::new();\n    n.len();\n    m.len();\n"
        "    a.len();\n}\n",
        "src/map.rs": "pub struct Map;\nimpl Map {\n    pub fn new() -> Self {\n"
        "        Map\n    }\n    pub fn len(&self) {}\n}\n",
    }
    assert_calls(
        snippet,
        ("crate::f", "crate::map::Map::new", "exact"),
        ("crate::f", "crate::map::Map::len", "inferred"),
        exactly=True,
    )


def test_a_type_alias_in_a_function_body_names_its_type_there() -> None:
    snippet = {
        "src/lib.rs": "pub struct S;\nimpl S {\n    pub fn new() -> Self {\n        S\n    }\n"
        "    pub fn cap(&self) {}\n}\nfn g() {\n    type H = S;\n    let s = H::new();\n"
        "    s.cap();\n    fn inner(h: H) {\n        h.cap();\n    }\n}\n"
        "fn other() {\n    H::new();\n}\n",
    }
    assert_calls(
        snippet,
        ("crate::g", "crate::S::new", "exact"),
        ("crate::g", "crate::S::cap", "inferred"),
        ("crate::g::inner", "crate::S::cap", "inferred"),
        exactly=True,
    )


def test_a_tuple_let_binds_each_name_to_the_value_in_its_place() -> None:
    snippet = {
        "src/lib.rs": "pub struct S;\nimpl S {\n    pub fn len(&self) {}\n}\n"
        "fn f(a: S, b: S, x: S) {\n    let (small, large) = if true { (a, b) } else { (b, a) };\n"
        "    small.len();\n    large.len();\n    let (x, _) = g();\n    x.len();\n}\n"
        "fn g() -> (u8, u8) {\n    (1, 2)\n}\n",
    }
    linked = link_snippet(snippet)
    lines = sorted(
        line for e in linked.links if e.edge.kind == EdgeKind.CALLS for line in e.edge.lines
    )
    assert lines == [7, 8, 9]  # `x` from a call's tuple is no longer the parameter `x: S`


def test_a_field_of_a_type_parameter_has_the_methods_of_the_impls_bounds() -> None:
    snippet = {
        "src/lib.rs": "pub trait Step {\n    fn step(&self);\n}\npub struct A;\n"
        "impl Step for A {\n    fn step(&self) {}\n}\npub struct W<I> {\n    inner: I,\n}\n"
        "impl<I: Step> W<I> {\n    fn go(&self) {\n        self.inner.step();\n    }\n}\n"
        "impl<I> W<I> {\n    fn stay(&self) {\n        self.inner.step();\n    }\n}\n",
    }
    assert_calls(
        snippet,
        ("crate::W::go", "crate::Step::step", "inferred"),
        ("crate::W::go", "crate::A::Step::step", "dispatch"),
        exactly=True,
    )
