"""The Rust linker offline: imports, exact path calls, inferred method calls, trait impls
and the rust_shop fixture (an impl in another file than its struct, a trait with a default
method, a `#[cfg(test)]` module, an integration test)."""

from __future__ import annotations

from pathlib import Path

from graphrag_code.conventions import ClassTree
from graphrag_code.languages.rust.conventions import RustConventions
from graphrag_code.languages.rust.parser import RustParser
from graphrag_code.model import EdgeKind
from tests.linking_helpers import assert_calls, link_folder, link_snippet

SHOP = Path(__file__).parent / "fixtures" / "rust_shop"
CARGO = '[package]\nname = "demo-lib"\nversion = "0.1.0"\n'


def test_paths_through_use_super_crate_and_self_are_exact() -> None:
    assert_calls(
        {
            "Cargo.toml": CARGO,
            "src/lib.rs": "mod util;\nmod deep;\npub use util::twice;\n"
            "pub fn run() {\n    util::twice();\n    crate::util::Maker::make();\n}\n",
            "src/util.rs": "pub struct Maker;\nimpl Maker {\n    pub fn make() -> Self {\n"
            "        Self::build()\n    }\n    fn build() -> Self { Maker }\n}\n"
            "pub fn twice() {}\n",
            "src/deep/mod.rs": "use super::util::twice as t;\nfn go() {\n    t();\n"
            "    super::run();\n    crate::twice();\n}\n",
        },
        ("crate::run", "crate::util::twice", "exact"),
        ("crate::run", "crate::util::Maker::make", "exact"),
        ("crate::util::Maker::make", "crate::util::Maker::build", "exact"),
        ("crate::deep::go", "crate::util::twice", "exact"),
        ("crate::deep::go", "crate::run", "exact"),
        exactly=True,
    )


def test_methods_on_typed_receivers_are_inferred() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct Conn { inner: Box<Inner> }\npub struct Inner;\n"
            "impl Inner {\n    fn ping(&self) {}\n}\n"
            "impl Conn {\n    pub fn new() -> Conn { Conn { inner: Box::new(Inner) } }\n"
            "    fn open() -> Result<Conn, ()> { Ok(Conn::new()) }\n"
            "    fn send(&self) { self.inner.ping(); }\n}\n"
            "fn run(c: &Conn) -> Result<(), ()> {\n    c.send();\n    let d: Conn = Conn::new();\n"
            "    d.send();\n    let e = Conn::open()?;\n    e.send();\n"
            "    let f = Conn { inner: Box::new(Inner) };\n    f.send();\n"
            "    Conn::new().send();\n    Ok(())\n}\n",
        },
        ("crate::Conn::send", "crate::Inner::ping", "inferred"),
        ("crate::run", "crate::Conn::send", "inferred"),
        ("crate::run", "crate::Conn::new", "exact"),
        ("crate::run", "crate::Conn::open", "exact"),
        ("crate::Conn::open", "crate::Conn::new", "exact"),
    )


def test_trait_methods_reach_the_impl_or_the_default() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "pub trait Shape {\n    fn area(&self) -> u32;\n"
            "    fn twice(&self) -> u32 { self.area() * 2 }\n}\npub struct Sq;\n"
            "impl Shape for Sq {\n    fn area(&self) -> u32 { 4 }\n}\n"
            "fn run(s: Sq, d: &dyn Shape) {\n    s.area();\n    s.twice();\n    d.area();\n}\n",
        }
    )
    calls = linked.calls()
    assert calls[("crate::run", "crate::Sq::Shape::area")][0] == "inferred"
    assert calls[("crate::run", "crate::Shape::twice")][0] == "inferred"
    assert calls[("crate::run", "crate::Shape::area")][0] == "inferred"
    inherits = linked.of(EdgeKind.INHERITS)
    assert inherits[("crate::Sq", "crate::Shape")].edge.implements


def test_imports_lead_to_files_or_external_crates() -> None:
    linked = link_snippet(
        {
            "Cargo.toml": CARGO,
            "src/lib.rs": "pub mod a;\npub use a::Thing;\n",
            "src/a.rs": "pub struct Thing;\n",
            "tests/it.rs": "use demo_lib::Thing;\nuse serde::Serialize;\nuse std::fmt;\n",
        }
    )
    imports = {(e.source, e.target) for e in linked.links if e.edge.kind == EdgeKind.IMPORTS}
    assert ("src/lib.rs", "src/a.rs") in imports
    assert ("tests/it.rs", "src/a.rs") in imports
    assert ("tests/it.rs", "serde") in imports
    assert ("tests/it.rs", "std") in imports


