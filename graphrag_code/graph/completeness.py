"""How completely a repository is indexed, and the warnings every answer drawn from it carries.

A run stopped by Ctrl-C or a crash leaves its repository `indexing` with part of its files; an
interrupted embedding stage leaves nodes without a vector (search silently used 5,376 of 8,013:
issue 55), as does one still running (it starts once the repository is complete: issue 56);
`index --embed later` leaves none. `answer_warnings` turns one small read of that state
(`GraphReader.completeness`, or the listing an MCP server already holds) into the warnings the
CLI (table and `--json`), the API results and the MCP answers all show.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "VECTOR_KINDS",
    "AnswerWarning",
    "Completeness",
    "WarningKind",
    "answer_warnings",
    "embed_command",
]

WarningKind = Literal[
    "incomplete",  # the last indexing run did not finish: files may be missing
    "vectors_partial",  # some nodes have no vector: the vector leg cannot find them
    "vectors_absent",  # no node has a vector (`index --no-embeddings`)
    "no_file_index",  # a graph from an earlier version: no whole-file text index
]
VECTOR_KINDS: frozenset[WarningKind] = frozenset({"vectors_partial", "vectors_absent"})
"""The kinds that matter only to answers that used vectors."""


@dataclass(frozen=True)
class AnswerWarning:
    """Why an answer may be incomplete, and what to run to fix it. `str()` is the text."""

    kind: WarningKind
    text: str
    repo: str | None = None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Completeness:
    """One repository's last run and vector coverage (`vectors` None: not read)."""

    repo: str
    status: str  # "complete", or "indexing" (a run under way or interrupted)
    nodes: int
    vectors: int | None
    root: str | None = None


def embed_command(repo: str) -> str:
    """The command that fills in `repo`'s missing vectors (after `index --embed later`, an
    interrupted embedding, or while one still runs)."""
    return f"graphrag-code embed --repo {shlex.quote(repo)}"


def answer_warnings(states: Iterable[Completeness], *, vectors: bool) -> tuple[AnswerWarning, ...]:
    """The warnings for an answer drawn from these repositories; vector coverage only when the
    answer used vectors (`vectors`: search, context, ask), since callers or paths never do."""
    found: list[AnswerWarning] = []
    for state in states:
        name = state.repo
        if state.status != "complete":
            folder = shlex.quote(state.root) if state.root else "FOLDER"
            found.append(
                AnswerWarning(
                    "incomplete",
                    f"repository {name!r} is not completely indexed (its last run was "
                    "interrupted or is still running): answers may miss code; run "
                    f"`graphrag-code index {folder} --repo {shlex.quote(name)}` again",
                    name,
                )
            )
        if not vectors or state.vectors is None or state.nodes == 0:
            continue
        embed = f"`{embed_command(name)}`"
        if state.vectors == 0:
            found.append(
                AnswerWarning(
                    "vectors_absent",
                    f"repository {name!r} has no vectors (indexed with --embed later or "
                    "--no-embeddings, or its embedding stage has stored none yet): search finds "
                    f"its code by name and along the graph only; run {embed}",
                    name,
                )
            )
        elif state.vectors < state.nodes:
            found.append(
                AnswerWarning(
                    "vectors_partial",
                    f"only {state.vectors:,} of the {state.nodes:,} code nodes of repository "
                    f"{name!r} have a vector (an embedding run was interrupted or is still "
                    "running): search cannot find the other "
                    f"{state.nodes - state.vectors:,} by meaning; run {embed}",
                    name,
                )
            )
    return tuple(found)
