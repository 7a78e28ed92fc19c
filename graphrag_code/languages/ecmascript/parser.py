"""TypeScript and JavaScript source -> `ParsedFile`, with tree-sitter.

One parser for `.ts .tsx .mts .cts` (language "typescript", the TypeScript or TSX grammar) and
`.js .jsx .mjs .cjs` (language "javascript", the JavaScript grammar, which reads JSX too); a
`.d.ts` file gives declarations only. Captures come from `queries/ecmascript.scm` plus
`typescript.scm` or `javascript.scm`; this module turns them into the records every language
emits. Qualified names follow the file: a module is its path (`src/util/dates.ts`, a file at the
root `./index.ts`, so a TS/JS name always holds a `/` and a Python name never does) and a symbol
is the module's name, a dot, and its dotted path inside the file (`src/util/dates.ts.Parser.parse`).

What is a symbol: functions (declared, or arrow functions and function expressions bound to a
name or to `exports.x`), classes (abstract too), methods, constructors, getters and setters,
class fields holding functions, interfaces and their method signatures, type aliases, enums,
namespaces, object literals bound to a name (with their methods), objects whose members are
assigned functions (`var app = exports = module.exports = {}; app.init = function …`, `var res
= Object.create(…)`: the functions are their methods), `X.prototype.m = function` methods,
functions and objects of functions a method assigns to `this.x` (members of its class, unless
the class declares a field `x`), classes and objects of functions assigned to a member of a
module's object (`internals.Base = class {…}`), and `export default` functions and classes
(named `default` when anonymous).
Code in anonymous functions (callbacks) belongs to the named scope around them.

The modules beside it hold the parts: `symbols` (declarations), `imports`, `bindings`,
`facts` (calls, type uses, names per scope), `types` (type annotations), `jsdoc`, `syntax`
(dotted names, callees, specifiers) and `scopes` (which named scope runs a node).
"""

from __future__ import annotations

import itertools
import re
from functools import cache

import tree_sitter as ts
import tree_sitter_javascript
import tree_sitter_typescript

from ...ids import path_module_name
from ...model import ParsedFile
from ...parsing.base import ModuleName
from ...parsing.records import line_count
from ...parsing.treesitter import depth_issues, load_query, source_captures, syntax_issues
from .bindings import Bindings
from .facts import Facts
from .imports import Imports
from .jsdoc import module_doc
from .scopes import FileState, Grammar
from .symbols import Symbols

__all__ = [
    "JAVASCRIPT_SUFFIXES",
    "TYPESCRIPT_SUFFIXES",
    "EcmaScriptParser",
    "ecmascript_module_name",
    "ecmascript_module_names",
]

TYPESCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
JAVASCRIPT_SUFFIXES = (".js", ".jsx", ".mjs", ".cjs")
_DECLARATION_FILE = re.compile(r"\.d\.[mc]?ts$")
_MAX_LINE = 5_000  # a longer line: a minified or generated bundle
_MAX_MEAN_LINE = 300  # a larger average line length over a file of more than 10 kB: the same


def ecmascript_module_name(path: str) -> str:
    """The qualified name of a TS/JS module: its path (`./name.ts` at the repository root)."""
    return path_module_name(path)


def ecmascript_module_names(
    paths: list[str], imported: frozenset[str], root_name: str | None
) -> dict[str, ModuleName]:
    return {path: ModuleName(ecmascript_module_name(path), False, "") for path in paths}


@cache
def _language(grammar: Grammar) -> ts.Language:
    if grammar == "typescript":
        return ts.Language(tree_sitter_typescript.language_typescript())
    if grammar == "tsx":
        return ts.Language(tree_sitter_typescript.language_tsx())
    return ts.Language(tree_sitter_javascript.language())


@cache
def _query(grammar: Grammar) -> ts.Query:
    extra = "javascript.scm" if grammar == "javascript" else "typescript.scm"
    return load_query(_language(grammar), __name__.rpartition(".")[0], "ecmascript.scm", extra)


def _grammar(path: str) -> tuple[Grammar, str]:
    """The grammar for a file and the `language` of its nodes."""
    if path.endswith(".tsx"):
        return "tsx", "typescript"
    if path.endswith(TYPESCRIPT_SUFFIXES):
        return "typescript", "typescript"
    return "javascript", "javascript"


