"""Which symbols a change touches, and how: both sides of each file are parsed with the
language's own parser, and every changed line is attributed to the innermost symbol around
it (lines outside every symbol belong to the module).

A symbol on both sides is *modified*: its `signature` (with decorators), `kind` (a
generator made a plain function: `SourceLayout.function_kind`), `docstring` or `body`
changed, or only `formatting` (the changed lines hold nothing else). A name defined twice in
one scope (a conditional `def`, a property's setter) is one symbol per definition: a line
belongs to the definition that holds it (`SymbolChange.ordinal`). A symbol on one
side only is *added* or *removed*, unless a symbol of the same kind and content appears on
the other side under another name (*renamed*, same module) or in another module (*moved*);
a renamed file moves every symbol in it. Pure: texts in, records out.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..languages import language_named
from ..model import ParsedFile, Symbol, SymbolKind
from .unified import FileDiff

__all__ = ["ChangeKind", "SymbolChange", "file_changes", "pair_moves"]

ChangeKind = Literal["added", "removed", "modified", "renamed", "moved"]
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class SymbolChange:
    """One changed symbol or module of one file."""

    qualified_name: str
    name: str
    kind: str  # Module, Class, Function, Method
    change: ChangeKind
    aspects: tuple[str, ...]  # body, signature, docstring, formatting, module level
    path: str  # on the new side (the old side for a removed symbol)
    start_line: int
    end_line: int
    language: str
    old_qualified_name: str | None = None  # renamed or moved: its name before
    old_path: str | None = None
    fingerprint: str = ""  # the content without its own name (rename and move detection)
    ordinal: int = 1  # 2, 3, ... for a later definition of the name in its file (`Symbol`)


def _norm(text: str | None) -> str:
    return _SPACE.sub(" ", text or "").strip()


def _key(symbol: Symbol) -> str:
    """A definition's name in its file: the qualified name, `#2`, `#3`, ... after a name
    defined again (as its node's id writes it)."""
    return symbol.qualified_name + (f"#{symbol.ordinal}" if symbol.ordinal > 1 else "")


def _fingerprint(symbol: Symbol) -> str:
    code = re.sub(rf"\b{re.escape(symbol.name)}\b", "\0", symbol.code, count=1)
    return hashlib.sha256(_norm(code).encode()).hexdigest()[:24]


class _Side:
    """The symbols of one side of a file, and which symbol holds each line."""

    def __init__(self, parsed: ParsedFile) -> None:
        self.parsed = parsed
        self.layout = language_named(parsed.language).layout
        self.symbols = {_key(s): s for s in parsed.symbols}
        self.lines = parsed.code.splitlines()
        # innermost first: a nested symbol starts later than the one around it
        self._spans = sorted(
            self.symbols.values(), key=lambda s: (s.start_line, -s.end_line), reverse=True
        )

    def holder(self, line: int) -> Symbol | None:
        for symbol in self._spans:
            if symbol.start_line <= line <= symbol.end_line:
                return symbol
        return None

    def doc_holder(self, line: int) -> Symbol | None:
        """The symbol a documentation comment holding `line` documents (C family: `/** … */`
        right above it), if the language writes documentation so."""
        documents = self.layout.documents
        following = documents(self.lines, line) if documents is not None else None
        if following is None:
            return None
        return next((s for s in self._spans if s.start_line == following), None)

    def regions(self, symbol: Symbol) -> tuple[range, range]:
        """Line ranges of the symbol's header (decorators and signature) and docstring."""
        start = symbol.start_line
        header_end = start
        for number in range(start, min(symbol.end_line, start + 30) + 1):
            header_end = number
            if self.layout.header_ends(self.lines[number - 1].rstrip()):
                break
        doc = range(0)
        if symbol.docstring is not None:
            doc = self.layout.docstring(self.lines, header_end, symbol.end_line)
        return range(start, header_end + 1), doc

    def children(self, symbol: Symbol) -> list[Symbol]:
        inside = range(symbol.start_line, symbol.end_line + 1)
        return [
            s
            for s in self.symbols.values()
            if s.parent == symbol.qualified_name and s.start_line in inside
        ]

    def kind(self, symbol: Symbol) -> str | None:
        """What kind of function it is where its header does not say (a generator)."""
        read = self.layout.function_kind
        return read(symbol.code) if read is not None else None


def _aspects(
    old: Symbol,
    new: Symbol,
    old_side: _Side,
    new_side: _Side,
    removed: Iterable[int],
    added: Iterable[int],
) -> tuple[str, ...]:
    aspects: list[str] = []
    if _norm(old.signature) != _norm(new.signature) or old.decorators != new.decorators:
        aspects.append("signature")
    if old_side.kind(old) != new_side.kind(new):
        aspects.append("kind")
    if _norm(old.docstring) != _norm(new.docstring):
        aspects.append("docstring")
    body = False
    for side, symbol, lines in ((old_side, old, removed), (new_side, new, added)):
        header, doc = side.regions(symbol)
        inner = side.children(symbol)
        for line in lines:
            if line in header or line in doc or not "".join(side.lines[line - 1 : line]).strip():
                continue
            if any(c.start_line <= line <= c.end_line for c in inner):
                continue
            if symbol.start_line <= line <= symbol.end_line:
                body = True
    if body:
        aspects.append("body")
    return tuple(aspects) or ("formatting",)


def _record(
    symbol: Symbol, change: ChangeKind, path: str, language: str, aspects: tuple[str, ...] = ()
) -> SymbolChange:
    return SymbolChange(
        qualified_name=symbol.qualified_name,
        name=symbol.name,
        kind=symbol.kind.value,
        change=change,
        aspects=aspects,
        path=path,
        start_line=symbol.start_line,
        end_line=symbol.end_line,
        language=language,
        fingerprint=_fingerprint(symbol),
        ordinal=symbol.ordinal,
    )


def _module(
    parsed: ParsedFile, change: ChangeKind, path: str, aspects: tuple[str, ...] = ()
) -> SymbolChange:
    return SymbolChange(
        qualified_name=parsed.module,
        name=parsed.module.rsplit(".", 1)[-1] if "/" not in parsed.module else path,
        kind=SymbolKind.MODULE.value,
        change=change,
        aspects=aspects,
        path=path,
        start_line=1,
        end_line=max(parsed.loc, 1),
        language=parsed.language,
    )


def _touched(side: _Side, lines: Sequence[int]) -> tuple[set[str], bool]:
    """Qualified names of the innermost symbols holding `lines`; True if any line is outside
    every symbol (a module-level change)."""
    names: set[str] = set()
    module = False
    for line in lines:
        if not "".join(side.lines[line - 1 : line]).strip():
            continue  # a blank line changes nothing
        symbol = side.holder(line)
        if symbol is None:
            symbol = side.doc_holder(line)
        if symbol is None:
            module = True
            continue
        names.add(_key(symbol))
    return names, module


def file_changes(
    diff: FileDiff, old: ParsedFile | None, new: ParsedFile | None
) -> list[SymbolChange]:
    """The changed symbols of one file; `old` / `new` its two sides parsed (None where a
    side does not exist)."""
    if new is None and old is None:
        return []
    if old is None:
        assert new is not None
        return [_module(new, "added", new.path)] + [
            _record(s, "added", new.path, new.language) for s in new.symbols if s.ordinal == 1
        ]
    if new is None:
        return [_module(old, "removed", old.path)] + [
            _record(s, "removed", old.path, old.language) for s in old.symbols if s.ordinal == 1
        ]
    old_side, new_side = _Side(old), _Side(new)
    removed, added = diff.removed, diff.added
    old_names, old_module = _touched(old_side, removed)
    new_names, new_module = _touched(new_side, added)
    renamed_file = old.path != new.path or old.module != new.module
    changes: list[SymbolChange] = []
    if old_module or new_module or renamed_file:
        aspects = ("module level",) if old_module or new_module else ()
        record = _module(new, "moved" if renamed_file else "modified", new.path, aspects)
        changes.append(
            replace(record, old_qualified_name=old.module, old_path=old.path)
            if renamed_file
            else record
        )
    prefix_old, prefix_new = old.module + ".", new.module + "."
    for name in sorted(old_names | new_names | (set(old_side.symbols) if renamed_file else set())):
        moved_name = (
            prefix_new + name[len(prefix_old) :]
            if renamed_file and name.startswith(prefix_old)
            else name
        )
        before = old_side.symbols.get(name)
        after = new_side.symbols.get(moved_name) or (
            None if renamed_file else new_side.symbols.get(name)
        )
        if before is None and name in new_side.symbols and not renamed_file:
            after = new_side.symbols[name]
            changes.append(_record(after, "added", new.path, new.language))
            continue
        if before is not None and after is not None:
            touched = name in old_names or moved_name in new_names
            found: tuple[str, ...] = (
                _aspects(before, after, old_side, new_side, removed, added) if touched else ()
            )
            change: ChangeKind = "moved" if renamed_file else "modified"
            record = _record(after, change, new.path, new.language, found)
            if renamed_file:
                record = replace(
                    record, old_qualified_name=before.qualified_name, old_path=old.path
                )
            changes.append(record)
        elif before is not None:
            changes.append(_record(before, "removed", old.path, old.language))
    for name in sorted(new_names - set(old_side.symbols)):
        if renamed_file and any(c.qualified_name == name for c in changes):
            continue
        changes.append(_record(new_side.symbols[name], "added", new.path, new.language))
    return _dedupe(changes)


def _dedupe(changes: list[SymbolChange]) -> list[SymbolChange]:
    seen: set[tuple[str, int, str]] = set()
    kept = []
    for change in changes:
        key = (change.qualified_name, change.ordinal, change.change)
        if key not in seen:
            seen.add(key)
            kept.append(change)
    return kept


def pair_moves(changes: Sequence[SymbolChange]) -> list[SymbolChange]:
    """Removed and added symbols of the same kind and content become one renamed (same
    module) or moved (another module) symbol; their members follow them."""
    added = {c.fingerprint: c for c in changes if c.change == "added" and c.kind != "Module"}
    pairs: dict[str, SymbolChange] = {}  # removed qualified name -> the added one
    for change in changes:
        if change.change != "removed" or change.kind == "Module":
            continue
        match = added.get(change.fingerprint)
        if (
            match is not None
            and match.kind == change.kind
            and match.qualified_name not in {p.qualified_name for p in pairs.values()}
        ):
            pairs[change.qualified_name] = match
    if not pairs:
        return list(changes)
    renamed_prefixes = {old + ".": new.qualified_name + "." for old, new in pairs.items()}
    by_new = {c.qualified_name: c for c in changes if c.change == "added"}
    result: list[SymbolChange] = []
    consumed: set[str] = set()
    for change in changes:
        if change.change == "removed" and change.qualified_name in pairs:
            new = pairs[change.qualified_name]
            same_module = (
                _parent(change.qualified_name) == _parent(new.qualified_name)
                and change.path == new.path
            )
            kind: ChangeKind = "renamed" if same_module else "moved"
            result.append(
                replace(
                    new, change=kind, old_qualified_name=change.qualified_name, old_path=change.path
                )
            )
            consumed.add(new.qualified_name)
            continue
        if change.change == "removed":
            for old_prefix, new_prefix in renamed_prefixes.items():
                if change.qualified_name.startswith(old_prefix):
                    moved = new_prefix + change.qualified_name[len(old_prefix) :]
                    twin = by_new.get(moved)
                    if twin is not None:
                        kind = "renamed" if twin.path == change.path else "moved"
                        kept: tuple[str, ...] = (
                            () if twin.fingerprint == change.fingerprint else ("body",)
                        )
                        result.append(
                            replace(
                                twin,
                                change=kind,
                                aspects=kept,
                                old_qualified_name=change.qualified_name,
                                old_path=change.path,
                            )
                        )
                        consumed.add(moved)
                        break
            else:
                result.append(change)
            continue
        result.append(change)
    return [c for c in result if not (c.change == "added" and c.qualified_name in consumed)]


def _parent(qualified_name: str) -> str:
    return qualified_name.rpartition(".")[0]
