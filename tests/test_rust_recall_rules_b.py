"""Rust linking rules of stop 65, part 2 (recall, found on memchr and toml_edit): offline, small
snippets."""

from __future__ import annotations

from graphrag_code.languages.rust.conventions import is_test_path
from graphrag_code.languages.rust.modules import module_path
from tests.linking_helpers import assert_calls


def test_a_raw_pointer_has_the_methods_of_the_crates_impls_on_raw_pointers() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Pointer {\n    fn distance(self, o: Self) -> usize;\n"
            "    fn add(self, n: usize) -> Self;\n}\n"
            "impl<T> Pointer for *const T {\n"
            "    fn distance(self, o: *const T) -> usize { 0 }\n"
            "    fn add(self, n: usize) -> Self { self }\n}\n"
            "impl<T> Pointer for *mut T {\n"
            "    fn distance(self, o: *mut T) -> usize { 0 }\n"
            "    fn add(self, n: usize) -> Self { self }\n}\n"
            "pub struct Node;\nimpl Node {\n    fn is_unique(&self) -> bool { true }\n}\n"
            "fn f(start: *const u8, end: *const u8, n: *const Node, m: *mut u8) {\n"
            "    end.distance(start);\n    (*n).is_unique();\n    end.add(1);\n"
            "    let cur: *mut u8 = m;\n    cur.distance(m);\n}\n",
        },
        ("crate::f", "crate::*const _::Pointer::distance", "inferred"),
        ("crate::f", "crate::*mut _::Pointer::distance", "inferred"),
        ("crate::f", "crate::Node::is_unique", "inferred"),  # a deref: the pointee's method
        exactly=True,  # `add`: std's own method of raw pointers comes first
    )


def test_a_tests_folder_inside_src_is_a_module_not_integration_tests() -> None:
    assert module_path("src/tests/memchr/mod.rs") == "crate::tests::memchr"
    assert module_path("crates/core/src/tests/mod.rs") == "crates/core::tests"
    assert module_path("tests/it.rs") == "crate::tests::it"  # a target, as before
    assert not is_test_path("src/tests/memchr/mod.rs")
    assert is_test_path("tests/it.rs")
    assert is_test_path("crates/core/benches/b.rs")
    assert_calls(
        {
            "src/lib.rs": "#[cfg(test)]\nmod tests;\npub mod memchr;\n",
            "src/tests/mod.rs": "pub(crate) mod memchr;\n",
            "src/tests/memchr/mod.rs": "pub(crate) struct Runner;\nimpl Runner {\n"
            "    pub(crate) fn new(n: usize) -> Runner { Runner }\n"
            "    pub(crate) fn run(self) { crate::memchr::find() }\n}\n",
            "src/memchr.rs": "pub fn find() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n"
            "    fn forward() {\n        crate::tests::memchr::Runner::new(1).run();\n    }\n}\n",
        },
        ("crate::memchr::tests::forward", "crate::tests::memchr::Runner::new", "exact"),
        ("crate::memchr::tests::forward", "crate::tests::memchr::Runner::run", "inferred"),
        ("crate::tests::memchr::Runner::run", "crate::memchr::find", "exact"),  # `crate::`
        exactly=True,
    )


def test_the_arms_of_a_dispatch_macro_are_read_as_a_match() -> None:
    assert_calls(
        {
            "src/lib.rs": "fn array_table(s: u8) -> u8 { s }\nfn std_table(s: u8) -> u8 { s }\n"
            "fn peek(x: u8) -> u8 { x }\nfn other(x: u8) {}\n"
            "pub fn table(state: u8) -> u8 {\n    dispatch!(peek(state);\n"
            '        b"[[" => array_table(state),\n        _ => std_table(state),\n    );\n'
            "    vec![other(state); 2];\n}\n",
        },
        ("crate::table", "crate::peek", "exact"),
        ("crate::table", "crate::array_table", "exact"),
        ("crate::table", "crate::std_table", "exact"),
        ("crate::table", "crate::other", "exact"),  # `;` with no arms: a call's arguments
        exactly=True,
    )


