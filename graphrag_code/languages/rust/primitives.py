"""std's own associated functions of the numeric primitives, which a path call reaches first.

`f32::from_bits(u)` inside the crate's `impl Float for f32` calls std's inherent `f32::from_bits`,
not the impl's `from_bits` (that would recurse): for a path `Type::f`, the type's inherent
functions come before its trait impls' (serde_json's `lexical/num.rs`). The crate's own impls
on a primitive are still reached for the names std does not define there (`u64::error_scale()`,
an impl of the crate's trait).
"""

from __future__ import annotations

__all__ = ["std_inherent"]

_SHARED = frozenset({
    "from_str_radix", "pow", "min", "max", "abs", "signum", "to_be_bytes", "to_le_bytes",
    "to_ne_bytes", "from_be_bytes", "from_le_bytes", "from_ne_bytes", "min_value", "max_value",
    "rem_euclid", "div_euclid", "clamp", "is_positive", "is_negative",
})  # fmt: skip
_FLOAT = _SHARED | frozenset({
    "from_bits", "to_bits", "is_sign_positive", "is_sign_negative", "is_nan", "is_infinite",
    "is_finite", "is_normal", "is_subnormal", "classify", "floor", "ceil", "round", "trunc",
    "fract", "sqrt", "cbrt", "powi", "powf", "exp", "exp2", "exp_m1", "ln", "ln_1p", "log",
    "log2", "log10", "mul_add", "recip", "to_degrees", "to_radians", "hypot", "sin", "cos",
    "tan", "asin", "acos", "atan", "atan2", "sin_cos", "sinh", "cosh", "tanh", "asinh",
    "acosh", "atanh", "copysign", "total_cmp", "to_int_unchecked", "abs_sub",
})  # fmt: skip
_INTEGER = _SHARED | frozenset({
    "count_ones", "count_zeros", "leading_zeros", "trailing_zeros", "leading_ones",
    "trailing_ones", "rotate_left", "rotate_right", "swap_bytes", "reverse_bits", "to_be",
    "to_le", "from_be", "from_le", "is_power_of_two", "next_power_of_two", "abs_diff", "ilog",
    "ilog2", "ilog10", "isqrt", "unsigned_abs",
})  # fmt: skip
_PREFIXES = ("checked_", "wrapping_", "saturating_", "overflowing_", "unchecked_")


def std_inherent(type_name: str, name: str) -> bool:
    """Whether std defines `name` as an associated function of the primitive `type_name`
    (`f32`, `u64`; other types: False)."""
    if type_name in ("f32", "f64"):
        return name in _FLOAT
    if type_name[:1] in ("i", "u") and type_name[1:] in ("8", "16", "32", "64", "128", "size"):
        return name in _INTEGER or name.startswith(_PREFIXES)
    return False
