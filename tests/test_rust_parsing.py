"""The Rust parser offline: items and their names, impls in other modules, lines of names,
doc comments, attributes, `use` trees, call sites (macros' arguments too) and module paths."""

from __future__ import annotations

from graphrag_code.conventions import ClassTree
from graphrag_code.languages.rust.conventions import RustConventions
from graphrag_code.languages.rust.modules import crate_of, module_path
from graphrag_code.languages.rust.parser import SITE, RustParser
from graphrag_code.model import Attribute, Awaited, Call, Name, ParsedFile

SOURCE = """\
//! The crate.
extern crate serde as sd;
use std::collections::{HashMap, hash_map::Entry as E};
pub use crate::model::{self, Order};
use super::*;

/// A shop,
/// with orders.
#[derive(Debug)]
pub struct Shop {
    orders: Vec<Order>,
}

pub trait Named {
    fn name(&self) -> String {
        self.id()
    }
    fn id(&self) -> String;
}

impl Named for Shop {
    fn id(&self) -> String {
        String::new()
    }
}

impl Shop {
    pub async fn run(&self, o: &Order) -> Result<Order, E> {
        let made = Order::new();
        o.total()?
            .add()
            .await;
        assert_eq!(helper(), crate::model::make());
        Ok(made)
    }
}

fn helper() {}

#[cfg(test)]
mod tests {
    #[test]
    fn t() {}
}
"""


def _parse(path: str = "src/shop.rs", source: str = SOURCE) -> ParsedFile:
    return RustParser().parse(
        path=path, module=path, is_package=False, source=source.encode(), sha256="x"
    )


def test_module_paths_follow_cargo_layout() -> None:
    assert module_path("src/lib.rs") == "crate"
    assert module_path("src/main.rs") == "crate"
    assert module_path("src/model/mod.rs") == "crate::model"
    assert module_path("src/model/order.rs") == "crate::model::order"
    assert module_path("tests/it.rs") == "crate::tests::it"
    assert crate_of("serde_derive/src/de.rs") == ("serde_derive", ("de",))
    assert module_path("crates/core/src/lib.rs") == "crates/core"


def test_items_are_named_by_module_path_and_methods_by_their_type() -> None:
    parsed = _parse()
    symbols = {s.qualified_name: s for s in parsed.symbols}
    assert symbols["crate::shop::Shop"].declared_as == "struct"
    assert symbols["crate::shop::Shop"].parent == "src/shop.rs"
    assert symbols["crate::shop::Named::name"].parent == "crate::shop::Named"
    assert symbols["crate::shop::Named::id"].declared_as == "required"
    impl = symbols["crate::shop::Shop::Named"]
    assert (impl.declared_as, impl.parent) == ("impl", "crate::shop::Shop")
    assert impl.implements == (("crate", "shop", "Named"),)
    assert symbols["crate::shop::Shop::Named::id"].parent == "crate::shop::Shop::Named"
    run = symbols["crate::shop::Shop::run"]
    assert (run.parent, run.is_async, run.returns) == (
        "crate::shop::Shop",
        True,
        ("crate", "model", "Order"),
    )
    assert symbols["crate::shop::tests::t"].decorators == ("test",)
    assert symbols["crate::shop::tests"].decorators == ("cfg(test)",)


def test_lines_are_the_names_and_docs_the_slash_comments() -> None:
    parsed = _parse()
    shop = next(s for s in parsed.symbols if s.name == "Shop" and s.declared_as == "struct")
    assert shop.start_line == 10
    assert shop.docstring == "A shop,\nwith orders."
    assert shop.decorators == ("derive(Debug)",)
    assert parsed.docstring == "The crate."


def test_use_trees_become_one_import_per_name() -> None:
    imports = {(i.module, i.name, i.alias, i.exported) for i in _parse().imports}
    assert imports == {
        ("", "serde", "sd", False),
        ("std::collections", "HashMap", None, False),
        ("std::collections::hash_map", "Entry", "E", False),
        ("crate", "model", None, True),
        ("crate::model", "Order", None, True),
        ("crate", "*", None, False),
    }


def test_impl_of_an_imported_type_belongs_to_that_type() -> None:
    parsed = _parse("src/ops.rs", "use crate::model::Order;\nimpl Order {\n    fn f(&self) {}\n}\n")
    method = next(s for s in parsed.symbols if s.name == "f")
    assert (method.qualified_name, method.parent) == (
        "crate::model::Order::f",
        "crate::model::Order",
    )
    glob = _parse("src/a/imp.rs", "use super::*;\nimpl Thing {\n    fn g() {}\n}\n")
    assert glob.symbols[0].qualified_name == "crate::a::Thing::g"


def test_call_sites_sit_on_the_called_names_line() -> None:
    calls = {(c.callee, c.line) for c in _parse().calls}
    assert (("<expr>", "id"), 16) in calls
    assert (("Order", "new"), 29) in calls
    assert (("<expr>", "total"), 30) in calls
    assert (("<expr>", "add"), 31) in calls
    assert (("assert_eq!",), 33) in calls
    assert (("helper",), 33) in calls  # inside the macro's arguments
    assert (("crate", "model", "make"), 33) in calls
    chain = next(c for c in _parse().calls if c.callee == ("<expr>", "add"))
    assert chain.value == Call(
        Attribute(Attribute(Call(Attribute(Name(("o",)), "total"), ()), "?"), "add"), ()
    )
    assert not isinstance(chain.value, Awaited)


def test_let_bindings_record_types_and_calls() -> None:
    bindings = {b.target: b for b in _parse().bindings if b.scope == "crate::shop::Shop::run"}
    assert bindings[("o",)].value == ("crate", "model", "Order")
    made = bindings[("made",)]
    assert made.kind == "call"
    assert made.value[0] == SITE


def test_only_the_tests_of_a_library_file_are_test_code() -> None:
    """`#[cfg(test)] mod tests` beside a crate's API: the module, its tests and helpers are
    test code, the library items are not (search leaves test code out of concept questions;
    lib.rs marked whole hid `crate::Priced` from "something with a price")."""
    source = (
        "/// Something with a price.\npub trait Priced { fn price(&self) -> u32; }\n\n"
        "pub fn total() -> u32 { 1 }\n\n"
        "#[test]\nfn top_level() {}\n\n"
        "#[cfg(test)]\nmod tests {\n    fn helper() -> u32 { 2 }\n"
        "    mod nested {\n        #[test]\n        fn deep() {}\n    }\n\n"
        "    #[test]\n    fn adds() { assert_eq!(super::total(), 1); }\n}\n"
    )
    parsed = _parse("src/lib.rs", source)
    conventions = RustConventions()
    roles = conventions.roles(parsed, conventions.configure({}), ClassTree({}, {}))
    assert not roles.test_code
    assert set(roles.test_symbols) == {
        "crate::top_level", "crate::tests", "crate::tests::helper", "crate::tests::nested",
        "crate::tests::nested::deep", "crate::tests::adds",
    }  # fmt: skip
    assert {t.qualified_name for t in roles.tests} == {
        "crate::top_level", "crate::tests::nested::deep", "crate::tests::adds",
    }  # fmt: skip
    in_tests = conventions.roles(
        _parse("tests/checkout.rs", "#[test]\nfn t() {}\n"),
        conventions.configure({}),
        ClassTree({}, {}),
    )
    assert in_tests.test_code
