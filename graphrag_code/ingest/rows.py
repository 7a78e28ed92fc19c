"""Graph rows for one parsed file: the node properties and scope-tree edges the writer stores."""

from __future__ import annotations

from ..linking.edges import NodeIds
from ..model import NodeRow, ParsedFile, Symbol, SymbolKind, content_hash, symbol_content_hash
from ..text import search_text, statement_text

__all__ = ["MAX_MODULE_CODE", "NodeRow", "file_node_ids", "file_rows"]

MAX_MODULE_CODE = 200_000
"""Module nodes keep at most this many characters of source (symbols keep all of theirs)."""


def top_level_code(parsed: ParsedFile) -> str:
    """The file's lines outside its top-level classes and functions: imports, constants,
    calls such as `setup(install_requires=[...])`, configuration. Symbols are searched by
    their own text; without this a module's own statements matched no node at all (issue 18:
    commit subjects about `setup.py` or `docs/conf.py` found neither). Indexed as written
    (`statement_text`): version numbers and repeated words count, as in BM25 over files."""
    inside: set[int] = set()
    for symbol in parsed.symbols:
        if symbol.parent == parsed.module:
            inside.update(range(symbol.start_line, symbol.end_line + 1))
    lines = parsed.code.splitlines()
    return "\n".join(line for number, line in enumerate(lines, 1) if number not in inside)


def _module_row(repo: str, parsed: ParsedFile, ids: NodeIds) -> NodeRow:
    name = parsed.module.rsplit(".", 1)[-1] if parsed.module else parsed.path
    code = parsed.code[:MAX_MODULE_CODE]
    return NodeRow(
        id=ids.of_module(parsed),
        kind=SymbolKind.MODULE,
        parent=None,
        properties={
            "repo": repo,
            "kind": SymbolKind.MODULE.value,
            "qualified_name": parsed.module,
            "name": name,
            "path": parsed.path,
            "language": parsed.language,
            "sha256": parsed.sha256,
            "loc": parsed.loc,
            "start_line": 1,
            "end_line": max(parsed.loc, 1),
            "is_package": parsed.is_package,
            "docstring": parsed.docstring,
            "code": code,
            "code_truncated": len(parsed.code) > MAX_MODULE_CODE,
            "parse_issues": len(parsed.issues),
            "search_text": search_text(
                name=name,
                qualified_name=parsed.module,
                path=parsed.path,
                signature=None,
                docstring=parsed.docstring,
                code=None,
            )
            + "\n"
            + statement_text(top_level_code(parsed)),
            # the file as one document for file-level search (its own index: graph/scoping.py)
            "file_text": statement_text(code, max_chars=MAX_MODULE_CODE),
            "content_hash": content_hash(parsed.path, parsed.module, parsed.docstring, code),
        },
    )


def _symbol_row(repo: str, parsed: ParsedFile, symbol: Symbol, ids: NodeIds) -> NodeRow:
    parent_id = ids.of_scope(parsed, symbol.parent)
    return NodeRow(
        id=ids.of_symbol(symbol.qualified_name, ordinal=symbol.ordinal, path=parsed.path),
        kind=symbol.kind,
        parent=parent_id,
        properties={
            "repo": repo,
            "kind": symbol.kind.value,
            "qualified_name": symbol.qualified_name,
            "name": symbol.name,
            "path": parsed.path,
            "module": parsed.module,
            "language": parsed.language,
            "start_line": symbol.start_line,
            "end_line": symbol.end_line,
            "signature": symbol.signature,
            "docstring": symbol.docstring,
            "decorators": list(symbol.decorators),
            "declared_as": symbol.declared_as,
            "is_async": symbol.is_async,
            "code": symbol.code,
            "search_text": search_text(
                name=symbol.name,
                qualified_name=symbol.qualified_name,
                path=parsed.path,
                signature=symbol.signature,
                docstring=symbol.docstring,
                code=symbol.code,
            ),
            "content_hash": symbol_content_hash(parsed.path, symbol),
        },
    )


def file_node_ids(parsed: ParsedFile, ids: NodeIds) -> list[str]:
    """The ids of `file_rows`, in its order, without building the rows."""
    return [ids.of_module(parsed)] + [
        ids.of_symbol(s.qualified_name, ordinal=s.ordinal, path=parsed.path) for s in parsed.symbols
    ]


def file_rows(repo: str, parsed: ParsedFile, ids: NodeIds) -> list[NodeRow]:
    """The module node and every symbol node of one file, parents before children."""
    rows = [_module_row(repo, parsed, ids)]
    rows.extend(_symbol_row(repo, parsed, symbol, ids) for symbol in parsed.symbols)
    return rows
