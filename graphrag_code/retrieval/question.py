"""Question analysis: the identifiers and files a question names, and what it asks for.

The intent decides which edges the graph leg follows and in which direction:

    callers       "what calls X", "who uses X"          incoming CALLS, 1 hop
    callees       "what does X call"                     outgoing CALLS, 1 hop
    impact        "what breaks if I change X"            incoming IMPORTS/CALLS/INHERITS, 3 hops
    importers     "who imports X"                        incoming IMPORTS, 1 hop
    dependencies  "what does X import / depend on"       outgoing IMPORTS, 1 hop
    trace         "trace X to the database", "path ..."  outgoing CALLS, 3 hops
    definition    "where is X defined"                   DEFINES both ways, 1 hop
    concept       anything else                          every edge type, both ways, 1 hop
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from enum import Enum
from functools import cache

from ..languages import routes
from ..text import escape_lucene, split_identifier

__all__ = [
    "TEST_WORDS", "GraphPlan", "Intent", "Question", "analyse", "clean_question", "lucene_query",
    "target_query",
]  # fmt: skip


class Intent(str, Enum):
    CALLERS = "callers"
    CALLEES = "callees"
    IMPACT = "impact"
    IMPORTERS = "importers"
    DEPENDENCIES = "dependencies"
    TRACE = "trace"
    DEFINITION = "definition"
    CONCEPT = "concept"


@dataclass(frozen=True)
class GraphPlan:
    """How the graph leg expands from its seeds."""

    types: tuple[str, ...]
    direction: str  # "out", "in" or "both"
    max_hops: int  # 0: the seeds only


PLANS: dict[Intent, GraphPlan] = {
    Intent.CALLERS: GraphPlan(("CALLS",), "in", 1),
    Intent.CALLEES: GraphPlan(("CALLS",), "out", 1),
    Intent.IMPACT: GraphPlan(("IMPORTS", "CALLS", "INHERITS"), "in", 3),
    Intent.IMPORTERS: GraphPlan(("IMPORTS",), "in", 1),
    Intent.DEPENDENCIES: GraphPlan(("IMPORTS",), "out", 1),
    Intent.TRACE: GraphPlan(("CALLS",), "out", 3),
    # definition: the named symbols themselves; following DEFINES to their classes and
    # members lowered MRR on the code-question benchmark (.814 vs .842 without)
    Intent.DEFINITION: GraphPlan(("DEFINES",), "both", 0),
    Intent.CONCEPT: GraphPlan(("CALLS", "IMPORTS", "INHERITS", "USES_TYPE", "DEFINES"), "both", 1),
}

# Between the words of a phrase ("where is ... called"): bounded, so that matching stays linear
# in the question's length (`.+` made `'where is x ' * 9000` take 8 s: issue 13).
_GAP = ".{1,120}?"

# Checked in order: the first pattern that matches decides the intent.
_INTENT_PATTERNS: tuple[tuple[Intent, re.Pattern[str]], ...] = tuple(
    (intent, re.compile(pattern.replace(".+", _GAP), re.IGNORECASE))
    for intent, pattern in (
        (
            Intent.IMPACT,
            r"\b(break|breaks|impact|affected|affects|ripple|blast radius)\b"
            r"|\bif (i|we|you) (change|modify|edit|delete|remove|rename)\b"
            r"|\bdepends? on\b|\bdependents\b",
        ),
        (
            Intent.TRACE,
            r"\btrace\b|\bpath (from|between)\b|\bhow does .+ (reach|get to)\b"
            r"|\bfrom .+ to the (database|db|storage|disk)\b",
        ),
        (
            Intent.CALLERS,
            r"\b(who|what|which \w+) (calls?|invokes?|uses?)\b|\bcallers?\b"
            r"|\bcalled (by|from)\b|\bwhere is .+ (called|used|invoked)\b|\busages? of\b",
        ),
        (
            Intent.CALLEES,
            r"\bwhat (does|do) .+ call\b|\bcallees?\b|\bcalls? made by\b"
            r"|\bfunctions? (that )?.+ calls\b",
        ),
        (
            Intent.IMPORTERS,
            r"\b(who|what|which \w+) imports?\b|\bimporters?\b"
            r"|\bimported (by|from|where)\b|\bwhere is .+ imported\b",
        ),
        (
            Intent.DEPENDENCIES,
            r"\bwhat does .+ (import|depend)\b|\bdependencies of\b"
            r"|\bimports of\b",
        ),
        (
            Intent.DEFINITION,
            r"\bwhere (is|are) .+ (defined|declared|implemented)\b"
            r"|\bdefinition of\b|\bfind the (class|function|method)\b"
            r"|\bwhere is (the )?(class|function|method)\b",
        ),
    )
)

_BACKTICKED = re.compile(r"`([^`]+)`")
# a question word first ("When used with ..." opens docstrings as often as questions)
_ASKED = re.compile(r"\W*(how|where|what|which|why)\b", re.IGNORECASE)
# Words and names are Unicode, as Python and ECMAScript identifiers are: with ASCII classes
# `search "Ünïcödé"` asked nothing and "café order" asked only "order" (issue 57, item 11).
_NAME = r"[^\W\d]\w*"  # a letter or underscore, then word characters
_DOTTED = re.compile(rf"\b{_NAME}(?:\.{_NAME})+\b")
_WORD = re.compile(rf"\b{_NAME}\b")
_CALL_SUFFIX = re.compile(r"\(\s*\)$")
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_TERMS = 64
# longer "names" are not code (a pasted blob, a hostile question): they would only make the
# Lucene query and the graph leg's name lookups slow
_MAX_TERM_CHARS = 100
_MAX_NAME_CHARS = 200
_STOP = frozenset(
    """a an the of to in on at by for from with and or not is are was were be been being do
    does did what which who whom whose where when why how this that these those it its if
    then than i we you they me us my our your can could should would will shall may might
    must there here all any some each every function functions method methods class classes
    module modules file files code call calls called caller callers calling callee callees
    use uses used using usage usages import imports imported importer importers change
    changes changed changing modify break breaks impact affect affected trace path defined
    define definition declared where find show list give me get set into out up down about
    handle handled handles happen happens""".split()  # noqa: SIM905 - reads best as words
)


# words that make a question one about test code, whose answers may be tests (search leaves
# test code out of other concept questions: issue 55)
TEST_WORDS = frozenset(
    {
        "test", "tests", "testing", "tested", "unittest", "pytest", "conftest", "fixture",
        "fixtures", "spec", "specs", "mock", "mocks", "mocked", "stub", "stubs",
    }
)  # fmt: skip


def _suffixes() -> tuple[str, ...]:
    """The source suffixes of every language this process reads, longest first."""
    return tuple(sorted(routes().suffixes, key=lambda suffix: (-len(suffix), suffix)))


@cache
def _path_pattern(suffixes: tuple[str, ...]) -> re.Pattern[str]:
    """A file path ending in one of `suffixes` (`flask/app.py`, `src/app.ts`).

    A path starts where a run of path characters starts (never inside one): with '-' left out
    of the look-behind, every '-' in `'a-b/' * 25000` began another attempt (quadratic, 38 s).
    """
    ends = "|".join(map(re.escape, suffixes))
    return re.compile(rf"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+(?:{ends}))\b")


def _stem(path: str) -> str:
    """`path` without its language's suffix."""
    return next((path.removesuffix(s) for s in _suffixes() if path.endswith(s)), path)


