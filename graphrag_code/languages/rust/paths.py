"""Rust paths made absolute by the rules every Rust file shares: `crate::`, `self::`,
`super::`, `Self`, and the names a module's `use` items and declarations bind.

A path is a tuple of segments; an absolute one begins with a crate (`modules.crate_of`),
so `("crate", "model", "Order")` is the qualified name `crate::model::Order` once joined.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .modules import crate_of, in_src

__all__ = ["Scope", "crate_root", "joined", "split_path"]

Path = tuple[str, ...]


def crate_root(path: str) -> Path:
    """What `crate::` means in a file: its crate, or the test, example, bench or binary
    target it roots (`tests/it.rs` is a crate of its own)."""
    crate, parts = crate_of(path)
    if parts[:1] == ("bin",) and len(parts) >= 2:
        return (crate, *parts[:2])
    if parts[:1] in (("tests",), ("examples",), ("benches",)) and len(parts) >= 2:
        # a target's folder, unless it is a module of `src/` (memchr's `src/tests/memchr/`)
        return (crate,) if in_src(path) else (crate, *parts[:2])
    return (crate,)


def joined(path: Path) -> str:
    return "::".join(path)


def split_path(text: str) -> Path:
    """`joined` undone; a global path keeps its `::` on its head (`::core::fmt`)."""
    if text.startswith("::"):
        head, *rest = text[2:].split("::")
        return (f"::{head}", *rest)
    return tuple(text.split("::"))


@dataclass
class Scope:
    """One module's names: what its `use` items bind (name -> absolute or as-written path),
    its globs, and the items it declares."""

    module: Path  # this module's own path
    root: Path  # what `crate::` means here
    uses: dict[str, Path] = field(default_factory=dict)
    globs: list[Path] = field(default_factory=list)
    items: set[str] = field(default_factory=set)
    consts: set[str] = field(default_factory=set)  # its `const` and `static` items

    def absolute(self, parts: Path, self_type: Path | None = None) -> Path:
        """`parts` made absolute where its head says how; else as written (an external crate,
        or a name the module does not bind)."""
        if not parts:
            return parts
        head = parts[0]
        if head.startswith("::"):
            return parts  # global (`::core::fmt`): another crate's, whatever the module binds
        if head == "crate":
            return (*self.root, *parts[1:])
        if head == "self":
            return (*self.module, *parts[1:])
        if head == "super":
            base = self.module
            rest = parts
            while rest[:1] == ("super",) and len(base) > len(self.root):
                base, rest = base[:-1], rest[1:]
            while rest[:1] == ("super",):
                rest = rest[1:]
            return (*base, *rest)
        if head == "Self" and self_type is not None:
            return (*self_type, *parts[1:])
        if head in self.items:
            return (*self.module, *parts)
        if head in self.uses:
            return (*self.uses[head], *parts[1:])
        return parts
