"""Every CLI command through every anticipated failure, against the real Neo4j (issue 13).

Each case asserts the documented exit code (`graphrag_code.cli.exit_codes`), the message, that
no traceback and no secret reaches the output, and that the graph holds exactly what it held
before. Commands run in process through `main([...])`; the cases only a real process shows
(invalid UTF-8 bytes in argv, two starts of the managed server at once, driver log lines on
stderr) run as subprocesses.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from neo4j import GraphDatabase

from graphrag_code.cli.exit_codes import FAILED, NEO4J, NOT_RUNNING, OK, USAGE
from graphrag_code.cli.main import main
from graphrag_code.codegraph import CodeGraph
from graphrag_code.embedding.hashing import HashingEmbedder
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.graph.crossrepo import CrossRepoLinker
from graphrag_code.graph.writer import GraphWriter
from graphrag_code.ingest import pipeline
from graphrag_code.ingest import state as state_module
from graphrag_code.ingest.incremental import IngestRun
from graphrag_code.ingest.pipeline import build_graph
from graphrag_code.runtime.endpoint import Neo4jEndpoint
from graphrag_code.runtime.server.build import MAIN_CLASS
from graphrag_code.runtime.server.local import free_port
from graphrag_code.runtime.server.processes import find_launchers
from graphrag_code.settings import Settings

from .conftest import drop_search_indexes, wipe
from .disk_faults import BrokenDisk
from .relinking import write_file
from .test_ingest import assert_equals_a_clean_index, dump

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end

SHOP = Path(__file__).parent / "fixtures" / "shop"
REPO = "shop"
SECRET = "Matrix-Secret-7f3a"  # a wrong password: must never appear in any output
USER, USER_PASSWORD = "matrix_user", "matrix-pass-2b9c"  # locked out by the wrong-password cases

# Every command that talks to Neo4j, with arguments that succeed on the indexed shop fixture.
COMMANDS: dict[str, list[str]] = {
    "index": ["index", str(SHOP), "--repo", REPO],
    "embed": ["embed", "--repo", REPO],
    "search": ["search", "where are orders saved?", "--repo", REPO],
    "callers": ["callers", "SqliteStorage.save", "--repo", REPO],
    "callees": ["callees", "create_order_endpoint", "--repo", REPO],
    "importers": ["importers", "shop.models", "--repo", REPO],
    "dependencies": ["dependencies", "shop.api", "--repo", REPO],
    "impact": ["impact", "src/shop/models.py", "--repo", REPO],
    "path": ["path", "create_order_endpoint", "SqliteStorage.save", "--repo", REPO],
    "context": ["context", "how is an order saved?", "--repo", REPO],
    "ask": ["ask", "how is an order saved?", "--repo", REPO],
    "entry-points": ["entry-points", "--repo", REPO],
    "export": ["export", "callgraph", "--repo", REPO],
    "delete": ["delete", "--repo", REPO],
    "demo": ["demo", str(SHOP), "--repo", REPO, "--question", "where are orders saved?"],
}
_MAIN = "import sys; from graphrag_code.cli import main; sys.exit(main())"


@dataclass(frozen=True)
class Failure:
    """One anticipated failure: the environment that causes it and what every command says."""

    env: Mapping[str, str | None]
    code: int
    message: str  # a regular expression the output must match
    # commands this failure does not affect: they must succeed (exit 0) instead
    unaffected: frozenset[str] = frozenset()
    secret: str | None = None  # must not appear in the output


@dataclass
class Result:
    code: int
    out: str
    err: str
    seconds: float

    @property
    def text(self) -> str:
        return self.out + self.err


@dataclass
class Matrix:
    """The test server, the indexed fixture and a clean environment for the CLI."""

    client: Neo4jClient
    endpoint: Neo4jEndpoint
    env: dict[str, str | None]
    work: Path
    fingerprint: dict[str, Any] = field(default_factory=dict)

    def run(self, argv: Sequence[str], env: Mapping[str, str | None] | None = None) -> Result:
        """`main(argv)` in process, under the CLI environment plus `env`."""
        merged = {**self.env, **(env or {})}
        out, err = io.StringIO(), io.StringIO()
        started = time.perf_counter()
        with _environment(merged), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as exit_:  # argparse
                code = int(exit_.code or 0)
        return Result(code, out.getvalue(), err.getvalue(), time.perf_counter() - started)

    def subprocess(
        self, argv: Sequence[str | bytes], env: Mapping[str, str | None] | None = None
    ) -> subprocess.Popen[bytes]:
        merged = {**os.environ, **self.env, **(env or {})}
        clean = {key: value for key, value in merged.items() if value is not None}
        return subprocess.Popen(
            [sys.executable, "-c", _MAIN, *argv],
            env=clean,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )


@contextlib.contextmanager
def _environment(values: Mapping[str, str | None]) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in values}
    try:
        for key, value in values.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def fingerprint(client: Neo4jClient) -> dict[str, Any]:
    """What must survive every failure: nodes, edges, vectors and repository statuses."""
    ids = [row["id"] for row in client.read("MATCH (n:Code) RETURN n.id AS id ORDER BY id")]
    edges = client.read(
        "MATCH (s)-[r]->(t) RETURN count(r) AS edges, count(DISTINCT type(r)) AS types"
    )[0]
    vectors = client.read("MATCH (n:Code) WHERE n.embedding IS NOT NULL RETURN count(n) AS n")
    repos = client.read("MATCH (r:Repository) RETURN r.name AS name, r.status AS status")
    return {
        "ids": hashlib.sha256("\n".join(ids).encode()).hexdigest(),
        "nodes": len(ids),
        "edges": edges["edges"],
        "vectors": vectors[0]["n"],
        "repos": sorted((row["name"], row["status"]) for row in repos),
    }


def assert_clean(result: Result, *secrets: str) -> None:
    """No traceback, no driver log line, no secret."""
    assert "Traceback" not in result.text, result.text
    assert "neo4j" not in result.err.lower() or "error:" in result.err or "warning:" in result.err
    for secret in secrets:
        assert secret not in result.text


@pytest.fixture(scope="module")
def matrix(
    session_client: Neo4jClient,
    neo4j_endpoint: Neo4jEndpoint,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Matrix]:
    work = tmp_path_factory.mktemp("matrix")
    wipe(session_client)
    drop_search_indexes(session_client)
    password = neo4j_endpoint.password.get_secret_value() if neo4j_endpoint.password else None
    env: dict[str, str | None] = {
        "NEO4J_URI": neo4j_endpoint.uri,
        "NEO4J_USERNAME": neo4j_endpoint.username,
        "NEO4J_PASSWORD": password,
        "NEO4J_DATABASE": neo4j_endpoint.database,
        "GRAPHRAG_CODE_EMBEDDER": "hashing",
        "GRAPHRAG_CODE_CACHE_DIR": str(work / "cache"),
        "GRAPHRAG_CODE_DATA_DIR": str(work / "data"),
        "OPENAI_API_KEY": None,
    }
    state = Matrix(session_client, neo4j_endpoint, env, work)
    indexed = state.run(COMMANDS["index"])
    assert indexed.code == OK, indexed.text
    state.fingerprint = fingerprint(session_client)
    assert state.fingerprint["nodes"] > 20
    assert state.fingerprint["vectors"] == state.fingerprint["nodes"]
    yield state
    drop_search_indexes(session_client)


@pytest.fixture(scope="module")
def spare_user(matrix: Matrix) -> Iterator[str]:
    """A user of its own for the wrong-password cases: Neo4j locks a user out for 5 s after
    three failed logins, and that must not hit the `neo4j` user the other tests log in as."""
    endpoint = matrix.endpoint
    if endpoint.source != "local":
        pytest.skip("creates a user: only on the managed test server")
    with GraphDatabase.driver(endpoint.uri, auth=endpoint.auth()) as driver:
        driver.execute_query(
            f"CREATE OR REPLACE USER {USER} SET PASSWORD $password CHANGE NOT REQUIRED",
            {"password": USER_PASSWORD},
            database_="system",
        )
        yield USER
        driver.execute_query(f"DROP USER {USER} IF EXISTS", database_="system")


def _with_credentials(uri: str, user: str, password: str) -> str:
    scheme, _, rest = uri.partition("://")
    return f"{scheme}://{user}:{password}@{rest}"


def _failures(matrix: Matrix, command: str) -> dict[str, Failure]:
    down = free_port()
    live = matrix.endpoint.uri
    blocker = matrix.work / "a-file"
    blocker.write_text("not a folder\n")
    return {
        "server-down": Failure(
            {"NEO4J_URI": f"bolt://127.0.0.1:{down}"},
            NEO4J,
            rf"error: Neo4j did not answer.*127\.0\.0\.1:{down}",
        ),
        "password-in-uri-server-down": Failure(
            {
                "NEO4J_URI": _with_credentials(f"bolt://127.0.0.1:{down}", "neo4j", SECRET),
                "NEO4J_PASSWORD": None,
            },
            NEO4J,
            rf"error: Neo4j did not answer.*bolt://127\.0\.0\.1:{down}",
            secret=SECRET,
        ),
        # a user of its own per command: three failed logins lock a user out for 5 s, which
        # `test_wrong_password_three_times_then_the_right_one` covers
        "wrong-password": Failure(
            {"NEO4J_USERNAME": f"nobody_{command}", "NEO4J_PASSWORD": SECRET},
            FAILED,
            rf"error: Neo4j at .* rejected the credentials of user 'nobody_{command}'",
            secret=SECRET,
        ),
        "wrong-password-in-uri": Failure(
            {
                "NEO4J_URI": _with_credentials(live, f"uri_{command}", SECRET),
                "NEO4J_USERNAME": None,
                "NEO4J_PASSWORD": None,
            },
            FAILED,
            r"error: Neo4j at bolt://127\.0\.0\.1:\d+ rejected the credentials of user "
            rf"'uri_{command}'",
            secret=SECRET,
        ),
        "wrong-database": Failure(
            {"NEO4J_DATABASE": "nosuchdb"},
            FAILED,
            r"error: Neo4j at .* has no database 'nosuchdb'; check NEO4J_DATABASE",
        ),
        "invalid-setting": Failure(
            {"GRAPHRAG_CODE_HEAP": "lots"},
            FAILED,
            r"error: invalid setting: GRAPHRAG_CODE_HEAP: must be a size such as 1g",
        ),
        "cache-is-a-file": Failure(
            {"GRAPHRAG_CODE_CACHE_DIR": str(blocker)},
            FAILED,
            r"error: cannot use .*a-file.* as a folder: .*is a file.*GRAPHRAG_CODE_CACHE_DIR",
            # only indexing and deleting keep incremental state
            unaffected=frozenset(COMMANDS) - {"index", "delete", "demo"},
        ),
    }


FAILURE_NAMES = (
    "server-down", "password-in-uri-server-down", "wrong-password", "wrong-password-in-uri",
    "wrong-database", "invalid-setting", "cache-is-a-file",
)  # fmt: skip


def _succeeds(command: str) -> int:
    """The exit code of `command` on the indexed fixture with nothing wrong."""
    return FAILED if command == "ask" else OK  # `ask` needs OPENAI_API_KEY: an LLMError


@pytest.mark.integration
@pytest.mark.parametrize("failure_name", FAILURE_NAMES)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_through_every_failure(
    matrix: Matrix, command: str, failure_name: str
) -> None:
    failure = _failures(matrix, command)[failure_name]
    result = matrix.run(COMMANDS[command], failure.env)
    assert_clean(result, *(s for s in (failure.secret,) if s))
    if command in failure.unaffected:
        assert result.code == _succeeds(command), result.text
    else:
        assert result.code == failure.code, result.text
        assert re.search(failure.message, " ".join(result.err.split())), result.err
    assert fingerprint(matrix.client) == matrix.fingerprint


@pytest.mark.integration
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_succeeds_with_nothing_wrong(matrix: Matrix, command: str) -> None:
    argv = ["delete", "--repo", "ghost"] if command == "delete" else COMMANDS[command]
    result = matrix.run(argv)
    assert_clean(result)
    if command == "delete":  # deleting the fixture would spoil the other cases
        assert result.code == USAGE  # an unknown repository (issue 55)
        assert "no repository 'ghost' in the graph (it holds shop)" in " ".join(result.err.split())
    elif command == "ask":
        assert result.code == FAILED
        assert "OPENAI_API_KEY" in result.err
    else:
        assert result.code == OK, result.text
    assert fingerprint(matrix.client) == matrix.fingerprint


@pytest.mark.integration
def test_wrong_password_three_times_then_the_right_one(matrix: Matrix, spare_user: str) -> None:
    """Neo4j locks a user out for 5 s after three failed logins; a run with the right password
    then waits that out instead of failing with a rate-limit traceback (issue 13, item 6)."""
    for _attempt in range(3):
        wrong = matrix.run(
            COMMANDS["search"], {"NEO4J_USERNAME": spare_user, "NEO4J_PASSWORD": SECRET}
        )
        assert_clean(wrong, SECRET)
        assert wrong.code == FAILED, wrong.text
        assert re.search(r"rejected the credentials|refuses logins", wrong.err), wrong.err
    right = matrix.run(
        COMMANDS["search"], {"NEO4J_USERNAME": spare_user, "NEO4J_PASSWORD": USER_PASSWORD}
    )
    assert_clean(right, USER_PASSWORD)
    assert right.code == OK, right.text
    assert fingerprint(matrix.client) == matrix.fingerprint


# -- the managed server's commands --------------------------------------------------------------
@pytest.mark.integration
@pytest.mark.parametrize(
    ("case", "action", "code", "message"),
    [
        ("fresh", "status", NOT_RUNNING, r"not running \(data: "),
        ("fresh", "stop", OK, r"was not running"),
        ("data-is-a-file", "start", FAILED, r"error: cannot use .*GRAPHRAG_CODE_DATA_DIR"),
        ("data-is-a-file", "status", NOT_RUNNING, r"not running"),
        ("data-is-a-file", "stop", OK, r"was not running"),
        ("cache-is-a-file", "build", FAILED, r"GRAPHRAG_CODE_CACHE_DIR"),
        ("cache-is-a-file", "start", FAILED, r"GRAPHRAG_CODE_CACHE_DIR"),
        ("invalid-setting", "start", FAILED, r"GRAPHRAG_CODE_HEAP"),
        ("invalid-setting", "status", FAILED, r"GRAPHRAG_CODE_HEAP"),
        ("invalid-setting", "stop", FAILED, r"GRAPHRAG_CODE_HEAP"),
        ("invalid-setting", "build", FAILED, r"GRAPHRAG_CODE_HEAP"),
        ("port-taken", "start", NEO4J, r"Bolt port \d+ on 127\.0\.0\.1 is already in use"),
    ],
)
def test_neo4j_commands_through_their_failures(
    matrix: Matrix, tmp_path: Path, case: str, action: str, code: int, message: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env: dict[str, str | None] = {
        "NEO4J_URI": None,
        "GRAPHRAG_CODE_DATA_DIR": str(tmp_path / "data"),
        "GRAPHRAG_CODE_CACHE_DIR": None,  # the shared launcher build
        "GRAPHRAG_CODE_HTTP_PORT": "0",
    }
    if case == "data-is-a-file":
        env["GRAPHRAG_CODE_DATA_DIR"] = str(blocker)
    elif case == "cache-is-a-file":
        env["GRAPHRAG_CODE_CACHE_DIR"] = str(blocker)
    elif case == "invalid-setting":
        env["GRAPHRAG_CODE_HEAP"] = "lots"
    with contextlib.ExitStack() as stack:
        if case == "port-taken":
            import socket

            taken = stack.enter_context(socket.socket())
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            env["GRAPHRAG_CODE_BOLT_PORT"] = str(taken.getsockname()[1])
        else:
            env["GRAPHRAG_CODE_BOLT_PORT"] = str(free_port())
        result = matrix.run(["neo4j", action], env)
    assert_clean(result)
    assert result.code == code, result.text
    assert re.search(message, " ".join(result.text.split())), result.text
    assert fingerprint(matrix.client) == matrix.fingerprint


# -- questions and arguments ------------------------------------------------------------------
HOSTILE = "a-b/" * 25_000


@pytest.mark.integration
@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["search", "", "--repo", REPO], USAGE, r"error: empty question"),
        (["search", "   ", "--repo", REPO], USAGE, r"error: empty question"),
        (["context", "", "--repo", REPO], USAGE, r"error: empty question"),
        (["search", "orders", "-k", "-5"], USAGE, r"error: k must be a whole number"),
        (["search", "orders", "-k", "0"], USAGE, r"error: k must be a whole number"),
        (["search", HOSTILE, "--repo", REPO], OK, r"intent: concept"),
        (["search", "where is x " * 9_000, "--repo", REPO], OK, r"intent: \w+"),
        (["search", "caf\udce9 orders", "--repo", REPO], OK, r"intent: concept"),
        (["search", "\ud800 save", "--repo", REPO], OK, r"intent: concept"),
        (["search", "foo) OR ( [x] {y} \\", "--repo", REPO], OK, r"intent: concept"),
        (["callers", "caf\udce9", "--repo", REPO], USAGE, r"error: a value is not valid Unicode"),
        (["callers", "no_such_thing", "--repo", REPO], FAILED, r"no symbol or module named"),
        (["callers", "SqliteStorage.save", "--depth", "9"], FAILED, r"hop bound must be"),
        (["path", "SqliteStorage.save", "SqliteStorage.save"], OK, r"SqliteStorage\.save"),
        (["search", "orders", "--repo", "nope"], USAGE, r"error: no repository 'nope'"),
        (["callers", "save", "--repo", "shpo"], USAGE, r"did you mean 'shop'\?"),
        (["context", "how is an order saved?", "--repo", "Shop"], USAGE, r"did you mean 'shop'"),
        (["export", "callgraph", "--repo", "ghost"], USAGE, r"no repository 'ghost'"),
        (["repos", "shop-1.0"], USAGE, r"did you mean 'shop'\?"),
        (["repos"], OK, r"\bshop\b.*\b(complete|stale)\b"),
        (["callers", ""], USAGE, r"empty name"),
        (["delete", "--repo", "ghost"], USAGE, r"error: no repository 'ghost' in the graph"),
        (["embed", "--repo", "ghost"], USAGE, r"error: no repository 'ghost' in the graph"),
        (["index", "/no/such/folder"], FAILED, r"error: /no/such/folder is not a directory"),
        (["index", str(SHOP), "--repo", "bad name!"], FAILED, r"repository name 'bad name!'"),
    ],
    ids=lambda value: value if isinstance(value, int) else None,
)
def test_hostile_and_invalid_input(
    matrix: Matrix, argv: list[str], code: int, message: str
) -> None:
    result = matrix.run(argv)
    assert_clean(result)
    assert result.code == code, result.text[-2000:]
    assert re.search(message, " ".join(result.text.split())), result.text[-2000:]
    assert result.seconds < 30  # the crafted questions took 8-38 s to analyse alone
    assert fingerprint(matrix.client) == matrix.fingerprint


@pytest.mark.integration
def test_a_fifo_in_the_tree_is_reported_not_read(matrix: Matrix, tmp_path: Path) -> None:
    root = tmp_path / "withfifo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "ok.py").write_text("def ok():\n    return 1\n")
    os.mkfifo(root / "pkg" / "pipe.py")
    result = matrix.run(["index", str(root), "--repo", "withfifo", "--no-embeddings"])
    assert_clean(result)
    assert result.code == OK, result.text
    assert "pkg/pipe.py: not a regular file (FIFO)" in result.out
    deleted = matrix.run(["delete", "--repo", "withfifo"])
    assert deleted.code == OK, deleted.text
    assert fingerprint(matrix.client) == matrix.fingerprint


# -- issue 57 (part 2, robust-b): a refused run writes nothing ----------------------------------
def _index_names(client: Neo4jClient) -> list[str]:
    return sorted(row["name"] for row in client.read("SHOW INDEXES YIELD name RETURN name"))


@pytest.mark.integration
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["index", "/no/such/folder"], r"/no/such/folder is not a directory"),
        (["index", str(SHOP), "--repo", "victim\n"], r"repository name 'victim\\n' must be"),
        (["index", str(SHOP / "README.md")], r"README\.md is not a directory"),
    ],
    ids=["no-folder", "name-with-newline", "a-file"],
)
def test_a_refused_index_writes_nothing(matrix: Matrix, argv: list[str], message: str) -> None:
    """Items 12 and 13: "victim\\n" was accepted as a repository name; a run refused after
    the schema step left the repository's full-text indexes behind, and the node that the
    cross-repository step MERGEd before the run's own (null status) was listed by `search`."""
    indexes = _index_names(matrix.client)
    result = matrix.run(argv)
    assert_clean(result)
    assert result.code == FAILED, result.text
    assert re.search(message, " ".join(result.err.split())), result.err
    assert fingerprint(matrix.client) == matrix.fingerprint
    assert _index_names(matrix.client) == indexes


