"""The Go plug-in: its `Language` record for the registry."""

from __future__ import annotations

from ..base import Language, block_comment
from .conventions import GoConventions, go_test_command, is_test_path
from .layout import GO_LAYOUT
from .linker import GoLinker
from .modules import go_module_names, guess_go_module
from .parser import GO_SUFFIXES, GoParser
from .rules import GO_RULES

__all__ = ["GO"]


def _line_comment(text: str) -> str:
    """`// text`: documentation as Go writes it above a declaration."""
    return "\n".join(f"// {line}".rstrip() for line in text.splitlines()) or block_comment(text)


GO = Language(
    name="go",
    aliases=("golang",),
    suffixes=GO_SUFFIXES,
    interpreters=(),
    parser=GoParser,
    linker=GoLinker(),
    module_names=go_module_names,
    conventions=GoConventions(),
    doc_comment=_line_comment,
    guess_module=guess_go_module,
    test_path=is_test_path,
    dispatch_edges=True,
    index_rules=GO_RULES,
    layout=GO_LAYOUT,
    runner_id=go_test_command,
)
