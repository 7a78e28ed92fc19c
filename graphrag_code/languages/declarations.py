"""What the registry knows of each built-in language before its plug-in is loaded: its names,
the files it reads and where its `Language` record lives.

Routing a file by suffix, walking a tree and naming the project files a run reads need no
parser and no linker; a plug-in's code is loaded when a run meets one of its files or project
files (importing all six cost 0.1-0.25 CPU s of every command: issue 56, start-up <= 0.5 s).
`tests/test_language_declarations.py` checks each declaration against its plug-in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Language

__all__ = ["DECLARED", "Declaration", "declare"]


@dataclass(frozen=True)
class Declaration:
    """A language as the registry routes it (the fields of `Language` of the same names;
    `linker_files` and `convention_files`: the project-file patterns its linker and its
    conventions read; `manifests`: those its cross-repository links read)."""

    name: str
    aliases: tuple[str, ...]
    suffixes: tuple[str, ...]
    interpreters: tuple[str, ...]
    linker_files: frozenset[str]
    convention_files: frozenset[str]
    manifests: tuple[str, ...]
    dispatch_edges: bool
    home: str = ""  # "module:RECORD" of its plug-in; "" for one registered at run time

    @property
    def project_files(self) -> frozenset[str]:
        return self.linker_files | self.convention_files


def declare(language: Language, home: str = "") -> Declaration:
    """The declaration a loaded plug-in answers to."""
    return Declaration(
        name=language.name,
        aliases=language.aliases,
        suffixes=language.suffixes,
        interpreters=language.interpreters,
        linker_files=language.linker.project_files,
        convention_files=language.conventions.project_files,
        manifests=tuple(pattern for pattern, _reader in language.manifests),
        dispatch_edges=language.dispatch_edges,
        home=home,
    )


_PACKAGE = "graphrag_code.languages"
_ECMASCRIPT_FILES = frozenset({"jsconfig.json", "package.json", "tsconfig.*.json", "tsconfig.json"})
_JAVA_BUILD_FILES = frozenset({"build.gradle", "build.gradle.kts", "pom.xml"})  # modules, runners

DECLARED: tuple[Declaration, ...] = (
    Declaration(
        name="python",
        aliases=("py",),
        suffixes=(".py",),
        interpreters=("python", "pypy"),
        linker_files=frozenset(),
        convention_files=frozenset(
            {".pytest.ini", "pyproject.toml", "pytest.ini", "setup.cfg", "tox.ini"}
        ),
        manifests=("pyproject.toml", "setup.cfg", "requirements*.txt", "requirements/*.txt"),
        dispatch_edges=True,
        home=f"{_PACKAGE}.python.plugin:PYTHON",
    ),
    Declaration(
        name="typescript",
        aliases=("ts", "tsx"),
        suffixes=(".ts", ".tsx", ".mts", ".cts"),
        interpreters=("ts-node", "tsx", "deno", "bun"),
        linker_files=_ECMASCRIPT_FILES,
        convention_files=frozenset(),
        manifests=("package.json",),
        dispatch_edges=False,
        home=f"{_PACKAGE}.ecmascript.plugin:TYPESCRIPT",
    ),
    Declaration(
        name="javascript",
        aliases=("js", "jsx"),
        suffixes=(".js", ".jsx", ".mjs", ".cjs"),
        interpreters=("node", "nodejs"),
        linker_files=_ECMASCRIPT_FILES,
        convention_files=frozenset(),
        manifests=("package.json",),
        dispatch_edges=False,
        home=f"{_PACKAGE}.ecmascript.plugin:JAVASCRIPT",
    ),
    Declaration(
        name="go",
        aliases=("golang",),
        suffixes=(".go",),
        interpreters=(),
        linker_files=frozenset({"go.mod"}),
        convention_files=frozenset(),
        manifests=(),
        dispatch_edges=True,
        home=f"{_PACKAGE}.go.plugin:GO",
    ),
    Declaration(
        name="java",
        aliases=(),
        suffixes=(".java",),
        interpreters=(),
        linker_files=_JAVA_BUILD_FILES,
        convention_files=_JAVA_BUILD_FILES | {"settings.gradle", "settings.gradle.kts"},
        manifests=(),
        dispatch_edges=True,
        home=f"{_PACKAGE}.java.plugin:JAVA",
    ),
    Declaration(
        name="rust",
        aliases=("rs",),
        suffixes=(".rs",),
        interpreters=(),
        linker_files=frozenset({"Cargo.toml"}),
        convention_files=frozenset(),
        manifests=(),
        dispatch_edges=True,
        home=f"{_PACKAGE}.rust.plugin:RUST",
    ),
)
"""The languages that ship with graphrag_code, in the registry's order. Adding one: a folder
beside `python/` whose `plugin.py` declares its `Language`, and its declaration here."""
