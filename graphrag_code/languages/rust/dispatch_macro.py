"""`dispatch!(peek(any); b'[' => array(s), _ => table(s))`: winnow's (and the like's) match
macro, whose arguments are no call's arguments, read as the `match` it expands to.

The parser reads a macro's token tree as a call's arguments (`assert_eq!(f(x), 1)`); one whose
first top-level `;` is followed by `=>` arms parses as no call, so its calls were lost
(toml_edit's parser: `b"[[" => array_table(state)`). Written as `match <head> { <arms> }` with
the `;` replaced by `{`, every byte keeps its offset, so the sites found map back unchanged.
"""

from __future__ import annotations

__all__ = ["MATCH_HEAD", "MATCH_TAIL", "as_match"]

MATCH_HEAD = "fn m(){match "
"""The source before a token tree's inside (its opening bracket's byte: the space)."""
MATCH_TAIL = "}}"

_OPEN, _CLOSE = "([{", ")]}"


def as_match(inside: str) -> str | None:
    """The inside of a macro's token tree as the scrutinee and arms of a `match` (same
    length), or None where it has no top-level `;` followed by `=>` arms."""
    depth = 0
    quoted: str | None = None
    for at, char in enumerate(inside):
        if quoted is not None:
            if char == quoted and inside[at - 1 : at] != "\\":
                quoted = None
        elif char == '"':
            quoted = char
        elif char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        elif char == ";" and depth == 0:
            rest = inside[at + 1 :]
            return f"{inside[:at]}{{{rest}" if "=>" in rest else None
    return None
