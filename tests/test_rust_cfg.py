"""`#[cfg(…)]` weighed against a crate's default features (offline)."""

from __future__ import annotations

import pytest

from graphrag_code.languages.rust.cfg import DefaultBuild, default_build, evaluate
from graphrag_code.model import EdgeKind
from tests.linking_helpers import link_snippet

CARGO = (
    '[package]\nname = "demo"\nversion = "0.1.0"\n\n[features]\n'
    'default = ["std"]\nstd = ["alloc", "either/use_std", "dep:memchr"]\nalloc = []\n'
    'rayon = []\n\n[dependencies]\nmemchr = { version = "2", optional = true }\n'
    'rayon = { version = "1", optional = true }\nfoo-bar = "1"\n'
    '\n[dev-dependencies]\nquickcheck = "1"\n'
)


def test_a_default_build_has_what_default_turns_on_and_the_dependencies_there() -> None:
    assert default_build(CARGO) == DefaultBuild(
        frozenset({"default", "std", "alloc"}), frozenset({"memchr", "foo_bar", "quickcheck"})
    )
    assert default_build('[package]\nname = "x"\n') == DefaultBuild(
        frozenset({"default"}), frozenset()
    )
    assert default_build("[features\n") is None


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        ('feature = "std"', True),
        ('feature = "rayon"', False),
        ('not(feature = "std")', False),
        ('all(feature = "alloc", not(feature = "rayon"))', True),
        ('any(feature = "rayon", doctest)', False),
        ("doctest", False),
        ("test", None),
        ("not(test)", None),
        ('target_os = "linux"', True),  # the host's target (`cfg_names.HOST_TARGET`)
        ("debug_assertions", None),
        ('all(unix, feature = "rayon")', False),
        ('any(windows, feature = "rayon")', False),
        ('any(target_abi = "x", feature = "rayon")', None),
        ("all(", None),
    ],
)
def test_predicates_hold_fail_or_are_unknown(predicate: str, expected: bool | None) -> None:
    build = default_build(CARGO)
    assert build is not None
    assert evaluate(predicate, build.features) is expected


def test_code_a_default_build_leaves_out_makes_no_certain_edges() -> None:
    linked = link_snippet(
        {
            "Cargo.toml": CARGO,
            "src/lib.rs": '#[cfg(feature = "rayon")]\npub use rayon::iter;\n'
            '#[cfg(not(feature = "std"))]\nextern crate core as std;\n'
            "use core::fmt;\n"
            "pub fn g() {}\n"
            '#[cfg(feature = "rayon")]\nmod par {\n    pub fn f() {\n        crate::g();\n'
            "    }\n    use crate::g;\n    use quickcheck::Gen;\n}\n"
            "pub fn h() {\n    #[cfg(test)]\n    g();\n    #[cfg(doctest)]\n    g();\n}\n"
            '#[cfg(feature = "rayon")]\nmod rayon;\n'
            '#[cfg(feature = "rayon")]\npub use crate::rayon::map;\n',
            "src/rayon.rs": "pub fn map() {\n    crate::g();\n}\n",
        }
    )
    imports = {
        (link.target, link.edge.lines)
        for link in linked.links
        if link.edge.kind == EdgeKind.IMPORTS
    }
    # rayon is an optional dependency the default build leaves out, crate::rayon a module it
    # lacks; quickcheck is there (a dev-dependency), and so is crate::g
    assert imports == {("core", (5,)), ("quickcheck", (13,)), ("src/lib.rs", (12,))}
    calls = {(source, target): tier for (source, target), (tier, _via) in linked.calls().items()}
    assert calls == {
        ("crate::par::f", "crate::g"): "name",
        ("crate::h", "crate::g"): "exact",
        ("crate::rayon::map", "crate::g"): "exact",  # a test may `#[path]` it in
    }


def test_a_name_defined_under_two_cfgs_is_the_definition_a_default_build_keeps() -> None:
    linked = link_snippet(
        {
            "Cargo.toml": CARGO,
            "src/lib.rs": 'pub struct S;\nimpl S {\n    #[cfg(not(feature = "std"))]\n'
            '    fn f(&self) {}\n    #[cfg(feature = "std")]\n    fn f(&self) {}\n}\n'
            "fn g(s: S) {\n    s.f();\n    crate::h();\n}\n"
            '#[cfg(feature = "rayon")]\nfn h() {}\n#[cfg(not(feature = "rayon"))]\nfn h() {}\n',
        }
    )
    calls = {
        link.edge.target.split(":", 1)[1]: link.tier
        for link in linked.links
        if link.edge.kind == EdgeKind.CALLS
    }
    assert calls == {"crate::S::f#2": "inferred", "crate::h#2": "exact"}


