"""Reading rust-analyzer's SCIP index into the Rust oracle's calls, imports and dispatch sites.

SCIP (Sourcegraph's code-intelligence format) records, per document, every occurrence of a
symbol with its range and, for definitions, the range of the whole item; it records references
(go-to-definition), not call edges. A call is derived here: a reference to a function or
method symbol whose name is followed by ``(`` (a turbofish ``::<..>`` between them allowed),
inside the span of the innermost enclosing ``fn``. Imports are the leaves of ``use`` trees
(and ``extern crate``), each resolved by the occurrence on its last name.

Only the protobuf fields needed are decoded (wire format: varints and length-delimited
fields), so no protobuf package or generated code is needed. Field numbers are those of
``scip.proto``: Index.documents = 2; Document.relative_path = 1, occurrences = 2, symbols = 3;
Occurrence.range = 1, symbol = 2, symbol_roles = 3, enclosing_range = 7;
SymbolInformation.symbol = 1, kind = 5.

Pure functions over bytes and source texts: nothing here runs a tool.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

JsonDict = dict[str, Any]

_DEFINITION = 1
"""SymbolRole.Definition."""
_KIND_TRAIT = 53
"""SymbolInformation.Kind.Trait."""


class ScipError(ValueError):
    """The bytes are not a SCIP index this reader understands."""


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data):
            raise ScipError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, pos


def _fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of one message: an int for varints, bytes otherwise."""
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        value: int | bytes
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 2:
            length, pos = _varint(data, pos)
            value = data[pos : pos + length]
            pos += length
        elif wire == 1:
            value, pos = data[pos : pos + 8], pos + 8
        elif wire == 5:
            value, pos = data[pos : pos + 4], pos + 4
        else:
            raise ScipError(f"unsupported wire type {wire}")
        yield number, value


def _ints(value: int | bytes) -> list[int]:
    if isinstance(value, int):
        return [value]
    out, pos = [], 0
    while pos < len(value):
        item, pos = _varint(value, pos)
        out.append(item)
    return out


