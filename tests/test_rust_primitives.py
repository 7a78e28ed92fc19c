"""std's own functions of a primitive come before the crate's impls on it (offline; serde_json,
stop 65)."""

from __future__ import annotations

from graphrag_code.languages.rust.primitives import std_inherent
from tests.linking_helpers import assert_calls


def test_a_path_call_of_std_s_own_function_of_a_primitive_is_no_call_of_the_crates_impl() -> None:
    linked = assert_calls(
        {
            "src/lib.rs": "pub trait Float {\n    fn from_bits(u: u32) -> Self;\n"
            "    fn scale() -> u32;\n}\n"
            "impl Float for f32 {\n"
            "    fn from_bits(u: u32) -> Self {\n        f32::from_bits(u)\n    }\n"
            "    fn scale() -> u32 {\n        0\n    }\n}\n"
            "fn f() -> u32 {\n    f32::scale()\n}\n"
        },
        ("crate::f", "crate::f32::Float::scale", "exact"),  # the crate's: std has no `scale`
        exactly=False,
    )
    assert not [pair for pair in linked.calls() if pair[1] == "crate::f32::Float::from_bits"]


def test_std_s_functions_are_known_per_kind_of_primitive() -> None:
    assert std_inherent("f64", "to_bits")
    assert std_inherent("u64", "wrapping_add")
    assert not std_inherent("u64", "to_bits")
    assert not std_inherent("str", "from_bits")
