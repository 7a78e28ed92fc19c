"""Leave generated and bundled files out of a run, each with its reason in the closing report
(`index --include-generated` keeps them). A tool-written header (`parsing.generated`) counts in
every language; a file built from others the tree holds is each language's call
(`Language.derived`). Decided afresh on every walk, from the walk alone, so an incremental run
converges to what a clean run would skip."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from ..languages.base import DerivedRule
from ..model import SkippedFile
from ..parsing.generated import read_ends, why_generated
from ..parsing.walker import WalkResult

__all__ = ["adds_or_removes", "without_generated"]


def without_generated(
    walked: WalkResult, rules: Mapping[str, DerivedRule], project: Iterable[str] = ()
) -> WalkResult:
    """`walked` less its generated and bundled files, which join its skipped ones. `rules`:
    language -> its rule for files built from others (a language without one: headers only);
    `project`: the project files' paths (`package.json`), where the walk did not collect them."""
    paths = frozenset(f.path for f in walked.files).union((f.path for f in walked.project), project)
    kept, skipped = [], list(walked.skipped)
    for source in walked.files:
        ends = read_ends(source.absolute)
        if ends is None:  # gone since the walk: the parse stage reports it
            kept.append(source)
            continue
        rule = rules.get(source.language)
        reason = why_generated(ends.head) or (
            rule(source.path, ends, paths) if rule is not None else None
        )
        if reason is None:
            kept.append(source)
        else:
            skipped.append(SkippedFile(source.path, reason))
    return WalkResult(kept, skipped, walked.skipped_dirs, walked.project)


def adds_or_removes(
    root: Path,
    known: Collection[str],
    changed: Iterable[str],
    suffixes: Mapping[str, str],
    rules: Mapping[str, DerivedRule],
) -> bool:
    """Whether a watcher's `changed` paths add or remove a file of a language with rules for
    built files (`known`: the files the last run indexed). A file built from it (`x.d.ts`
    beside `x.js`) may then come or go with it, which only a full walk sees."""
    for raw in changed:
        path = Path(raw)
        if path.is_absolute():
            if not path.is_relative_to(root):
                continue
            path = path.relative_to(root)
        if suffixes.get(path.suffix) in rules and (root / path).is_file() != (
            path.as_posix() in known
        ):
            return True
    return False
