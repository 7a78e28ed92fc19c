"""`.gitignore` rules, matched in time linear in the name (issue 57, item 6).

pathspec compiles `*a*a*a*a*a*a*a*a*a*a*a*b` to `[^/]*a[^/]*a…b`, which Python's backtracking
regex engine takes exponential time on: five 32-character names walked in 19.4 s, ten times
longer for every five characters more. Here a path segment with several `*` is matched chunk
by chunk, each chunk (the text between two stars, without a quantifier) at its leftmost place,
which is exact for globs; a rule with a `**` beside others is matched segment by segment over a
table of (rule segment, path segment) pairs. Only rules with at most one star per segment and
one `**` become a single regex, which cannot backtrack more than linearly.

Semantics as git's (gitignore(5)): blank lines and `#` comments skipped, trailing spaces
dropped unless escaped, `!` re-includes, a trailing `/` matches directories only, a `/` at the
start or in the middle anchors the rule to its folder, otherwise it matches a name at any
depth; `*`, `?` and `[…]` stay within a segment; `**/`, `/**/` and `/**` span folders; the last
matching rule wins, and nothing inside an ignored folder can be re-included.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

__all__ = ["IgnoreRules"]

Matcher = Callable[[str], bool]


@dataclass(frozen=True)
class _Rule:
    negated: bool
    directories_only: bool
    anchored: bool  # matched against the whole path, not its last name
    regex: str | None  # when one regex can match it safely (`_rule_regex`)
    matches: Matcher  # the path (anchored) or the last name, without a trailing "/"


@dataclass(frozen=True)
class _Group:
    """Consecutive rules with one outcome: whichever of them matches, the decision is the
    same, so their regexes are tried as one alternation (a walk asks about every file)."""

    negated: bool
    names: re.Pattern[str] | None  # rules on the last name, for files and folders
    paths: re.Pattern[str] | None  # rules on the whole path
    folder_names: re.Pattern[str] | None  # the same, for folders only (a trailing "/")
    folder_paths: re.Pattern[str] | None
    others: tuple[_Rule, ...]  # rules matched segment by segment

    def matches(self, path: str, name: str, *, is_dir: bool) -> bool:
        tests = [(self.names, name), (self.paths, path)]
        if is_dir:
            tests += [(self.folder_names, name), (self.folder_paths, path)]
        if any(regex is not None and regex.fullmatch(text) for regex, text in tests):
            return True
        return any(
            (is_dir or not rule.directories_only) and rule.matches(path if rule.anchored else name)
            for rule in self.others
        )


def _group(rules: list[_Rule]) -> _Group:
    def joined(directories_only: bool, anchored: bool) -> re.Pattern[str] | None:
        chosen = [
            f"(?:{rule.regex})"
            for rule in rules
            if rule.regex is not None
            and (rule.directories_only, rule.anchored) == (directories_only, anchored)
        ]
        return re.compile("|".join(chosen), re.DOTALL) if chosen else None

    return _Group(
        rules[0].negated,
        joined(False, False),
        joined(False, True),
        joined(True, False),
        joined(True, True),
        tuple(rule for rule in rules if rule.regex is None),
    )


class IgnoreRules:
    """The rules of one ignore file; paths are relative to its folder, POSIX, and end in "/"
    for a folder (`match_file("build/")`), as pathspec's `match_file` takes them."""

    def __init__(self, rules: Iterable[_Rule]) -> None:
        groups: list[list[_Rule]] = []
        for rule in rules:
            if groups and groups[-1][0].negated == rule.negated:
                groups[-1].append(rule)
            else:
                groups.append([rule])
        self._groups = tuple(_group(group) for group in reversed(groups))  # the last first

    @classmethod
    def from_lines(cls, lines: Iterable[str]) -> IgnoreRules:
        return cls(rule for line in lines if (rule := _parse(line)) is not None)

    def __bool__(self) -> bool:
        return bool(self._groups)

    def match_file(self, path: str, *, parents: bool = True) -> bool:
        """Whether `path` is ignored: a folder on its way that is ignored ignores it too
        (`parents=False`: its folders are known not to be, as in a walk that went into them)."""
        is_dir = path.endswith("/")
        path = path.rstrip("/")
        name = path.rpartition("/")[2]
        if parents and "/" in path:
            parts = path.split("/")
            for end in range(1, len(parts)):
                if self._decide("/".join(parts[:end]), parts[end - 1], is_dir=True):
                    return True
        return self._decide(path, name, is_dir=is_dir)

    def _decide(self, path: str, name: str, *, is_dir: bool) -> bool:
        for group in self._groups:  # the last matching rule decides
            if group.matches(path, name, is_dir=is_dir):
                return not group.negated
        return False


