"""The tools: each answers one kind of question about the code graph through `CodeGraph`,
as compact text for the model plus structured content (`answers.py`), within the token guard,
with the graph's freshness, and with errors as tool errors that say what to do next.

Every read runs in a read transaction (the client does that); `index` and `refresh` are
registered only when the server allows writes. A tool is a method returning
`Annotated[CallToolResult, <answer>]` plus its name in `READ_TOOLS` or `WRITE_TOOLS`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, ParamSpec

from mcp_types import CallToolResult
from pydantic import Field

from ..codegraph import CodeGraph
from ..errors import (
    AmbiguousSymbolError,
    GraphRAGCodeError,
    InvalidArgumentError,
    LocalServerError,
    Neo4jUnavailableError,
    RepositoryNotFoundError,
    SymbolNotFoundError,
)
from ..ids import repository_of
from ..impact import TESTS_CUT, coverage_line
from ..ingest.pipeline import valid_repo_name
from ..ingest.report import cross_repo_warnings
from ..location import Location
from ..retrieval.relation_kinds import POSSIBLE_HELP, RELATIONS, RelationKind, RelationName
from ..retrieval.relations import Related
from ..retrieval.search import SearchOptions
from .answers import (
    ContextAnswer,
    DiffImpactAnswer,
    EntryPointsAnswer,
    IndexAnswer,
    PathAnswer,
    RelationsAnswer,
    RepositoriesAnswer,
    RepositorySummary,
    SearchAnswer,
    SymbolAnswer,
    TestsForAnswer,
    ToolFailure,
)
from .confine import check_write, resolve_folder
from .freshness import Freshness, FreshnessTracker
from .guard import (
    check_name,
    check_question,
    cut_text,
    estimate_tokens,
    fit_lines,
    narrowing_hint,
)
from .options import ServerOptions
from .render import (
    affected_line,
    changed_line,
    entry_point_line,
    freshness_lines,
    freshness_warnings,
    hit_line,
    path_lines,
    related_line,
    relation_hint,
    relations_notes,
    symbol_lines,
    symbol_ref,
    test_line,
    warning_lines,
)
from .results import tool_failure, tool_result

__all__ = ["READ_TOOLS", "WRITE_TOOLS", "GraphTools"]

P = ParamSpec("P")

Repo = Annotated[
    str | None,
    Field(description="repository name in the graph (see `repositories`); omit to search all"),
]
Symbol = Annotated[
    str,
    Field(
        description="a qualified name (pkg.module.Class.method), a short or dotted name "
        "(Class.method), or a module's file path"
    ),
]
Depth = Annotated[int, Field(ge=1, le=6, description="hops to follow (1 = direct only)")]
Within = Annotated[
    bool,
    Field(
        description="stay in the symbol's repository; by default the walk follows edges into "
        "other indexed repositories (a service's calls into a shared library)"
    ),
]
Possible = Annotated[bool, Field(description=POSSIBLE_HELP)]

_MAX_PATCH_CHARS = 2_000_000  # a unified diff larger than this is not a change to review

_START_NEO4J = (
    " Start Neo4j and call the tool again (this MCP server keeps running): "
    "`graphrag-code neo4j start` starts the managed local server; or set NEO4J_URI (and "
    "NEO4J_USERNAME, NEO4J_PASSWORD) in the server's environment to a server that runs."
)


def _answering(
    method: Callable[P, CallToolResult],
) -> Callable[P, CallToolResult]:
    """Turn the library's errors into tool errors whose message says what to do next."""

    @functools.wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> CallToolResult:
        tools = args[0]
        assert isinstance(tools, GraphTools)
        try:
            return method(*args, **kwargs)
        except AmbiguousSymbolError as exc:
            return tool_failure(
                ToolFailure(
                    type(exc).__name__,
                    f"{exc}. Call again with one of them (or use `symbol` to compare them).",
                    candidates=exc.candidates,
                )
            )
        except SymbolNotFoundError as exc:
            return tool_failure(tools.not_found(exc))
        except (Neo4jUnavailableError, LocalServerError) as exc:
            return tool_failure(ToolFailure(type(exc).__name__, f"{exc}.{_START_NEO4J}"))
        except GraphRAGCodeError as exc:
            return tool_failure(ToolFailure(type(exc).__name__, str(exc)))

    return run


