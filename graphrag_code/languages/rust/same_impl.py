"""`self.m()` in one of two impls of one trait for one type: the `m` of the same impl.

`impl Deserializer for Value` and `impl Deserializer for &Value` both file their methods under
`Value::Deserializer` (a reference's impl under its type), so a name they both define is
repeated and `resolver.method` leaves a call of it unresolved. Inside one of those impls,
`self` has that impl's own type, whose impl Rust's method lookup tries first: a call of a
sibling method on `self` runs the same impl's body. Not so where the trait takes type
arguments (`Compare<&str>` and `Compare<&[u8]>` for `&[u8]`): there the argument's type
chooses the impl, so those are left alone, and so is a method calling its own name.
"""

from __future__ import annotations

from ...model import Attribute, Call, CallSite, Name, ParsedFile, Symbol

__all__ = ["same_impl_method"]


def same_impl_method(parsed: ParsedFile, site: CallSite) -> Symbol | None:
    """The method of the caller's own impl that a `self.m()` call site runs, where the name
    is defined more than once in this file; else None."""
    callee = site.value.callee if isinstance(site.value, Call) else None
    if not isinstance(callee, Attribute) or callee.value != Name(("self",)):
        return None
    scope, line = site.scope, site.line
    caller = _holding(parsed, scope, line)
    impl = _holding(parsed, caller.parent, line) if caller is not None else None
    if caller is None or impl is None or impl.declared_as != "impl":
        return None
    if _takes_type_arguments(impl.signature):
        return None
    target = f"{impl.qualified_name}::{callee.name}"
    found = [
        s for s in parsed.symbols
        if s.qualified_name == target and impl.start_line <= s.start_line <= impl.end_line
    ]  # fmt: skip
    repeated = sum(1 for s in parsed.symbols if s.qualified_name == target) > 1
    if len(found) != 1 or not repeated or found[0].qualified_name == caller.qualified_name:
        return None
    return found[0]


def _holding(parsed: ParsedFile, name: str, line: int) -> Symbol | None:
    """The definition of `name` whose lines hold `line` (a name may be defined twice)."""
    return next(
        (s for s in parsed.symbols
         if s.qualified_name == name and s.start_line <= line <= s.end_line),
        None,
    )  # fmt: skip


def _takes_type_arguments(header: str) -> bool:
    """Whether the trait an impl's header names has type arguments (`Compare<&'b str>`), not
    lifetimes alone (`Deserializer<'de>`)."""
    head = header.split(" for ", 1)[0].strip()
    if head.startswith("impl<"):
        depth = 0
        for at, char in enumerate(head):
            depth += {"<": 1, ">": -1}.get(char, 0)
            if char == ">" and depth == 0:
                head = head[at + 1 :]
                break
    if "<" not in head:
        return False
    inner = head[head.index("<") + 1 : head.rindex(">")] if ">" in head else ""
    parts, depth, current = [], 0, ""
    for char in inner:
        depth += {"<": 1, ">": -1, "(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return any(part.strip() and not part.strip().startswith("'") for part in parts)