@pytest.mark.integration
def test_publishing_packages_never_makes_a_repository_node(matrix: Matrix) -> None:
    """A run that stops before its own node is written leaves no phantom repository."""
    CrossRepoLinker(matrix.client).publish(
        "phantom", packages=["phantom"], distributions=[], dependencies=[]
    )
    assert fingerprint(matrix.client) == matrix.fingerprint


@pytest.mark.integration
def test_names_from_code_escaped_and_found(matrix: Matrix, tmp_path: Path) -> None:
    """Item 8: a TS method named with a string literal holding `ESC]0;… BEL ESC[2J ESC[31m`
    was printed raw (it retitled, cleared and recoloured the terminal). Item 11: `search
    "Ünïcödé" --legs text` found nothing (the analysed query was empty)."""
    root = tmp_path / "odd"
    root.mkdir()
    name = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\u202e"
    (root / "evil.ts").write_text(
        f'export class Evil {{\n  "{name}"() {{\n    return 1;\n  }}\n}}\n'
    )
    (root / "uni.py").write_text("def Ünïcödé():\n    return 1\n\n\ndef order():\n    return 2\n")
    indexed = matrix.run(["index", str(root), "--repo", "odd", "--no-embeddings"])
    assert indexed.code == OK, indexed.text
    try:
        for argv in (["entry-points"], ["search", "Evil", "--legs", "text"]):
            result = matrix.run([*argv, "--repo", "odd"])
            assert result.code == OK, result.text
            assert 'Evil."\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred\\u202e"' in result.out
            assert not {"\x1b", "\x07", "\u202e"} & set(result.text), result.text
        for question in ("Ünïcödé", "ünïcödé order"):  # "café order" was asked as "order"
            found = matrix.run(["search", question, "--legs", "text", "--repo", "odd", "--json"])
            assert found.code == OK, found.text
            hits = [hit["qualified_name"] for hit in json.loads(found.out)["hits"]]
            assert "uni.Ünïcödé" in hits[:2], hits
    finally:
        assert matrix.run(["delete", "--repo", "odd"]).code == OK
    assert fingerprint(matrix.client) == matrix.fingerprint


