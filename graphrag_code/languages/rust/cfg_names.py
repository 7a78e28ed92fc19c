"""`cfg` names: those no tool sets, and those of the target a default build is for.

rustc and cargo set a known list of `cfg` names (`unix`, `test`, `debug_assertions`,
`target_os = "…"`, `feature = "…"`). Any other name (`#[cfg(loom)]`, `#[cfg(fuzzing)]`,
`#[cfg(tokio_unstable)]`) is set only by `RUSTFLAGS="--cfg loom"` or by the crate's build script
(`cargo:rustc-cfg=has_i128`), so a plain `cargo build` of a crate without a build script has it
off — bytes' `#[cfg(all(test, loom))] use loom::sync::Arc;` beside `#[cfg(not(all(test,
loom)))]` std's. A crate with a build script keeps such names unknown (`cfg.py` keeps unknown
code).

A default build is for the host's target, and the oracle's (rust-analyzer's) host is
`HOST_TARGET`: the most common one, where CI and most developers build. Its `cfg` values
decide `target_arch = "x86_64"`, `unix`, `target_feature = "sse2"` (its baseline features), so
of hashbrown's `cfg_if!` arms the SSE2 group is the one compiled and `use self::imp::Group`
names it; code for other targets is switched off like code of a feature left off (its calls
*possible*). Keys not listed (`target_abi`, `relocation_model`) stay unknown.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

__all__ = [
    "HOST_TARGET", "has_build_script", "host_lacks", "host_name", "host_value", "is_custom",
]  # fmt: skip

HOST_TARGET = "x86_64-unknown-linux-gnu"
_HOST_VALUES: dict[str, frozenset[str]] = {
    "target_arch": frozenset({"x86_64"}),
    "target_os": frozenset({"linux"}),
    "target_family": frozenset({"unix"}),
    "target_env": frozenset({"gnu"}),
    "target_vendor": frozenset({"unknown"}),
    "target_endian": frozenset({"little"}),
    "target_pointer_width": frozenset({"64"}),
    "target_feature": frozenset({"fxsr", "sse", "sse2"}),
    "target_has_atomic": frozenset({"8", "16", "32", "64", "ptr"}),
    "panic": frozenset({"unwind"}),
}
_HOST_NAMES = {"unix": True, "windows": False}

# rustc's well-known names (`rustc --print=check-cfg`); names starting with `target_` or
# `sanitize` are all of rustc's too
_KNOWN = frozenset({
    "clippy", "contract_checks", "debug_assertions", "doc", "doctest", "emscripten_wasm_eh",
    "feature", "fmt_debug", "miri", "overflow_checks", "panic", "proc_macro", "relocation_model",
    "rustfmt", "test", "ub_checks", "unix", "windows",
})  # fmt: skip


def is_custom(name: str) -> bool:
    """Whether `name` is a `cfg` name neither rustc nor cargo sets (`loom`, `docsrs`)."""
    return not (name in _KNOWN or name.startswith(("target_", "sanitize")))


def has_build_script(manifest: Mapping[str, Any], folder: str, paths: Collection[str]) -> bool:
    """Whether the crate of `manifest` (its `Cargo.toml`, read) in `folder` ("" at the root)
    has a build script: `[package] build = "…"`, or a `build.rs` beside the manifest unless
    `build = false`."""
    package = manifest.get("package", {})
    build = package.get("build") if isinstance(package, dict) else None
    if isinstance(build, str):
        return True
    if build is False:
        return False
    return (f"{folder}/build.rs" if folder else "build.rs") in paths


def host_value(name: str, value: str) -> bool | None:
    """Whether `name = "value"` holds on `HOST_TARGET`; None for a key not decided here."""
    values = _HOST_VALUES.get(name)
    return None if values is None else value in values


def host_name(name: str) -> bool | None:
    """Whether the bare name (`unix`, `windows`) holds on `HOST_TARGET`, or None."""
    return _HOST_NAMES.get(name)


def host_lacks(path: tuple[str, ...]) -> bool:
    """Whether a path names std's module for another target's architecture (`core::arch::x86`
    in a `#[cfg(target_arch = "x86")] use`): the host's std has none."""
    return (
        len(path) >= 3 and path[0] in ("core", "std") and path[1] == "arch"
        and path[2] not in _HOST_VALUES["target_arch"]
    )  # fmt: skip
