"""The Rust plug-in: its `Language` record for the registry."""

from __future__ import annotations

from ..base import Language
from .conventions import BUILTIN_METHODS, RustConventions, is_test_path
from .linker import RustLinker
from .modules import guess_rust_module, rust_module_names
from .parser import RUST_SUFFIXES, RustParser

__all__ = ["RUST"]


def _line_comment(text: str) -> str:
    """`/// text`: documentation as Rust writes it above an item."""
    return "\n".join(f"/// {line}".rstrip() for line in text.splitlines()) or "///"


RUST = Language(
    name="rust",
    aliases=("rs",),
    suffixes=RUST_SUFFIXES,
    interpreters=(),
    parser=RustParser,
    linker=RustLinker(),
    module_names=rust_module_names,
    conventions=RustConventions(),
    doc_comment=_line_comment,
    guess_module=guess_rust_module,
    test_path=is_test_path,
    dispatch_edges=True,
    builtin_methods=BUILTIN_METHODS,
)
