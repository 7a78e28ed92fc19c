"""How Java files, packages and symbols are named.

- **Files** (compilation units) are modules named by their package and file name,
  `com.shop.model/Order.java`: the package is the file's folder below its *source root*, the
  `/` keeps the name apart from every Python dotted name and from the class it declares
  (`com.shop.model.Order`), and `.java` apart from TypeScript's files. A file in the default
  package is `/Order.java`. Source roots follow Maven and Gradle: the folder after
  `src/<set>/java` (`src/main/java`, `src/test/java`, `src/it/java`, at any depth, so every
  module of a multi-module build has its own), else after `src/java` or `src/` when the next
  folder looks like a package (lower case), else the repository root (a `-sources.jar`).
  The core names modules from paths alone (`Language.module_names` sees no text), so this is
  the package the path says; symbols take their names from the `package` line (`parser`).
- **Symbols** are qualified by the declared package and their enclosing types:
  `com.shop.model.Order`, `com.shop.model.Order.Line`, `com.shop.model.Order.total`; a
  top-level type's parent is its file. Overloads: see `parser`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from ...parsing import ModuleName

__all__ = ["guess_java_module", "java_module_names", "module_package", "source_root"]


def source_root(path: str) -> int:
    """How many leading folders of `path` belong to its source root (not to the package)."""
    folders = path.split("/")[:-1]
    for at in range(len(folders) - 3, -1, -1):
        if folders[at] == "src" and folders[at + 2] == "java":
            return at + 3
    for at in range(len(folders) - 2, -1, -1):
        if folders[at] == "src" and folders[at + 1] == "java":
            return at + 2
    for at in range(len(folders) - 1, -1, -1):
        if folders[at] == "src" and folders[at + 1][:1].islower():
            return at + 1
    return 0


def _module_name(path: str) -> str:
    folders = path.split("/")
    package = ".".join(folders[source_root(path) : -1])
    return f"{package}/{folders[-1]}"


def module_package(module: str) -> str:
    """The package a file module's name says (`com.shop/Order.java` -> `com.shop`)."""
    return module.rpartition("/")[0]


def java_module_names(
    paths: list[str], imported: frozenset[str], root_name: str | None
) -> dict[str, ModuleName]:
    return {
        path: ModuleName(_module_name(path), False, posixpath.join(*path.split("/")[:root]))
        if (root := source_root(path))
        else ModuleName(_module_name(path), False, "")
        for path in paths
    }


def guess_java_module(path: str, neighbours: Mapping[str, str]) -> ModuleName:
    """A file `diff` finds new is named by its path, as the next index names it."""
    return java_module_names([path], frozenset(), None)[path]
