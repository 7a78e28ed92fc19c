"""`self.m()` in a `&mut self` method runs the `&mut T` impl's `m` (offline; bytes, stop 65)."""

from __future__ import annotations

from tests.linking_helpers import assert_calls

BUF = (
    "pub trait Buf {\n"  # 1
    "    fn remaining(&self) -> usize;\n"
    "    fn advance(&mut self, n: usize);\n"
    "    fn skip(&mut self) {\n"
    "        if self.remaining() > 0 {\n"  # 5: `<&mut Self as Buf>::remaining`
    "            self.advance(1);\n"  # 6: `&mut self` method: Self's own
    "        }\n"
    "    }\n"
    "    fn left(&self) -> usize {\n"
    "        self.remaining()\n"  # 10: `&self`: Self's own
    "    }\n"
    "}\n"
    "pub struct Bytes;\n"
    "impl Buf for Bytes {\n"
    "    fn remaining(&self) -> usize { 0 }\n"  # 15
    "    fn advance(&mut self, n: usize) {\n"
    "        assert!(n <= self.remaining());\n"  # 17: through `&mut Bytes`
    "    }\n"
    "}\n"
)


def test_a_ref_self_method_called_in_a_mut_self_method_runs_the_mut_ref_impl() -> None:
    forwarding = (
        "macro_rules! forward {\n    () => {};\n}\n"
        "impl<T: Buf + ?Sized> Buf for &mut T {\n    forward!();\n}\n"
    )
    linked = assert_calls(
        {"src/lib.rs": BUF + forwarding},
        # the `&mut T` impl's methods are a macro's: no certain callee, the bodies that may
        # run are possible
        ("crate::Buf::skip", "crate::Bytes::Buf::remaining", "dispatch"),
        ("crate::Buf::skip", "crate::Buf::advance", "inferred"),
        ("crate::Buf::left", "crate::Buf::remaining", "inferred"),
        ("crate::Bytes::Buf::advance", "crate::Bytes::Buf::remaining", "dispatch"),
        exactly=False,
    )
    assert ("crate::Buf::skip", "crate::Buf::remaining") not in linked.calls()


def test_the_mut_ref_impls_own_method_is_the_callee() -> None:
    forwarding = (
        "impl<'a, T: Buf + ?Sized> Buf for &'a mut T {\n"
        "    fn remaining(&self) -> usize { (**self).remaining() }\n"
        "    fn advance(&mut self, n: usize) { (**self).advance(n) }\n}\n"
    )
    linked = assert_calls(
        {"src/lib.rs": BUF + forwarding},
        ("crate::Buf::skip", "crate::T::Buf::remaining", "inferred"),
        ("crate::Bytes::Buf::advance", "crate::T::Buf::remaining", "inferred"),
        ("crate::Buf::left", "crate::Buf::remaining", "inferred"),
        exactly=False,
    )
    assert ("crate::Buf::skip", "crate::Buf::remaining") not in linked.calls()


def test_without_a_mut_ref_impl_self_s_own_method_is_the_callee() -> None:
    assert_calls(
        {"src/lib.rs": BUF},
        ("crate::Buf::skip", "crate::Buf::remaining", "inferred"),
        ("crate::Buf::skip", "crate::Buf::advance", "inferred"),
        ("crate::Buf::left", "crate::Buf::remaining", "inferred"),
        ("crate::Bytes::Buf::advance", "crate::Bytes::Buf::remaining", "inferred"),
        exactly=False,
    )


def test_std_s_traits_implemented_for_every_mut_ref_are_no_certain_call() -> None:
    assert_calls(
        {
            "src/lib.rs": "pub struct B(Vec<u8>);\n"
            "impl AsRef<[u8]> for B {\n    fn as_ref(&self) -> &[u8] { &self.0 }\n}\n"
            "impl B {\n    fn grow(&mut self) {\n        self.as_ref();\n    }\n"
            "    fn peek(&self) {\n        self.as_ref();\n    }\n}\n"
        },
        ("crate::B::peek", "crate::B::AsRef::as_ref", "inferred"),
        ("crate::B::grow", "crate::B::AsRef::as_ref", "dispatch"),
        exactly=True,
    )
