"""`cfg_if! { if #[cfg(a)] { items } else if #[cfg(b)] { items } else { items } }`.

The macro (the `cfg-if` crate's, or a crate's own copy of it) expands to each arm's items under
a `cfg` that holds only where no earlier arm's did. Tree-sitter reads its arguments as bare
tokens, so the items there would be lost: no `mod x;`, no `use`, no function. `expanded`
blanks the macro's own tokens (the `if #[cfg(…)] {`, `} else {`, the braces) to spaces, so that
the arms' items parse where they stand (the same lines and bytes), and gives each arm a
`CfgSpan` with the `cfg` of its place in the chain, to be weighed against the default build
like any `#[cfg(…)]` (`cfg.py`).
"""

from __future__ import annotations

import re

import tree_sitter as ts

from ...parsing.treesitter import node_text
from .cfg import CfgSpan

__all__ = ["expanded", "parse_expanded"]

_NAMES = frozenset({"cfg_if", "cfg_if::cfg_if", "$crate::cfg_if"})
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_MOST_NESTED = 4  # a `cfg_if!` inside an arm is expanded in the next round


def parse_expanded(parser: ts.Parser, source: bytes) -> tuple[ts.Tree, bytes, tuple[CfgSpan, ...]]:
    """The tree of the source with its `cfg_if!`s expanded (nested ones too), that source,
    and the arms' spans."""
    tree = parser.parse(source)
    spans: list[CfgSpan] = []
    for _ in range(_MOST_NESTED):
        found = expanded(tree.root_node, source)
        if found is None:
            break
        source, arms = found
        spans.extend(arms)
        tree = parser.parse(source)
    return tree, source, tuple(spans)


def expanded(root: ts.Node, source: bytes) -> tuple[bytes, tuple[CfgSpan, ...]] | None:
    """The source with every `cfg_if!` blanked down to its arms' items, and a span per arm (and
    per `mod x;` item in it); None where the file has no `cfg_if!`."""
    if b"cfg_if" not in source:
        return None
    arms: list[tuple[int, int, str]] = []  # first byte, end byte, predicate
    blanks: list[tuple[int, int]] = []
    for invocation in _invocations(root):
        found = _arms(invocation)
        if found is None:
            continue
        kept = [(start, end) for start, end, _ in found]
        blanks.extend(_between(invocation.start_byte, invocation.end_byte, kept))
        arms.extend(found)
    if not arms:
        return None
    text = bytearray(source)
    for start, end in blanks:
        text[start:end] = bytes(b if b == 0x0A else 0x20 for b in text[start:end])
    return bytes(text), tuple(_spans(source, arms))


def _invocations(root: ts.Node) -> list[ts.Node]:
    found: list[ts.Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "macro_invocation":
            name = node.child_by_field_name("macro")
            if name is not None and node_text(name).replace(" ", "") in _NAMES:
                found.append(node)
            continue  # one inside an arm waits for the next round
        stack.extend(node.named_children)
    return found


def _arms(invocation: ts.Node) -> list[tuple[int, int, str]] | None:
    """(first byte inside the braces, the closing brace's byte, the arm's own `cfg`) per arm,
    the arm's `cfg` holding where its own predicate does and no earlier one's; None for
    arguments of another shape."""
    body = next((c for c in invocation.children if c.type == "token_tree"), None)
    if body is None:
        return None
    tokens = body.children[1:-1]
    earlier: list[str] = []
    arms: list[tuple[int, int, str]] = []
    pending: str | None = None
    for token in tokens:
        if token.type in ("line_comment", "block_comment"):
            continue
        text = node_text(token)
        if token.type == "token_tree" and text.startswith("["):
            pending = _predicate(text)
            if pending is None:
                return None
        elif token.type == "token_tree" and text.startswith("{"):
            own = pending if pending is not None else ""
            if own:
                chain = [own, *(f"not({p})" for p in earlier)]
                arms.append((token.start_byte + 1, token.end_byte - 1, _all(chain)))
                earlier.append(own)
            else:  # the `else` arm
                arms.append((token.start_byte + 1, token.end_byte - 1,
                             f"not(any({', '.join(earlier)}))" if earlier else ""))  # fmt: skip
            pending = None
        elif text not in ("if", "else", "#"):
            return None
    return arms or None


def _predicate(attribute: str) -> str | None:
    inner = " ".join(_COMMENT.sub(" ", attribute[1:-1]).split())
    head, _, rest = inner.partition("(")
    if head.strip() != "cfg" or not rest.endswith(")"):
        return None
    return rest[:-1].strip().rstrip(",").strip()


def _all(predicates: list[str]) -> str:
    return predicates[0] if len(predicates) == 1 else f"all({', '.join(predicates)})"


def _between(start: int, end: int, kept: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The byte ranges of [start, end) outside the kept ranges."""
    out: list[tuple[int, int]] = []
    at = start
    for first, last in sorted(kept):
        if first > at:
            out.append((at, first))
        at = max(at, last)
    if end > at:
        out.append((at, end))
    return out


def _spans(source: bytes, arms: list[tuple[int, int, str]]) -> list[CfgSpan]:
    """An arm's lines under its `cfg`, and each `mod x;` of the arm as its own span naming x
    (the module exists only under that `cfg`)."""
    spans: list[CfgSpan] = []
    for start, end, predicate in arms:
        if not predicate:
            continue
        first = source.count(b"\n", 0, start) + 1
        last = source.count(b"\n", 0, end) + 1
        spans.append((first, last, predicate, ""))
        for line_no, line in enumerate(source[start:end].split(b"\n")):
            module = _declared(line.decode("utf-8", errors="replace"))
            if module:
                row = source.count(b"\n", 0, start) + 1 + line_no
                spans.append((row, row, predicate, module))
    return spans


def _declared(line: str) -> str:
    """x for a line `mod x;` (`pub mod x;`, `pub(crate) mod x;`), else ""."""
    words = line.strip().removesuffix(";").split()
    if not line.strip().endswith(";") or len(words) < 2 or words[-2] != "mod":
        return ""
    name = words[-1]
    return name if name.isidentifier() else ""