@pytest.mark.integration
def test_names_that_are_not_utf8(matrix: Matrix, tmp_path: Path) -> None:
    """Item 5: one file name that is not UTF-8 made the repository impossible to index
    (UnicodeEncodeError); now it is skipped and reported, and a root named so is refused."""
    root = tmp_path / "odd"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "ok.py").write_text("def ok():\n    return 1\n")
    try:
        Path(os.fsdecode(bytes(root) + b"/pkg/caf\xe9.py")).write_text("def f():\n    pass\n")
        bad_root = Path(os.fsdecode(bytes(tmp_path) + b"/r\xe9po"))
        bad_root.mkdir()
    except OSError:
        pytest.skip("this file system refuses names that are not UTF-8")
    indexed = matrix.run(["index", str(root), "--repo", "odd", "--no-embeddings"])
    try:
        assert_clean(indexed)
        assert indexed.code == OK, indexed.text
        assert "pkg/caf\\xe9.py: name is not valid UTF-8" in indexed.out
    finally:
        assert matrix.run(["delete", "--repo", "odd"]).code == OK
    refused = matrix.run(["index", str(bad_root), "--repo", "odd"])
    assert_clean(refused)
    assert refused.code == FAILED, refused.text
    assert "r\\xe9po is not valid UTF-8" in " ".join(refused.err.split())
    assert fingerprint(matrix.client) == matrix.fingerprint