def test_a_module_declared_under_two_cfgs_is_there_in_either_build() -> None:
    linked = link_snippet(
        {
            "Cargo.toml": CARGO,
            "src/lib.rs": '#[cfg(feature = "std")]\npub mod io;\n'
            '#[cfg(not(feature = "std"))]\nmod io;\n'
            '#[cfg(feature = "rayon")]\nmod par;\npub fn g() {}\n'
            '#[cfg(feature = "rayon")]\npub use crate::io::read;\n'
            '#[cfg(feature = "rayon")]\npub use crate::par::each;\n',
            "src/io.rs": "pub fn read() {}\n",
            "src/par.rs": "pub fn each() {}\n",
        }
    )
    imports = {
        (link.source, link.target) for link in linked.links if link.edge.kind == EdgeKind.IMPORTS
    }
    assert imports == {("src/lib.rs", "src/io.rs")}  # crate::par: no `mod par;` is on


def test_an_import_in_switched_off_code_of_an_item_switched_off_is_not_made() -> None:
    linked = link_snippet(
        {
            "Cargo.toml": CARGO,
            "src/lib.rs": "mod number;\n"
            '#[cfg(feature = "rayon")]\nuse crate::number::Precise;\n'
            '#[cfg(feature = "rayon")]\nuse crate::number::Number;\n',
            "src/number.rs": 'pub struct Number;\n#[cfg(feature = "rayon")]\npub struct Precise;\n',
        }
    )
    imports = {
        (link.target, link.edge.lines)
        for link in linked.links
        if link.edge.kind == EdgeKind.IMPORTS
    }
    assert imports == {("src/number.rs", (5,))}


def test_a_match_arm_under_a_cfg_is_switched_off_whole() -> None:
    linked = link_snippet(
        {
            "Cargo.toml": CARGO,
            "src/lib.rs": "fn g() {}\nfn f(x: u8) {\n    match x {\n"
            '        #[cfg(feature = "rayon")]\n        1 => {\n            g();\n        }\n'
            "        _ => {}\n    }\n}\n",
        }
    )
    assert {pair: tier for pair, (tier, _via) in linked.calls().items()} == {
        ("crate::f", "crate::g"): "name"
    }


def test_cfg_if_arms_are_items_under_the_cfg_of_their_place_in_the_chain() -> None:
    linked = link_snippet(
        {
            "Cargo.toml": CARGO,
            "src/lib.rs": "mod group;\npub fn g() {}\n",
            "src/group/mod.rs": "cfg_if! {\n"
            "    // the fast one\n"
            '    if #[cfg(feature = "rayon")] {\n        mod fast;\n        use fast as imp;\n'
            '    } else if #[cfg(feature = "alloc")] {\n        mod portable;\n'
            "        use portable as imp;\n        pub fn f() {\n            crate::g();\n"
            "        }\n    } else {\n        pub fn f() {\n            crate::g();\n"
            "        }\n    }\n}\npub use self::imp::Group;\n",
            "src/group/fast.rs": "pub struct Group;\n",
            "src/group/portable.rs": "pub struct Group;\n",
        }
    )
    imports = {
        (link.target, link.edge.lines)
        for link in linked.links
        if link.edge.kind == EdgeKind.IMPORTS and link.source == "src/group/mod.rs"
    }
    # the rayon arm is off, the alloc arm on; the `else` arm holds only where neither does
    assert imports == {("src/group/portable.rs", (8, 18))}
    tiers = sorted(link.tier for link in linked.links if link.edge.kind == EdgeKind.CALLS)
    assert tiers == ["exact", "name"]


def test_an_item_a_default_build_lacks_is_named_through_the_re_export_it_has() -> None:
    linked = link_snippet(
        {
            "Cargo.toml": CARGO,
            "src/lib.rs": "mod raw;\nmod map;\n"
            '#[cfg(feature = "std")]\npub use foo_bar::Equivalent;\n'
            '#[cfg(not(feature = "std"))]\npub trait Equivalent {}\n',
            "src/raw.rs": '#[cfg(feature = "rayon")]\nmod inner {\n    pub struct Global;\n}\n'
            '#[cfg(not(feature = "rayon"))]\nmod inner {\n    pub use foo_bar::Global;\n'
            '    #[cfg(feature = "rayon")]\n    pub use crate::Equivalent as Global;\n}\n'
            "pub use self::inner::Global;\n",
            "src/map.rs": "use crate::Equivalent;\nuse crate::raw::Global;\n",
        }
    )
    imports = {
        (link.target, link.edge.lines)
        for link in linked.links
        if link.edge.kind == EdgeKind.IMPORTS and link.source == "src/map.rs"
    }
    assert imports == {("foo_bar", (1, 2))}
