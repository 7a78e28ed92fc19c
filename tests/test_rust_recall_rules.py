"""Rust linking rules of stop 65 (recall, found on petgraph and rand): offline, small snippets."""

from __future__ import annotations

from graphrag_code.model import EdgeKind
from tests.linking_helpers import link_snippet


def test_an_item_a_module_level_macro_declares_is_imported_from_that_module() -> None:
    linked = link_snippet(
        {
            "src/lib.rs": "pub mod visit;\nuse crate::visit::{IntoNeighbors, GraphRef, Gone};\n",
            "src/visit/mod.rs": "macro_rules! trait_template { ($($t:tt)*) => { $($t)* } }\n"
            "pub trait GraphRef {}\n"
            "trait_template! {\n"
            "/// Neighbors.\n"
            "pub trait IntoNeighbors : GraphRef {\n"
            "    @section self\n"
            "    fn neighbors(self);\n"
            "}\n"
            "}\n",
        }
    )
    imports = {
        (link.target, link.edge.names)
        for link in linked.links
        if link.edge.kind == EdgeKind.IMPORTS and link.source == "src/lib.rs"
    }
    # `neighbors`, in the trait's braces, is no item of the module; `Gone` is declared nowhere
    assert imports == {("src/visit/mod.rs", ("GraphRef", "IntoNeighbors"))}
