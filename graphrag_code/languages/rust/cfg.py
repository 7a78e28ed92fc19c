"""`#[cfg(…)]`: which code the crate's default build leaves out.

The compiler (and rust-analyzer, our oracle) compiles only the code whose `cfg` holds: an item
under `#[cfg(feature = "rayon")]` does not exist unless a user turns the feature on. The parser
records each item under a `cfg` attribute as (first line, last line, predicate, the module a
`mod x;` item declares) (`cfg_spans`); the linker weighs the predicates against the default
build of the crate's `Cargo.toml` (`DefaultBuild`: the features `default` turns on, the
dependencies that are there) and makes the calls of code switched off *possible* (they run in
another build), not certain.

Only what a default build decides is evaluated: `feature = "…"`, `doctest`, `doc`, `docsrs`
and `miri` (off in a plain build), names no tool sets (`loom`) in a crate without a build
script, and the target's `cfg` values (`unix`, `target_arch = "x86_64"`: a default build is for
the host, `cfg_names.HOST_TARGET`). `test`, `debug_assertions` and the like are unknown, and
unknown code is kept, as `not`, `all` and `any` of unknowns are.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import tree_sitter as ts

from ...parsing.treesitter import first_line, last_line, node_text
from .cfg_names import has_build_script, host_name, host_value, is_custom
from .modules import ROOT_CRATE

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "CfgSpan", "DefaultBuild", "cfg_spans", "crate_builds", "default_build", "evaluate",
    "switched_off",
]  # fmt: skip

# first line, last line, the predicate inside `cfg(…)`, the module a `mod x;` item declares
CfgSpan = tuple[int, int, str, str]
_DEPENDENCIES = ("dependencies", "dev-dependencies", "build-dependencies")
_OFF = frozenset({"doctest", "doc", "docsrs", "miri"})
_TOKEN = re.compile(r'\s*(?:([A-Za-z_][A-Za-z0-9_]*)|"((?:[^"\\]|\\.)*)"|([(),=]))')
_Token = tuple[str | None, str | None, str | None]  # a name, a string, or a punctuation mark
_SKIPPED = frozenset({"attribute_item", "line_comment", "block_comment"})


def cfg_spans(root: ts.Node, source: bytes) -> tuple[CfgSpan, ...]:
    """The lines of each item under `#[cfg(…)]` (the attribute's line to the item's last),
    and of a module under `#![cfg(…)]`."""
    if b"cfg" not in source:
        return ()
    spans: list[CfgSpan] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in ("attribute_item", "inner_attribute_item"):
            predicate = _predicate(node)
            target = node.parent if kind == "inner_attribute_item" else _attributed(node)
            if target is not None and target.type == "declaration_list":
                target = target.parent  # `mod m { #![cfg(…)] … }`
            if predicate is not None and target is not None:
                start = first_line(node) if kind == "attribute_item" else first_line(target)
                spans.append((start, last_line(target), predicate, _declared_module(target)))
            continue
        if source.find(b"cfg", node.start_byte, node.end_byte) >= 0:
            stack.extend(node.named_children)
    return tuple(sorted(spans))


def _predicate(attribute: ts.Node) -> str | None:
    inner = attribute.named_children[0] if attribute.named_children else None
    text = " ".join(node_text(inner).split()) if inner is not None else ""
    if not text.startswith("cfg") or not text.endswith(")"):
        return None
    head, _, rest = text.partition("(")
    return rest[:-1].strip() if head.strip() == "cfg" else None


def _declared_module(item: ts.Node) -> str:
    """x for a `mod x;` item (its file is the module), else ""."""
    name = item.child_by_field_name("name")
    if item.type != "mod_item" or name is None or item.child_by_field_name("body") is not None:
        return ""
    return node_text(name)


def _attributed(attribute: ts.Node) -> ts.Node | None:
    """The item (statement, field, arm) an outer attribute stands above; a match arm holds
    its attributes (`#[cfg(feature = "x")] Kind::X => …`)."""
    if attribute.parent is not None and attribute.parent.type == "match_arm":
        return attribute.parent
    node = attribute.next_sibling
    while node is not None and node.type in _SKIPPED:
        node = node.next_sibling
    return node


@dataclass(frozen=True)
class DefaultBuild:
    """What a crate's default build has: its features and the crates its code may name."""

    features: frozenset[str]
    crates: frozenset[str]  # dependencies (`-` as `_`), optional ones only when turned on
    custom_off: bool = False  # names no tool sets are off (no build script sets them)

    def lacks(self, crate: str) -> bool:
        """Whether `crate` is no dependency of the default build (nor std, core, alloc)."""
        return crate not in self.crates and crate not in ("std", "core", "alloc")


