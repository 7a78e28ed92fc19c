"""Questions for Go, Java and Rust code bases, labelled from their oracles and sources: which
declaration a doc comment belongs to, who calls a function, where a name is declared.

Never from our graph: a label is a source location (file, line) — the checker's caller and
callee of a call (go/types, javac, rust-analyzer), a declaration the checker lists, the
declaration a doc comment sits on. Our graph only turns a location into a node id, the
narrowest function, method or type node whose span holds it, so that a hit can be scored.

- concept: the first sentence (five words or more) of a doc comment (Go `//` lines right above
  a declaration, Javadoc `/** … */`, Rust `///`), asked of a copy whose doc comments are
  blanked (lines kept); Go's sentences open with the declared name by convention ("Execute
  runs …"), which is dropped so the question does not spell the answer; test code is not asked
  about (concept questions leave tests out by default, §5c), nor a sentence said of several
  declarations;
- callers: "What calls X?" for a declaration the checker saw called from 1–10 others, whose
  answers are those callers;
- definition: "Where is X defined?" in §5's four spellings (dotted, phrase, joined, words) for
  declarations whose short name (methods: type and name) no other declaration shares.

`run_all` in `oracle_code_questions` indexes each copy and asks them.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphrag_code.text import split_identifier

KINDS = ("Function", "Method", "Class")
_SENTENCE = re.compile(r"^(.+?[.!?])(\s|$)", re.DOTALL)
_JAVADOC = re.compile(r"/\*\*.*?\*/", re.DOTALL)
_GO_KEEP = re.compile(r"^\s*//(go:|line |\s*\+build|\s*Code generated)")


@dataclass(frozen=True)
class Question:
    category: str  # "concept" | "callers" | "definition"
    text: str
    relevant: frozenset[str]  # node ids
    variant: str = ""


@dataclass(frozen=True)
class Declaration:
    """A function, method or type as the checker lists it: where, and its short names."""

    path: str
    line: int
    name: str
    owner: str  # the type of a method, else ""
    kind: str  # "function" | "method" | "type"


@dataclass(frozen=True)
class DocComment:
    """A doc comment's text and the line of the declaration it documents."""

    path: str
    text: str
    decl_line: int


class NodeIndex:
    """Our function, method and type nodes by file: a location -> the narrowest holding it."""

    def __init__(self, nodes: Iterable[dict[str, Any]]) -> None:
        self.by_path: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for node in nodes:
            if node["kind"] in KINDS and node["start"] is not None:
                self.by_path[node["path"]].append(node)

    def at(self, path: str, line: int) -> str | None:
        spans = [n for n in self.by_path.get(path, []) if n["start"] <= line <= n["end"]]
        return str(min(spans, key=lambda n: n["end"] - n["start"])["id"]) if spans else None

    def starting(self, path: str, first: int, last: int) -> str | None:
        """The node declared on lines first..last (annotations and attributes may come before
        the name's line, in ours or in the source)."""
        found = [n for n in self.by_path.get(path, []) if first <= n["start"] <= last]
        if not found:  # a field, constant or variable: no node of its own to ask for
            return None
        return str(min(found, key=lambda n: (abs(n["start"] - last), n["end"] - n["start"]))["id"])


# ---------------------------------------------------------------- doc comments and the copy


def first_sentence(description: str, drop: str = "") -> str | None:
    """The first sentence of a doc comment's description, five words or more; `drop`: a
    leading name (Go's convention, optionally after an article) taken off."""
    text = re.sub(r"\{@(?:link|code|linkplain)\s+([^}|]+)[^}]*\}", r"\1", description)
    text = re.sub(r"\[`?([^\]`]+)`?\]\([^)]*\)", r"\1", text)  # markdown links
    text = re.sub(r"<[^>]+>|[`*_\[\]]", "", " ".join(text.split())).strip()
    match = _SENTENCE.match(text)
    sentence = (match.group(1) if match else text).strip()
    if drop:
        sentence = re.sub(rf"^(?:(?:A|An|The)\s+)?{re.escape(drop)}\b\s*", "", sentence)
    return sentence if len(sentence.split()) >= 5 else None


