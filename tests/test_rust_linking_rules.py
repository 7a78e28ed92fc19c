"""Rust linking rules found on the nom tuning crate (stop 63): `use` items in function
bodies, methods of impls on types the repository does not declare, trait-qualified calls."""

from __future__ import annotations

from graphrag_code.model import EdgeKind
from tests.linking_helpers import assert_calls, link_snippet


def test_a_use_in_a_function_body_shadows_the_module_names() -> None:
    snippet = {
        "src/lib.rs": "pub mod streaming;\npub mod complete;\nmod tests;\n",
        "src/streaming.rs": "pub fn tag() {}\n",
        "src/complete.rs": "pub fn tag() {}\npub fn take() {}\n",
        "src/tests.rs": "use crate::complete::tag;\n"
        "fn take() {\n    use crate::streaming::tag;\n    use crate::complete::*;\n"
        "    fn inner() {\n        tag();\n        take();\n    }\n    tag();\n}\n"
        "fn other() {\n    tag();\n    take();\n}\n",
    }
    assert_calls(
        snippet,
        ("crate::tests::take::inner", "crate::streaming::tag", "exact"),
        ("crate::tests::take::inner", "crate::complete::take", "exact"),
        ("crate::tests::take", "crate::streaming::tag", "exact"),
        ("crate::tests::other", "crate::complete::tag", "exact"),
        ("crate::tests::other", "crate::tests::take", "exact"),
        exactly=True,
    )
    imports = {
        (e.source, e.target, e.edge.lines)
        for e in link_snippet(snippet).links
        if e.edge.kind == EdgeKind.IMPORTS
    }
    assert ("src/tests.rs", "src/streaming.rs", (3,)) in imports
    assert ("src/tests.rs", "src/complete.rs", (1, 4)) in imports


def test_a_body_use_of_an_outside_item_hides_the_module_item_of_that_name() -> None:
    assert_calls(
        {"src/lib.rs": "fn write() {}\nfn f() {\n    use std::fmt::write;\n    write();\n}\n"},
        exactly=True,
    )
