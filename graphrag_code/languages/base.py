"""What a language plug-in is: one `Language` record binding its files, parser, linker, module
naming and conventions. Each language folder declares its records in its `plugin.py`; the
registry lists them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..conventions import Conventions
from ..ids import path_module_name
from ..linking.base import Linker
from ..linking.rules import PLAIN_RULES, IndexRules
from ..model import Symbol
from ..parsing import ModuleName, SourceParser
from ..parsing.generated import FileEnds
from .layout import SourceLayout
from .manifests import ManifestReader, PackageNamer, no_packages
from .run_rules import RunRules

__all__ = [
    "DerivedRule", "Hook", "Language", "ModuleGuess", "ModuleNamer", "block_comment",
    "looks_like_test", "module_by_path", "runs_only_when_called",
]  # fmt: skip

ModuleNamer = Callable[[list[str], frozenset[str], str | None], dict[str, ModuleName]]
"""Paths of a language's files, the module names the repository imports, the root folder's
name -> the module name of each file (its qualified-name scheme)."""

ModuleGuess = Callable[[str, Mapping[str, str]], ModuleName]
"""The path of a file the graph does not hold (one a diff adds or renames) and the graph's
modules beside it (path -> module name) -> its module, as the next index would name it."""


DerivedRule = Callable[[str, FileEnds, frozenset[str]], str | None]
# (test's file, its qualified name, its module or None for a whole-file test) -> what its
# test runner takes to run that test alone (`go test ./pkg -run '^TestX$'`)
TestRunnerId = Callable[[str, str, str | None], str]
"""A file's path, its ends (`FileEnds`) and every path the walk found -> why the file is
built from others the tree holds (a bundle, declarations beside their code), or None."""


@dataclass(frozen=True)
class Hook:
    """A name a framework or protocol calls by convention, not by a call the graph sees
    (IPython's `_repr_html_`): dead code calls such code public, with a low confidence."""

    pattern: str  # `fnmatch` over a symbol's own name: "_repr_*_"
    caller: str  # who calls it: "IPython and Jupyter (a rich display hook)"
    kinds: frozenset[str] = frozenset({"Method"})  # the node kinds it names


def module_by_path(path: str, neighbours: Mapping[str, str]) -> ModuleName:
    """A module named by its file's path (`path_module_name`), never a package."""
    return ModuleName(path_module_name(path), False, "")


_TEST_FOLDERS = frozenset({"tests", "__tests__"})


def looks_like_test(path: str) -> bool:
    """A guess, for a file the graph does not hold, that it is test code: `test_*` files,
    `*.test.*` and `*.spec.*` files, and files in a `tests/` or `__tests__/` folder."""
    *folders, name = path.split("/")
    return (
        name.startswith("test_")
        or ".test." in name
        or ".spec." in name
        or any(folder in _TEST_FOLDERS for folder in folders)
    )


def runs_only_when_called(method: Symbol) -> bool:
    """No method runs without a call naming it."""
    return False


def block_comment(text: str) -> str:
    """`/** text */`: a documentation comment as the C family writes one."""
    return f"/** {text} */"


@dataclass(frozen=True)
class Language:
    """A language plug-in. `name` is the `language` property of its nodes; `aliases` are
    what `index --languages` accepts besides the name."""

    name: str
    aliases: tuple[str, ...]
    suffixes: tuple[str, ...]
    interpreters: tuple[str, ...]  # shebang programs of extension-less scripts
    parser: type[SourceParser]
    linker: Linker
    module_names: ModuleNamer
    conventions: Conventions  # its tests, fixtures and entry points
    # a paragraph of documentation as the language writes it beside code (context for LLMs)
    doc_comment: Callable[[str], str] = field(default=block_comment)
    # its linker stores the calls that may reach an override as CALLS edges (tier `dispatch`);
    # for the others, `callers` and `impact` derive them from INHERITS at query time
    dispatch_edges: bool = False
    # `diff`'s names for files the graph does not hold yet: their module, and whether they
    # are test code (the graph's roles say so for the files it holds)
    guess_module: ModuleGuess = field(default=module_by_path)
    test_path: Callable[[str], bool] = field(default=looks_like_test)
    # where its symbols' headers and documentation sit (`diff` tells their edits apart)
    layout: SourceLayout = field(default_factory=SourceLayout)
    # cross-repository links: the project files that declare what the repository is
    # published as and depends on (glob below its top -> reader), and the top-level packages
    # its modules provide to other repositories
    manifests: tuple[tuple[str, ManifestReader], ...] = ()
    packages: PackageNamer = field(default=no_packages)
    # a method it runs on an instance by syntax, not by a call naming it (Python's `with x:`
    # runs `__enter__`, reading a property its getter), and the method that builds an
    # instance: code that builds one possibly reaches those (tests' reach, tier name)
    runs_by_syntax: Callable[[Symbol], bool] = field(default=runs_only_when_called)
    constructor: str | None = None
    # what it tells the repository's lookup tables (properties, overloads, signature buckets)
    index_rules: IndexRules = field(default=PLAIN_RULES)
    # parameters no fixture of the repository fills, so the tests stage never types the
    # objects its tests call methods on through them (Python's receivers `self` and `cls`,
    # pytest's own `request`)
    implicit_parameters: frozenset[str] = frozenset()
    # the calls that declare its tests inside a file (Jest's `it(...)`): a file's test roles
    # read them, so the tests stage's digest of a file notes whether it makes one
    runner_calls: frozenset[str] = frozenset()
    # method names of its built-in types (`x.get()`, `f.close()`): an unresolved call by one
    # says nothing of which repository function runs (the tests stage's namesakes skip them)
    builtin_methods: frozenset[str] = frozenset()
    # why one of its files is built from others the tree holds (a bundle beside its sources,
    # declarations beside their code): skipped unless `include_generated` (tool-written
    # headers, which every language shares, are `parsing.generated`'s)
    derived: DerivedRule | None = None
    # how its tests are run, one at a time; None: pytest's `path::Class::test` (Python), the
    # file for a test that is a whole file (Jest, Vitest, Mocha)
    runner_id: TestRunnerId | None = None
    # names its frameworks and protocols call by convention (dead code: public, low confidence)
    hooks: tuple[Hook, ...] = ()
    # how its code runs as a program a test starts, and through an instance a class keeps
    # (`diff`'s tests that neither coverage nor the reach graph sees)
    run_rules: RunRules = field(default_factory=RunRules)
