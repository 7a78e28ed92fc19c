"""A toy language plug-in that lives in the tests folder alone: the proof that a language is one
folder plus one registration, with no other file of graphrag_code touched.

Toy files (`*.toy`) hold lines of three kinds::

    use lib/greet.toy         # an import of another toy file, by its path
    fn main                   # a function, up to the next `fn` or the end of the file
      call helper             # a call of a function of this file ...
      call greet.hello        # ... or of the file imported as `greet` (its name, no suffix)

Module names follow the path scheme (`app.toy` is `./app.toy`, its `main` `./app.toy.main`),
so they never clash with Python's dotted names. Calls resolve `exact`; nothing else is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath

from graphrag_code.conventions import ClassTree, ConventionConfig, FileRoles
from graphrag_code.ids import path_module_name
from graphrag_code.languages import Language
from graphrag_code.linking.base import LinkContext
from graphrag_code.linking.edges import EdgeCollector, FileLinks, NodeIds
from graphrag_code.linking.index import RepositoryIndex
from graphrag_code.model import (
    CallSite,
    Edge,
    EdgeKind,
    ImportStatement,
    ParsedFile,
    ParseIssue,
    Resolution,
    Symbol,
    SymbolKind,
)
from graphrag_code.parsing import ModuleName

__all__ = ["TOY"]


class ToyParser:
    """Reads `use`, `fn` and `call` lines; anything else is a syntax error kept as an issue."""

    def parse(
        self,
        *,
        path: str,
        module: str,
        is_package: bool,
        source: bytes,
        sha256: str,
        symbols_only: bool = False,
    ) -> ParsedFile:
        text = source.decode("utf-8")
        lines = text.splitlines()
        starts = [n for n, line in enumerate(lines, 1) if line.startswith("fn ")]
        symbols: list[Symbol] = []
        imports: list[ImportStatement] = []
        calls: list[CallSite] = []
        issues: list[ParseIssue] = []
        for number, line in enumerate(lines, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "use" and len(words) == 2:
                imports.append(ImportStatement(module, words[1], 0, None, None, number))
            elif words[0] == "fn" and len(words) == 2:
                end = next((s - 1 for s in starts if s > number), len(lines))
                body = "\n".join(lines[number - 1 : end])
                symbols.append(
                    Symbol(
                        f"{module}.{words[1]}", words[1], SymbolKind.FUNCTION, module, number,
                        end, f"fn {words[1]}", None, (), body,
                    )
                )  # fmt: skip
            elif words[0] == "call" and len(words) == 2 and symbols:
                callee = tuple(words[1].split("."))
                calls.append(CallSite(symbols[-1].qualified_name, callee, number))
            else:
                issues.append(ParseIssue(number, f"not toy: {line.strip()!r}"))
        return ParsedFile(
            path, module, is_package, "toy", sha256, len(lines), text, None, tuple(symbols),
            tuple(imports), tuple(calls), issues=tuple(issues),
        )  # fmt: skip

    def skip_reason(self, path: str, source: bytes) -> str | None:
        return None


def toy_module_names(
    paths: list[str], imported: frozenset[str], root_name: str | None
) -> dict[str, ModuleName]:
    return {path: ModuleName(path_module_name(path), False, "") for path in paths}


class ToyLinker:
    project_files: frozenset[str] = frozenset()

    def prepare(self, index: RepositoryIndex, project: Mapping[str, str]) -> LinkContext:
        return LinkContext()

    def link(
        self, parsed: ParsedFile, index: RepositoryIndex, ids: NodeIds, context: LinkContext
    ) -> FileLinks:
        collector = EdgeCollector()
        consulted: set[str] = set()
        imported: dict[str, str] = {}  # bound name -> module
        for statement in parsed.imports:
            module = path_module_name(statement.module)
            consulted.add(module)
            if module in index.modules:
                imported[PurePosixPath(statement.module).stem] = module
                collector.add(
                    Edge(EdgeKind.IMPORTS, ids.of_module(parsed), ids.of_target(module),
                         lines=(statement.line,))
                )  # fmt: skip
        unresolved: dict[str, int] = {}
        for call in parsed.calls:
            *owner, name = call.callee
            module = imported.get(owner[0]) if owner else parsed.module
            target = f"{module}.{name}" if module else None
            caller = ids.of_scope(parsed, call.scope)
            if target is None or target not in index.symbols:
                unresolved[caller] = unresolved.get(caller, 0) + 1
                continue
            collector.add(
                Edge(EdgeKind.CALLS, caller, ids.of_target(target),
                     resolution=Resolution.EXACT, lines=(call.line,))
            )  # fmt: skip
        return FileLinks.build(parsed.path, collector.edges(), unresolved, consulted, frozenset())


class ToyConventions:
    """The toy has no tests, fixtures or entry points of its own."""

    project_files: frozenset[str] = frozenset()

    def configure(self, project: Mapping[str, str]) -> ConventionConfig:
        return ConventionConfig()

    def roles(self, parsed: ParsedFile, config: ConventionConfig, classes: ClassTree) -> FileRoles:
        return FileRoles(parsed.path)


TOY = Language(
    name="toy",
    aliases=("tl",),
    suffixes=(".toy",),
    interpreters=(),
    parser=ToyParser,
    linker=ToyLinker(),
    module_names=toy_module_names,
    conventions=ToyConventions(),
)
