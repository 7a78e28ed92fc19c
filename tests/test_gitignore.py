"""`.gitignore` matching (parsing/gitignore.py): as pathspec's GitIgnoreSpec decides, on the
rules repositories write, and in time linear in the name (issue 57, item 6)."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pathspec
import pytest

from graphrag_code.languages import languages, suffix_map
from graphrag_code.parsing import walk_repository
from graphrag_code.parsing.gitignore import IgnoreRules

PATTERNS = [
    "*.pyc", "build/", "/dist", "node_modules", "docs/_build/", "**/generated", "a/**/b.py",
    "src/**", "**/tmp/**", "*.py[cod]", "?.py", "[!a]*.py", "[a-c]x.py", "foo/*.py",
    "/foo/bar", "foo/bar/", "!keep.pyc", "\\#hash.py", "\\!bang.py", "trail\\ ", "# comment",
    "", "  ", "*.egg-info/", "a*b*c.py", "**/x*y*z/", "*/sub/*.py", "lib/**/*_pb2.py",
    "a/b/**/c/**/d.py", "***.log", "**", "x/**/", "[abc", "o?t/*", "a[/]b",
]  # fmt: skip
PATHS = [
    "x.pyc", "a/x.pyc", "build/", "a/build/", "build", "dist", "dist/", "a/dist/", "dist/x.py",
    "node_modules/", "a/node_modules/", "docs/_build/", "docs/_build/x.py", "a/docs/_build/",
    "generated", "a/b/generated/", "a/b.py", "a/x/y/b.py", "a/x/b.py", "b.py", "src/x.py",
    "src/", "a/tmp/x.py", "tmp/x", "x.pyd", "x.pyo", "ab.py", "a.py", "b.py", "bx.py", "dx.py",
    "foo/x.py", "foo/sub/x.py", "foo/bar", "foo/bar/", "a/foo/bar", "keep.pyc", "#hash.py",
    "!bang.py", "trail ", "trail", "pkg.egg-info/", "aXbYc.py", "abc.py", "acb.py",
    "q/xayaz/", "q/xyz", "p/sub/m.py", "p/q/sub/m.py", "lib/a/b/m_pb2.py", "lib/m_pb2.py",
    "a/b/c/d.py", "a/b/x/c/y/d.py", "a/b/d.py", "app.log", "x/", "x/y/", "[abc", "out/z",
    "oat/z/w",
]  # fmt: skip


@pytest.mark.parametrize("pattern", PATTERNS)
def test_each_rule_decides_as_pathspec_does(pattern: str) -> None:
    ours = IgnoreRules.from_lines([pattern])
    theirs = pathspec.GitIgnoreSpec.from_lines([pattern])
    differ = [p for p in PATHS if ours.match_file(p) != theirs.match_file(p)]
    # `src/**` (and `x/**/`) match what the folder holds, not the folder: git walks into it
    # (with `!src/k.py` after it, `git status` lists src/k.py), where pathspec stops at it
    assert differ == ({"src/**": ["src/"], "x/**/": ["x/"]}.get(pattern, []))


def test_rules_together_the_last_match_deciding() -> None:
    lines = ["*.py", "!keep.py", "logs/", "!logs/", "*.tmp", "!/top.tmp", "sub/*.py", "!sub/x.py"]
    paths = ["a.py", "keep.py", "d/keep.py", "logs/", "logs/a.py", "top.tmp", "d/top.tmp",
             "sub/x.py", "sub/y.py", "x.txt"]  # fmt: skip
    for combo in itertools.combinations(lines, 3):
        ours = IgnoreRules.from_lines(combo)
        theirs = pathspec.GitIgnoreSpec.from_lines(combo)
        assert [p for p in paths if ours.match_file(p) != theirs.match_file(p)] == [], combo


def test_a_folder_that_is_ignored_ignores_what_it_holds() -> None:
    rules = IgnoreRules.from_lines(["out/", "!out/keep.py"])
    assert rules.match_file("out/keep.py")  # git cannot re-include inside an ignored folder
    assert rules.match_file("a/out/b/c.py")
    assert not rules.match_file("outside.py")


def test_many_stars_against_long_names_take_linear_time() -> None:
    """Before: the walk of five 32-character names under this rule took 19.4 s (pathspec's
    regex backtracks exponentially; ×10 per five characters more)."""
    rules = IgnoreRules.from_lines(["*a*a*a*a*a*a*a*a*a*a*a*b", "a/**/**/**/**/**/**/x*a*a*b"])
    started = time.perf_counter()
    for length in (32, 1000, 100_000):
        assert not rules.match_file("a" * length)
        assert not rules.match_file("a/" + "a/" * 50 + "a" * length)
        assert rules.match_file("a" * length + "b")
    assert time.perf_counter() - started < 0.5


def test_the_walk_under_a_hostile_gitignore_ends_at_once(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*a*a*a*a*a*a*a*a*a*a*a*b\n")
    for index in range(5):
        (tmp_path / ("a" * 29 + f"{index}.py")).write_text("x = 1\n")
    (tmp_path / ("a" * 29 + "b")).write_text("x = 1\n")
    started = time.perf_counter()
    result = walk_repository(tmp_path, languages=suffix_map(languages()))
    assert time.perf_counter() - started < 0.5
    assert len(result.files) == 5