def _text(value: int | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


@dataclass(frozen=True)
class Occurrence:
    """One occurrence: 0-based (line, column) start and end, and the item's span if any."""

    symbol: str
    line: int
    col: int
    end_line: int
    end_col: int
    definition: bool
    span: tuple[int, int] | None  # enclosing_range's first and last line (0-based)


def _range(values: list[int]) -> tuple[int, int, int, int]:
    if len(values) == 3:
        return values[0], values[1], values[0], values[2]
    if len(values) == 4:
        return values[0], values[1], values[2], values[3]
    raise ScipError(f"a range of {len(values)} numbers")


def _occurrence(data: bytes) -> Occurrence:
    symbol, roles = "", 0
    where: list[int] = []
    enclosing: list[int] = []
    for number, value in _fields(data):
        if number == 1:
            where += _ints(value)
        elif number == 2:
            symbol = _text(value)
        elif number == 3 and isinstance(value, int):
            roles = value
        elif number == 7:
            enclosing += _ints(value)
    line, col, end_line, end_col = _range(where)
    span = None
    if enclosing:
        start, _, end, _ = _range(enclosing)
        span = (start, end)
    return Occurrence(symbol, line, col, end_line, end_col, bool(roles & _DEFINITION), span)


@dataclass
class Document:
    """One file of the index: its occurrences and the kinds of the symbols it defines."""

    path: str
    occurrences: list[Occurrence]
    kinds: dict[str, int]


def read_index(data: bytes) -> list[Document]:
    """The documents of a SCIP index."""
    documents = []
    for number, value in _fields(data):
        if number != 2 or not isinstance(value, bytes):
            continue
        path, occurrences, kinds = "", [], {}
        for field, item in _fields(value):
            if field == 1:
                path = _text(item)
            elif field == 2 and isinstance(item, bytes):
                occurrences.append(_occurrence(item))
            elif field == 3 and isinstance(item, bytes):
                info = dict(_fields(item))
                kind = info.get(5, 0)
                kinds[_text(info.get(1, b""))] = kind if isinstance(kind, int) else 0
        documents.append(Document(path, occurrences, kinds))
    return documents


# ------------------------------------------------------------------------------------------
# symbols
# ------------------------------------------------------------------------------------------

_DESCRIPTOR = re.compile(r"`(?:[^`]|``)*`|[^/#.!()\[\]`]+|\[[^\]]*\]|\(\)\.|[/#.!]")


@dataclass(frozen=True)
class Symbol:
    """A global SCIP symbol split into its crate and the names along its path."""

    crate: str
    names: tuple[str, ...]  # e.g. ("str", "impl", "is_empty"); impl#[T][Tr] keeps "impl"
    impl_trait: str  # for a method in `impl Trait for T`: "Trait"
    is_function: bool  # ends in `().`
    is_macro: bool


def parse_symbol(symbol: str) -> Symbol | None:
    """`rust-analyzer cargo core <version> str/impl#[str]is_empty().` -> Symbol; None for a
    local or an unreadable symbol."""
    parts = symbol.split(" ", 4)
    if len(parts) < 5 or parts[0] == "local":
        return None
    crate, descriptors = parts[2], parts[4]
    names: list[str] = []
    brackets: list[str] = []
    for token in _DESCRIPTOR.findall(descriptors):
        if token.startswith("["):
            brackets.append(token[1:-1])
        elif token not in ("/", "#", ".", "!", "()."):
            names.append(token.strip("`"))
    # `impl#[`Error<I>`][`ParseError<I>`]f().`: the trait's name without its arguments
    trait = brackets[1].strip("`").split("<")[0] if "impl" in names and len(brackets) >= 2 else ""
    impl_trait = trait.rpartition("::")[2]
    return Symbol(
        crate,
        tuple(names),
        impl_trait,
        descriptors.endswith("()."),
        descriptors.endswith("!"),
    )


def external_name(symbol: Symbol) -> str:
    """A readable path of an external symbol: `core::str::impl::is_empty`."""
    return "::".join((symbol.crate, *symbol.names))


# ------------------------------------------------------------------------------------------
# source text helpers
# ------------------------------------------------------------------------------------------

_USE = re.compile(
    r"(?m)^[ \t]*(?:#!?\[[^\]\n]*\][ \t]*)*(?:pub(?:\s*\([^)]*\))?[ \t]+)?"
    r"(use(?=\s+(?:::|[A-Za-z_{]))|extern[ \t]+crate)\b[^;]*;"
)
"""A `use` item or `extern crate`: `use` is followed by a path (`::`, a name or `{`), so a
line of a string or attribute that starts with the word (`#[deprecated(note = "...\n use
`swap_remove` instead")]`) is none: taken for one, it made the calls up to the next `;`
imports (output version 3). Attributes may stand before it on its line (`#[cfg(feature =
"alloc")] use alloc::vec::Vec;`, `#[doc(no_inline)] pub use …`: output version 5)."""
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|r#[A-Za-z_][A-Za-z0-9_]*")


class Source:
    """One file's text with 0-based (line, column) -> offset; SCIP columns count UTF-8 bytes
    in rust-analyzer's output for ASCII text and characters otherwise: both agree on the
    ASCII identifiers this reader looks at."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for match in re.finditer("\n", text):
            self.starts.append(match.end())
        self.uses = [(m.start(), m.end(), m.group(1)) for m in _USE.finditer(text)]
        self._use_starts = [u[0] for u in self.uses]

    def offset(self, line: int, col: int) -> int:
        return self.starts[line] + col if line < len(self.starts) else len(self.text)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def in_use(self, offset: int) -> tuple[int, int, str] | None:
        index = bisect_right(self._use_starts, offset) - 1
        if index >= 0 and self.uses[index][0] <= offset < self.uses[index][1]:
            return self.uses[index]
        return None

    def after(self, offset: int) -> str:
        """The text after `offset`, blanks and a turbofish `::<...>` skipped (a few chars)."""
        text, pos = self.text, offset
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if text.startswith("::<", pos):
            depth, pos = 0, pos + 2
            while pos < len(text):
                if text[pos] == "<":
                    depth += 1
                elif text[pos] == ">":
                    depth -= 1
                    if depth == 0:
                        pos += 1
                        break
                pos += 1
            while pos < len(text) and text[pos] in " \t\r\n":
                pos += 1
        return text[pos : pos + 3]


# ------------------------------------------------------------------------------------------
# the oracle's records
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decl:
    """A definition in the crate: its name's place and its item's lines (1-based)."""

    symbol: str
    file: str
    line: int
    start_line: int
    end_line: int
    kind: int

    def as_dict(self) -> JsonDict:
        return {
            "file": self.file,
            "line": self.line,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "symbol": self.symbol,
        }


def _definitions(
    documents: list[Document], crate: str
) -> tuple[dict[str, Decl], dict[str, list[Decl]]]:
    """Each symbol's first definition, and all of them: rust-analyzer gives items nested in
    different functions one symbol (`fn inner` in two methods of a trait)."""
    decls: dict[str, Decl] = {}
    every: dict[str, list[Decl]] = defaultdict(list)
    for doc in documents:
        for occ in doc.occurrences:
            parsed = parse_symbol(occ.symbol)
            if not occ.definition or parsed is None or parsed.crate != crate:
                continue
            start, end = occ.span or (occ.line, occ.line)
            decl = Decl(
                occ.symbol, doc.path, occ.line + 1, start + 1, end + 1, doc.kinds.get(occ.symbol, 0)
            )
            if all((d.file, d.line) != (decl.file, decl.line) for d in every[occ.symbol]):
                every[occ.symbol].append(decl)
            decls.setdefault(occ.symbol, decl)
    return decls, every


class _Callers:
    """Innermost enclosing function definition of a line, per file."""

    def __init__(self, every: Mapping[str, list[Decl]]) -> None:
        self._per_file: dict[str, list[Decl]] = defaultdict(list)
        for symbol, decls in every.items():
            parsed = parse_symbol(symbol)
            if parsed is not None and parsed.is_function:
                for decl in decls:
                    self._per_file[decl.file].append(decl)

    def caller(self, file: str, line: int, but: Decl | None = None) -> Decl | None:
        best: Decl | None = None
        for decl in self._per_file.get(file, ()):
            if (
                decl is not but
                and decl.start_line <= line <= decl.end_line
                and (best is None or decl.start_line >= best.start_line)
            ):
                best = decl
        return best


def _pick(
    symbol: str, every: Mapping[str, list[Decl]], callers: _Callers, file: str, line: int
) -> Decl | None:
    """The definition a reference at (file, line) means: of several with one symbol, the one
    nested in a function that holds the reference."""
    candidates = every.get(symbol, [])
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    best: tuple[int, Decl] | None = None
    for decl in candidates:
        parent = callers.caller(decl.file, decl.line, but=decl)
        if (
            decl.file == file
            and parent is not None
            and parent.start_line <= line <= parent.end_line
            and (best is None or parent.start_line > best[0])
        ):
            best = (parent.start_line, decl)
    return best[1] if best else candidates[0]


def _target(symbol: str, decl: Decl | None) -> tuple[JsonDict | None, JsonDict | None]:
    """(in-crate declaration, external) of a referenced symbol."""
    if decl is not None:
        return decl.as_dict(), None
    parsed = parse_symbol(symbol)
    if parsed is None:
        return None, None
    name = parsed.names[-1] if parsed.names else ""
    return None, {"crate": parsed.crate, "path": external_name(parsed), "name": name}


def _trait_of(symbol: str, decls: Mapping[str, Decl], parsed: Symbol) -> str:
    """The trait's name when `symbol` is a trait's own method (`Trait#m().`, not an impl's
    `impl#[T][Trait]m().` nor a free `module/f().`): else ""."""
    if "impl" in parsed.names or not parsed.is_function or len(parsed.names) < 2:
        return ""
    if not symbol.endswith(f"#{parsed.names[-1]}().") and not symbol.endswith(
        f"#`{parsed.names[-1]}`()."
    ):
        return ""
    owner_decl = decls.get(symbol[: symbol.rfind("#") + 1])
    if owner_decl is not None and owner_decl.kind != _KIND_TRAIT:
        return ""
    return parsed.names[-2]


def derive(documents: list[Document], texts: Callable[[str], str | None], crate: str) -> JsonDict:
    """Calls, imports, declarations and dispatch sites of `crate` from its index; `texts`
    gives a document's source text (None: not measured)."""
    decls, every = _definitions(documents, crate)
    callers = _Callers(every)
    impls_by_trait_method: dict[tuple[str, str], list[Decl]] = defaultdict(list)
    for decl in (d for group in every.values() for d in group):
        parsed = parse_symbol(decl.symbol)
        if parsed is not None and parsed.impl_trait and parsed.is_function:
            impls_by_trait_method[(parsed.impl_trait, parsed.names[-1])].append(decl)
    files: list[str] = []
    calls: list[JsonDict] = []
    imports: list[JsonDict] = []
    dispatch: list[JsonDict] = []
    values: list[JsonDict] = []  # calls of closures, fn pointers and fields: no static callee
    macro_lines: list[JsonDict] = []  # macro_rules! bodies: token trees, not resolved
    for doc in documents:
        text = texts(doc.path)
        if text is None:
            continue
        files.append(doc.path)
        source = Source(text)
        for match in _MACRO_RULES.finditer(text):
            first = source.line_of(match.start()) + 1
            macro_lines.append(
                {"file": doc.path, "start_line": first, "end_line": _block_end(source, match)}
            )
        roots = {k: v for k, v in _use_roots(source, doc.occurrences).items() if v != crate}
        for occ in doc.occurrences:
            if occ.definition:
                crate_item = _extern_crate(source, doc.path, occ)
                if crate_item is not None:
                    imports.append(crate_item)
                continue
            parsed = parse_symbol(occ.symbol)
            start = source.offset(occ.line, occ.col)
            end = source.offset(occ.end_line, occ.end_col)
            word = text[start:end]
            if not _IDENT.fullmatch(word):
                continue  # `?`, operators, attribute spans
            is_value = parsed is None or (occ.symbol.endswith(".") and not parsed.is_function)
            # a local, field or static called: no static callee
            if is_value and source.after(end).startswith("(") and source.in_use(start) is None:
                values.append({"file": doc.path, "line": occ.line + 1, "name": word})
            if parsed is None:
                continue
            use = source.in_use(start)
            if use is not None:  # a macro's name too (`use serde::forward_to_deserialize_any`)
                record = _import(
                    source, doc.path, occ, use, word, decls.get(occ.symbol), roots.get(use[0])
                )
                if record is not None:
                    imports.append(record)
                continue
            if parsed.is_macro or not parsed.is_function or not source.after(end).startswith("("):
                continue
            caller = callers.caller(doc.path, occ.line + 1)
            callee, external = _target(
                occ.symbol, _pick(occ.symbol, every, callers, doc.path, occ.line + 1)
            )
            trait = _trait_of(occ.symbol, decls, parsed)
            call = {
                "file": doc.path,
                "line": occ.line + 1,
                "col": occ.col,
                "name": word,
                "caller": None if caller is None else caller.as_dict(),
                "callee": callee,
                "external": external,
                "kind": "trait" if trait else ("impl" if "impl" in parsed.names else "fn"),
                # `.name(` opens its line: a method chain split over lines
                "chained": text[source.starts[occ.line] : start].strip() == ".",
            }
            calls.append(call)
            if trait:
                targets = impls_by_trait_method.get((trait, parsed.names[-1]), [])
                default = decls.get(occ.symbol)
                # a body, not a declaration with doc comments above it (`start_line` is theirs)
                if default is not None and default.end_line > default.line:
                    targets = [*targets, default]
                dispatch.append(
                    {
                        "file": doc.path,
                        "line": occ.line + 1,
                        "col": occ.col,
                        "trait": trait,
                        "method": parsed.names[-1],
                        "targets": [t.as_dict() for t in targets],
                    }
                )
    return {
        "files": sorted(files),
        "decls": sorted(
            (d.as_dict() for group in every.values() for d in group if d.file in set(files)),
            key=lambda d: (d["file"], d["line"]),
        ),
        "calls": calls,
        "imports": imports,
        "dispatch": dispatch,
        "value_calls": values,
        "macro_rules": macro_lines,
    }


_MACRO_RULES = re.compile(r"macro_rules!\s*[A-Za-z_][A-Za-z0-9_]*\s*[{(\[]")


def _block_end(source: Source, match: re.Match[str]) -> int:
    """The 1-based line of the bracket closing the one `match` ends with."""
    opening = source.text[match.end() - 1]
    closing = {"{": "}", "(": ")", "[": "]"}[opening]
    depth, pos = 0, match.end() - 1
    while pos < len(source.text):
        char = source.text[pos]
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                break
        pos += 1
    return source.line_of(pos) + 1


def _import(
    source: Source,
    path: str,
    occ: Occurrence,
    use: tuple[int, int, str],
    word: str,
    decl: Decl | None,
    root_crate: str | None = None,
) -> JsonDict | None:
    """An import record when `occ` is a leaf of its `use` tree (or the module before `::*`).
    An external leaf is named by the crate its path starts with (`rand` in `use rand::Rng`,
    which rust-analyzer resolves to its definition in `rand_core`)."""
    end = source.offset(occ.end_line, occ.end_col)
    rest = source.text[end : use[1]].lstrip()
    glob = rest.startswith("::") and rest[2:].lstrip().startswith("*")
    leaf = rest[:1] in (",", "}", ";") or rest.startswith("as ") or glob
    if not leaf:
        return None
    target, external = _target(occ.symbol, decl)
    if external is not None and root_crate:
        external = {**external, "crate": root_crate, "defined_in": external["crate"]}
    return {
        "file": path,
        "line": occ.line + 1,
        "use_line": source.line_of(use[0]) + 1,
        "name": word,
        "glob": glob,
        "extern_crate": use[2] != "use",
        "in_crate": target is not None,
        "target": target,
        "external": external,
    }


def _use_roots(source: Source, occurrences: list[Occurrence]) -> dict[int, str]:
    """Per `use` item (by its start offset), the crate its path starts with when that is
    another crate: the crate of its first occurrence."""
    first: dict[int, tuple[int, str]] = {}
    for occ in occurrences:
        start = source.offset(occ.line, occ.col)
        use = source.in_use(start)
        parsed = parse_symbol(occ.symbol)
        if use is None or parsed is None or use[2] != "use":
            continue
        if use[0] not in first or start < first[use[0]][0]:
            first[use[0]] = (start, parsed.crate)
    return {offset: crate for offset, (_, crate) in first.items()}


_EXTERN_CRATE = re.compile(r"extern\s+crate\s+([A-Za-z_][A-Za-z0-9_]*)")


def _extern_crate(source: Source, path: str, occ: Occurrence) -> JsonDict | None:
    """`extern crate alloc;`: rust-analyzer defines an alias item there; an import of the crate
    it names."""
    start = source.offset(occ.line, occ.col)
    use = source.in_use(start)
    if use is None or use[2] == "use":
        return None
    match = _EXTERN_CRATE.search(source.text, use[0], use[1])
    if match is None:
        return None
    return {
        "file": path,
        "line": occ.line + 1,
        "use_line": source.line_of(use[0]) + 1,
        "name": match.group(1),
        "glob": False,
        "extern_crate": True,
        "in_crate": False,
        "target": None,
        "external": {"crate": match.group(1), "path": match.group(1), "name": match.group(1)},
    }
