"""Leave generated and bundled files out of a run, each with its reason in the closing report
(`index --include-generated` keeps them). A tool-written header (`parsing.generated`) counts in
every language; a file built from others the tree holds is each language's call
(`Language.derived`). Decided on every walk from the walk alone, so an incremental run
converges to what a clean run would skip; the verdicts are kept (`GeneratedBook`), so a run
reads again only the files whose content changed, and none while no path came or went."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..languages.base import DerivedRule
from ..model import SkippedFile, SourceFile
from ..parsing.generated import read_ends, why_generated
from ..parsing.walker import WalkResult

__all__ = ["GeneratedBook", "without_generated"]

Verdict = tuple[int, int, str, str | None]
"""A file's size, mtime_ns and sha256 as the walk found them, and why it is generated (None:
written by hand)."""


@dataclass(frozen=True)
class GeneratedBook:
    """The verdicts of one run's walk: every path the rules saw (source and project files), and
    each source file's `Verdict`. A rule that looks at a file's siblings answers as before
    while `paths` is the same, so a file whose sha256 is unchanged keeps its verdict unread.
    The stats are the watcher's: its partial walk knows the skipped files as the kept ones."""

    paths: frozenset[str]
    files: dict[str, Verdict]

    def stats(self) -> dict[str, tuple[int, int, str]]:
        """Path -> (size, mtime_ns, sha256) of every source file the walk found."""
        return {path: (size, mtime, sha) for path, (size, mtime, sha, _) in self.files.items()}

    def restamped(self, read: Mapping[str, SourceFile]) -> GeneratedBook:
        """The book with the size, mtime and sha256 of the files the parse stage read (`read`:
        path -> the file as read): a full run's walk only stats the files it keeps, so their
        verdicts hold no hash until the parse stage has read them (issue 57)."""
        files = dict(self.files)
        for path, source in read.items():
            verdict = files.get(path)
            if verdict is not None:
                files[path] = (source.size, source.mtime_ns, source.sha256, verdict[3])
        return GeneratedBook(self.paths, files)


def without_generated(
    walked: WalkResult,
    rules: Mapping[str, DerivedRule],
    project: Iterable[str] = (),
    book: GeneratedBook | None = None,
) -> tuple[WalkResult, GeneratedBook]:
    """`walked` less its generated and bundled files, which join its skipped ones, and the
    verdicts for the next run. `rules`: language -> its rule for files built from others (a
    language without one: headers only); `project`: the project files' paths
    (`package.json`), where the walk did not collect them; `book`: the last run's verdicts."""
    paths = frozenset(f.path for f in walked.files).union((f.path for f in walked.project), project)
    known = book.files if book is not None and book.paths == paths else {}
    kept, skipped = [], list(walked.skipped)
    verdicts: dict[str, Verdict] = {}
    for source in walked.files:
        previous = known.get(source.path)
        if previous is not None and previous[2] == source.sha256:
            reason = previous[3]
        else:
            ends = read_ends(source.absolute)
            if ends is None:  # gone since the walk: the parse stage reports it
                kept.append(source)
                continue
            rule = rules.get(source.language)
            reason = why_generated(ends.head) or (
                rule(source.path, ends, paths) if rule is not None else None
            )
        verdicts[source.path] = (source.size, source.mtime_ns, source.sha256, reason)
        if reason is None:
            kept.append(source)
        else:
            skipped.append(SkippedFile(source.path, reason))
    walk = WalkResult(kept, skipped, walked.skipped_dirs, walked.project)
    return walk, GeneratedBook(paths, verdicts)