def _line_comments(path: str, lines: Sequence[str], prefix: str) -> Iterator[DocComment]:
    """Runs of `prefix` comment lines right above a declaration (blank lines, attributes and
    annotations may stand between)."""
    run: list[str] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith(prefix) and not stripped.startswith(prefix + "/"):
            run.append(stripped[len(prefix) :].strip())
            continue
        if run and stripped and not stripped.startswith(("#[", "//")):
            yield DocComment(path, " ".join(part for part in run if part), number)
        if stripped and not stripped.startswith("#["):
            run = []


def go_docs(path: str, text: str) -> Iterator[DocComment]:
    """Go doc comments: `//` lines directly above a declaration (no blank line between);
    directives (`//go:build`) are not part of them."""
    run: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("//") and not _GO_KEEP.match(line):
            run.append(stripped[2:].strip())
            continue
        if run and stripped and not stripped.startswith("//"):
            yield DocComment(path, " ".join(part for part in run if part), number)
        run = []


def java_docs(path: str, text: str) -> Iterator[DocComment]:
    """Javadoc comments; the declaration is the first line after them that is not blank or an
    annotation."""
    for match in _JAVADOC.finditer(text):
        body = match.group(0).removeprefix("/**").removesuffix("*/")
        parts = [re.sub(r"^\s*\* ?", "", line).strip() for line in body.splitlines()]
        description: list[str] = []
        for part in parts:
            if part.startswith("@"):
                break
            description.append(part)
        line = text.count("\n", 0, match.end()) + 1
        rest = text[match.end() :].splitlines()[1:]
        for offset, after in enumerate(rest, start=1):
            if after.strip() and not after.strip().startswith("@"):
                yield DocComment(path, " ".join(p for p in description if p), line + offset)
                break


def rust_docs(path: str, text: str) -> Iterator[DocComment]:
    """Outer `///` doc comments above an item (attributes may stand between)."""
    yield from _line_comments(path, text.splitlines(), "///")


def blank_docs(language: str, text: str) -> str:
    """The source with its doc comments blanked, every line and column kept."""
    if language == "java":
        return _JAVADOC.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    lines = text.split("\n")
    out = []
    for line in lines:
        stripped = line.lstrip()
        blank = (
            stripped.startswith("//") and not _GO_KEEP.match(line)
            if language == "go"
            else stripped.startswith(("///", "//!"))
        )
        out.append(" " * len(line) if blank else line)
    return "\n".join(out)


DOCS = {"go": go_docs, "java": java_docs, "rust": rust_docs}


def is_test_path(language: str, path: str) -> bool:
    if language == "go":
        return path.endswith("_test.go")
    return "/test/" in f"/{path}" or "/tests/" in f"/{path}"


# ---------------------------------------------------------------- questions


_GO_DECL = re.compile(r"^\s*(?:func\s+(?:\([^)]*\)\s*)?|type\s+|var\s+|const\s+)?([A-Za-z_]\w*)")


def go_declared_name(line: str) -> str:
    """The name a Go declaration line declares (`func (c *Command) Execute() error` ->
    Execute, `type Command struct {`, a grouped spec `Command struct {`)."""
    match = _GO_DECL.match(line)
    return match.group(1) if match else ""


def concept_questions(
    language: str, root: Path, files: Sequence[str], index: NodeIndex
) -> list[Question]:
    questions = []
    for path in files:
        if is_test_path(language, path):
            continue
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        for doc in DOCS[language](path, text):
            drop = go_declared_name(lines[doc.decl_line - 1]) if language == "go" else ""
            sentence = first_sentence(doc.text, drop)
            node = index.starting(path, doc.decl_line - 3, doc.decl_line)
            if sentence is not None and node is not None:
                questions.append(Question("concept", sentence, frozenset({node})))
    # a sentence said of several declarations (logrus: "logs a message at level Warn on the
    # standard logger." for Warn and Warning) has no one answer
    said = Counter(q.text for q in questions)
    return [q for q in questions if said[q.text] == 1]


def caller_questions(
    pairs: Iterable[tuple[tuple[str, int], tuple[str, int]]],
    index: NodeIndex,
    spell: dict[str, str],
) -> list[Question]:
    """pairs: ((caller file, line), (callee file, line)) from the checker; `spell`: node id ->
    how a person names it."""
    callers: dict[str, set[str]] = defaultdict(set)
    for caller, callee in pairs:
        target, source = index.at(*callee), index.at(*caller)
        if target is not None and source is not None and source != target:
            callers[target].add(source)
    return [
        Question("callers", f"What calls {spell[target]}?", frozenset(found))
        for target, found in sorted(callers.items())
        if len(found) <= 10 and target in spell
    ]


