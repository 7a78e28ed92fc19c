"""The names of Rust's standard prelude that the resolver reads as their std paths: what a
path call or a `use` path may begin with, and the prelude's traits."""

from __future__ import annotations

from .paths import Path

__all__ = ["PRELUDE", "PRELUDE_ROOTS", "PRELUDE_TRAITS"]

# the standard prelude's names a path call may begin with (`Vec::new()`, `drop(x)`)
PRELUDE: dict[str, Path] = {
    name: tuple(path.split("::"))
    for name, path in {
        "Vec": "alloc::vec::Vec", "String": "alloc::string::String",
        "Box": "alloc::boxed::Box", "ToString": "alloc::string::ToString",
        "ToOwned": "alloc::borrow::ToOwned", "Option": "core::option::Option",
        "Result": "core::result::Result", "Default": "core::default::Default",
        "Iterator": "core::iter::Iterator", "IntoIterator": "core::iter::IntoIterator",
        "From": "core::convert::From", "Into": "core::convert::Into",
        "TryFrom": "core::convert::TryFrom", "AsRef": "core::convert::AsRef",
        "Clone": "core::clone::Clone", "PartialEq": "core::cmp::PartialEq",
        "PartialOrd": "core::cmp::PartialOrd", "Ord": "core::cmp::Ord",
        "drop": "core::mem::drop",
    }.items()
}  # fmt: skip
# the prelude's traits: `Trait::m(…)` through one runs some impl, which may be ours
PRELUDE_TRAITS = frozenset(PRELUDE) - {"Vec", "String", "Box", "Option", "Result", "drop"}
# what a `use` path may begin with from the prelude (`use Option::{self as State, Some}`,
# `use Result::{Err as Break}`): the prelude's types and the variants it brings in
PRELUDE_ROOTS: dict[str, Path] = {
    **PRELUDE,
    "Some": ("core", "option", "Option", "Some"), "None": ("core", "option", "Option", "None"),
    "Ok": ("core", "result", "Result", "Ok"), "Err": ("core", "result", "Result", "Err"),
}  # fmt: skip