def _looks_like_identifier(word: str) -> bool:
    """snake_case, camelCase, PascalCase-with-inner-capital, or dunder."""
    if "_" in word.strip("_") or word.startswith("__"):
        return True
    return bool(re.search(r"[a-z][A-Z]", word)) or bool(re.match(r"^[A-Z][a-z]+[A-Z]", word))


@dataclass(frozen=True)
class Question:
    text: str
    intent: Intent
    identifiers: tuple[str, ...]  # names to look up as symbols (qualified or short)
    paths: tuple[str, ...]  # file paths named in the question
    words: tuple[str, ...]  # every word, for the full-text leg

    @property
    def plan(self) -> GraphPlan:
        return PLANS[self.intent]

    @property
    def asks(self) -> bool:
        """Whether it is asked as a question ("how does rich measure ...", "where are
        validators run"), not stated as a description of what some code does (the first
        sentence of a docstring: "Return the width of a string")."""
        return _ASKED.match(self.text) is not None

    @property
    def mentions_tests(self) -> bool:
        """Whether the question asks about test code ("which test checks ...", `test_save`,
        `conftest.py`): any word of it, names split, is one of `TEST_WORDS`."""
        pieces = (*self.words, *self.identifiers, *self.paths)
        return any(word in TEST_WORDS for piece in pieces for word in split_identifier(piece))

    @property
    def short_names(self) -> tuple[str, ...]:
        """Identifiers without a dot (dotted ones are matched as qualified-name suffixes)."""
        return tuple(name for name in self.identifiers if "." not in name)