# -- end of issue 57 (robust-b) block ------------------------------------------------------------


@pytest.mark.integration
def test_an_interrupted_index_is_flagged_then_completed(matrix: Matrix) -> None:
    GraphWriter(matrix.client, REPO).start_run(str(SHOP), "interrupted")  # as if killed
    flagged = matrix.run(COMMANDS["search"])
    assert_clean(flagged)
    assert flagged.code == OK
    assert "warning: repository 'shop' is not completely indexed" in " ".join(flagged.err.split())
    # callers said nothing, as table or JSON (issue 55): every answer warns now
    table = matrix.run(COMMANDS["callers"])
    assert table.code == OK, table.text
    assert "warning: repository 'shop' is not completely indexed" in " ".join(table.err.split())
    assert f"graphrag-code index {SHOP} --repo shop" in " ".join(table.err.split())
    as_json = matrix.run([*COMMANDS["callers"], "--json"])
    assert [(w["kind"], w["repo"]) for w in json.loads(as_json.out)["warnings"]] == [
        ("incomplete", REPO)
    ]
    finished = matrix.run(COMMANDS["index"])
    assert finished.code == OK, finished.text
    assert fingerprint(matrix.client) == matrix.fingerprint  # complete again, nothing lost
    assert matrix.run(COMMANDS["search"]).err == ""
    assert json.loads(matrix.run([*COMMANDS["callers"], "--json"]).out)["warnings"] == []


