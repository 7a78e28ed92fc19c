"""`graphrag-code mcp` driven by the MCP SDK's own client: over a real stdio subprocess and over
streamable HTTP, against the real Neo4j holding the shop fixture graph.

The answers are checked against what the fixture is known to hold (the same facts
`test_retrieval.py` checks through the library): callers with distances, importers, the
endpoint-to-database chain, ambiguous and unknown names.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import CallToolResult, TextContent

from graphrag_code.codegraph import CodeGraph
from graphrag_code.errors import ConfigurationError
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.mcp import check_http_bind, is_loopback
from graphrag_code.mcp.tools import READ_TOOLS, WRITE_TOOLS
from graphrag_code.runtime.endpoint import Neo4jEndpoint

from .shop_graph import REPO, SHOP, shop_graph_fixture  # noqa: F401 - provides `shop_graph`
from .test_impact import LEDGER, commit, edit, git

pytestmark = pytest.mark.integration

COMMAND = str(Path(sys.executable).parent / "graphrag-code")
TOKEN = "test-token-0123456789abcdef"

Session = Callable[[Client], Awaitable[None]]


@pytest.fixture(scope="module")
def server_env(
    shop_graph: CodeGraph, neo4j_endpoint: Neo4jEndpoint, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    """The environment of a server process: the test Neo4j, the fixture's embedder."""
    home = tmp_path_factory.mktemp("mcp-home")
    return {
        "NEO4J_URI": neo4j_endpoint.uri,
        "NEO4J_USERNAME": neo4j_endpoint.username,
        "NEO4J_PASSWORD": neo4j_endpoint.password.get_secret_value(),
        "NEO4J_DATABASE": neo4j_endpoint.database,
        "GRAPHRAG_CODE_EMBEDDER": "hashing",
        "GRAPHRAG_CODE_CACHE_DIR": str(home / "cache"),
        "GRAPHRAG_CODE_DATA_DIR": str(home / "data"),
        # the server imports the package the tests import (a worktree's, not the installed one)
        **({"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}),
    }


def _stdio(env: dict[str, str], *args: str, errlog: Any) -> AbstractAsyncContextManager[Any]:
    params = StdioServerParameters(command=COMMAND, args=["mcp", *args], env=env)
    return stdio_client(params, errlog=errlog)


def run_stdio(env: dict[str, str], session: Session, *args: str) -> str:
    """Run `session` against `graphrag-code mcp ARGS` over stdio; the server's stderr."""
    with tempfile.TemporaryFile("w+") as errlog:

        async def main() -> None:
            async with Client(_stdio(env, *args, errlog=errlog)) as client:
                await session(client)

        anyio.run(main)
        errlog.seek(0)
        return errlog.read()


def text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


def _timeless(answer: str) -> str:
    """The answer without its relative ages, which change between two calls a second apart."""
    return re.sub(r"\([^()]* ago\)", "(…ago)", answer)


def structured(result: CallToolResult) -> dict[str, Any]:
    assert result.structured_content is not None
    return result.structured_content


def names(related: list[dict[str, Any]]) -> dict[str, int]:
    return {r["qualified_name"]: r["distance"] for r in related}


# -- every tool over stdio -----------------------------------------------------------------------
def test_stdio_lists_and_answers_every_read_tool(server_env: dict[str, str]) -> None:
    async def session(client: Client) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) == set(READ_TOOLS)  # no write tool without --allow-write
        for tool in listed.values():
            assert len(tool.description or "") > 80, tool.name
            assert tool.input_schema["type"] == "object"
            assert tool.output_schema is not None, tool.name
            assert tool.annotations is not None
            assert tool.annotations.read_only_hint
        assert listed["callers"].input_schema["required"] == ["symbol"]

        repos = await client.call_tool("repositories", {})
        assert not repos.is_error, text(repos)
        [shop] = [r for r in structured(repos)["repositories"] if r["name"] == REPO]
        assert shop["languages"] == {"python": 11}
        assert shop["status"] == "complete"
        # freshness: the fixture folder is here and nothing changed since it was indexed
        [fresh] = structured(repos)["freshness"]
        assert fresh["repo"] == REPO
        assert fresh["changed_files"] == 0
        assert "graph freshness: shop:" in text(repos)
        assert "no source file changed since" in text(repos)

        callers = await client.call_tool(
            "callers", {"symbol": "SqliteStorage.save", "depth": 3, "repo": REPO}
        )
        assert not callers.is_error, text(callers)
        result = structured(callers)["result"]
        assert result["subject"]["qualified_name"] == "shop.storage.sqlite.SqliteStorage.save"
        assert names(result["certain"]) == {
            "shop.repositories.OrderRepository.add": 1,
            "shop.services.orders.OrderService.place_order": 2,
            "shop.api.create_order_endpoint": 3,
        }
        assert [c["qualified_name"] for c in result["unresolved_candidates"]] == ["shop.cli.main"]
        body = text(callers)
        assert "1. shop.repositories.OrderRepository.add — src/shop/repositories.py:" in body
        assert ("calls at line" in body and "[exact]" in body) or "[inferred]" in body
        assert "might call it: shop.cli.main (src/shop/cli.py:" in body
        assert "graph freshness:" in body

        callees = await client.call_tool("callees", {"symbol": "shop.cli.main", "repo": REPO})
        result = structured(callees)["result"]
        assert "requests.post" in names(result["certain"])
        # certain callees exist: the name match is left out unless asked for
        assert (result["possible"], result["leaned_on"]) == ([], "certain")
        assert "certain edges only (possible=true adds" in text(callees)
        assert result["unresolved_call_sites"] == 1
        assert "1 call site(s) inside it could not be resolved" in text(callees)
        asked = await client.call_tool(
            "callees", {"symbol": "shop.cli.main", "repo": REPO, "possible": True}
        )
        result = structured(asked)["result"]
        assert list(names(result["possible"])) == ["shop.util.unique_helper_name"]
        assert result["leaned_on"] == "possible"
        overriding = await client.call_tool(
            "callers", {"symbol": "SqliteStorage.connect", "repo": REPO}
        )
        result = structured(overriding)["result"]
        assert result["leaned_on"] == "fallback"
        assert "shop.storage.base.Storage.__init__" in names(result["possible"])
        assert "no certain callers; possible ones (name matches, dispatch to overrides) below" in (
            text(overriding)
        )

        importers = await client.call_tool("importers", {"module": "shop.models"})
        assert set(names(structured(importers)["result"]["certain"])) == {
            "shop", "shop.api", "shop.repositories", "shop.services.orders",
        }  # fmt: skip
        dependencies = await client.call_tool(
            "dependencies", {"module": "shop/storage/sqlite.py", "repo": REPO}
        )
        assert set(names(structured(dependencies)["result"]["certain"])) == {
            "shop.storage.base", "sqlite3", "json",
        }  # fmt: skip

        impact = await client.call_tool("impact", {"target": "storage/base.py", "repo": REPO})
        reached = structured(impact)["result"]
        distances = names(reached["certain"] + reached["possible"])
        assert distances["shop.storage.sqlite"] == 1
        assert distances["shop.cli.main"] == 3

        path = await client.call_tool(
            "path", {"source": "create_order_endpoint", "target": "write_audit_log"}
        )
        steps = structured(path)["result"]["steps"]
        assert [s["qualified_name"] for s in steps] == [
            "shop.api.create_order_endpoint",
            "shop.services.orders.OrderService.place_order",
            "shop.repositories.OrderRepository.add",
            "shop.storage.sqlite.SqliteStorage.save",
            "shop.storage.sqlite.write_audit_log",
        ]
        assert "path of 4 step(s), certain:" in text(path)
        assert "-CALLS" in text(path)
        assert "src/shop/storage/sqlite.py:" in text(path)
        none = await client.call_tool(
            "path", {"source": "write_audit_log", "target": "create_order_endpoint"}
        )
        assert not none.is_error
        assert "no call/import chain" in text(none)

        points = await client.call_tool("entry_points", {"repo": REPO})
        roots = [p["qualified_name"] for p in structured(points)["roots"]]
        assert "shop.cli.main" in roots
        assert structured(points)["central"]

        symbol = await client.call_tool("symbol", {"name": "shop.repositories.OrderRepository"})
        definition = structured(symbol)["definition"]
        assert definition["symbol"]["location"]["path"] == "src/shop/repositories.py"
        assert "class OrderRepository" in definition["code"]
        assert "```python" in text(symbol)
        ambiguous = await client.call_tool("symbol", {"name": "save", "repo": REPO})
        assert not ambiguous.is_error  # a list of candidates is an answer
        assert structured(ambiguous)["definition"] is None
        assert {c["qualified_name"] for c in structured(ambiguous)["candidates"]} == {
            "shop.storage.base.Storage.save", "shop.storage.sqlite.SqliteStorage.save",
        }  # fmt: skip

        search = await client.call_tool(
            "search", {"question": "What calls SqliteStorage.save?", "repo": REPO}
        )
        hits = structured(search)["hits"]
        assert hits[0]["qualified_name"] == "shop.repositories.OrderRepository.add"
        assert structured(search)["intent"] == "callers"
        assert "why: shop.storage.sqlite.SqliteStorage.save <-CALLS-" in text(search)

        context = await client.call_tool(
            "context", {"question": "where is the audit log written", "max_tokens": 800}
        )
        cited = [item["location"]["path"] for item in structured(context)["items"]]
        assert "src/shop/storage/sqlite.py" in cited
        assert "### src/shop/storage/sqlite.py:" in text(context)

        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["graphrag-code://repositories/{repo}"]
        overview = await client.read_resource(f"graphrag-code://repositories/{REPO}")
        markdown = overview.contents[0].text  # type: ignore[union-attr]
        assert markdown.startswith(f"# {REPO}\n")
        assert "| python | 11 |" in markdown
        assert "## Most central symbols (PageRank)" in markdown
        assert "shop.cli.main (Function) — src/shop/cli.py:" in markdown

    stderr = run_stdio(server_env, session)
    assert "Traceback" not in stderr
    assert server_env["NEO4J_PASSWORD"] not in stderr


def test_errors_are_tool_errors_that_say_what_to_do(server_env: dict[str, str]) -> None:
    async def session(client: Client) -> None:
        ambiguous = await client.call_tool("callers", {"symbol": "save", "repo": REPO})
        assert ambiguous.is_error
        assert "ambiguous" in text(ambiguous)
        assert set(structured(ambiguous)["candidates"]) == {
            "shop.storage.base.Storage.save (shop: src/shop/storage/base.py)",
            "shop.storage.sqlite.SqliteStorage.save (shop: src/shop/storage/sqlite.py)",
        }
        unknown = await client.call_tool("callers", {"symbol": "OrderRepositry.add"})
        assert unknown.is_error
        assert "no symbol or module named 'OrderRepositry.add'" in text(unknown)
        assert "Did you mean:" in text(unknown)
        assert "shop.repositories.OrderRepository.add" in structured(unknown)["candidates"]
        repo = await client.call_tool("callers", {"symbol": "main", "repo": "nope"})
        assert repo.is_error
        assert "no repository 'nope'" in text(repo)
        bad_depth = await client.call_tool("callers", {"symbol": "main", "depth": 99})
        assert bad_depth.is_error  # the input schema's bound
        # hostile input of any content is answered, never crashes the server
        for hostile in ('"] OR 1=1 //', "\x00 nul", "naïve 🐍 ∑", "a" * 5000, "*:*~^"):
            result = await client.call_tool("search", {"question": hostile, "repo": REPO})
            assert isinstance(result, CallToolResult)
            result = await client.call_tool("symbol", {"name": hostile})
            assert result.is_error
        # questions and names are echoed escaped, never as terminal sequences (issue 57, 8)
        escape = "\x1b]0;pwned\x07\x1b[2J\x1b[31m orders \u202e"
        for tool, argument in (("search", "question"), ("callers", "symbol")):
            echoed = await client.call_tool(tool, {argument: escape, "repo": REPO})
            assert "\\x1b]0;pwned\\x07\\x1b[2J" in text(echoed), text(echoed)
            assert not {"\x1b", "\x07", "\u202e"} & set(text(echoed) + str(echoed))
        # the index tool is not there without --allow-write
        write = await client.call_tool("index", {"path": str(SHOP)})
        assert write.is_error
        assert "Unknown tool" in text(write)
        still = await client.call_tool("repositories", {})
        assert not still.is_error

    stderr = run_stdio(server_env, session)
    assert "Traceback" not in stderr


def test_token_guard_on_questions_and_answers(server_env: dict[str, str]) -> None:
    async def session(client: Client) -> None:
        long_question = "where is the order saved " * 200
        refused = await client.call_tool("search", {"question": long_question})
        assert refused.is_error
        assert "this server takes at most 300" in text(refused)

        impact = await client.call_tool("impact", {"target": "shop.models", "depth": 6})
        assert not impact.is_error
        body = text(impact)
        answer = structured(impact)
        assert answer["omitted"] > 0
        assert f"… {answer['omitted']} more left out to fit the answer budget" in body
        assert "(ask with depth=5" in body  # fewer hops than asked, never the same (issue 55)
        shallow = await client.call_tool("impact", {"target": "shop.models", "depth": 1})
        assert "depth=" not in text(shallow)
        assert len(body.split()) < 200  # the budget is 150 tokens (plus one item at least)
        kept = answer["result"]["certain"] + answer["result"]["possible"]
        assert kept
        assert all(r["qualified_name"] in body for r in kept)

        symbol = await client.call_tool("symbol", {"name": "shop.cli.main"})
        assert structured(symbol)["code_lines_omitted"] > 0
        assert "more line(s) of code left out" in text(symbol)

    run_stdio(server_env, session, "--max-answer-tokens", "150")


def test_allow_list_and_write_tools(server_env: dict[str, str], tmp_path: Path) -> None:
    copy = tmp_path / "shop2"
    shutil.copytree(SHOP, copy)

    async def session(client: Client) -> None:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert set(WRITE_TOOLS) <= listed
        # the allow-list: another repository is not served, even when named
        denied = await client.call_tool("callers", {"symbol": "main", "repo": "other"})
        assert denied.is_error
        assert "'other' is not served here: this server serves shop, shop2" in text(denied)
        refused = await client.call_tool("index", {"path": str(copy), "repo": "elsewhere"})
        assert refused.is_error
        # confined (issue 57, item 2): a served repository is not re-pointed at another folder,
        # whatever the path's spelling, and a new one only inside --allow-write's root
        before = await client.call_tool("symbol", {"name": "shop.models", "repo": REPO})
        for path in (str(copy), f"{copy}/src/../../{copy.name}", "~/../" + str(copy)[1:]):
            moved = await client.call_tool("index", {"path": path, "repo": REPO})
            assert moved.is_error, text(moved)
            assert "is indexed from" in text(moved) or "`~` is not expanded" in text(moved)
        outside = await client.call_tool("index", {"path": str(SHOP.parent), "repo": "shop2"})
        assert "outside the folders this server may index" in text(outside), text(outside)
        after = await client.call_tool("symbol", {"name": "shop.models", "repo": REPO})
        # nothing refused changed the graph (the freshness line's "(35 s ago)" ticks on)
        assert _timeless(text(after)) == _timeless(text(before))
        indexed = await client.call_tool("index", {"path": str(copy)})
        assert not indexed.is_error, text(indexed)
        assert structured(indexed)["report"]["files"]["total"] == 11
        assert "indexed shop2 (full)" in text(indexed)
        # two served repositories define create_order_endpoint: name one
        both = await client.call_tool("callers", {"symbol": "create_order_endpoint"})
        assert both.is_error
        assert "in repository shop2" in text(both)
        # an edit is seen as a change since indexing, then refreshed
        (copy / "src/shop/util.py").write_text(
            (copy / "src/shop/util.py").read_text() + "\n\ndef added_by_test():\n    return 1\n"
        )
        stale = await client.call_tool("repositories", {})
        [fresh] = [f for f in structured(stale)["freshness"] if f["repo"] == "shop2"]
        assert fresh["changed_files"] == 1
        assert fresh["changed_sample"] == ["src/shop/util.py"]
        refreshed = await client.call_tool("refresh", {"repo": "shop2"})
        assert "indexed shop2 (incremental)" in text(refreshed), text(refreshed)
        found = await client.call_tool("symbol", {"name": "added_by_test", "repo": "shop2"})
        assert not found.is_error, text(found)

    run_stdio(server_env, session, "--repo", f"{REPO},shop2", "--allow-write", str(tmp_path))


def test_change_impact_tools(
    server_env: dict[str, str], shop_graph: CodeGraph, tmp_path: Path
) -> None:
    """diff_impact and tests_for on a git checkout of the ledger fixture (code + tests)."""
    ledger = tmp_path / "ledger"
    shutil.copytree(LEDGER, ledger)
    git(ledger, "init", "-q", "-b", "main")
    commit(ledger, "base")
    edit(ledger, "src/ledger/core.py", "def deposit(self, amount: int) -> None:",
         "def deposit(self, amount: int, note: str = '') -> None:")  # fmt: skip
    commit(ledger, "deposit takes a note")
    build_graph(ledger, shop_graph.client, repo="ledger", state_dir=tmp_path / "state")
    leaked = tmp_path / "leaked.txt"

    async def session(client: Client) -> None:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert {"diff_impact", "tests_for"} <= listed
        change = await client.call_tool("diff_impact", {"revisions": "HEAD~1..HEAD"})
        assert not change.is_error, text(change)
        impact = structured(change)["impact"]
        changed = {c["qualified_name"]: c["aspects"] for c in impact["changes"]}
        assert changed == {"ledger.core.Account.deposit": ["signature"]}
        runner_ids = [t["runner_id"] for t in impact["tests"]]
        assert "tests/test_core.py::test_deposit" in runner_ids
        assert impact["risk"]["level"] == "high"  # a public signature under certain callers
        body = text(change)
        assert body.startswith("change impact of HEAD~1..HEAD in ledger: 1 changed symbol(s)")
        assert "tests to run:\ntests/test_core.py::test_deposit — tests/test_core.py:" in body
        assert "affected (nearest first):" in body
        assert "graph freshness: ledger:" in body
        # the same change as a patch gives the same changed symbols
        patch = git(ledger, "diff", "HEAD~1", "HEAD")
        git(ledger, "reset", "-q", "--hard", "HEAD~1")
        edit(ledger, "src/ledger/core.py", "def deposit(self, amount: int) -> None:",
             "def deposit(self, amount: int, note: str = '') -> None:")  # fmt: skip
        from_patch = await client.call_tool("diff_impact", {"patch": patch})
        assert not from_patch.is_error, text(from_patch)
        assert [c["qualified_name"] for c in structured(from_patch)["impact"]["changes"]] == [
            "ledger.core.Account.deposit"
        ]
        # a revision that git would read as an option is refused, and nothing is written
        hostile = await client.call_tool("diff_impact", {"revisions": f"HEAD..--output={leaked}"})
        assert hostile.is_error
        assert "never starts with '-'" in text(hostile)
        tests = await client.call_tool("tests_for", {"target": "ledger.core.Account.deposit"})
        assert not tests.is_error, text(tests)
        result = structured(tests)["result"]
        assert result["subject"] == "ledger.core.Account.deposit"
        assert "tests/test_core.py::test_deposit" in [t["runner_id"] for t in result["tests"]]
        assert text(tests).startswith("tests for ledger.core.Account.deposit (Method, ledger:")

    run_stdio(server_env, session, "--repo", "ledger")
    assert not leaked.exists()


# -- HTTP --------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def http_server(server_env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """`graphrag-code mcp --http` with a bearer token, on a free loopback port."""
    port = _free_port()
    env = {**os.environ, **server_env, "GRAPHRAG_CODE_MCP_TOKEN": TOKEN}
    log = (tmp_path / "server.log").open("w")
    process = subprocess.Popen(
        [COMMAND, "mcp", "--http", "--port", str(port)], env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=1)
            break
        except httpx.TransportError:
            time.sleep(0.2)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(10)
        log.close()
        output = (tmp_path / "server.log").read_text()
        assert TOKEN not in output
        assert server_env["NEO4J_PASSWORD"] not in output
        assert "Traceback" not in output


def test_http_with_a_bearer_token(http_server: str) -> None:
    refused = httpx.post(http_server, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert refused.status_code == 401
    wrong = httpx.post(http_server, headers={"Authorization": "Bearer wrong"}, json={})
    assert wrong.status_code == 401

    async def main() -> None:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with create_mcp_http_client(headers=headers) as http:
            transport = streamable_http_client(http_server, http_client=http)
            async with Client(transport) as client:
                tools = {tool.name for tool in (await client.list_tools()).tools}
                assert tools == set(READ_TOOLS)
                result = await client.call_tool(
                    "importers", {"module": "shop.models", "repo": REPO}
                )
                assert "shop.repositories" in names(structured(result)["result"]["certain"])

    anyio.run(main)


def test_http_refuses_a_public_bind_without_a_token(server_env: dict[str, str]) -> None:
    env = {**os.environ, **server_env}
    env.pop("GRAPHRAG_CODE_MCP_TOKEN", None)
    done = subprocess.run(
        [COMMAND, "mcp", "--http", "--host", "0.0.0.0", "--port", str(_free_port())],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "without a bearer token: set GRAPHRAG_CODE_MCP_TOKEN" in done.stderr


def test_a_served_repository_the_graph_does_not_hold_is_refused_at_start(
    server_env: dict[str, str], shop_graph: CodeGraph
) -> None:
    """`mcp --repo shpo` is a typo: refused before serving, naming the nearest (issue 55)."""
    env = {**os.environ, **server_env}
    done = subprocess.run(
        [COMMAND, "mcp", "--repo", f"{REPO},shpo"],
        env=env, capture_output=True, text=True, timeout=60, check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "no repository 'shpo' in the graph: did you mean" in done.stderr
    assert f"{REPO!r}" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_bind_rule() -> None:
    assert is_loopback("127.0.0.1")
    assert is_loopback("127.0.0.2")
    assert is_loopback("::1")
    assert is_loopback("localhost")
    assert is_loopback("[::1]")
    assert not is_loopback("0.0.0.0")
    assert not is_loopback("192.168.1.5")
    assert not is_loopback("example.org")  # a name may resolve anywhere
    check_http_bind("127.0.0.1", None)
    check_http_bind("0.0.0.0", "a" * 32)
    with pytest.raises(ConfigurationError, match="bearer token"):
        check_http_bind("0.0.0.0", None)
    with pytest.raises(ConfigurationError, match="too short"):
        check_http_bind("127.0.0.1", "short")


def test_neo4j_down_is_a_tool_error_that_says_how_to_start_it(
    server_env: dict[str, str],
) -> None:
    env = {**server_env, "NEO4J_URI": f"bolt://127.0.0.1:{_free_port()}"}

    async def session(client: Client) -> None:
        result = await client.call_tool("callers", {"symbol": "main"})
        assert result.is_error
        assert structured(result)["error"] == "Neo4jUnavailableError"
        assert "graphrag-code neo4j start" in text(result)
        assert "NEO4J_URI" in text(result)
        again = await client.call_tool("repositories", {})  # the server is still there
        assert again.is_error

    stderr = run_stdio(env, session)
    assert "Traceback" not in stderr


# -- --watch (last: it adds a repository to the graph) -------------------------------------------
def test_watch_keeps_the_graph_fresh(server_env: dict[str, str], tmp_path: Path) -> None:
    copy = tmp_path / "watched"
    shutil.copytree(SHOP, copy)

    async def until(client: Client, check: Callable[[CallToolResult], bool], tool: str,
                    arguments: dict[str, Any]) -> CallToolResult:  # fmt: skip
        deadline = time.monotonic() + 60
        while True:
            result = await client.call_tool(tool, arguments)
            if check(result) or time.monotonic() > deadline:
                return result
            await anyio.sleep(0.3)

    async def session(client: Client) -> None:
        indexed = await until(
            client,
            lambda r: any(x["watcher"] == "watching" for x in structured(r)["freshness"]),
            "repositories", {},
        )  # fmt: skip
        assert "watched: commit" not in text(indexed)  # a copy outside git
        assert "kept fresh by a watcher" in text(indexed)
        await anyio.sleep(0.5)  # the file system watch starts right after the catch-up
        (copy / "src/shop/util.py").write_text(
            (copy / "src/shop/util.py").read_text() + "\n\ndef watched_addition():\n    pass\n"
        )
        found = await until(
            client, lambda r: not r.is_error, "symbol",
            {"name": "watched_addition", "repo": "watched"},
        )  # fmt: skip
        assert not found.is_error, text(found)
        assert "src/shop/util.py:" in text(found)

    run_stdio(server_env, session, "--watch", str(copy))