def test_the_keys_and_values_of_a_map_have_its_declared_types() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub mod table;\npub mod inline;\npub struct Key;\n"
            "impl Key {\n    pub fn despan(&self) {}\n    pub fn only(&self) {}\n}\n"
            "pub struct Item;\nimpl Item {\n    pub fn is_value(&self) -> bool { true }\n}\n",
            "src/table.rs": "use indexmap::IndexMap;\nuse crate::{Key, Item};\n"
            "pub(crate) type KeyValuePairs = IndexMap<Key, Item>;\n"
            "pub struct Table {\n    items: KeyValuePairs,\n}\nimpl Table {\n"
            "    fn f(&mut self) {\n        for (key, value) in self.items.iter_mut() {\n"
            "            key.despan();\n            value.is_value();\n        }\n    }\n}\n",
            "src/inline.rs": "use std::collections::HashMap;\nuse crate::table::KeyValuePairs;\n"
            "use crate::{Key, Item};\npub struct Inline {\n    items: KeyValuePairs,\n"
            "    other: HashMap<Key, Item>,\n}\nimpl Inline {\n"
            "    fn g(&self, m: &HashMap<Key, Item>) {\n"
            "        self.items.iter().filter(|(_, v)| v.is_value()).map(|(k, v)| k.despan());\n"
            "        for (k, _) in &self.other {\n            k.despan();\n        }\n"
            "        for (_, v) in m {\n            v.is_value();\n        }\n"
            "        for (mut k, v) in m.iter().map(|(k, v)| (Item, v)) {\n"
            "            k.only();\n        }\n    }\n}\n",
        },
        ("crate::table::Table::f", "crate::Key::despan", "inferred"),
        ("crate::table::Table::f", "crate::Item::is_value", "inferred"),
        ("crate::inline::Inline::g", "crate::Key::despan", "inferred"),
        ("crate::inline::Inline::g", "crate::Item::is_value", "inferred"),
        exactly=True,  # the last loop's `k`: an item of `map`, not read (not the closure's `k`)
    )


def test_a_closure_of_an_option_method_takes_the_value_the_receiver_holds() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct Repr;\nimpl Repr {\n"
            "    pub fn span(&self) -> Option<u8> { None }\n    pub fn only(&self) {}\n"
            "    pub fn as_raw(&self) -> &Raw { todo!() }\n}\n"
            "pub struct Raw;\nimpl Raw {\n    pub fn as_str(&self) -> Option<&str> { None }\n"
            "}\n"
            "pub struct Key {\n    repr: Option<Repr>,\n}\nimpl Key {\n"
            "    fn f(&self, o: Option<Repr>) {\n"
            "        self.repr.as_ref().and_then(|r| r.as_raw().as_str());\n"
            "        o.is_some_and(|d| d.span().is_some());\n"
            "        self.repr.map(|x| x.only());\n    }\n}\n",
        },
        ("crate::Key::f", "crate::Repr::as_raw", "inferred"),
        ("crate::Key::f", "crate::Raw::as_str", "inferred"),
        ("crate::Key::f", "crate::Repr::span", "inferred"),
        exactly=True,  # `map`: iterators have one too; not read here
    )


def test_a_function_a_local_macro_declares_from_its_argument_is_a_call_target() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub trait Visit {\n    fn visit_string(&mut self, node: &str) {\n"
            "        visit_string(self, node);\n        visit_float(self, node);\n    }\n}\n"
            "macro_rules! empty_visit {\n    ($name: ident, $t: ty) => {\n"
            "        pub fn $name<V: ?Sized>(_v: &mut V, _node: $t) {}\n    };\n}\n"
            "macro_rules! method {\n    ($name: ident) => {\n"
            "        impl S { fn $name(&self) {} }\n    };\n}\n"
            "empty_visit!(visit_string, &str);\nmethod!(visit_float);\npub struct S;\n",
        },
        ("crate::Visit::visit_string", "crate::visit_string", "exact"),
        exactly=True,  # `method!`: its `fn` sits in an impl's braces, a method of S
    )
