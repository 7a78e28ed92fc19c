"""The relation family is defined once (`relation_kinds.RELATIONS`): `Relations`, `CodeGraph`,
the MCP tools and the CLI subcommands are made from it, offline."""

from __future__ import annotations

import asyncio
import inspect

import pytest
from pydantic import SecretStr

from graphrag_code import CodeGraph
from graphrag_code.cli.main import build_parser
from graphrag_code.errors import InvalidArgumentError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.mcp.options import ServerOptions
from graphrag_code.mcp.server import build_server
from graphrag_code.retrieval.relation_kinds import RELATIONS
from graphrag_code.retrieval.relations import RelationMethod, Relations
from graphrag_code.runtime.endpoint import Neo4jEndpoint
from graphrag_code.settings import Settings


@pytest.mark.parametrize("owner", [Relations, CodeGraph])
def test_each_relation_is_a_method_made_from_its_definition(owner: type) -> None:
    for kind in RELATIONS.values():
        method = vars(owner)[kind.name]
        assert isinstance(method, RelationMethod)
        assert method.kind is kind
        assert kind.description in (method.__doc__ or "")


def test_a_relation_method_asks_related_by_its_name() -> None:
    asked: list[tuple[object, ...]] = []

    class Fake:
        def related(self, relation: str, name: str, **options: object) -> object:
            asked.append((relation, name, options))
            return "answer"

        impact = RelationMethod("impact")

    query = Fake().impact
    assert query("pkg/mod.py", depth=2) == "answer"
    assert query("pkg/mod.py", possible=True) == "answer"
    assert asked == [
        ("impact", "pkg/mod.py", {"depth": 2, "repo": None, "within": False, "possible": False}),
        ("impact", "pkg/mod.py", {"depth": None, "repo": None, "within": False, "possible": True}),
    ]
    assert query.__name__ == "impact"
    assert "depth" in inspect.signature(query).parameters


def test_a_relation_method_must_bear_its_relation_name() -> None:
    with pytest.raises((TypeError, RuntimeError)):  # 3.11 wraps __set_name__'s error

        class Wrong:
            callers = RelationMethod("callees")


def test_each_relation_is_an_mcp_tool_with_its_subject_and_depth() -> None:
    server = build_server(CodeGraph(Settings(embedder="hashing")), ServerOptions())
    listed = {tool.name: tool for tool in asyncio.run(server.list_tools())}
    for kind in RELATIONS.values():
        tool = listed[kind.name]
        assert tool.description == kind.description
        schema = tool.input_schema
        assert schema["required"] == [kind.subject]
        assert list(schema["properties"]) == [kind.subject, "depth", "repo", "within", "possible"]
        assert schema["properties"]["depth"]["default"] == kind.depth
        assert schema["properties"]["possible"]["default"] is False


def test_each_relation_is_a_cli_subcommand_with_its_depth() -> None:
    parser = build_parser()
    for kind in RELATIONS.values():
        args = parser.parse_args([kind.name, "pkg.mod.f"])
        assert (args.relation, args.name, args.depth) == (kind.name, "pkg.mod.f", kind.depth)
        assert not args.possible
        assert parser.parse_args([kind.name, "pkg.mod.f", "--possible"]).possible


def test_an_unknown_relation_is_named_in_a_clear_error_before_the_server_is_asked() -> None:
    # port 1 answers nothing: the error must come before any query
    endpoint = Neo4jEndpoint("bolt://127.0.0.1:1", "neo4j", SecretStr("unused"), "neo4j", "env")
    client = Neo4jClient(endpoint)
    try:
        with pytest.raises(InvalidArgumentError, match=r"no relation 'callerz': one of callers, "):
            Relations(client).related("callerz", "anything")  # type: ignore[arg-type]
    finally:
        client.close()