def default_build(
    cargo_toml: str, folder: str = "", paths: frozenset[str] | None = None
) -> DefaultBuild | None:
    """The features `default` turns on (and what they turn on in turn; another crate's `x/f`
    is not this crate's feature), and the dependencies that are there: every one not
    `optional`, an optional one when a feature of its name or `dep:` it is on (dev- and
    build-dependencies and `[target.….dependencies]` too, but for a target whose `cfg` is off).
    With the repository's `paths` known, names no tool sets are off in a crate (in `folder`)
    without a build script. None for a manifest that does not read."""
    try:
        manifest = tomllib.loads(cargo_toml)
    except tomllib.TOMLDecodeError:
        return None
    custom_off = paths is not None and not has_build_script(manifest, folder, paths)
    table = manifest.get("features", {})
    table = table if isinstance(table, dict) else {}
    on: set[str] = set()
    deps: set[str] = set()
    pending = ["default"]
    while pending:
        feature = pending.pop()
        if feature.startswith("dep:"):
            deps.add(feature[4:])
        if feature in on or "/" in feature or feature.startswith("dep:"):
            continue
        on.add(feature)
        implied = table.get(feature, [])
        pending.extend(str(item) for item in implied if isinstance(implied, list))
    crates: set[str] = set()
    for dependencies in _dependency_tables(manifest, frozenset(on), custom_off):
        for name, spec in dependencies.items():
            optional = isinstance(spec, dict) and spec.get("optional") is True
            if not optional or name in on or name in deps:
                crates.add(str(name).replace("-", "_"))
    return DefaultBuild(frozenset(on), frozenset(crates), custom_off)


def _dependency_tables(
    manifest: Mapping[str, Any], features: frozenset[str], custom_off: bool
) -> list[Mapping[str, Any]]:
    targets = manifest.get("target", {})
    holders = [manifest, *(
        table for key, table in targets.items()
        if isinstance(table, dict) and _target_on(str(key), features, custom_off)
    )] if isinstance(targets, dict) else [manifest]  # fmt: skip
    return [
        table
        for holder in holders
        for key in _DEPENDENCIES
        if isinstance(table := holder.get(key, {}), dict)
    ]


def _target_on(key: str, features: frozenset[str], custom_off: bool) -> bool:
    """Whether a `[target.'cfg(…)'.dependencies]` table may be there (a triple may)."""
    if not (key.startswith("cfg(") and key.endswith(")")):
        return True
    return evaluate(key[4:-1], features, custom_off) is not False


def evaluate(
    predicate: str, features: frozenset[str] | None, custom_off: bool = False
) -> bool | None:
    """Whether a `cfg` predicate holds in a default build: True, False, or None (unknown);
    with `custom_off`, a name no tool sets (`loom`) is off."""
    tokens: list[_Token] = [(m[1], m[2], m[3]) for m in _TOKEN.finditer(predicate)]
    value, used = _expression(tokens, 0, features, custom_off)
    return value if used == len(tokens) else None


def _expression(
    tokens: list[_Token], at: int, features: frozenset[str] | None, custom_off: bool
) -> tuple[bool | None, int]:
    """The value of the predicate starting at `tokens[at]`, and where it ends."""
    if at >= len(tokens) or tokens[at][0] is None:
        return None, len(tokens) + 1
    name = tokens[at][0] or ""
    at += 1
    custom = custom_off and is_custom(name)
    if at < len(tokens) and tokens[at][2] == "=":
        value = tokens[at + 1][1] if at + 1 < len(tokens) else None
        if name == "feature" and features is not None and value is not None:
            return value in features, at + 2
        host = host_value(name, value) if value is not None else None
        return (False if custom else host), at + 2
    if at < len(tokens) and tokens[at][2] == "(":
        values: list[bool | None] = []
        at += 1
        while at < len(tokens) and tokens[at][2] != ")":
            value_, at = _expression(tokens, at, features, custom_off)
            values.append(value_)
            if at < len(tokens) and tokens[at][2] == ",":
                at += 1
        return _combine(name, values), at + 1
    return (False if name in _OFF or custom else host_name(name)), at


def _combine(operator: str, values: list[bool | None]) -> bool | None:
    if operator == "not":
        return None if len(values) != 1 or values[0] is None else not values[0]
    if operator == "all":
        return False if False in values else (None if None in values else True)
    if operator == "any":
        return True if True in values else (None if None in values else False)
    return None


def switched_off(spans: Iterable[CfgSpan], build: DefaultBuild | None) -> tuple[CfgSpan, ...]:
    """The spans whose predicate a default build does not meet."""
    features = build.features if build is not None else None
    custom_off = build is not None and build.custom_off
    return tuple(span for span in spans if evaluate(span[2], features, custom_off) is False)


def crate_builds(
    project: Mapping[str, str], paths: frozenset[str] | None = None
) -> dict[str, DefaultBuild]:
    """Per crate (`modules.crate_of`'s key: its folder, `ROOT_CRATE` at the root) the default
    build its `Cargo.toml` describes; `paths`, the repository's files, tell which crates have
    a build script (`default_build`)."""
    found: dict[str, DefaultBuild] = {}
    for path, text in project.items():
        if path.rsplit("/", 1)[-1] != "Cargo.toml":
            continue
        folder = path.rpartition("/")[0]
        build = default_build(text, folder, paths)
        if build is not None:
            found[folder or ROOT_CRATE] = build
    return found
