"""First-order mutants of JavaScript source (issue 54's mutant benchmark, stop 66: one JS
package), the operators of `benchmarks.impact.mutator` on JavaScript lines.

Each mutant rewrites one line inside one function's body (never the line a function starts
on, so its signature is never touched), so a `diff` of it is a body edit of that function:
a comparison flipped (`<` to `>=`, `===` to `!==`), a constant replaced (a number plus one, a
string emptied, a boolean flipped), an `if` / `while` / `do` condition negated, a one-line
statement dropped (`;` in its place), or a `return X` made `return undefined` (operator
`return-none`, the Python mutator's name, so that `mutator.pick` takes the operators in turn).
A mutant whose module tree-sitter no longer parses is skipped here; `node_check` is the
runtime's own check, for the mutants a benchmark picks. The `Mutant` record and `apply` are the
Python mutator's (a mutant is a line replaced, whatever the language). Pure but `node_check`.
TypeScript (stop 67) is parsed with its own grammar; a literal of a type (`'a' | 'b'`) is
never mutated (the runner strips types: such a mutant changes nothing), and `ts_check` is the
compiler's syntax check.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import tree_sitter as ts
import tree_sitter_javascript
import tree_sitter_typescript

from benchmarks.impact.mutator import Mutant, apply

__all__ = ["mutants_of", "node_check", "ts_check"]

_PARSER = ts.Parser(ts.Language(tree_sitter_javascript.language()))
_TS_PARSER = ts.Parser(ts.Language(tree_sitter_typescript.language_typescript()))
_FLIPS = {
    "<": ">=", ">": "<=", "<=": ">", ">=": "<",
    "==": "!=", "!=": "==", "===": "!==", "!==": "===",
}  # fmt: skip
_FUNCTIONS = frozenset({
    "function_declaration", "function_expression", "arrow_function", "method_definition",
    "generator_function_declaration", "generator_function", "function",
})  # fmt: skip
_SCOPES = _FUNCTIONS | {"class_declaration", "class", "abstract_class_declaration"}
_DROPPED = frozenset(
    {"expression_statement", "throw_statement", "lexical_declaration", "variable_declaration"}
)
# where a statement stands alone (not a `for (let i = 0; ...)` header's declaration)
_BLOCKS = frozenset({"statement_block", "switch_case", "switch_default", "else_clause"})
_BODIES = frozenset({"body", "consequence"})
_DECIMAL = re.compile(r"\d+")
_FLOAT = re.compile(r"\d*\.\d+|\d+\.\d*")


def _name(node: ts.Node) -> str:
    """A function's or class's name: its own, else the variable, property or key it is
    assigned to (`const f = () => ...`, `obj.f = function () {}`, `{ f: () => ... }`)."""
    own = node.child_by_field_name("name")
    if own is not None and own.text is not None:
        return own.text.decode()
    parent = node.parent
    if parent is not None:
        target = (
            parent.child_by_field_name("name")
            if parent.type == "variable_declarator"
            else parent.child_by_field_name("left")
            if parent.type == "assignment_expression"
            else parent.child_by_field_name("key")
            if parent.type == "pair"
            else None
        )
        if target is not None and target.text is not None:
            return target.text.decode().rpartition(".")[2]
    return "<anonymous>"


def _owners(root: ts.Node) -> dict[int, str]:
    """Body line (1-based) -> the innermost function holding it: the lines of its body's
    statements after the line the function starts on (nested functions written later win)."""
    spans: list[tuple[int, str, range]] = []

    def walk(node: ts.Node, prefix: str) -> None:
        for child in node.named_children:
            if child.type in _SCOPES:
                name = f"{prefix}{_name(child)}"
                body = child.child_by_field_name("body")
                if child.type in _FUNCTIONS and body is not None and body.named_children:
                    first = body.named_children[0].start_point.row + 1
                    last = body.named_children[-1].end_point.row + 1
                    lines = range(max(first, child.start_point.row + 2), last + 1)
                    spans.append((len(lines), name, lines))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(root, "")
    owner: dict[int, str] = {}
    for _, name, lines in sorted(spans, key=lambda s: -s[0]):
        for line in lines:
            owner[line] = name
    return owner


def _constant(node: ts.Node) -> str | None:
    text = (node.text or b"").decode()
    if node.type in ("true", "false"):
        return "false" if node.type == "true" else "true"
    if node.type == "number":
        if _DECIMAL.fullmatch(text):
            return str(int(text) + 1)
        if _FLOAT.fullmatch(text):
            return repr(float(text) + 1)
        if text[:2].lower() == "0x":
            return str(int(text, 16) + 1)
        return None  # BigInt, exponents, separators, octal and binary: left alone
    if node.type == "string":
        return "'mutant'" if len(text) <= 2 else "''"
    return None


def _directive(node: ts.Node) -> bool:
    """`'use strict'` and the like: a statement that is a string alone."""
    return node.type == "expression_statement" and [c.type for c in node.named_children] == [
        "string"
    ]


def _dropped(node: ts.Node) -> bool:
    parent = node.parent
    if parent is None or node.type not in _DROPPED or _directive(node):
        return False
    if parent.type in _BLOCKS:
        return True
    return any(parent.child_by_field_name(field) == node for field in _BODIES)


def _candidates(root: ts.Node, owner: dict[int, str]) -> Iterator[tuple[str, int, int, int, str]]:
    """(operator, line, start byte, end byte of the line's text, replacement) per mutation
    of a node on one body line."""
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.children))
        line = node.start_point.row + 1
        if line not in owner or node.end_point.row != node.start_point.row:
            continue
        start, end = node.start_point.column, node.end_point.column
        if node.type == "parenthesized_expression" and node.parent is not None:
            statement = node.parent
            if statement.type in ("if_statement", "while_statement", "do_statement") and (
                statement.child_by_field_name("condition") == node
            ):
                inner = (node.text or b"")[1:-1].decode()
                yield "negate", line, start, end, f"(!({inner}))"
        elif node.type == "binary_expression":
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type in _FLIPS:
                begin = operator.start_point.column
                yield "comparison", line, begin, operator.end_point.column, _FLIPS[operator.type]
        elif node.type in ("number", "string", "true", "false"):
            parent = node.parent
            new = _constant(node)
            if (
                new is not None
                and parent is not None
                and not _directive(parent)
                and not _in_type(node)
            ):
                yield "constant", line, start, end, new
        elif node.type == "return_statement" and len(node.named_children) == 1:
            value = node.named_children[0]
            if value.type != "undefined" and value.text != b"undefined":
                ending = ";" if (node.text or b"").endswith(b";") else ""
                yield "return-none", line, start, end, "return undefined" + ending
        if _dropped(node):
            yield "drop", line, start, end, ";"


def _in_type(node: ts.Node) -> bool:
    """Whether a literal is part of a TypeScript type (`literal_type`, a type annotation)."""
    parent = node.parent
    while parent is not None:
        if "type" in parent.type and parent.type != "expression_statement":
            return True
        parent = parent.parent
    return False


def mutants_of(source: str, path: str) -> list[Mutant]:
    """Every mutant of one module that still parses, in source order (none for a module that
    does not parse to begin with); `.ts` files with TypeScript's grammar."""
    data = source.encode()
    parser = _TS_PARSER if path.endswith((".ts", ".mts", ".cts")) else _PARSER
    tree = parser.parse(data)
    if tree.root_node.has_error:
        return []
    owner = _owners(tree.root_node)
    lines = source.splitlines()
    found: dict[tuple[int, str], Mutant] = {}
    for operator, line, start, end, text in _candidates(tree.root_node, owner):
        old = lines[line - 1]
        raw = old.encode()
        new = (raw[:start] + text.encode() + raw[end:]).decode()
        if new == old or (line, new) in found:
            continue
        mutant = Mutant(path, owner[line], operator, line, old, new)
        if parser.parse(apply(source, mutant).encode()).root_node.has_error:
            continue
        found[line, new] = mutant
    return sorted(found.values(), key=lambda m: (m.line, m.operator, m.new))


def node_check(source: str, *, module: bool = False, node: str = "node") -> bool:
    """Whether node's own syntax check accepts the module (`node --check`, read from stdin:
    nothing is written), as CommonJS or as an ES module."""
    kind = "module" if module else "commonjs"
    done = subprocess.run(
        [node, "--check", f"--input-type={kind}", "-"],
        input=source, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.returncode == 0


_TS_SYNTAX = (
    "const ts = require(process.argv[1]); let s = ''; process.stdin.on('data', d => s += d);"
    "process.stdin.on('end', () => { const r = ts.transpileModule(s, {reportDiagnostics: true,"
    " compilerOptions: {target: ts.ScriptTarget.ESNext}}); process.exit(r.diagnostics.length ?"
    " 1 : 0); });"
)


def ts_check(source: str, typescript: Path) -> bool:
    """Whether the TypeScript compiler (the package at `typescript`) parses the module with
    no syntax error (types are not checked: the runner strips them)."""
    done = subprocess.run(
        ["node", "-e", _TS_SYNTAX, str(typescript)],
        input=source, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.returncode == 0