def _relation_tool(kind: RelationKind) -> Callable[..., CallToolResult]:
    """The tool of one relation, made from its definition: named after it, described by it,
    its subject argument named as it says (`symbol`, `module`, `target`), its default depth
    the relation's own."""
    subject: object = (
        Symbol
        if kind.subject_text is None
        else Annotated[str, Field(description=kind.subject_text)]
    )
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature(
        [
            inspect.Parameter("self", keyword),
            inspect.Parameter(kind.subject, keyword, annotation=subject),
            inspect.Parameter("depth", keyword, default=kind.depth, annotation=Depth),
            inspect.Parameter("repo", keyword, default=None, annotation=Repo),
            inspect.Parameter("within", keyword, default=False, annotation=Within),
            inspect.Parameter("possible", keyword, default=False, annotation=Possible),
        ],
        return_annotation=Annotated[CallToolResult, RelationsAnswer],
    )

    def tool(*args: Any, **kwargs: Any) -> CallToolResult:
        given = signature.bind(*args, **kwargs)
        given.apply_defaults()
        tools, name, depth, repo, within, possible = given.args
        assert isinstance(tools, GraphTools)
        return tools.relation(kind.name, name, depth, repo, within, possible=possible)

    tool.__signature__ = signature  # type: ignore[attr-defined]  # what MCP reads the schema from
    tool.__name__ = tool.__qualname__ = kind.name
    tool.__doc__ = kind.description
    return _answering(tool)


