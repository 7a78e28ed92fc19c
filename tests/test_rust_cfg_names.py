"""`cfg` names no tool sets (`loom`) are off in a crate without a build script, and a default
build is for the host's target (offline; bytes and hashbrown, stop 65)."""

from __future__ import annotations

import pytest

from graphrag_code.languages.rust.cfg import DefaultBuild, default_build, evaluate
from graphrag_code.languages.rust.cfg_names import has_build_script, is_custom
from graphrag_code.model import EdgeKind
from tests.linking_helpers import link_snippet

CARGO = (
    '[package]\nname = "demo"\nversion = "0.1.0"\n\n[dependencies]\nmemchr = "2"\n'
    "\n[target.'cfg(loom)'.dev-dependencies]\nloom = \"0.7\"\n"
    "\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n"
)
LIB = (
    "#[cfg(all(test, loom))]\nuse loom::thread;\n"
    "#[cfg(not(all(test, loom)))]\nuse std::thread;\n"
    "pub fn g() {}\n"
    "pub fn h() {\n    #[cfg(loom)]\n    g();\n}\n"
)


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        ("loom", False),
        ("not(loom)", True),
        ("all(test, loom)", False),
        ("not(all(test, loom))", True),
        ('fuzzing = "afl"', False),
        ("test", None),
        ("debug_assertions", None),
        ('target_abi = "eabi"', None),
        ("any(loom, test)", None),
    ],
)
def test_a_name_no_tool_sets_is_off_without_a_build_script(
    predicate: str, expected: bool | None
) -> None:
    assert evaluate(predicate, frozenset(), custom_off=True) is expected
    # with a build script (it may set any name), such a name is unknown
    assert evaluate(predicate, frozenset()) is None


def test_rustc_s_own_names_are_no_custom_ones() -> None:
    assert all(map(is_custom, ("loom", "docsrs", "has_i128")))
    assert not any(map(is_custom, ("test", "unix", "miri", "target_arch", "sanitize", "panic")))


def test_a_build_script_is_declared_or_a_build_rs_beside_the_manifest() -> None:
    paths = frozenset({"build.rs", "sub/src/lib.rs"})
    assert has_build_script({"package": {"name": "x"}}, "", paths)
    assert not has_build_script({"package": {"build": False}}, "", paths)
    assert has_build_script({"package": {"build": "gen/main.rs"}}, "sub", paths)
    assert not has_build_script({"package": {"name": "x"}}, "sub", paths)


def test_a_target_table_whose_cfg_is_off_adds_no_dependency() -> None:
    assert default_build(CARGO, "", frozenset({"src/lib.rs"})) == DefaultBuild(
        frozenset({"default"}), frozenset({"memchr", "libc"}), custom_off=True
    )
    with_script = default_build(CARGO, "", frozenset({"build.rs"}))
    assert with_script is not None
    assert "loom" in with_script.crates
    assert not with_script.custom_off


def _imports_and_calls(files: dict[str, str]) -> tuple[set[tuple[str, int]], dict[str, str]]:
    linked = link_snippet(files)
    imports = {
        (link.target, line)
        for link in linked.links
        if link.edge.kind == EdgeKind.IMPORTS
        for line in link.edge.lines
    }
    calls = {target: tier for (_source, target), (tier, _via) in linked.calls().items()}
    return imports, calls


def test_code_under_a_name_no_tool_sets_is_switched_off() -> None:
    imports, calls = _imports_and_calls({"Cargo.toml": CARGO, "src/lib.rs": LIB})
    assert imports == {("std", 4)}  # loom's `thread` is for `RUSTFLAGS="--cfg loom"` builds
    assert calls == {"crate::g": "name"}


def test_a_crate_with_a_build_script_keeps_such_code() -> None:
    imports, calls = _imports_and_calls(
        {"Cargo.toml": CARGO, "build.rs": "fn main() {}\n", "src/lib.rs": LIB}
    )
    assert imports == {("loom", 2), ("std", 4)}
    assert calls == {"crate::g": "exact"}


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        ("unix", True),
        ("windows", False),
        ('target_os = "linux"', True),
        ('all(target_arch = "aarch64", target_feature = "neon")', False),
        ('all(target_feature = "sse2", any(target_arch = "x86", target_arch = "x86_64"))', True),
        ('target_feature = "avx2"', False),  # no baseline feature: detected at run time
        ('target_pointer_width = "32"', False),
        ("relocation_model", None),
    ],
)
def test_a_default_build_is_for_the_host_target(predicate: str, expected: bool | None) -> None:
    assert evaluate(predicate, frozenset()) is expected


def test_of_cfg_if_arms_by_target_the_hosts_is_the_module_a_use_names() -> None:
    files = {
        "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n',
        "src/lib.rs": "macro_rules! cfg_if {\n    ($($t:tt)*) => {};\n}\n"
        "cfg_if! {\n"
        '    if #[cfg(all(target_arch = "aarch64", target_feature = "neon"))] {\n'
        "        mod neon;\n        use neon as imp;\n"
        '    } else if #[cfg(all(target_feature = "sse2", target_arch = "x86_64"))] {\n'
        "        mod sse2;\n        use sse2 as imp;\n"
        "    } else {\n        mod generic;\n        use generic as imp;\n    }\n}\n"
        "use self::imp::Group;\n"
        "pub fn f() {\n    Group::load();\n}\n",
        "src/neon.rs": "pub struct Group;\nimpl Group {\n    pub fn load() {}\n}\n",
        "src/sse2.rs": "pub struct Group;\nimpl Group {\n    pub fn load() {}\n}\n",
        "src/generic.rs": "pub struct Group;\nimpl Group {\n    pub fn load() {}\n}\n",
    }
    imports, calls = _imports_and_calls(files)
    assert ("src/sse2.rs", 16) in imports
    assert not any(
        target in ("src/neon.rs", "src/generic.rs") for target, line in imports if line == 16
    )
    assert calls.get("crate::sse2::Group::load") == "exact"
    assert "crate::generic::Group::load" not in calls


def test_std_s_module_for_another_architecture_is_no_import() -> None:
    imports, _calls = _imports_and_calls(
        {
            "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n'
            "\n[features]\nnightly = []\n",
            "src/lib.rs": '#[cfg(target_arch = "x86")]\nuse core::arch::x86::__m128i;\n'
            '#[cfg(target_arch = "x86_64")]\nuse core::arch::x86_64::__m128i;\n'
            '#[cfg(feature = "nightly")]\nuse core::fmt;\n',
        }
    )
    # the host's std has no `arch::x86`; `fmt` is there in any build, so its `use` is kept
    assert imports == {("core", 4), ("core", 6)}