class EcmaScriptParser:
    """Parses one TypeScript or JavaScript file. Cheap to construct; not thread-safe."""

    def __init__(self) -> None:
        self._parsers: dict[Grammar, ts.Parser] = {}

    def skip_reason(self, path: str, source: bytes) -> str | None:
        name = path.rpartition("/")[2]
        if ".min." in name or name.endswith("-min.js"):
            return "minified bundle (*.min.*)"
        lines = source.count(b"\n") + 1
        longest = max((len(line) for line in source.split(b"\n")), default=0)
        if longest > _MAX_LINE:
            return f"minified or generated: a line of {longest} characters"
        if len(source) > 10_000 and len(source) / lines > _MAX_MEAN_LINE:
            return f"minified or generated: {len(source) // lines} characters a line on average"
        return None

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
        grammar, language = _grammar(path)
        parser = self._parsers.get(grammar)
        if parser is None:
            parser = self._parsers[grammar] = ts.Parser(_language(grammar))
        tree, parsed = parser.parse(source), source
        if tree.root_node.has_error and grammar == "javascript":
            tree, parsed = _quoted_names(parser, tree, source)
        if tree.root_node.has_error:
            tree = _repaired(parser, tree, parsed)
        captures = source_captures(_query(grammar), tree.root_node)
        state = FileState(module=module, grammar=grammar)
        symbols = Symbols(state, captures).build()
        declarations_only = bool(_DECLARATION_FILE.search(path))
        text = source.decode("utf-8", errors="replace")
        facts = Facts(state, captures, symbols)
        return ParsedFile(
            path=path,
            module=module,
            is_package=False,
            language=language,
            sha256=sha256,
            loc=line_count(text),
            code=text,
            docstring=module_doc(tree.root_node),
            symbols=symbols,
            imports=tuple(Imports(state, captures, symbols).imports()),
            calls=() if declarations_only else tuple(facts.calls()),
            bindings=tuple(Bindings(state, captures, symbols).bindings()),
            type_uses=tuple(facts.type_uses()),
            scopes=tuple(facts.scope_names()),
            module_names=frozenset(facts.module_level_names()),
            all_names=None,
            issues=(*syntax_issues(tree.root_node), *depth_issues(tree.root_node)),
        )


_LINE_END = re.compile(rb"[\w$)\]>]\s*$")
_SIGNATURE_START = re.compile(rb"^\s*[<(]")


def _repaired(parser: ts.Parser, tree: ts.Tree, source: bytes) -> ts.Tree:
    """The tree of `source` with a `;` after each line that a call signature follows, when
    that parses with fewer errors. The grammar misreads members of an interface written
    without separators when the next one starts with `<` or `(`
    (`<T>(fn: T): T` then `<T>(name: string, fn: T): T`), and its error recovery can then
    swallow the whole file. Lines keep their numbers (the `;` ends a line)."""
    lines = source.split(b"\n")
    code = [i for i, line in enumerate(lines) if line.strip() and not _comment(line)]
    changed = False
    for here, following in itertools.pairwise(code):
        line = lines[here]
        if (
            _SIGNATURE_START.match(lines[following])
            and _LINE_END.search(line)
            and b"//" not in line
        ):
            lines[here] = line.rstrip() + b";"
            changed = True
    if not changed:
        return tree
    repaired = parser.parse(b"\n".join(lines))
    before = len(syntax_issues(tree.root_node))
    return repaired if len(syntax_issues(repaired.root_node)) < before else tree


# ES2015 allows any name, reserved words too, as an imported or exported name
# (`export { functionType as function }`: zod's bundle); the JavaScript grammar reads only
# identifiers there (the TypeScript grammar reads them all)
_RESERVED = (
    rb"break|case|catch|class|const|continue|debugger|delete|do|else|enum|export|extends|false"
    rb"|finally|for|function|if|import|in|instanceof|new|null|return|super|switch|this|throw"
    rb"|true|try|typeof|var|void|while|with"
)
_CLAUSE = re.compile(rb"\b(?:import|export)\b[^;{}()'\"`]*\{[^{}]*\}")
_RESERVED_NAME = re.compile(
    rb"(?<=\bas)(\s+)(" + _RESERVED + rb")\b|(?<=[{,])(\s*)(" + _RESERVED + rb")(?=\s+as\b)"
)


def _quoted_names(parser: ts.Parser, tree: ts.Tree, source: bytes) -> tuple[ts.Tree, bytes]:
    """The tree (and the source it read) with reserved words quoted where an import or export
    clause names them (`as function` -> `as "function"`, as ES2022 string names are written),
    when that parses with fewer errors. Lines keep their numbers."""

    def quote(clause: re.Match[bytes]) -> bytes:
        return _RESERVED_NAME.sub(
            lambda m: (
                m.group(1) + b'"' + m.group(2) + b'"'
                if m.group(2) is not None
                else m.group(3) + b'"' + m.group(4) + b'"'
            ),
            clause.group(0),
        )

    quoted = _CLAUSE.sub(quote, source)
    if quoted == source:
        return tree, source
    requoted = parser.parse(quoted)
    before = len(syntax_issues(tree.root_node))
    if len(syntax_issues(requoted.root_node)) < before:
        return requoted, quoted
    return tree, source


def _comment(line: bytes) -> bool:
    stripped = line.lstrip()
    return stripped.startswith((b"//", b"/*", b"*"))