class GraphTools:
    """The tools of one server: one `CodeGraph`, its options, its freshness readings."""

    def __init__(self, graph: CodeGraph, options: ServerOptions, tracker: FreshnessTracker):
        self.graph = graph
        self.options = options
        self.tracker = tracker

    # -- helpers ------------------------------------------------------------------------------
    def _budget(self, requested: int | None = None) -> int:
        limit = self.options.max_answer_tokens
        return limit if requested is None else min(requested, limit)

    def _repo(self, repo: str | None) -> str | None:
        """The repository to ask: the one named (if served), the only one served, or None
        (every repository; answers are filtered to the served ones)."""
        if repo is not None:
            repo = check_name(repo, limit=self.options.max_name_chars, what="repository name")
            self._check_served(repo)
            if repo not in self.tracker.repositories():
                served = [r for r in self.tracker.repositories() if self.options.allows(r)]
                raise RepositoryNotFoundError(repo, known=served, lister="the `repositories` tool")
            return repo
        if self.options.repos is not None and len(self.options.repos) == 1:
            return next(iter(self.options.repos))
        return None

    def _check_served(self, repo: str) -> None:
        if not self.options.allows(repo):
            served = ", ".join(sorted(self.options.repos or ()))
            raise InvalidArgumentError(
                f"repository {repo!r} is not served here: this server serves {served} (--repo)"
            )

    def _scope(self, name: str, repo: str | None) -> str | None:
        """The repository `name` is resolved in: with several served repositories and none
        named, the one served repository that defines it."""
        repo = self._repo(repo)
        if repo is not None or self.options.repos is None:
            return repo
        found: list[str] = []
        for candidate in sorted(self.options.repos):
            try:
                self.graph.relations.resolve(name, repo=candidate)
            except AmbiguousSymbolError:
                pass
            except SymbolNotFoundError:
                continue
            found.append(candidate)
        if not found:
            raise SymbolNotFoundError(name)
        if len(found) > 1:
            raise AmbiguousSymbolError(name, [f"{name} in repository {r}" for r in found])
        return found[0]

    def _served(self, related: Sequence[Related]) -> list[Related]:
        if self.options.repos is None:
            return list(related)
        return [r for r in related if r.external or self.options.allows(repository_of(r.id))]

    def _freshness(self, repos: Sequence[str]) -> list[Freshness]:
        return self.tracker.of(repos)

    def not_found(self, error: SymbolNotFoundError) -> ToolFailure:
        """An unknown name, with the nodes the full-text index finds for it."""
        message = str(error)
        candidates: list[str] = []
        locations: list[Location] = []
        try:
            hits = self.graph.search(
                error.name.replace(".", " ").replace("/", " "),
                repo=error.repo,
                options=SearchOptions(k=5, legs=("text",)),
            ).hits
        except GraphRAGCodeError:
            hits = []
        hits = [h for h in hits if self.options.allows(h.repo)]
        if hits:
            candidates = [hit.qualified_name for hit in hits]
            locations = [hit.location for hit in hits]
            message += ". Did you mean: " + "; ".join(
                f"{hit.qualified_name} ({hit.location})" for hit in hits
            )
        message += ". Names are qualified (pkg.module.Class.method), short or dotted; `search` "
        message += "finds symbols by what they do."
        return ToolFailure(type(error).__name__, message, candidates, locations)

    # -- search and context -------------------------------------------------------------------
    @_answering
    def search(
        self,
        question: Annotated[str, Field(description="a question or keywords about the code")],
        repo: Repo = None,
        k: Annotated[int, Field(ge=1, le=50, description="number of hits")] = 10,
        tests: Annotated[
            bool | None,
            Field(
                description="true keeps test code, false leaves it out; unset: left out of "
                "concept questions that do not mention tests"
            ),
        ] = None,
    ) -> Annotated[CallToolResult, SearchAnswer]:
        """Find the functions, classes and files that answer a question about the code, by
        meaning, by name and along the code graph at once ("where are orders saved?", "what
        calls SqliteStorage.save?"). Each hit has its file:line range, the rank each of the
        three retrieval legs gave it, and for graph hits the call/import path that found it.
        Start here when you do not know the exact name; then use `symbol`, `callers`, … on a
        hit's qualified name, or `context` for the code itself."""
        question = check_question(question, limit=self.options.max_question_tokens)
        scope = self._repo(repo)
        fetch = k if self.options.repos is None or scope is not None else k * 3
        result = self.graph.search(
            question, repo=scope, options=SearchOptions(k=fetch, tests=tests)
        )
        hits = [hit for hit in result.hits if self.options.allows(hit.repo)][:k]
        freshness = self._freshness([hit.repo for hit in hits] or ([scope] if scope else []))
        header = [f"search ({result.question.intent.value}): {question}"]
        if not result.tests:
            header.append("test code left out (tests=true keeps it)")
        if not hits:
            header.append("no hit")
        items = [hit_line(rank, hit) for rank, hit in enumerate(hits, start=1)]
        # the repositories' own warnings come with their freshness; the rest (an unknown
        # repository, no whole-file index) only from the search
        shown = freshness_warnings(freshness, vectors=result.vectors_used)
        others = [w for w in result.warnings if w not in shown]
        footer = warning_lines(others) + freshness_lines(freshness, vectors=result.vectors_used)
        kept = fit_lines(header + footer, items, budget=self._budget()) if items else 0
        omitted = len(items) - kept
        if omitted:
            footer.insert(
                0,
                f"… {omitted} more hit(s) left out to fit the answer budget "
                f"({narrowing_hint(fewer=('k', kept))})",
            )
        answer = SearchAnswer(
            question, result.question.intent.value, hits[:kept], others + shown,
            freshness, omitted,
        )  # fmt: skip
        return tool_result(header + items[:kept] + footer, answer)

    @_answering
    def context(
        self,
        question: Annotated[str, Field(description="what the code should explain")],
        repo: Repo = None,
        max_tokens: Annotated[
            int, Field(ge=200, le=20000, description="budget for the code returned")
        ] = 2000,
    ) -> Annotated[CallToolResult, ContextAnswer]:
        """The source code that answers a question, ready to read: the best hits' code, then
        the signatures of what they call, the types they use and their siblings, each headed
        by its `path:start-end` citation, within a token budget (capped by the server's
        answer budget). Use it instead of opening whole files."""
        question = check_question(question, limit=self.options.max_question_tokens)
        scope = self._repo(repo)
        budget = self._budget(max_tokens)
        footer_room = 120  # the freshness line
        built = self.graph.build_context(question, max_tokens=budget - footer_room, repo=scope)
        items = [item for item in built.items if self.options.allows(repository_of(item.id))]
        freshness = self._freshness(
            [repository_of(item.id) for item in items] or ([scope] if scope else [])
        )
        lines = [item.text for item in items] or ["no code found for this question"]
        if built.truncated:
            lines.append("(more relevant code did not fit: ask a narrower question)")
        answer = ContextAnswer(
            question, items, sum(item.tokens for item in items), built.truncated, freshness
        )
        vectors = built.search is not None and built.search.vectors_used
        return tool_result([*lines, *freshness_lines(freshness, vectors=vectors)], answer)

    # -- relations ----------------------------------------------------------------------------
    def relation(
        self,
        relation: RelationName,
        name: str,
        depth: int,
        repo: str | None,
        within: bool,
        *,
        possible: bool = False,
    ) -> CallToolResult:
        """The answer of a relation's tool (`_relation_tool`)."""
        name = check_name(name, limit=self.options.max_name_chars)
        scope = self._scope(name, repo)
        # a repository the agent named filters the answers; one chosen here (the served one
        # defining the name) is only where the subject is looked up
        result = self.graph.relations.related(
            relation, name, depth=depth, repo=scope if repo else None, lookup=scope,
            within=within, possible=possible,
        )  # fmt: skip
        result = replace(
            result, certain=self._served(result.certain), possible=self._served(result.possible)
        )
        freshness = self._freshness([result.subject.repo])
        subject = result.subject
        header = [
            f"{relation} of {symbol_ref(subject)}, depth {depth}: {len(result.certain)} "
            f"certain, {len(result.possible)} possible"
        ]
        if result.leaning:
            header.append(result.leaning)
        elif result.leaned_on == "certain" and result.certain:
            header.append("certain edges only (possible=true adds name matches and dispatch)")
        certain = [related_line(r, subject.repo) for r in result.certain]
        maybe = [related_line(r, subject.repo) for r in result.possible]
        notes = relations_notes(result, depth, within=within, possible=possible)
        footer = notes + freshness_lines(freshness)
        titles = ["certain (exact or inferred edges):", "possible (a name match, or an override):"]
        kept = fit_lines(header + titles + footer, certain + maybe, budget=self._budget())
        keep_certain = min(kept, len(certain))
        keep_possible = kept - keep_certain
        omitted = len(certain) + len(maybe) - kept
        lines = list(header)
        if certain:
            lines += [titles[0], *certain[:keep_certain]]
        if maybe[:keep_possible]:
            lines += [titles[1], *maybe[:keep_possible]]
        if not certain and not maybe:
            lines.append("nothing found")
        if omitted:
            hint = relation_hint(result, depth, within=within, possible=possible)
            lines.append(f"… {omitted} more left out to fit the answer budget ({hint})")
        trimmed = replace(
            result,
            certain=result.certain[:keep_certain],
            possible=result.possible[:keep_possible],
        )
        return tool_result(lines + footer, RelationsAnswer(trimmed, freshness, omitted))

    callers = _relation_tool(RELATIONS["callers"])
    callees = _relation_tool(RELATIONS["callees"])
    importers = _relation_tool(RELATIONS["importers"])
    dependencies = _relation_tool(RELATIONS["dependencies"])
    impact = _relation_tool(RELATIONS["impact"])

    # -- change impact ------------------------------------------------------------------------
    def _indexed_repo(self, repo: str | None) -> str:
        """The repository a change belongs to: the one named, else the only one served."""
        chosen = self._repo(repo)
        if chosen is not None:
            return chosen
        served = sorted(r for r in self.tracker.repositories() if self.options.allows(r))
        if len(served) != 1:
            raise InvalidArgumentError(
                "name the repository the change belongs to (`repo`): "
                + (", ".join(served) if served else "none is indexed")
            )
        return served[0]

    @_answering
    def diff_impact(
        self,
        revisions: Annotated[
            str | None,
            Field(
                description="a revision range of the repository's git checkout: 'main..HEAD', "
                "'A...B' (from their merge base), or one revision against the working tree; "
                "omit (and omit patch) for the uncommitted changes of the working tree"
            ),
        ] = None,
        patch: Annotated[
            str | None,
            Field(description="a unified diff (git diff output) whose new side is on disk"),
        ] = None,
        staged: Annotated[
            bool, Field(description="the staged changes (HEAD against the index)")
        ] = False,
        depth: Depth = 2,
        repo: Repo = None,
        possible: Annotated[
            bool,
            Field(
                description="walk on from what possible edges (name matches, dispatch) reach; "
                "by default it is listed after the certain, as possible, and not walked from"
            ),
        ] = False,
    ) -> Annotated[CallToolResult, DiffImpactAnswer]:
        """What a change touches and what may break: the changed functions, classes and
        methods (body, signature, docstring; renames and moves), the code that calls, imports,
        subclasses or uses them up to `depth` hops (certain first, then possible), the tests to run
        (surest and nearest first, as runner ids such as tests/test_x.py::test_y), the changed
        code no test reaches, and a risk level with its reasons. Reads the graph as indexed:
        when files changed since (see the freshness line), `refresh` first."""
        name = self._indexed_repo(repo)
        if revisions is not None:
            revisions = check_name(revisions, limit=self.options.max_name_chars, what="revision")
        if patch is not None and len(patch) > _MAX_PATCH_CHARS:
            raise InvalidArgumentError(
                f"the patch is {len(patch):,} characters; at most {_MAX_PATCH_CHARS:,} are "
                "accepted (give a revision range instead)"
            )
        info = self.tracker.repositories().get(name)
        if info is None or not info.root:
            raise InvalidArgumentError(f"the graph does not record the folder of {name!r}")
        impact = self.graph.diff(
            revisions,
            path=info.root,
            repo=name,
            staged=staged,
            patch=patch,
            update=False,
            depth=depth,
            possible=possible,
        )
        freshness = self._freshness([name])
        risk = impact.risk
        header = [
            f"change impact of {impact.source} in {name}: {len(impact.changes)} changed "
            f"symbol(s), {len(impact.affected)} affected, {len(impact.to_run)} test(s) to run"
            + (f" (+{len(impact.tests) - len(impact.to_run)} extra)" if impact.extras else "")
            + ", "
            f"{len(impact.untested)} untested change(s); risk {risk.level}"
            + (f" ({'; '.join(risk.reasons)})" if risk.reasons else "")
        ]
        if impact.graph.note:
            header.append(f"note: {impact.graph.note}")
        footer = [f"warning: {w}" for w in impact.warnings]
        if impact.other_files:
            footer.append("other changed files (no code graph): " + ", ".join(impact.other_files))
        if impact.truncated:
            footer.append(f"the blast radius hit its size cap at depth {depth}: more exist")
        if impact.tests_truncated:
            footer.append(TESTS_CUT)
        footer.append(coverage_line(impact.coverage, sum(t.ran for t in impact.tests)))
        footer += freshness_lines(freshness)
        sections = [
            ("changed:", [changed_line(c) for c in impact.changes]),
            ("tests to run:", [test_line(t) for t in impact.tests]),
            ("affected (nearest first):", [affected_line(a) for a in impact.affected]),
            ("untested changes:", [c.qualified_name for c in impact.untested]),
        ]
        titles = [title for title, items in sections if items]
        items = [item for _, section in sections for item in section]
        kept = fit_lines(header + titles + footer, items, budget=self._budget())
        lines = list(header)
        shown: list[int] = []
        for title, section in sections:
            count = max(0, min(len(section), kept - sum(shown)))
            shown.append(count)
            if count:
                lines += [title, *section[:count]]
        omitted = len(items) - kept
        if omitted:
            hint = narrowing_hint(
                depth=depth,
                possible=possible and any(not a.certain for a in impact.affected),
                narrower="a narrower change: a shorter revision range, or a patch of fewer files",
            )
            lines.append(f"… {omitted} more left out to fit the answer budget ({hint})")
        trimmed = replace(
            impact,
            changes=impact.changes[: shown[0]],
            tests=impact.tests[: shown[1]],
            affected=impact.affected[: shown[2]],
            untested=impact.untested[: shown[3]],
        )
        return tool_result(lines + footer, DiffImpactAnswer(trimmed, freshness, omitted))

    @_answering
    def tests_for(
        self,
        target: Annotated[
            str, Field(description="a function, method, class (any of its methods) or file")
        ],
        repo: Repo = None,
    ) -> Annotated[CallToolResult, TestsForAnswer]:
        """The tests that exercise a symbol or a file's code, nearest and surest first, as
        runner ids (tests/test_x.py::TestA::test_b) with the fixture or set-up each reaches it
        through. Use to pick what to run after an edit."""
        target = check_name(target, limit=self.options.max_name_chars)
        scope = self._scope(target, repo)
        result = self.graph.tests_for(target, repo=scope)
        subject = self.graph.relations.resolve(target, repo=scope)
        freshness = self._freshness([subject.repo])
        header = [
            f"tests for {symbol_ref(subject)}: {len(result.tests)} test(s)"
            + (f" over its {result.targets} symbols" if result.targets > 1 else "")
        ]
        rows = [test_line(t) for t in result.tests]
        footer = ([TESTS_CUT] if result.truncated else []) + freshness_lines(freshness)
        footer.insert(
            0, coverage_line(result.coverage, sum(t.ran for t in result.tests), subject="it")
        )
        kept = fit_lines(header + footer, rows, budget=self._budget()) if rows else 0
        lines = header + (rows[:kept] or ["no test reaches it"])
        omitted = len(rows) - kept
        if omitted:
            lines.append(f"… {omitted} more left out to fit the answer budget")
        trimmed = replace(result, tests=result.tests[:kept])
        return tool_result(lines + footer, TestsForAnswer(trimmed, freshness, omitted))

    @_answering
    def path(
        self,
        source: Annotated[str, Field(description="where the chain starts (a symbol or file)")],
        target: Annotated[str, Field(description="where it ends (a symbol or file)")],
        repo: Repo = None,
    ) -> Annotated[CallToolResult, PathAnswer]:
        """The shortest chain of calls, imports and definitions from one symbol to another
        ("how does the API endpoint reach the database?"), each step with its file:line, the
        line of the call and how it was resolved."""
        source = check_name(source, limit=self.options.max_name_chars)
        target = check_name(target, limit=self.options.max_name_chars)
        scope = self._scope(source, repo)
        result = self.graph.path(source, target, repo=scope)
        freshness = self._freshness([result.source.repo])
        if not result.found:
            lines = [
                f"no call/import chain from {symbol_ref(result.source)} to "
                f"{symbol_ref(result.target)} (try the reverse direction, or `impact`)"
            ]
        else:
            certainty = (
                "certain"
                if result.certain
                else f"possible ({result.possible_steps} uncertain step(s), marked below)"
            )
            lines = [f"path of {len(result.steps) - 1} step(s), {certainty}:"]
            lines += path_lines(result.steps)
        return tool_result(lines + freshness_lines(freshness), PathAnswer(result, freshness))

    @_answering
    def entry_points(
        self,
        repo: Annotated[
            str | None, Field(description="repository name (see `repositories`)")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="of each list")] = 15,
    ) -> Annotated[CallToolResult, EntryPointsAnswer]:
        """Where to start reading a repository: its roots (public functions and methods
        nothing calls but that call others: commands, handlers, public API) and its most
        central symbols by PageRank, each with file:line."""
        scope = self._repo(repo)
        if scope is None:
            served = sorted(self.options.repos or self.tracker.repositories())
            raise InvalidArgumentError(
                "name the repository: this server serves " + (", ".join(served) or "none yet")
            )
        if scope not in self.tracker.repositories():
            raise RepositoryNotFoundError(
                scope, known=sorted(self.tracker.repositories()), lister="the `repositories` tool"
            )
        points = self.graph.entry_points(scope, limit=limit)
        freshness = self._freshness([scope])
        roots = [entry_point_line(p) for p in points.roots]
        central = [entry_point_line(p) for p in points.central]
        titles = [f"entry points of {scope}", "roots (nothing calls them):", "most central:"]
        footer = freshness_lines(freshness)
        kept_roots = fit_lines(titles + footer, roots, budget=self._budget() // 2)
        kept_central = fit_lines(titles + footer, central, budget=self._budget() // 2)
        omitted = len(roots) - kept_roots + len(central) - kept_central
        lines = [titles[0], titles[1], *roots[:kept_roots], titles[2], *central[:kept_central]]
        if omitted:
            hint = narrowing_hint(fewer=("limit", max(1, min(kept_roots, kept_central))))
            lines.append(f"… {omitted} more left out to fit the answer budget ({hint})")
        answer = EntryPointsAnswer(
            scope, points.roots[:kept_roots], points.central[:kept_central], freshness, omitted
        )
        return tool_result(lines + footer, answer)

    # -- definitions and repositories ---------------------------------------------------------
    @_answering
    def symbol(
        self,
        name: Symbol,
        repo: Repo = None,
        include_code: Annotated[bool, Field(description="include the source code")] = True,
    ) -> Annotated[CallToolResult, SymbolAnswer]:
        """Look a name up: its definition's file:line range, signature, docstring, code and
        how connected it is (called by / calls / PageRank). When several symbols match the
        name equally well, the candidates with their locations are listed instead: call again
        with the qualified name you mean."""
        name = check_name(name, limit=self.options.max_name_chars)
        scope = self._scope(name, repo)
        lookup = self.graph.symbol(name, repo=scope)
        candidates = [c for c in lookup.candidates if self.options.allows(c.repo)]
        definition = lookup.definition
        if definition is None:
            freshness = self._freshness([c.repo for c in candidates])
            lines = [f"{name!r} matches {len(candidates)} symbols equally well; pick one:"]
            lines += [f"- {symbol_ref(c)}" for c in candidates]
            answer = SymbolAnswer(name, None, candidates, freshness)
            return tool_result(lines + freshness_lines(freshness), answer)
        freshness = self._freshness([definition.symbol.repo])
        lines = symbol_lines(definition)
        others = [f"other matches: {'; '.join(symbol_ref(c) for c in candidates)}"]
        footer = (others if candidates else []) + freshness_lines(freshness)
        cut = 0
        if include_code and definition.code:
            room = self._budget() - sum(estimate_tokens(line) + 1 for line in lines + footer)
            code, cut = cut_text(definition.code, budget=max(room - 10, 0))
            fence = definition.language or ""
            lines += [f"```{fence}", code, "```"]
            if cut:
                lines.append(f"({cut} more line(s) of code left out to fit the answer budget)")
            definition = replace(definition, code=code)
        elif not include_code:
            definition = replace(definition, code=None)
        answer = SymbolAnswer(name, definition, candidates, freshness, cut)
        return tool_result(lines + footer, answer)

    @_answering
    def repositories(self) -> Annotated[CallToolResult, RepositoriesAnswer]:
        """What this server can answer about: each indexed repository with the git commit it
        was indexed at, when, its size, its languages, and how many source files changed on
        disk since. Call it first to learn the repository names the other tools take."""
        self.tracker.forget()
        infos = [i for i in self.tracker.repositories().values() if self.options.allows(i.name)]
        summaries = [
            RepositorySummary(
                i.name, i.status, i.head, i.indexed_at, i.files, i.symbols, i.languages
            )
            for i in sorted(infos, key=lambda info: info.name)
        ]
        freshness = self._freshness([s.name for s in summaries])
        lines = [f"{len(summaries)} repositories:" if summaries else "no repository indexed yet"]
        for summary in summaries:
            languages = ", ".join(f"{lang} {files}" for lang, files in summary.languages.items())
            lines.append(
                f"- {summary.name}: {summary.files} files, {summary.symbols} symbols"
                + (f" ({languages})" if languages else "")
            )
        answer = RepositoriesAnswer(summaries, freshness)
        return tool_result(lines + freshness_lines(freshness, vectors=True), answer)

    # -- writes (only with --allow-write) -----------------------------------------------------
    def _indexed(self, path: Path, repo: str | None, full: bool) -> CallToolResult:
        """Index the resolved folder `path` as `repo`, within the write confinement: nothing
        is written when it refuses."""
        repo = valid_repo_name(repo if repo is not None else path.name)
        self._check_served(repo)
        self.tracker.forget()  # the roots as the graph holds them now
        recorded = {name: info.root for name, info in self.tracker.repositories().items()}
        check_write(path, repo, recorded=recorded, roots=self.options.write_roots)
        report = self.graph.index(path, repo, full=full, keep_choices=True)
        self.tracker.forget()
        freshness = self._freshness([report.repo])
        lines = [
            f"indexed {report.repo} ({report.mode}): {report.files_total} files "
            f"({report.files_parsed} parsed, {report.files_unchanged} unchanged, "
            f"{report.files_removed} removed), {report.symbols} symbols, "
            f"{report.unresolved_calls} unresolved call sites, {report.total_seconds:.1f} s"
        ]
        if report.skipped:
            reasons = ", ".join(f"{n} {reason}" for reason, n in report.skipped_counts()[:8])
            lines.append(f"skipped {len(report.skipped)} file(s): {reasons}")
        lines.extend(cross_repo_warnings(report))
        answer = IndexAnswer(report.repo, report.as_dict(), freshness)
        return tool_result(lines + freshness_lines(freshness), answer)

    @_answering
    def index(
        self,
        path: Annotated[str, Field(description="a folder's absolute path on the server's machine")],
        repo: Annotated[
            str | None, Field(description="its name in the graph (default: the folder name)")
        ] = None,
        full: Annotated[bool, Field(description="rebuild instead of updating")] = False,
    ) -> Annotated[CallToolResult, IndexAnswer]:
        """Index (or update, incrementally) a repository folder on the server's machine into
        the graph, so the other tools can answer about it. Give the folder's absolute path: a
        repository is re-indexed only from the folder it was indexed from, and a new one only
        inside the folders the server was started with (--allow-write ROOT…)."""
        path = check_name(path, limit=4096, what="path")
        return self._indexed(resolve_folder(path), repo, full)

    @_answering
    def refresh(
        self, repo: Annotated[str, Field(description="repository name in the graph")]
    ) -> Annotated[CallToolResult, IndexAnswer]:
        """Bring a repository's graph up to date with its folder (an incremental re-index of
        the files changed since the last run; `repositories` says how many). Only servers
        started with --allow-write offer this tool."""
        repo = check_name(repo, limit=self.options.max_name_chars, what="repository name")
        self._check_served(repo)
        info = self.tracker.repositories().get(repo)
        if info is None:
            known = [r for r in self.tracker.repositories() if self.options.allows(r)]
            raise RepositoryNotFoundError(repo, known=known, lister="the `repositories` tool")
        if not info.root:
            raise InvalidArgumentError(f"the graph does not record the folder of {repo!r}")
        return self._indexed(resolve_folder(info.root), repo, False)


READ_TOOLS = (
    "search", "context", "callers", "callees", "importers", "dependencies", "impact", "path",
    "diff_impact", "tests_for", "entry_points", "symbol", "repositories",
)  # fmt: skip
"""The read-only tools, in the order they are listed."""

WRITE_TOOLS = ("index", "refresh")
"""Registered only with `--allow-write`."""
