"""Where a Python statement sits inside its scope (`model.Block`): the block entries its
enclosing branches and loops add, and what the arms of a file's branches do (end in
`return` / `raise`, bind a name on every path)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import tree_sitter as ts

from ...parsing.treesitter import node_text
from .encoder import COMPREHENSIONS

__all__ = ["Arms", "arm_body", "block_entry"]

# block-opening statements: the field (or node type) of each arm, and whether arms exclude
# each other (`if`/`match`: one arm runs)
_FLAG_EXCLUSIVE = 1
_FLAG_PRIVATE = 2  # comprehensions and lambdas: their names are not seen outside
# an arm of an `if` / `match` that always ends in `return` or `raise`: what it binds is not
# seen after it (`if x is None: x = Default(); return x.run()`)
_FLAG_TERMINATES = 4
_ARM_SHIFT = 3
_MAX_ARM = 31
# statements an arm cannot be left through once they run, and those whose own body a
# `break` / `continue` inside it belongs to (or that run later: definitions)
_EXITS = frozenset({"return_statement", "raise_statement"})
_OWN_JUMPS = frozenset(
    {"for_statement", "while_statement", "function_definition", "class_definition", "lambda"}
)


def block_entry(parent: ts.Node, child: ts.Node, arms: Arms) -> int | None:
    """The `Block` entry `parent` adds for code inside its `child`, if it is a branch."""
    kind = parent.type
    base = parent.start_byte << 8
    if kind == "if_statement":
        if child == parent.child_by_field_name("condition"):
            return None
        arm = 0
        for position, alternative in enumerate(parent.children_by_field_name("alternative")):
            if alternative == child:
                arm = position + 1
        return base | _arm(arm) | _FLAG_EXCLUSIVE | arms.flag(arm_body(child))
    if kind == "block":  # a match statement's arms (the child's type first: `parent` is dear)
        if child.type != "case_clause":
            return None
        statement = parent.parent
        if statement is None or statement.type != "match_statement":
            return None
        arm = next(i for i, c in enumerate(parent.children) if c == child)
        body = child.child_by_field_name("consequence")
        return base | _arm(arm) | _FLAG_EXCLUSIVE | arms.flag(body)
    if kind in ("for_statement", "while_statement"):
        if child == parent.child_by_field_name("body"):
            return base
        if child == parent.child_by_field_name("alternative"):
            return base | _arm(1)
        return None
    if kind == "try_statement":
        # never terminating: an exception leaves a `try` body ending in `return` midway
        if child.type in ("block", "except_clause", "except_group_clause", "else_clause"):
            arm = next(i for i, c in enumerate(parent.children) if c == child)
            return base | _arm(arm)
        return None
    if kind in COMPREHENSIONS or kind == "lambda":
        if child.type == "for_in_clause" and kind in COMPREHENSIONS:
            # the first iterable is evaluated outside; treat the clause as inside (its target
            # must be private), which only matters for names the element also binds
            return base | _FLAG_PRIVATE
        return base | _FLAG_PRIVATE
    return None


def _arm(position: int) -> int:
    """An arm's bits of a block entry. Arms past `_MAX_ARM` (an `elif` chain that long is
    rare) share one and are not told apart: an assignment in one of them may then seem to
    reach, or to dominate, a use in another."""
    return min(position, _MAX_ARM) << _ARM_SHIFT


def arm_body(arm: ts.Node) -> ts.Node | None:
    """The statements of an `if` arm: the consequence itself, an `elif`'s or an `else`'s."""
    if arm.type == "elif_clause":
        return arm.child_by_field_name("consequence")
    if arm.type == "else_clause":
        return arm.child_by_field_name("body")
    return arm


_T = TypeVar("_T")


class Arms:
    """What the arms of one file's branches do, each worked out once (a walk up or down a
    deep nest of `if`/`else` would otherwise repeat at every level)."""

    def __init__(self) -> None:
        self._ends: dict[int, bool] = {}
        self._bound: dict[int, frozenset[str]] = {}

    def flag(self, body: ts.Node | None) -> int:
        return _FLAG_TERMINATES if body is not None and self.terminates(body) else 0

    def terminates(self, body: ts.Node) -> bool:
        """Whether a block always ends in `return` or `raise` (its last statement, or an
        `if` with an `else` whose arms all do) and holds no `break` / `continue` that could
        leave it for the code after its loop."""

        def ends(node: ts.Node, groups: list[list[ts.Node]]) -> bool:
            (arms,) = groups  # none: the last statement is no `if`, or one that may fall through
            last = all(self._ends[arm.id] for arm in arms) if arms else _last_exits(node)
            return last and not _jumps_out(node)

        return _post_order(body, self._ends, lambda node: [_tail_arms(node)], ends)

    def bound(self, body: ts.Node) -> set[str]:
        """The names a block binds on every way through it that goes on past it: assigned
        by its own statements, or in every arm that goes on of an `if`/`else` among them."""

        def live_arms(node: ts.Node) -> list[list[ts.Node]]:
            return [
                [arm for arm in arms if not self.terminates(arm)] for arms in _if_else_arms(node)
            ]

        def names(node: ts.Node, groups: list[list[ts.Node]]) -> frozenset[str]:
            found = _bound_on_every_path(node)
            for live in groups:
                if live:
                    found |= set.intersection(*(set(self._bound[arm.id]) for arm in live))
            return frozenset(found)

        bound: frozenset[str] = _post_order(body, self._bound, live_arms, names)
        return set(bound)


def _post_order(
    root: ts.Node,
    memo: dict[int, _T],
    groups_of: Callable[[ts.Node], list[list[ts.Node]]],
    compute: Callable[[ts.Node, list[list[ts.Node]]], _T],
) -> _T:
    """`memo[root.id]`, each node's value computed from its groups of inner nodes once theirs
    are known, without recursion: a nest of `if`/`else` is as deep as the file makes it."""
    stack = [root]
    while stack:
        node = stack[-1]
        if node.id in memo:
            stack.pop()
            continue
        groups = groups_of(node)
        pending = [inner for group in groups for inner in group if inner.id not in memo]
        if pending:
            stack.extend(pending)
            continue
        memo[node.id] = compute(node, groups)
        stack.pop()
    return memo[root.id]


def _tail_arms(body: ts.Node) -> list[ts.Node]:
    """The arm bodies of a block's last statement when it is an `if` with an `else` (none
    when it is no `if`, or one that can fall through)."""
    statements = [c for c in body.named_children if c.type != "comment"]
    if not statements or statements[-1].type != "if_statement":
        return []
    last = statements[-1]
    first = last.child_by_field_name("consequence")
    arms = [arm for arm in (first, *last.children_by_field_name("alternative")) if arm]
    if not any(arm.type == "else_clause" for arm in arms):
        return []
    bodies = [arm_body(arm) for arm in arms]
    return [b for b in bodies if b is not None] if None not in bodies else []


def _last_exits(body: ts.Node) -> bool:
    statements = [c for c in body.named_children if c.type != "comment"]
    return bool(statements) and statements[-1].type in _EXITS


def _if_else_arms(body: ts.Node) -> list[list[ts.Node]]:
    """The arm bodies of each `if`/`else` among a block's own statements."""
    found: list[list[ts.Node]] = []
    for statement in body.named_children:
        if statement.type != "if_statement":
            continue
        alternatives = statement.children_by_field_name("alternative")
        if not alternatives or alternatives[-1].type != "else_clause":
            continue
        first = statement.child_by_field_name("consequence")
        bodies = [first, *(arm_body(arm) for arm in alternatives)]
        if None not in bodies:
            found.append([b for b in bodies if b is not None])
    return found


def _bound_on_every_path(body: ts.Node) -> set[str]:
    """The names a block's own statements assign (`x = …`, not inside a nested branch):
    bound on every way through it that goes on past it."""
    names: set[str] = set()
    for statement in body.named_children:
        if statement.type != "expression_statement" or not statement.named_children:
            continue
        assignment = statement.named_children[0]
        left = assignment.child_by_field_name("left") if assignment.type == "assignment" else None
        if left is not None and left.type == "identifier":
            names.add(node_text(left))
    return names


def _jumps_out(node: ts.Node) -> bool:
    """A `break` or `continue` under `node` that belongs to a loop around it."""
    stack = list(node.named_children)
    while stack:
        current = stack.pop()
        if current.type in ("break_statement", "continue_statement"):
            return True
        if current.type not in _OWN_JUMPS:
            stack.extend(current.named_children)
    return False