def clean_question(text: str) -> str:
    """`text` as valid Unicode, which the tokenizer and the Neo4j driver accept.

    Invalid UTF-8 bytes in a command line reach Python as lone surrogates: they are decoded
    again (a Latin-1 "é" becomes U+FFFD, valid UTF-8 split oddly is restored); any other lone
    surrogate becomes U+FFFD too.
    """
    if not _SURROGATE.search(text):
        return text
    with contextlib.suppress(UnicodeEncodeError):  # a surrogate that is not an escaped byte
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return _SURROGATE.sub("\ufffd", text)


def analyse(text: str) -> Question:
    """Identifiers, file paths and intent of a question."""
    path_pattern = _path_pattern(_suffixes())
    identifiers: dict[str, None] = {}
    for quoted in _BACKTICKED.findall(text):
        cleaned = _CALL_SUFFIX.sub("", quoted.strip())
        if path_pattern.fullmatch(cleaned):
            continue
        if re.fullmatch(rf"{_NAME}(?:\.{_NAME})*", cleaned):
            identifiers.setdefault(cleaned, None)
    found = path_pattern.findall(text)
    paths = tuple(dict.fromkeys(p for p in found if len(p) <= _MAX_NAME_CHARS))
    without_paths = path_pattern.sub(" ", text)
    for dotted in _DOTTED.findall(without_paths):
        identifiers.setdefault(dotted, None)
    for word in _WORD.findall(_DOTTED.sub(" ", _BACKTICKED.sub(" ", without_paths))):
        if _looks_like_identifier(word):
            identifiers.setdefault(word, None)
    intent = Intent.CONCEPT
    for candidate, pattern in _INTENT_PATTERNS:
        if pattern.search(text):
            intent = candidate
            break
    if not identifiers and not paths and intent != Intent.CONCEPT:
        # "who calls save?": with no identifier-looking token, the remaining content words
        # are the candidate names
        for word in _WORD.findall(text):
            if word.lower() not in _STOP and len(word) > 2:
                identifiers.setdefault(word, None)
    words = tuple(_WORD.findall(text))
    names = tuple(name for name in identifiers if len(name) <= _MAX_NAME_CHARS)
    return Question(text=text, intent=intent, identifiers=names, paths=paths, words=words)


def lucene_query(question: Question) -> str | None:
    """A Lucene query that can never fail to parse: every term lowercased and escaped
    (`escape_lucene`), identifiers added both whole and split into words."""
    terms: dict[str, None] = {}
    for identifier in question.identifiers:
        for part in identifier.split("."):
            terms.setdefault(part.lower(), None)
            for word in split_identifier(part):
                terms.setdefault(word, None)
    for path in question.paths:
        for word in split_identifier(_stem(path)):
            terms.setdefault(word, None)
    for word in question.words:
        if word.lower() in _STOP:
            continue  # question vocabulary ("what calls ...") only adds noise
        if not word.isascii():  # the index keeps "café" whole; its split keeps ASCII only
            terms.setdefault(word.lower(), None)
        for piece in split_identifier(word):
            terms.setdefault(piece, None)
    cleaned = [escape_lucene(term) for term in terms if 1 < len(term) <= _MAX_TERM_CHARS]
    cleaned = cleaned[:_MAX_TERMS]
    return " ".join(cleaned) or None


def target_query(question: Question) -> str | None:
    """For trace questions ("trace X to the database"): a Lucene query of the words that are
    not the named symbols, which finds where the trace should end."""
    named = {word.lower() for identifier in question.identifiers for word in identifier.split(".")}
    words = [
        escape_lucene(word.lower())
        for word in question.words
        if word.lower() not in _STOP
        and word.lower() not in named
        and 2 < len(word) <= _MAX_TERM_CHARS
    ]
    return " ".join(dict.fromkeys(words)) or None
