"""Raw pointers have the methods of the crate's impls on raw pointers (stop 65, part 2, found
on memchr): offline, small snippets."""

from __future__ import annotations

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
