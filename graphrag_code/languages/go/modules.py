"""How Go files, packages and symbols are named, and where an import path leads.

Go's unit is the package, a directory; the parser sees one file at a time, and a method may be
declared in another file of the package than its type. The scheme:

- **Files** are modules named by their path (`ids.path_module_name`): `internal/order/order.go`,
  `./main.go` at the repository root — as TypeScript's files are, so a file always holds a
  `/` and never clashes with a Python dotted name. A file is the node that DEFINES its
  package-level declarations (the writer and `RepositoryIndex` key one module per file).
- **Packages** are named by their directory from the repository root: `internal/order`; the
  root directory's package is `.`. An external test package (`package order_test` beside
  `order`) is a package of its own in the same directory: `internal/order_test` (`._test` at
  the root).
- **Symbols** are qualified by their package, not their file, so a method declared in
  another file still belongs to its type: `internal/order.Order`,
  `internal/order.Order.Total`, `internal/order.NewOrder`; at the root `.Order`,
  `.Order.Total`. The leading `.` of a root name and the `/` of every other package name never
  occur in a Python name, and a TypeScript name always holds a file suffix before its first
  `.` after the last `/`. Type parameters are no part of a name (`List[T].Push` is
  `….List.Push`). A method's parent is its receiver's type (wherever that is declared); a
  package-level declaration's parent is its file. `func init()` may be declared many times in
  one package: each is qualified by its file (`internal/order/order.go.init`).
- **Import paths** name what is outside the repository: `:External` nodes are named by the
  import path and the member (`fmt.Println`, `github.com/spf13/pflag.FlagSet`,
  `bytes.Buffer.Write`).

Why the directory and not the import path from `go.mod` (`github.com/spf13/cobra.Command`):
the core names modules from paths alone (`Language.module_names` sees no file's text), so a
name from `go.mod` would need the core to read project files while naming; names by directory
also stay put when `go.mod`'s module line changes. `go.mod` is read where it matters, by the
linker (`GoProject`): each `go.mod` (nested ones too) maps its module path to its directory,
and an import path under one of them leads to the package of that directory. Without a
`go.mod` above a package, an import path ending in a package's directory leads there.
A `replace` directive that leads to a folder of the repository (`=> ../lib`) names that folder
too; `go.work` adds nothing more (every `go.mod` is read).

IMPORTS from a file point at one file of the imported package, its *package file*: `doc.go`,
else the file named as the directory (`order/order.go`), else the first by name (the graph
has no package node); an oracle compares an import by the target file's directory.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ...ids import path_module_name
from ...parsing import ModuleName

__all__ = [
    "ROOT_PACKAGE",
    "GoProject",
    "go_module_names",
    "guess_go_module",
    "local_replacements",
    "package_dir",
    "package_file",
    "package_name",
    "qualify",
    "read_go_mod",
]

ROOT_PACKAGE = "."
_TEST_SUFFIX = "_test"
_MODULE_LINE = re.compile(r"^\s*module\s+(\"[^\"]+\"|\S+)", re.MULTILINE)
# `old [version] => new [version]`, after `replace` or inside a `replace ( … )` block
_REPLACE = re.compile(r"^\s*(?:replace\s+)?(\S+)(?:\s+v\S+)?\s+=>\s+(\S+)", re.MULTILINE)


def go_module_names(
    paths: list[str], imported: frozenset[str], root_name: str | None
) -> dict[str, ModuleName]:
    """Each file's module: its path."""
    return {path: ModuleName(path_module_name(path), False, "") for path in paths}


def guess_go_module(path: str, neighbours: Mapping[str, str]) -> ModuleName:
    """A file `diff` finds new is named by its path, as the next index names it."""
    return ModuleName(path_module_name(path), False, "")


def package_dir(module: str) -> str:
    """The directory of a file module ("" at the root)."""
    directory = posixpath.dirname(module)
    return "" if directory == "." else directory


def package_name(directory: str, *, external_test: bool = False) -> str:
    """The package of a directory (`ROOT_PACKAGE` at the root); `external_test`: the
    `package x_test` beside it."""
    base = directory or ROOT_PACKAGE
    return base + _TEST_SUFFIX if external_test else base


def qualify(package: str, *names: str) -> str:
    """A symbol's qualified name in `package`: `a/b.T.M`, `.T.M` at the root."""
    head = "" if package == ROOT_PACKAGE else package
    return head + "." + ".".join(names)


def package_file(modules: Iterable[str], directory: str) -> str:
    """The file module an import of the package in `directory` points at (see above)."""
    names = sorted(modules)
    stem = posixpath.basename(directory)
    for wanted in ("doc.go", f"{stem}.go"):
        for module in names:
            if posixpath.basename(module) == wanted:
                return module
    return names[0]


def read_go_mod(text: str) -> str | None:
    """The module path a `go.mod` declares, None when it declares none."""
    match = _MODULE_LINE.search(text)
    return match.group(1).strip('"') if match else None


def local_replacements(text: str) -> dict[str, str]:
    """The `replace` directives of a `go.mod` that lead to a folder (`replace a/b => ../b`,
    in a line or a block): module path -> the folder, relative to the `go.mod`'s."""
    found: dict[str, str] = {}
    for old, new in _REPLACE.findall(text):
        if new.startswith(("./", "../")) or new in (".", ".."):
            found[old.strip('"')] = new.strip('"')
    return found


@dataclass
class GoProject:
    """The repository's Go modules and packages, for resolving import paths."""

    modules: dict[str, str] = field(default_factory=dict)  # module path -> its directory
    packages: dict[str, list[str]] = field(default_factory=dict)  # directory -> file modules
    package_of: dict[str, str] = field(default_factory=dict)  # file module -> its package
    # package -> package-level variable or constant name -> the file module declaring it
    variables: dict[str, dict[str, str]] = field(default_factory=dict)
    _directories: dict[str, str | None] = field(default_factory=dict)

    def directory_of(self, import_path: str) -> str | None:
        """The repository directory an import path names, None when it is outside."""
        if import_path not in self._directories:
            self._directories[import_path] = self._directory_of(import_path)
        return self._directories[import_path]

    def _directory_of(self, import_path: str) -> str | None:
        best: tuple[int, str] | None = None
        for module, directory in self.modules.items():
            under = import_path == module or import_path.startswith(module + "/")
            if under and (best is None or len(module) > best[0]):
                rest = import_path[len(module) :].lstrip("/")
                best = (len(module), posixpath.join(directory, rest).rstrip("/"))
        if best is not None:
            found = "" if best[1] == "." else best[1]
            return found if found in self.packages else None
        for directory in sorted(self.packages, key=len, reverse=True):
            if self._covered(directory):
                continue  # under a go.mod: named by its module path only
            if directory and (import_path == directory or import_path.endswith("/" + directory)):
                return directory
        return None

    def _covered(self, directory: str) -> bool:
        return any(
            top in ("", ".") or directory == top or directory.startswith(top + "/")
            for top in self.modules.values()
        )