def _parse(line: str) -> _Rule | None:
    line = line.rstrip("\n\r")
    if not line or line.startswith("#"):
        return None
    line = _strip_trailing_spaces(line)
    negated = line.startswith("!")
    if negated or line.startswith(("\\!", "\\#")):
        line = line[1:]
    directories_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    line = line.lstrip("/")
    segments = [segment for segment in line.split("/") if segment]
    if not segments:
        return None
    # consecutive `**` mean what one does
    collapsed = [
        s for i, s in enumerate(segments) if not (s == "**" and segments[i - 1 : i] == ["**"])
    ]
    regex = _rule_regex(tuple(collapsed))
    return _Rule(negated, directories_only, anchored, regex, _rule_matcher(tuple(collapsed), regex))


def _strip_trailing_spaces(line: str) -> str:
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line):  # "a\ " keeps its space
        return stripped[:-1] + " "
    return stripped


def _rule_regex(segments: tuple[str, ...]) -> str | None:
    """One regex for the rule, when it cannot backtrack badly: at most one star in each
    segment and at most one `**`; else None."""
    if segments.count("**") > 1:
        return None
    parts: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            parts.append(".+" if last else "(?:[^/]+/)*")
            continue
        chunks = _chunks(segment)
        if len(chunks) > 2:
            return None
        parts.append("[^/]*".join(c.regex.pattern for c in chunks) + ("" if last else "/"))
    return "".join(parts)


def _rule_matcher(segments: tuple[str, ...], regex: str | None) -> Matcher:
    if regex is not None:
        expression = re.compile(regex, re.DOTALL)
        return lambda path: expression.fullmatch(path) is not None
    if len(segments) == 1:
        return _segment_matcher(segments[0])
    matchers = tuple(None if s == "**" else _segment_matcher(s) for s in segments)
    return lambda path: _match_segments(matchers, tuple(path.split("/")))


def _match_segments(matchers: tuple[Matcher | None, ...], names: tuple[str, ...]) -> bool:
    """Rule segments against path segments, `None` for `**` (zero or more names; one or more
    at the end): a table of at most len(matchers) × len(names) cells, each filled once."""

    @cache
    def match(rule: int, name: int) -> bool:
        if rule == len(matchers):
            return name == len(names)
        matcher = matchers[rule]
        if matcher is None:
            if rule == len(matchers) - 1:
                return name < len(names)
            return any(match(rule + 1, at) for at in range(name, len(names) + 1))
        return name < len(names) and matcher(names[name]) and match(rule + 1, name + 1)

    return match(0, 0)


def _segment_matcher(segment: str) -> Matcher:
    """A test of one name against a glob without `/`: its chunks (the text between stars),
    the first at the start, the last at the end, each other one at its leftmost place after
    the one before — exact for globs (a chunk matches a fixed number of characters), and one
    pass per chunk."""
    chunks = _chunks(segment)
    if len(chunks) <= 2:
        expression = re.compile("[^/]*".join(c.regex.pattern for c in chunks), re.DOTALL)
        return lambda name: expression.fullmatch(name) is not None
    first, middle, last = chunks[0], chunks[1:-1], chunks[-1]

    def matches(name: str) -> bool:
        if first.regex.match(name) is None:
            return False
        at = first.width
        for chunk in middle:
            found = chunk.regex.search(name, at)
            if found is None:
                return False
            at = found.end()
        start = len(name) - last.width
        return start >= at and last.regex.fullmatch(name, start) is not None

    return matches


@dataclass(frozen=True)
class _Chunk:
    regex: re.Pattern[str]  # no quantifier: every token matches one character
    width: int


def _chunks(segment: str) -> list[_Chunk]:
    """The text between the stars of `segment` (empty at either end when a star is there),
    as regexes; consecutive stars count as one."""
    chunks: list[list[str]] = [[]]
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            if chunks[-1] or len(chunks) == 1:
                chunks.append([])
            index += 1
            continue
        if char == "\\" and index + 1 < len(segment):
            chunks[-1].append(re.escape(segment[index + 1]))
            index += 2
            continue
        if char == "?":
            chunks[-1].append("[^/]")
        elif char == "[":
            parsed = _bracket(segment, index)
            # an unclosed bracket makes the rule match nothing, as in git's wildmatch
            chunks[-1].append(parsed[0] if parsed is not None else "(?!)")
            index = parsed[1] if parsed is not None else len(segment)
            continue
        else:
            chunks[-1].append(re.escape(char))
        index += 1
    return [_Chunk(re.compile("".join(tokens), re.DOTALL), len(tokens)) for tokens in chunks]


def _bracket(segment: str, start: int) -> tuple[str, int] | None:
    """The regex class of the bracket expression at `start` and the index after it, or None
    when it is not closed."""
    index = start + 1
    negated = index < len(segment) and segment[index] in "!^"
    if negated:
        index += 1
    body: list[str] = []
    first = True
    while index < len(segment):
        char = segment[index]
        if char == "]" and not first:
            inner = "".join(body)
            return (f"[^/{inner}]" if negated else f"[{inner}]"), index + 1
        if char == "\\" and index + 1 < len(segment):
            body.append(re.escape(segment[index + 1]))
            index += 2
        else:
            body.append(char if char == "-" else re.escape(char))
            index += 1
        first = False
    return None
