"""The run's Rust crates and modules (`RustProject`, made once per run): each crate's own
name from its Cargo.toml, the file module of each module path, and the facts the linker adds
(impls per trait name, names declared twice, each crate's default build)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .cfg import DefaultBuild
from .modules import ROOT_CRATE, module_path

__all__ = ["RustProject", "crate_names"]

_NAME = re.compile(r'^\s*name\s*=\s*"([^"]+)"', re.MULTILINE)
_SECTION = re.compile(r"^\s*\[([^\]]+)\]", re.MULTILINE)


def crate_names(project: Mapping[str, str]) -> dict[str, str]:
    """Each crate's own name (`[package]` and `[lib]` `name`, `-` as `_`) -> its key
    (`modules.crate_of`: the folder, `crate` at the root)."""
    names: dict[str, str] = {}
    for path, text in project.items():
        if posixpath.basename(path) != "Cargo.toml":
            continue
        folder = posixpath.dirname(path)
        sections = list(_SECTION.finditer(text))
        for at, section in enumerate(sections):
            if section.group(1).strip() not in ("package", "lib"):
                continue
            end = sections[at + 1].start() if at + 1 < len(sections) else len(text)
            found = _NAME.search(text, section.end(), end)
            if found:
                names[found.group(1).replace("-", "_")] = folder or ROOT_CRATE
    return names


@dataclass
class RustProject:
    """The run's crates and modules: module path -> file module (inline modules are
    symbols), crate name -> crate key."""

    files: dict[str, str] = field(default_factory=dict)
    crates: dict[str, str] = field(default_factory=dict)
    # a trait's last name -> the impls naming it (`dispatch`)
    impls: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    children: dict[str, set[str]] = field(default_factory=dict)  # module path -> file modules
    repeated: frozenset[str] = frozenset()  # names declared more than once (two impls' `m`)
    builds: dict[str, DefaultBuild] = field(default_factory=dict)  # crate -> its `cfg` facts
    off_modules: frozenset[str] = frozenset()  # modules whose `mod x;` a default build lacks
    kept: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> (file, ordinal)
    dead: frozenset[str] = frozenset()  # names each definition of which a default build lacks
    # a type -> the names impls elsewhere wrote it by (`impl HashMap` after `use crate::
    # HashMap;`, a re-export of `crate::map::HashMap`): found on first use
    aliases: dict[str, tuple[str, ...]] | None = None

    def __post_init__(self) -> None:
        for path in self.files:
            parent, _, name = path.rpartition("::")
            if parent:
                self.children.setdefault(parent, set()).add(name)

    @classmethod
    def of(cls, modules: Mapping[str, object], project: Mapping[str, str]) -> RustProject:
        files = {
            module_path(name): name for name in modules if name.endswith(".rs")
        }  # fmt: skip
        return cls(files, crate_names(project))
