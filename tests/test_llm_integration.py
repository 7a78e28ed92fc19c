"""LlamaIndex retriever and query engine, and grounded answers, against the real Neo4j; the
chat model is a local OpenAI-compatible stub server (nothing reaches the internet)."""

from __future__ import annotations

import asyncio

import pytest
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import QueryBundle, TextNode

from graphrag_code.codegraph import CodeGraph
from graphrag_code.errors import LLMError, RepositoryNotFoundError
from graphrag_code.integrations.llamaindex import CodeGraphRetriever
from graphrag_code.llm import OpenAIChat
from graphrag_code.retrieval.answer import NOT_ENOUGH, answer_question
from graphrag_code.retrieval.context import Context

from .openai_stub import STUB_API_KEY, OpenAIStub, openai_stub_fixture  # noqa: F401
from .shop_graph import REPO, shop_graph_fixture  # noqa: F401

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end

QUESTION = "How is an order saved to the database?"
SAVE_QUESTION = "insert or replace one record in the database"


def test_retriever_returns_code_nodes_with_metadata(shop_graph: CodeGraph) -> None:
    retriever = CodeGraphRetriever(shop_graph, repo=REPO, k=5)
    results = retriever.retrieve(SAVE_QUESTION)
    assert 0 < len(results) <= 5
    ids = [result.node.node_id for result in results]
    assert len(set(ids)) == len(ids)
    by_name = {result.node.metadata["qualified_name"]: result for result in results}
    save = by_name["shop.storage.sqlite.SqliteStorage.save"]
    assert isinstance(save.node, TextNode)
    assert "def save(self, key: str, value: dict) -> None:" in save.node.get_content()
    assert save.node.metadata["path"] == "src/shop/storage/sqlite.py"
    assert save.node.metadata["start_line"] == 16
    assert save.node.metadata["ranks"]  # which legs found it
    scores = [result.score for result in results]
    assert scores == sorted(scores, reverse=True)


def test_async_retrieve_matches_sync(shop_graph: CodeGraph) -> None:
    retriever = CodeGraphRetriever(shop_graph, repo=REPO, k=5)
    sync_ids = [r.node.node_id for r in retriever.retrieve(QUESTION)]
    async_ids = [r.node.node_id for r in asyncio.run(retriever.aretrieve(QueryBundle(QUESTION)))]
    assert async_ids == sync_ids


def test_query_engine_with_an_openai_compatible_llm(
    shop_graph: CodeGraph, openai_stub: OpenAIStub
) -> None:
    from llama_index.llms.openai import OpenAI

    llm = OpenAI(model="gpt-4o-mini", api_key=STUB_API_KEY, api_base=openai_stub.base_url)
    engine = RetrieverQueryEngine.from_args(CodeGraphRetriever(shop_graph, repo=REPO, k=3), llm=llm)
    response = engine.query(QUESTION)
    assert "Stub answer" in str(response)
    assert response.source_nodes
    chat_requests = [r for r in openai_stub.requests if r.path == "/v1/chat/completions"]
    prompt = str(chat_requests[-1].body)
    # the retrieved code reached the LLM
    assert "SqliteStorage" in prompt or "OrderRepository" in prompt


def test_ask_keeps_only_citations_from_the_context(
    shop_graph: CodeGraph, openai_stub: OpenAIStub
) -> None:
    context = shop_graph.build_context(QUESTION, repo=REPO)
    real = context.items[0].citation
    openai_stub.chat_answer = f"It is saved by [{real}] and by [made/up.py:1-2]."
    chat = OpenAIChat("gpt-4o-mini", api_key=STUB_API_KEY, base_url=openai_stub.base_url)
    answer = shop_graph.ask(QUESTION, repo=REPO, chat=chat)
    assert answer.citations == [real]
    assert answer.invalid_citations == ["made/up.py:1-2"]
    assert answer.enough_context
    assert answer.model == "openai:gpt-4o-mini"


def test_ask_says_when_context_is_not_enough(
    shop_graph: CodeGraph, openai_stub: OpenAIStub
) -> None:
    chat = OpenAIChat("gpt-4o-mini", api_key=STUB_API_KEY, base_url=openai_stub.base_url)
    empty = Context(QUESTION, [], 0, 4000, truncated=False, search=None)
    answer = answer_question(QUESTION, empty, chat)
    assert answer.text == NOT_ENOUGH
    assert not answer.enough_context
    # a repository the graph does not hold is an error before any search (issue 55)
    with pytest.raises(RepositoryNotFoundError):
        shop_graph.ask(QUESTION, repo="no-such-repo", chat=chat)
    assert openai_stub.requests == []  # no context, no call
    openai_stub.chat_answer = f"{NOT_ENOUGH} The payment code is not indexed."
    answer = shop_graph.ask("How are payments refunded?", repo=REPO, chat=chat)
    assert not answer.enough_context


def test_ask_without_api_key_is_a_clear_error(
    shop_graph: CodeGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(LLMError, match="set OPENAI_API_KEY"):
        shop_graph.ask(QUESTION, repo=REPO, chat=OpenAIChat())