def test_shop_fixture_links_across_files() -> None:
    calls = link_folder(SHOP).calls()
    for caller, callee, tier in (
        ("crate::Shop::total", "crate::model::order::Order::total", "inferred"),
        ("crate::Shop::total", "crate::model::Line::new", "exact"),
        ("crate::Shop::total", "crate::model::Line::amount", "inferred"),
        ("crate::Shop::total", "crate::pricing::discount", "exact"),
        ("crate::checkout", "crate::Priced::with_tax", "inferred"),
        ("crate::pricing::discount", "crate::model::order::Order::Priced::price", "inferred"),
        ("crate::tests::checkout_adds", "crate::checkout", "exact"),
        ("crate::tests::integration::opens_and_checks_out", "crate::Shop::open", "exact"),
        ("crate::Shop::Display::fmt", "crate::Shop::describe", "inferred"),
    ):
        assert calls[(caller, callee)][0] == tier, (caller, callee)


def test_tests_and_entry_points() -> None:
    source = (SHOP / "src" / "lib.rs").read_bytes()
    parsed = RustParser().parse(
        path="src/lib.rs", module="src/lib.rs", is_package=False, source=source, sha256="x"
    )
    conventions = RustConventions()
    roles = conventions.roles(parsed, conventions.configure({}), ClassTree({}, {}))
    assert [t.qualified_name for t in roles.tests] == ["crate::tests::checkout_adds"]
    entry = dict(roles.entry_points)
    assert entry["crate::checkout"] == "public API"
    assert "crate::helper" not in entry
    assert "crate::tests::checkout_adds" not in entry


def test_consts_own_file_and_extern_crate_aliases_in_imports() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "extern crate alloc;\npub mod a;\npub const PAD: u8 = 1;\n"
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
            "src/a.rs": "use crate::PAD;\nuse crate::alloc::vec::Vec;\n",
        }
    )
    imports = {
        (e.source, e.target, e.edge.lines) for e in linked.links if e.edge.kind == EdgeKind.IMPORTS
    }
    assert ("src/a.rs", "src/lib.rs", (1,)) in imports
    assert ("src/a.rs", "alloc", (2,)) in imports
    assert ("src/lib.rs", "src/lib.rs", (7,)) in imports  # the test module's `use super::*`


def test_variants_shadowing_lets_and_macro_arguments() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub enum E {\n    A,\n    B(u8),\n}\nimpl E {\n"
            "    fn name(&self) -> Text { Text }\n}\npub struct Text;\n"
            "impl Text {\n    fn len(&self) -> usize { 0 }\n}\n"
            "fn run() {\n    E::A.name();\n    E::B(1).name();\n"
            "    let x = E::A;\n    let x = x.name();\n    x.len();\n"
            '    assert_eq!(format!("{}", E::A.name().len()), "0");\n}\n',
        },
        ("crate::run", "crate::E::name", "inferred"),
        ("crate::run", "crate::Text::len", "inferred"),
    )
    lines = link_snippet(
        {"src/lib.rs": "fn g() {}\nfn f() {\n    assert!(vec![\n        g(),\n    ]);\n}\n"}
    )
    assert lines.calls()[("crate::f", "crate::g")][0] == "exact"
    site = next(link.edge.lines for link in lines.links if link.target == "crate::g")
    assert site == (4,)


def test_receivers_typed_by_a_generic_bound_reach_the_trait() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Engine {\n    fn config(&self) -> u8;\n}\n"
            "fn run<E: Engine + ?Sized>(e: &E) {\n    e.config();\n}\n"
            "fn walk<F>(f: F)\nwhere\n    F: Engine,\n{\n    f.config();\n}\n",
        },
        ("crate::run", "crate::Engine::config", "inferred"),
        ("crate::walk", "crate::Engine::config", "inferred"),
    )


def test_calls_through_a_trait_may_run_each_impl() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Shape {\n    fn area(&self) -> u32;\n"
            "    fn name(&self) -> u32 { 0 }\n}\npub struct Sq;\npub struct Ci;\n"
            "impl Shape for Sq {\n    fn area(&self) -> u32 { 4 }\n}\n"
            "impl Shape for Ci {\n    fn area(&self) -> u32 { 3 }\n"
            "    fn name(&self) -> u32 { 1 }\n}\n"
            "fn run(s: &dyn Shape) {\n    s.area();\n    s.name();\n}\n",
        },
        ("crate::run", "crate::Shape::area", "inferred"),
        ("crate::run", "crate::Sq::Shape::area", "dispatch", "dispatch via `Shape::area`"),
        ("crate::run", "crate::Ci::Shape::area", "dispatch"),
        ("crate::run", "crate::Shape::name", "inferred"),
        ("crate::run", "crate::Ci::Shape::name", "dispatch"),
        exactly=True,
    )
