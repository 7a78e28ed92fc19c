"""How Rust files, modules and symbols are named.

- **Files** are modules named by their path (`ids.path_module_name`): `src/model/order.rs`,
  `./build.rs` at the repository root. A file is the node that DEFINES its top-level items.
- **Symbols** are qualified by their Rust module path, with `::`, beginning with their
  *crate*: the crate's folder from the repository root (the folder holding `src/`, `tests/`,
  `examples/` or `benches/`), or `crate` for the crate at the root. So `src/lib.rs` declares
  `crate::Shop`, `src/model/order.rs` (or `src/model/order/mod.rs`) `crate::model::order::Order`
  and a workspace member `serde_derive/src/de.rs` `serde_derive::de::expand`. `lib.rs` and
  `main.rs` directly in `src/` are the crate root; `src/bin/x.rs` is `crate::bin::x`; an
  integration test `tests/it.rs` is `crate::tests::it` (examples and benches alike). The
  `::` never occurs in a Python, TypeScript, Go or Java name, so nothing clashes.
- Inline modules extend the path (`crate::a::tests::t`). A method in an `impl` belongs to its
  type wherever the impl sits: `crate::model::Order::total`, its parent the type (found from
  the file's `use` items and declarations; see `parser`). A method of `impl Trait for Type` is
  `Type::Trait::m` (`crate::Order::Display::fmt`): one type may implement many traits with
  methods of one name. A trait's methods are `crate::Named::name`.

Why the folder and not `[package] name` from Cargo.toml: the core names modules from paths
alone (`Language.module_names` sees no text), and the parser sees one file. Cargo.toml is
read by the linker (`RustProject`): a path beginning with a crate's own name (`semver::X` in
its tests, a workspace member's name in another member) leads to that crate's folder.
`#[path]` attributes are not followed (the module is named by its file's path).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...ids import path_module_name
from ...parsing import ModuleName

__all__ = [
    "ROOT_CRATE", "crate_of", "guess_rust_module", "in_src", "module_path", "rust_module_names",
]  # fmt: skip

ROOT_CRATE = "crate"
_TARGETS = ("tests", "examples", "benches")


def crate_of(path: str) -> tuple[str, tuple[str, ...]]:
    """A file's crate (its folder, `crate` at the root) and the module path within it."""
    folders = path.split("/")
    stem = folders[-1].removesuffix(".rs")
    folders = folders[:-1]
    anchor = -1
    for at in range(len(folders) - 1, -1, -1):
        # a `tests/` folder inside `src/` is a module (memchr's `src/tests/memchr/mod.rs`,
        # `crate::tests::memchr`), not the integration tests of a crate named `src`
        if folders[at] == "src" or (folders[at] in _TARGETS and "src" not in folders[:at]):
            anchor = at
            break
    if anchor < 0:
        crate, inner = "/".join(folders), []
    else:
        crate = "/".join(folders[:anchor])
        inner = folders[anchor + 1 :]
        if folders[anchor] != "src":
            inner = [folders[anchor], *inner]
    root_file = not inner and stem in ("lib", "main")
    parts = [*inner] if stem == "mod" or root_file else [*inner, stem]
    return crate or ROOT_CRATE, tuple(parts)


def in_src(path: str) -> bool:
    """Whether a file lies in its crate's `src/` (a module `src/tests/x.rs`, not a target)."""
    crate, _ = crate_of(path)
    return path.startswith("src/" if crate == ROOT_CRATE else f"{crate}/src/")


def module_path(path: str) -> str:
    """The qualified name a file's items begin with: `crate::model::order`."""
    crate, parts = crate_of(path)
    return "::".join((crate, *parts))


def rust_module_names(
    paths: list[str], imported: frozenset[str], root_name: str | None
) -> dict[str, ModuleName]:
    return {path: ModuleName(path_module_name(path), False, "") for path in paths}


def guess_rust_module(path: str, neighbours: Mapping[str, str]) -> ModuleName:
    """A file `diff` finds new is named by its path, as the next index names it."""
    return ModuleName(path_module_name(path), False, "")