# -- in a real process --------------------------------------------------------------------------
@pytest.mark.integration
def test_invalid_utf8_argv_and_a_server_down_in_a_real_process(matrix: Matrix) -> None:
    question = subprocess.run(
        [sys.executable, "-c", _MAIN, "search", b"caf\xe9 orders", "--repo", REPO],
        env={k: v for k, v in {**os.environ, **matrix.env}.items() if v is not None},
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    assert question.returncode == OK, question.stderr.decode(errors="replace")
    assert b"Traceback" not in question.stderr
    down = matrix.subprocess(["search", "orders"], {"NEO4J_URI": f"bolt://127.0.0.1:{free_port()}"})
    _out, err = down.communicate(timeout=120)
    assert down.returncode == NEO4J
    assert b"Traceback" not in err
    # our message alone: the driver's own log lines stay off stderr
    text = " ".join(err.decode().split())
    assert text.startswith("error: Neo4j did not answer ([Errno 111] Connection refused)"), text
    assert text.count("error:") == 1
    assert text.endswith(")")  # "(server: bolt://...)" is the last thing printed
    # what the driver logs when a server dies mid-run ("defunct connection", "will be retried")
    logged = subprocess.run(
        [sys.executable, "-c", "import logging; from graphrag_code.cli import main; "
         "main(['neo4j', 'status']); logging.getLogger('neo4j.pool').warning('defunct')"],
        env={k: v for k, v in {**os.environ, **matrix.env}.items() if v is not None},
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    assert b"defunct" not in logged.stderr


@pytest.mark.integration
@pytest.mark.lifecycle
def test_concurrent_starts_share_one_server_that_status_and_stop_always_find(
    matrix: Matrix, tmp_path: Path
) -> None:
    """A `neo4j start` and a command that starts the server on demand, at once (both entries
    race for the same lock in `LocalNeo4jServer.start`), then a second `neo4j start`: one
    server, found by `status` and `stop` even after its pid and state files are gone (issue
    13, item 2). One start instead of two races of two: ~12 s of the suite."""
    home_root = tmp_path / "data"
    env: dict[str, str | None] = {
        "NEO4J_URI": None,
        "GRAPHRAG_CODE_DATA_DIR": str(home_root),
        "GRAPHRAG_CODE_CACHE_DIR": None,
        "GRAPHRAG_CODE_BOLT_PORT": str(free_port()),
        "GRAPHRAG_CODE_HTTP_PORT": "0",
        "GRAPHRAG_CODE_HEAP": "512m",
        "GRAPHRAG_CODE_PAGECACHE": "64m",
    }
    try:
        start = matrix.subprocess(["neo4j", "start", "--json"], env)
        ask = matrix.subprocess(["callers", "nothing_here"], env)
        out, err = start.communicate(timeout=300)
        assert start.returncode == OK, err.decode(errors="replace")
        assert b"Traceback" not in err
        _out, asked = ask.communicate(timeout=300)
        assert ask.returncode == FAILED, asked.decode(errors="replace")
        assert b"no symbol or module named 'nothing_here'" in asked
        assert b"Traceback" not in asked
        pid = json.loads(out)["pid"]
        (home,) = home_root.iterdir()
        assert len(find_launchers(home, MAIN_CLASS)) == 1
        again = matrix.run(["neo4j", "start", "--json"], env)
        assert again.code == OK, again.text
        assert json.loads(again.out)["pid"] == pid
        # the database, its logs and the password: this user's only (issue 13, item 9)
        assert home.stat().st_mode & 0o077 == 0
        readable = [
            path for path in home.rglob("*") if path.is_file() and path.stat().st_mode & 0o077
        ]
        assert readable == []
        for name in ("launcher.pid", "launcher.state.json"):
            (home / name).unlink()
        status = matrix.run(["neo4j", "status", "--json"], env)
        assert status.code == OK, status.text
        assert json.loads(status.out)["pid"] == pid
        stopped = matrix.run(["neo4j", "stop"], env)
        assert (stopped.code, stopped.out.strip()) == (OK, "stopped")
        assert matrix.run(["neo4j", "status"], env).code == NOT_RUNNING
        assert find_launchers(home, MAIN_CLASS) == []
    finally:
        matrix.run(["neo4j", "stop"], env)
    assert fingerprint(matrix.client) == matrix.fingerprint


# -- issue 57, part a: files edited during an index, a full disk ----------------------------
_CHURNED = {
    "pkg/__init__.py": "",
    "pkg/flip.py": "def a():\n    return 1\n",
    "pkg/gone.py": "def gone():\n    return 2\n",
    "pkg/garbled.py": "def c():\n    return 3\n",
    "pkg/use.py": (
        "from pkg.flip import a\nfrom pkg.gone import gone\nfrom pkg.garbled import c\n\n\n"
        "def use():\n    return a() + gone() + c()\n"
    ),
}


@pytest.mark.integration
def test_files_edited_during_an_index_leave_nothing_stale(
    matrix: Matrix, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the walk and the parse one file is rewritten, one deleted and one garbled;
    after the run they are put back as the walk saw them. The next incremental run must
    equal a clean index: no parse or skip filed under the hash the walk took (issue 57,
    fault 1: 33 modules missing, 43 stale, 48 files skipped for reasons that no longer held,
    until `--full`)."""
    root = tmp_path / "churned"
    for path, text in _CHURNED.items():
        write_file(root, path, text)
    real = pipeline.files_to_parse

    def edit_then_parse(run: IngestRun) -> set[str]:
        (root / "pkg/flip.py").write_text("def b():\n    return 1\n")
        (root / "pkg/gone.py").unlink()
        (root / "pkg/garbled.py").write_bytes(b"def c():\n    return '\xff'\n")  # not UTF-8
        return real(run)

    monkeypatch.setattr(pipeline, "files_to_parse", edit_then_parse)
    state = tmp_path / "state"
    try:
        build_graph(root, matrix.client, repo="churned", state_dir=state)
        monkeypatch.undo()
        for path, text in _CHURNED.items():  # back to what the walk saw
            write_file(root, path, text)
        again = build_graph(root, matrix.client, repo="churned", state_dir=state)
        assert again.mode == "incremental"
        assert again.skipped == []
        assert_equals_a_clean_index(
            matrix.client, root, "churned", dump(matrix.client, "churned"), tmp_path / "clean"
        )
    finally:
        GraphWriter(matrix.client, "churned").delete_repository()
    assert fingerprint(matrix.client) == matrix.fingerprint


@pytest.mark.integration
@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS], ids=["ENOSPC", "EROFS"])
def test_a_state_that_cannot_be_written_leaves_the_graph_complete(
    matrix: Matrix, monkeypatch: pytest.MonkeyPatch, fault: int
) -> None:
    """A full disk (or one that turned read-only) while the incremental state is written: a
    warning that says so, no traceback, the repository complete (issue 57, fault 9: a
    traceback, and `shop` left `indexing` with only DEFINES edges). The next run is a full
    one, since the state on disk is not the graph's."""
    monkeypatch.setattr(state_module, "os", BrokenDisk(fault))
    broken = matrix.run([*COMMANDS["index"], "--full"])
    monkeypatch.undo()
    assert_clean(broken)
    assert broken.code == OK, broken.text
    said = " ".join(broken.err.split())
    assert "warning: the incremental state could not be written to" in said, broken.err
    assert os.strerror(fault) in said
    assert fingerprint(matrix.client) == matrix.fingerprint  # complete, nothing lost
    assert list((matrix.work / "cache").rglob("*.tmp")) == []
    after = matrix.run([*COMMANDS["index"], "--json"])
    assert after.code == OK, after.text
    assert json.loads(after.out)["mode"] == "full"
    assert fingerprint(matrix.client) == matrix.fingerprint


@pytest.mark.integration
def test_a_background_save_that_failed_is_reported_by_the_next_run(
    matrix: Matrix, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long-lived store (`CodeGraph`, `--watch`) saves in the background: its disk error
    comes with the next run's report, not as a traceback on a thread."""
    root = tmp_path / "saved"
    for path, text in _CHURNED.items():
        write_file(root, path, text)
    settings = Settings(embedder="hashing", cache_dir=tmp_path / "cache")
    code = CodeGraph(settings, client=matrix.client, embedder=HashingEmbedder())
    try:
        monkeypatch.setattr(state_module, "os", BrokenDisk(errno.ENOSPC))
        assert code.index(root, "saved", embed=False).warnings == []
        write_file(root, "pkg/flip.py", "def a():\n    return 11\n")
        writing = code._store._writer  # the save behind the first run: let it meet the disk
        if writing is not None:
            writing.join()
        monkeypatch.undo()
        report = code.index(root, "saved", embed=False)
        assert report.mode == "incremental"  # the state kept in memory
        (warning,) = report.warnings
        assert warning.startswith("the last run's incremental state could not be written to ")
        assert warning.endswith(
            "No space left on device; the graph is complete, and a new process will index "
            "this repository in full"
        )
    finally:
        code.delete("saved")
    assert fingerprint(matrix.client) == matrix.fingerprint


@pytest.mark.integration
def test_search_says_which_nodes_an_interrupted_embedding_left_without_vectors(
    matrix: Matrix,
) -> None:
    """A kill during `embed` left `shop` complete with vectors missing, and search said
    nothing (issue 57, notes): now it warns until `embed` has filled them in."""
    matrix.client.write(
        "MATCH (n:Code {repo: $repo}) WITH n ORDER BY n.id LIMIT 3 "
        "REMOVE n.embedding, n.embedded_hash, n.embedded_model",
        {"repo": REPO},
    )
    warned = matrix.run(COMMANDS["search"])
    assert_clean(warned)
    assert warned.code == OK, warned.text
    nodes = matrix.fingerprint["nodes"]
    assert (
        f"warning: only {nodes - 3} of the {nodes} code nodes of repository 'shop' have a "
        "vector (an embedding run was interrupted or is still running)"
        in " ".join(warned.err.split())
    ), warned.err
    as_json = json.loads(matrix.run([*COMMANDS["search"], "--json"]).out)
    assert [w["kind"] for w in as_json["warnings"]] == ["vectors_partial"]
    assert matrix.run(COMMANDS["callers"]).err == ""  # no vector in a callers answer
    # none at all (`index --no-embeddings`): search says how to add them
    matrix.client.write(
        "MATCH (n:Code {repo: $repo}) REMOVE n.embedding, n.embedded_hash, n.embedded_model",
        {"repo": REPO},
    )
    bare = " ".join(matrix.run(COMMANDS["context"]).err.split())
    assert "repository 'shop' has no vectors" in bare
    assert "run `graphrag-code embed --repo shop`" in bare
    assert matrix.run(COMMANDS["embed"]).code == OK
    assert matrix.run(COMMANDS["search"]).err == ""
    assert fingerprint(matrix.client) == matrix.fingerprint
