"""The MCP server's pure parts: the token guard, freshness, the bearer-token middleware."""

from __future__ import annotations

import os
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_types import TextContent

from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding import HashingEmbedder
from graphrag_code.errors import InvalidArgumentError
from graphrag_code.graph import SymbolRef
from graphrag_code.location import Location
from graphrag_code.mcp.confine import check_write, resolve_folder, write_roots
from graphrag_code.mcp.freshness import Freshness, changed_since, describe_freshness
from graphrag_code.mcp.guard import check_name, check_question, cut_text, fit_lines, narrowing_hint
from graphrag_code.mcp.options import ServerOptions
from graphrag_code.mcp.render import relation_hint, relations_notes
from graphrag_code.mcp.server import BearerTokenGuard, build_server
from graphrag_code.retrieval.relations import Related, RelationsResult
from graphrag_code.settings import Settings


def test_questions_over_the_limit_are_refused_with_the_numbers() -> None:
    assert check_question("  where are orders saved?  ", limit=50) == "where are orders saved?"
    with pytest.raises(InvalidArgumentError, match="empty"):
        check_question(" \n ", limit=50)
    with pytest.raises(
        InvalidArgumentError, match=r"about 400 tokens; this server takes at most 50"
    ):
        check_question("word " * 400, limit=50)
    with pytest.raises(InvalidArgumentError, match="at most 20"):
        check_name("x" * 21, limit=20)


def test_fit_lines_keeps_what_fits_and_never_nothing() -> None:
    items = [f"{i}. pkg.module.function_{i} — src/pkg/module.py:{i}-{i + 9}" for i in range(50)]
    kept = fit_lines(["header"], items, budget=100)
    assert 1 <= kept < 50
    assert fit_lines(["header"], items, budget=100_000) == 50
    assert fit_lines(["a very long header " * 50], items, budget=10) == 1  # one at least


def test_cut_text_cuts_at_a_line_and_counts_the_rest() -> None:
    code = "\n".join(f"line_{i} = {i}" for i in range(100))
    cut, left = cut_text(code, budget=40)
    assert cut.splitlines() == [f"line_{i} = {i}" for i in range(len(cut.splitlines()))]
    assert left == 100 - len(cut.splitlines()) > 0
    assert cut_text("short", budget=40) == ("short", 0)


def test_options_refuse_budgets_too_small_to_answer() -> None:
    with pytest.raises(InvalidArgumentError, match="max_answer_tokens"):
        ServerOptions(max_answer_tokens=10)
    assert ServerOptions(repos=frozenset({"a"})).allows("a")
    assert not ServerOptions(repos=frozenset({"a"})).allows("b")
    assert ServerOptions().allows("anything")


def test_changed_since_counts_source_files_modified_after_the_run(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "node_modules").mkdir()
    old, new = tmp_path / "pkg/old.py", tmp_path / "pkg/new.py"
    for path in (old, new, tmp_path / "notes.txt", tmp_path / "node_modules/dep.js"):
        path.write_text("x = 1\n")
    indexed = datetime.now(timezone.utc)
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    for path in (new, tmp_path / "notes.txt", tmp_path / "node_modules/dep.js"):
        later = indexed.timestamp() + 5
        os.utime(path, (later, later))
    assert changed_since(tmp_path, indexed) == (1, ("pkg/new.py",))
    assert changed_since(tmp_path / "missing", indexed) is None


def test_freshness_line() -> None:
    now = datetime(2026, 1, 2, 10, 5, tzinfo=timezone.utc)
    fresh = Freshness(
        repo="shop", status="complete", head="4adb41409f2a1c",
        indexed_at=now - timedelta(minutes=5), changed_files=7, changed_sample=("a.py", "b.py"),
        watcher="watching",
    )  # fmt: skip
    assert describe_freshness(fresh, now) == (
        "shop: commit 4adb41409f, indexed 2026-01-02 10:00 UTC (5 min ago); 7 source file(s) "
        "changed since: a.py, b.py, …; kept fresh by a watcher"
    )
    unknown = Freshness("far", "indexing", None, None, None)
    assert describe_freshness(unknown, now) == (
        "far: not a git checkout, last indexing run indexing: the graph may miss files; "
        "changes since unknown (the indexed folder is not on this machine)"
    )


def _call(app: BearerTokenGuard, headers: list[tuple[bytes, bytes]]) -> int:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: Any) -> None:
        sent.append(message)

    anyio.run(app, {"type": "http", "headers": headers}, receive, send)
    return int(sent[0]["status"])


def test_bearer_token_guard() -> None:
    async def inner(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})

    guard = BearerTokenGuard(inner, "s3cret-token-of-length")
    assert _call(guard, []) == 401
    assert _call(guard, [(b"authorization", b"Bearer wrong")]) == 401
    assert _call(guard, [(b"authorization", b"Bearer s3cret-token-of-length")]) == 200


# -- the write tools stay in their folders (issue 57, item 2) -----------------------------------
def test_a_repository_is_reindexed_only_from_its_recorded_root(tmp_path: Path) -> None:
    """Before: `index {"path": "/some/secret", "repo": "victim"}` re-pointed victim there."""
    victim, secret = tmp_path / "victim", tmp_path / "secret"
    victim.mkdir()
    secret.mkdir()
    recorded: dict[str, str | None] = {"victim": str(victim.resolve())}
    check_write(victim.resolve(), "victim", recorded=recorded, roots=())
    with pytest.raises(InvalidArgumentError, match=r"'victim' is indexed from .*victim; .*only"):
        check_write(secret.resolve(), "victim", recorded=recorded, roots=(tmp_path.resolve(),))
    # a new repository: only inside a root given with --allow-write
    with pytest.raises(InvalidArgumentError, match=r"outside the folders this server may index"):
        check_write(secret.resolve(), "fresh", recorded=recorded, roots=())
    with pytest.raises(InvalidArgumentError, match=r"outside the folders"):
        check_write(secret.resolve(), "fresh", recorded=recorded, roots=(victim.resolve(),))
    check_write(secret.resolve(), "fresh", recorded=recorded, roots=(tmp_path.resolve(),))
    # a repository the graph holds without a root (an interrupted first run) counts as new
    with pytest.raises(InvalidArgumentError, match=r"outside the folders"):
        check_write(secret.resolve(), "half", recorded={"half": None}, roots=())


