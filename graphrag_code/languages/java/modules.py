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
- **Build modules** that hold the same file (`core/src/main/java/p/Util.java` and
  `web/src/main/java/p/Util.java`, or each module's `module-info.java`) would give two files
  one name, and the core keeps only one of them in its lookup tables (the other's calls fall
  to `name` matches). Such files, and only they, are qualified by their build module's
  folder, as the JDK writes a class of a named module (`java.base/java.lang.String` in stack
  traces and javadoc): the file `core/p/Util.java`, its symbols `core/p.Util`,
  `core/p.Util.add`. Only where names collide, so the one-module build and every file of a
  multi-module build that collides with none keep their names and ids; the qualifier is a
  folder (what `diff` can name from a path), not the artifactId a `pom.xml` declares. Where
  the build folders do not tell the files apart (a class in `src/main/java` and again in
  `src/test/java` of one module), each is qualified by its source root's folder instead
  (`core/src/test/java/p.Util`). A file of the root build module keeps its plain name. The
  linker reads a name that several build modules declare as the importer's build module, or
  one of the sibling modules it depends on, sees it (`builds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ...parsing import ModuleName

__all__ = [
    "build_folder", "guess_java_module", "java_module_names", "module_package",
    "module_qualifier", "source_root", "source_root_folder",
]  # fmt: skip


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


def source_root_folder(path: str) -> str:
    """The folder of `path`'s source root ("" for the repository root)."""
    return "/".join(path.split("/")[: source_root(path)])


def build_folder(path: str) -> str:
    """The folder of the build module holding `path`: its source root's folder without the
    Maven / Gradle tail (`core/src/main/java` -> `core`; "" for the root module)."""
    folders = path.split("/")[: source_root(path)]
    if len(folders) >= 3 and folders[-3] == "src" and folders[-1] == "java":
        folders = folders[:-3]  # src/<set>/java
    elif folders[-2:] == ["src", "java"]:
        folders = folders[:-2]
    elif folders[-1:] == ["src"]:
        folders = folders[:-1]
    return "/".join(folders)


def _module_name(path: str) -> str:
    folders = path.split("/")
    package = ".".join(folders[source_root(path) : -1])
    return f"{package}/{folders[-1]}"


def module_package(module: str) -> str:
    """The package a file module's name says (`com.shop/Order.java`, `core/com.shop/Order.java`
    -> `com.shop`): packages hold no `/`, so it is the part between the last two."""
    return module.rpartition("/")[0].rpartition("/")[2]


def module_qualifier(module: str) -> str:
    """The build module a file module's name is qualified by (`core/com.shop/Order.java` ->
    `core`), "" for a plain name."""
    return module.rpartition("/")[0].rpartition("/")[0]


def _qualifiers(paths: list[str]) -> dict[str, str]:
    """The qualifier of each of `paths` that share one plain name: their build modules'
    folders where those differ, else their source roots' folders."""
    for qualifier in (build_folder, source_root_folder):
        found = {path: qualifier(path) for path in paths}
        if len(set(found.values())) == len(paths):
            return found
    return dict.fromkeys(paths, "")  # one file under two names of a root: the core shadows


def java_module_names(
    paths: list[str], imported: frozenset[str], root_name: str | None
) -> dict[str, ModuleName]:
    names = {
        path: ModuleName(_module_name(path), False, source_root_folder(path)) for path in paths
    }
    claims: dict[str, list[str]] = {}
    for path, name in names.items():
        claims.setdefault(name.module, []).append(path)
    for module, claimed in claims.items():
        if len(claimed) > 1:
            for path, qualifier in _qualifiers(claimed).items():
                if qualifier:
                    names[path] = replace(names[path], module=f"{qualifier}/{module}")
    return names


def guess_java_module(path: str, neighbours: Mapping[str, str]) -> ModuleName:
    """A file `diff` finds new is named by its path, as the next index names it (unless
    another build module holds a file of its name: `neighbours` are its folder's only)."""
    return java_module_names([path], frozenset(), None)[path]
