"""Small helpers every tree-sitter based parser shares."""

from __future__ import annotations

import tree_sitter as ts

from ..model import ParseIssue

__all__ = ["node_text", "syntax_issues"]


def node_text(node: ts.Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


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