def test_client_paths_are_resolved_before_the_check(tmp_path: Path) -> None:
    """`..`, links and `~` cannot lead a write outside its root: the check sees where they go."""
    allowed, outside = tmp_path / "allowed", tmp_path / "outside"
    (allowed / "inner").mkdir(parents=True)
    outside.mkdir()
    (allowed / "link").symlink_to(outside)
    roots = write_roots([allowed])
    for text in (f"{allowed}/inner/../../outside", f"{allowed}/link"):
        folder = resolve_folder(text)
        assert folder == outside.resolve()
        with pytest.raises(InvalidArgumentError, match="outside the folders"):
            check_write(folder, "outside", recorded={}, roots=roots)
    check_write(resolve_folder(f"{allowed}/inner"), "inner", recorded={}, roots=roots)
    for text, message in (
        ("~root/../tmp", "`~` is not expanded"),
        ("relative/path", "absolute path"),
        (str(tmp_path / "missing"), "not a folder"),
        (str(allowed / "link" / ".." / "nothing"), "not a folder"),
    ):
        with pytest.raises(InvalidArgumentError, match=message):
            resolve_folder(text)
    with pytest.raises(InvalidArgumentError, match=r"--allow-write .*no such folder"):
        write_roots([tmp_path / "missing"])
    with pytest.raises(InvalidArgumentError, match="write roots without allow_write"):
        ServerOptions(write_roots=roots)


def test_unknown_arguments_are_tool_errors_that_name_the_valid_ones() -> None:
    """`diff_impact` with `revision` (for `revisions`) reviewed the working tree and answered
    "0 changed symbol(s) … risk low" (issue 55). Refused before anything runs, so no Neo4j:
    the SDK's own client, in process."""
    graph = CodeGraph(Settings(embedder="hashing"), embedder=HashingEmbedder())
    server = build_server(graph, ServerOptions(allow_write=True))

    async def main() -> None:
        async with Client(server) as client:
            for tool in (await client.list_tools()).tools:
                assert tool.input_schema["additionalProperties"] is False, tool.name
            wrong = await client.call_tool("diff_impact", {"revision": "HEAD~1..HEAD"})
            assert wrong.is_error
            text = "".join(block.text for block in wrong.content if isinstance(block, TextContent))
            assert text == (
                "diff_impact takes no argument 'revision' (did you mean 'revisions'?): nothing "
                "was done. Its arguments: depth, patch, possible, repo, revisions, staged"
            )
            assert wrong.structured_content is not None
            assert wrong.structured_content["error"] == "InvalidArgumentError"
            assert "revisions" in wrong.structured_content["candidates"]
            # the relation tools, made from their definitions, and the write tools too
            for tool, arguments in (
                ("callers", {"symbol": "f", "dept": 2, "zzz": 1}),
                ("index", {"path": "/nowhere", "name": "x"}),
            ):
                refused = await client.call_tool(tool, arguments)
                assert refused.is_error
                assert refused.structured_content is not None
                assert refused.structured_content["error"] == "InvalidArgumentError"
            many = await client.call_tool("callers", {"symbol": "f", "dept": 2, "zzz": 1})
            assert "'dept' (did you mean 'depth'?), 'zzz'" in str(many.content[0])

    anyio.run(main)


def test_a_cut_answer_proposes_what_would_shorten_it_never_what_was_asked() -> None:
    """A depth-1 answer was cut with "(ask with depth 1)" (issue 55)."""
    assert narrowing_hint(depth=1) == "ask a narrower question"
    assert narrowing_hint(depth=3, within=False) == "ask with depth=2 or within=true"
    assert narrowing_hint(fewer=("k", 7)) == "ask with k=7"
    assert narrowing_hint(fewer=("k", 0), depth=1, narrower="a method") == "ask with a method"

    subject = SymbolRef("shop:a.f", "a.f", "Function", "shop", Location("a.py", 1, 2))

    def related(name: str, repo: str, certain: bool = True) -> Related:
        return Related(
            f"{repo}:{name}", name, "Function", Location("b.py", 1, 2), 1, "CALLS", "exact",
            certain, (name,), repo=repo,
        )  # fmt: skip

    home = RelationsResult(subject, "callers", [related("b.g", "shop")], [], truncated=False)
    at_depth_1 = relation_hint(home, 1, within=False, possible=True)
    assert "depth" not in at_depth_1  # the depth asked: it cannot help
    assert "within" not in at_depth_1  # every answer is in the subject's repository
    assert "possible" not in at_depth_1  # none was shown
    assert at_depth_1 == "ask with a narrower subject: a method, not its class or module"
    wide = RelationsResult(
        subject, "callers", [related("b.g", "shop")], [related("c.h", "lib", certain=False)],
        truncated=True,
    )  # fmt: skip
    hint = relation_hint(wide, 2, within=False, possible=True)
    assert hint.startswith("ask with depth=1, within=true, possible=false or a narrower")
    (note,) = relations_notes(wide, 1, within=True, possible=False)
    assert note == (
        "the walk hit a size cap at depth 1: more exist (ask with a narrower subject: a "
        "method, not its class or module)"
    )
