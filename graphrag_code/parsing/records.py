"""Pieces of the records every language's parser emits, made the same way for all of them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from ..model import Binding, Dotted

__all__ = ["MAX_SIGNATURE", "clipped_signature", "line_count", "opaque_bindings"]

MAX_SIGNATURE = 300  # characters of a `Symbol.signature`


def line_count(text: str) -> int:
    """The lines of a source text (`ParsedFile.loc`), a last one without its newline too."""
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def clipped_signature(signature: str) -> str:
    """A signature cut to `MAX_SIGNATURE` characters, `…` marking the cut."""
    if len(signature) > MAX_SIGNATURE:
        return signature[: MAX_SIGNATURE - 1] + "…"
    return signature


def opaque_bindings(
    typed: Iterable[Binding], assigned: Iterable[tuple[str, Dotted, int]]
) -> list[Binding]:
    """The untyped assignments (scope, name, line) to names that also have a typed binding in
    the same scope: the resolver needs them to know which binding is the latest before a use."""
    typed_lines: dict[tuple[str, Dotted], set[int]] = defaultdict(set)
    for binding in typed:
        typed_lines[(binding.scope, binding.target)].add(binding.line)
    opaque: list[Binding] = []
    for scope, name, line in assigned:
        lines = typed_lines.get((scope, name))
        if lines is not None and line not in lines:
            opaque.append(Binding(scope, name, (), "opaque", line))
    return opaque
