"""Small helpers every tree-sitter based parser shares."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import tree_sitter as ts

from ..model import ParseIssue

__all__ = ["node_text", "remembered_texts", "syntax_issues"]


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
