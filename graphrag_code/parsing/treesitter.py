"""Small helpers every tree-sitter based parser shares."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import TypeVar

import tree_sitter as ts

from ..model import Dotted, ParseIssue

__all__ = [
    "MAX_DEPTH", "MemberChain", "collect", "depth_issues", "first_line", "last_line",
    "load_query", "member_chain", "node_text", "remembered_texts", "source_captures",
    "syntax_issues",
]  # fmt: skip

_T = TypeVar("_T")


# Syntax below this depth is not read: a query over a deeper tree (a 400 KB `1+1+…`, 200,000
# levels) took tree-sitter 145 s, and whatever walks up from a node that deep pays for its
# depth (issue 57). Ordinary code stays under 60 levels; CPython refuses 100 levels of
# indentation or 200 of parentheses.
MAX_DEPTH = 2000

# texts up to this long (names, dotted names, short expressions) are interned
_SHARED_TEXT = 64


class _Texts(threading.local):
    by_id: dict[int, str] | None = None  # node id -> text, while one tree is read


_texts = _Texts()


@contextmanager
def remembered_texts() -> Iterator[None]:
    """Inside, `node_text` decodes each node once (a parse asks for the same names ~2.5
    times over). Only for the nodes of one tree, alive throughout: a node id is an address
    in its tree. Per thread."""
    previous, _texts.by_id = _texts.by_id, {}
    try:
        yield
    finally:
        _texts.by_id = previous


def node_text(node: ts.Node) -> str:
    """A node's source text; a short one is one shared object wherever it occurs (a parse
    names `self` or its module thousands of times: as one object, each file pickles it once
    and the indexer holds it once per file, not once per mention)."""
    by_id = _texts.by_id
    if by_id is None:
        return _decoded(node)
    key = node.id
    text = by_id.get(key)
    if text is None:
        text = by_id[key] = _decoded(node)
    return text


def _decoded(node: ts.Node) -> str:
    text = (node.text or b"").decode("utf-8", errors="replace")
    return sys.intern(text) if len(text) <= _SHARED_TEXT else text


def syntax_issues(root: ts.Node, limit: int = 50) -> list[ParseIssue]:
    """Syntax errors and missing tokens, found by descending only into erroneous subtrees."""
    issues: list[ParseIssue] = []
    stack = [root] if root.has_error else []
    while stack and len(issues) < limit:
        node = stack.pop()
        if node.is_missing:
            issues.append(ParseIssue(node.start_point[0] + 1, f"missing {node.type!r}"))
        elif node.is_error:
            snippet = node_text(node)[:40]
            issues.append(ParseIssue(node.start_point[0] + 1, f"syntax error near {snippet!r}"))
        else:
            stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))
    issues.sort(key=lambda issue: issue.line)
    return issues


def load_query(language: ts.Language, package: str, *files: str) -> ts.Query:
    """The query written in the `.scm` files of `package`'s `queries/` folder, in that order
    (a grammar family's shared captures, then its dialect's)."""
    folder = resources.files(package).joinpath("queries")
    query: ts.Query = ts.Query(language, "".join(folder.joinpath(f).read_text() for f in files))
    return query


def source_captures(query: ts.Query, root: ts.Node) -> dict[str, list[ts.Node]]:
    """The query's captures under `root` down to `MAX_DEPTH` levels, each list in source
    order, an outer node before the inner ones that start with it (the binding returns them
    in no stable order)."""
    cursor = ts.QueryCursor(query)
    cursor.set_max_start_depth(MAX_DEPTH)
    return {
        name: sorted(nodes, key=lambda node: (node.start_byte, -node.end_byte))
        for name, nodes in cursor.captures(root).items()
    }


def depth_issues(root: ts.Node) -> list[ParseIssue]:
    """The issue of a tree deeper than `MAX_DEPTH` (at its first node that deep), or none.
    A walk with a cursor, no recursion: about 0.2 µs a node."""
    cursor = root.walk()
    depth = 0
    while True:
        if cursor.goto_first_child():
            depth += 1
            if depth > MAX_DEPTH:
                line = cursor.node.start_point[0] + 1 if cursor.node is not None else 1
                return [ParseIssue(line, f"nested deeper than {MAX_DEPTH} levels: read in part")]
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return []
            depth -= 1


def first_line(node: ts.Node) -> int:
    """The line a node starts on, counted from 1."""
    return node.start_point[0] + 1


def last_line(node: ts.Node) -> int:
    """The line a node ends on, counted from 1."""
    return node.end_point[0] + 1


def collect(root: ts.Node, take: Callable[[ts.Node], Iterable[_T] | None]) -> list[_T]:
    """What `take` finds in `root`'s subtree, depth first, last child first: where it answers
    (with what it keeps, maybe nothing) the walk goes no deeper; where it answers None, the
    walk goes on into the node's named children."""
    found: list[_T] = []
    stack = [root]
    while stack:
        node = stack.pop()
        taken = take(node)
        if taken is None:
            stack.extend(node.named_children)
        else:
            found.extend(taken)
    return found


@dataclass(frozen=True)
class MemberChain:
    """`base.a.b` read from the outside in: the member names after the base, in source order,
    and the base: a dotted name where the language reads one there (`head`), else the node
    where the chain starts (a call, a subscript)."""

    names: tuple[str, ...]
    head: Dotted | None
    base: ts.Node


def member_chain(
    node: ts.Node,
    member: str,
    name_field: str,
    head: Callable[[ts.Node], Dotted | None],
    inner: Callable[[ts.Node], ts.Node] | None = None,
) -> MemberChain | None:
    """The chain of `member` nodes (`attribute`, `member_expression`) that ends at `node`, each
    naming its member in field `name_field` and its object in `object` (seen through `inner`:
    parentheses, casts); None when a member lacks either (a broken tree)."""
    names: list[str] = []
    while node.type == member:
        name = node.child_by_field_name(name_field)
        obj = node.child_by_field_name("object")
        if name is None or obj is None:
            return None
        names.append(node_text(name))
        node = obj if inner is None else inner(obj)
        dotted = head(node)
        if dotted is not None:
            return MemberChain(tuple(reversed(names)), dotted, node)
    return MemberChain(tuple(reversed(names)), None, node)
