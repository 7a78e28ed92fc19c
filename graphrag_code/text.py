"""Identifier splitting, the `search_text` the full-text index reads, and Lucene escaping.

`validate_path`, `validatePath`, `ValidatePath` and `pkg.mod.validate_path` all yield the words
"validate path", so a question in plain words finds the identifier and vice versa.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "escape_lucene",
    "identifier_words",
    "indented_code",
    "package_name",
    "printable",
    "search_text",
    "split_identifier",
    "split_statements",
    "statement_text",
]

# What must not reach a terminal (or a model) as is: C0 controls but tab and newline (ESC
# starts the sequences that retitle, clear and recolour a terminal; CR overwrites a line), DEL,
# C1 controls (U+009B is CSI on some terminals), the bidirectional overrides and isolates of
# "Trojan Source" (CVE-2021-42574), line and paragraph separators, and lone surrogates (from
# undecodable file names: printing one raises UnicodeEncodeError).
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+|\d+")
_IDENTIFIERS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
_MAX_BODY_WORDS = 300
# Lucene classic QueryParser syntax: + - && || ! ( ) { } [ ] ^ " ~ * ? : \ /
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
# Bare operator words; quoting makes them plain terms for whatever analyzer the field uses.
_LUCENE_OPERATORS = frozenset({"AND", "OR", "NOT", "TO"})


def split_identifier(identifier: str) -> list[str]:
    """`parseHTTPResponse_v2` -> ["parse", "http", "response", "v2"]."""
    return list(_split(identifier))


@lru_cache(maxsize=200_000)
def _split(identifier: str) -> tuple[str, ...]:
    # identifiers repeat a lot across a code base: cache the regex work
    return tuple(
        piece.lower()
        for chunk in _NON_WORD.split(identifier)
        if chunk
        for piece in _CAMEL.findall(chunk)
    )


def identifier_words(text: str) -> list[str]:
    """Split every identifier in `text`, keeping first occurrences in order."""
    seen: dict[str, None] = {}
    for identifier in dict.fromkeys(_IDENTIFIERS.findall(text)):
        for word in _split(identifier):
            seen.setdefault(word, None)
    return list(seen)


def search_text(
    *,
    name: str,
    qualified_name: str,
    path: str,
    signature: str | None,
    docstring: str | None,
    code: str | None,
) -> str:
    """The text indexed for full-text search: names (raw and split, the short name twice for
    weight), path words, signature words, the docstring, then split body identifiers."""
    parts = [
        name,
        " ".join(split_identifier(name)),
        " ".join(split_identifier(name)),
        qualified_name,
        " ".join(split_identifier(qualified_name)),
        " ".join(split_identifier(path.rsplit(".", 1)[0])),
    ]
    if signature:
        parts.append(" ".join(identifier_words(signature)))
    if docstring:
        parts.append(docstring)
    if code:
        parts.append(" ".join(identifier_words(code)[:_MAX_BODY_WORDS]))
    return "\n".join(part for part in parts if part)


def statement_text(code: str, *, max_chars: int = 20_000) -> str:
    """Code as a full-text document of its own: the text as written (words, numbers and the
    words inside strings keep their counts, which BM25 weighs), then every identifier split
    into words (`charset_normalizer` -> charset normalizer). A module's own statements are
    indexed this way (`setup(python_requires=">=3.9")`, `intersphinx_mapping = {...}`)."""
    head = code[:max_chars]
    words = [word for identifier in _IDENTIFIERS.findall(head) for word in _split(identifier)]
    return head + "\n" + " ".join(words)


def escape_lucene(term: str) -> str:
    r"""One term as Lucene's query parser reads it literally: every special character escaped,
    a bare operator word (`AND`, `OR`, `NOT`, `TO`) quoted, so no input fails to parse.

        >>> print(escape_lucene("f(x)"), escape_lucene("OR"), escape_lucene("or"))
        f\(x\) "OR" or
    """
    if term in _LUCENE_OPERATORS:
        return f'"{term}"'
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def split_statements(text: str) -> list[str]:
    """Split a Cypher file of `;`-terminated statements, dropping `//` comment lines.

    Our files keep `;` out of string literals, so a line-based split is exact for them.
    """
    statements: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.strip().startswith("//"):
            continue
        current.append(line)
        if line.rstrip().endswith(";"):
            statement = "\n".join(current).strip().removesuffix(";").strip()
            if statement:
                statements.append(statement)
            current = []
    tail = "\n".join(current).strip()
    if tail:
        statements.append(tail)
    return statements


_PACKAGE_SEPARATORS = re.compile(r"[-_.]+")


def package_name(name: str) -> str:
    """A distribution name as PEP 503 compares them: `Billing__Lib.x` -> `billing-lib-x`."""
    return _PACKAGE_SEPARATORS.sub("-", name.strip()).lower()


def printable(text: str, *, json: bool = False) -> str:
    """`text` with every character a terminal would act on escaped (`\\x1b`, `\\u202e`;
    tab and newline kept): the one sanitiser for names from code, and questions, on their way
    to the CLI's output and MCP answers (issue 57, item 8). `json=True` escapes as JSON does
    (`\\u001b`), for JSON text, whose strings are the only place such characters can be."""
    if _UNPRINTABLE.search(text) is None:  # nearly always
        return text
    return _UNPRINTABLE.sub(_escape_json if json else _escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _escape_json(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def indented_code(code: str | None, first_line: str | None) -> str | None:
    """`code` with its first line at the indentation it has in `first_line`, the source line
    it starts on. A method's stored code starts at `def` (the parser slices from the node),
    so its first line printed flush left above a body indented twice (issue 55). Nothing is
    added unless `first_line` really is where the code starts."""
    if not code or not first_line or code[:1] in (" ", "\t"):
        return code
    head = code.split("\n", 1)[0]
    body = first_line.lstrip(" \t")
    indent = first_line[: len(first_line) - len(body)]
    if (
        not indent
        or not body.strip()
        or not (body.startswith(head) or head.startswith(body.rstrip("\r")))
    ):
        return code
    return indent + code
