"""The repository overview resource: what an agent reads first about a repository (its
languages, size, where to start reading, what everything depends on), in Markdown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import RepositoryNotFoundError
from .freshness import describe_freshness
from .render import entry_point_line, warning_lines

if TYPE_CHECKING:
    from .tools import GraphTools

__all__ = ["repository_overview"]

_TOP = 10


def repository_overview(tools: GraphTools, repo: str) -> str:
    """Markdown: languages and kinds, the most central symbols, the roots, the freshness."""
    infos = tools.tracker.repositories()
    info = infos.get(repo)
    if info is None or not tools.options.allows(repo):
        served = [name for name in infos if tools.options.allows(name)]
        raise RepositoryNotFoundError(repo, known=served, lister="the `repositories` tool")
    points = tools.graph.entry_points(repo, limit=_TOP)
    lines = [f"# {repo}", ""]
    for fresh in tools.tracker.of([repo]):
        lines += [*warning_lines(fresh.warnings), describe_freshness(fresh), ""]
    lines.append(f"{info.files} files, {info.symbols} symbols.")
    lines += ["", "| language | files | classes | functions | methods |", "|---|---|---|---|---|"]
    for language, files in info.languages.items():
        counts = [info.nodes.get((language, kind), 0) for kind in ("Class", "Function", "Method")]
        lines.append(f"| {language} | {files} | " + " | ".join(map(str, counts)) + " |")
    lines += ["", "## Most central symbols (PageRank)", ""]
    lines += [f"- {entry_point_line(point)}" for point in points.central]
    lines += ["", "## Entry points (public code nothing calls)", ""]
    lines += [f"- {entry_point_line(point)}" for point in points.roots]
    return "\n".join(lines) + "\n"