def _camel(words: Sequence[str]) -> str:
    return words[0] + "".join(word.capitalize() for word in words[1:])


def spellings(declaration: Declaration) -> dict[str, str]:
    """§5's four spellings: `Owner.name` / `name`, a phrase, the other case convention, words."""
    words = split_identifier(declaration.name)
    if declaration.kind == "method":
        everything = split_identifier(declaration.owner) + words
        return {
            "dotted": f"`{declaration.owner}.{declaration.name}`",
            "phrase": f"the {declaration.name} method of {declaration.owner}",
            "joined": "_".join(everything),
            "words": " ".join(everything),
        }
    snake = declaration.name.lower() == declaration.name
    joined = _camel(words) if snake else "_".join(words)
    if joined == declaration.name:
        joined = declaration.name.capitalize() if snake else declaration.name.lower()
    return {
        "dotted": f"`{declaration.name}`",
        "phrase": f"the {declaration.name} {declaration.kind}",
        "joined": joined,
        "words": " ".join(words),
    }


def short_name(declaration: Declaration) -> str:
    return f"{declaration.owner}.{declaration.name}" if declaration.owner else declaration.name


def definition_questions(
    declarations: Sequence[Declaration], index: NodeIndex
) -> dict[str, list[Question]]:
    """Per declaration (node id), its four questions, for names no other declaration shares
    (at least four letters, not private by a leading underscore)."""
    counts: dict[str, int] = defaultdict(int)
    for declaration in declarations:
        counts[short_name(declaration)] += 1
    out: dict[str, list[Question]] = {}
    for declaration in declarations:
        node = index.at(declaration.path, declaration.line)
        if node is None or counts[short_name(declaration)] != 1 or len(declaration.name) < 4:
            continue
        if declaration.name.startswith("_"):
            continue
        out[node] = [
            Question("definition", f"Where is {spelled} defined?", frozenset({node}), variant)
            for variant, spelled in spellings(declaration).items()
        ]
    return out


# ---------------------------------------------------------------- the oracles' declarations


def go_declaration(decl: dict[str, Any]) -> Declaration:
    """`github.com/spf13/cobra.Command.Execute` -> Execute of Command."""
    parts = decl["name"].rsplit("/", 1)[-1].split(".")
    owner = parts[-2] if decl["kind"] == "method" and len(parts) >= 3 else ""
    kind = "method" if owner else "function"
    return Declaration(decl["file"], decl["line"], parts[-1], owner, kind)


def java_declaration(decl: dict[str, Any]) -> Declaration | None:
    kind = decl["kind"]
    if kind in ("method", "constructor"):
        name = decl["name"].split("(", 1)[0]
        owner = str(decl.get("class") or "").rsplit(".", 1)[-1]
        if name == "<init>" or kind == "constructor":
            return None
        return Declaration(decl["file"], decl["line"], name, owner, "method")
    if kind in ("class", "interface", "enum", "record"):
        name = str(decl.get("qualified") or decl["name"]).rsplit(".", 1)[-1]
        return Declaration(decl["file"], decl["line"], name, "", "class")
    return None


_RUST_DESC = re.compile(r"([A-Za-z_][\w]*)(\(\)\.|#|/|!|\.)|\[([^\]]+)\]")


def rust_declaration(decl: dict[str, Any]) -> Declaration | None:
    """A SCIP symbol (`… parse/impl#[Version][FromStr]from_str().`) -> from_str of Version;
    functions, methods and types only."""
    descriptor = decl["symbol"].split(" ", 4)[-1]
    owner, last = "", None
    for match in _RUST_DESC.finditer(descriptor):
        name, suffix, bracket = match.groups()
        if bracket is not None:
            owner = owner or bracket
            continue
        if name == "impl" and suffix == "#":
            owner = ""
            continue
        last = (name, suffix)
        if suffix == "#":
            owner = name
    if last is None or last[1] not in ("().", "#"):
        return None
    name, suffix = last
    if suffix == "#":
        return Declaration(decl["file"], decl["line"], name, "", "type")
    if owner and owner != name:
        return Declaration(decl["file"], decl["line"], name, owner, "method")
    return Declaration(decl["file"], decl["line"], name, "", "function")
