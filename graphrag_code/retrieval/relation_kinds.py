"""The relation family, defined once: each walk along the graph's edges that a user asks by
name (callers, callees, importers, dependencies, impact) is one `RelationKind`.

`Relations.related` walks by it, `Relations` and `CodeGraph` have one method per kind made
from it (`RelationMethod`), and the MCP tools and the CLI subcommands are built from the same
table: a new relation, or a changed description or default depth, is one edit here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..model import EdgeKind

if TYPE_CHECKING:  # the CLI builds its parser from this table without loading the driver
    from ..graph import Direction

__all__ = ["POSSIBLE_HELP", "RELATIONS", "RelationKind", "RelationName"]

RelationName = Literal["callers", "callees", "importers", "dependencies", "impact"]


@dataclass(frozen=True)
class RelationKind:
    """One relation: which edges it walks, which way, and how it is described."""

    name: RelationName
    edges: tuple[EdgeKind, ...]
    direction: Direction  # "in": what reaches the subject; "out": what the subject reaches
    depth: int  # hops followed unless asked otherwise
    subject: Literal["symbol", "module", "target"]  # what the MCP tool calls its subject
    summary: str  # one line: the CLI subcommand's help
    description: str  # the MCP tool's description and the methods' docstrings
    subject_text: str | None = None  # the MCP subject's description (None: any symbol)
    # start from the subject and everything it defines; the overrides of those methods are
    # possible starts (their callers run code that honours the changed contract)
    whole: bool = False
    # also walk from the methods the subject overrides: their callers may run the subject
    # (`self.connect()` in a base class runs a subclass's override on its instances)
    overridden: bool = False
    # the unresolved call sites that bear on the answer: code calling the subject's name
    # ("candidates", possible callers no edge records) or the subject's own ("sites")
    unresolved: Literal["candidates", "sites"] | None = None


POSSIBLE_HELP = (
    "also walk possible edges (name matches, dispatch to overrides, signature and partial "
    "matches: right less than half the time on some code), listed apart as possible; by "
    "default only certain edges (exact, inferred) are walked, and possible ones only when "
    "nothing certain is found"
)
"""The `possible` option of every relation: the CLI's `--possible`, the MCP tools' argument."""

_MODULE = "a module's qualified name or file path"

RELATIONS: dict[RelationName, RelationKind] = {
    kind.name: kind
    for kind in (
        RelationKind(
            "callers", (EdgeKind.CALLS,), "in", 1, "symbol", "who calls SYMBOL",
            "Who calls a function or method, directly or up to `depth` hops, each caller with "
            "its file:line, the line of the call and how the call was resolved (exact, "
            "inferred; with `possible`, or when no caller is certain, also name matches and "
            "calls of a method the symbol overrides, listed apart as possible). Code with an "
            "unresolved call of the same name is listed apart. Use before changing a "
            "function's signature or behaviour.",
            overridden=True, unresolved="candidates",
        ),
        RelationKind(
            "callees", (EdgeKind.CALLS,), "out", 1, "symbol", "what SYMBOL calls",
            "What a function or method calls, directly or up to `depth` hops: functions of the "
            "indexed code with their file:line, and external ones (libraries, builtins) by "
            "name, plus how many of its call sites could not be resolved.",
            unresolved="sites",
        ),
        RelationKind(
            "importers", (EdgeKind.IMPORTS,), "in", 1, "module", "which modules import MODULE",
            "Which modules import a module (directly, or transitively up to `depth`), each "
            "with its file and the line of the import.",
            subject_text=_MODULE,
        ),
        RelationKind(
            "dependencies", (EdgeKind.IMPORTS,), "out", 1, "module", "what MODULE imports",
            "What a module imports (directly, or transitively up to `depth`): modules of the "
            "indexed code with their files, and external packages by name.",
            subject_text=_MODULE,
        ),
        RelationKind(
            "impact",
            (EdgeKind.IMPORTS, EdgeKind.CALLS, EdgeKind.INHERITS, EdgeKind.USES_TYPE),
            "in", 3, "target", "what may break if PATH_OR_SYMBOL changes",
            "What may break if a file or symbol changes: everything that imports, calls, "
            "subclasses or uses it (or anything it defines), transitively up to `depth` hops, "
            "nearest first, with file:line, through certain links (through name matches and "
            "overrides too with `possible`, or when nothing certain is found). Use to size a "
            "change and to pick what to re-test.",
            subject_text="a file path, module, class, function or method", whole=True,
        ),
    )
}  # fmt: skip
"""The relation family, in the order the front ends list it."""
