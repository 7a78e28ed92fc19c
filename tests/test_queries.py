"""The Cypher loader, the one identifier helper, the per-server forms of the hybrid query and
what decides between them (server capabilities), and the full-text repository token."""

from __future__ import annotations

import pytest

from graphrag_code.errors import IngestError, QueryFileError
from graphrag_code.graph import (
    ServerCapabilities,
    VectorSearchForm,
    repo_label,
    repo_token,
    repository_text_index,
)
from graphrag_code.graph.queries import (
    hop_bound,
    load_query,
    paste_identifier,
    query_names,
    quote_identifier,
    replace_block,
)
from graphrag_code.graph.reader import hybrid_search_query
from graphrag_code.ingest.pipeline import valid_repo_name
from graphrag_code.text import split_statements


def test_every_shipped_query_loads() -> None:
    names = query_names()
    assert "schema/create" in names
    for name in names:
        assert load_query(name).strip()


def test_unknown_or_malicious_query_names_are_refused() -> None:
    with pytest.raises(QueryFileError):
        load_query("no_such_query")
    with pytest.raises(QueryFileError):
        load_query("../pyproject")


def test_split_statements_drops_comments_and_keeps_multiline() -> None:
    text = "// header\nCREATE (a)\nRETURN a;\n// c\nMATCH (n) RETURN n;\n"
    assert split_statements(text) == ["CREATE (a)\nRETURN a", "MATCH (n) RETURN n"]


@pytest.mark.parametrize("name", ["Code", "CALLS", "_private", "a1"])
def test_quote_identifier_accepts_plain_names(name: str) -> None:
    assert quote_identifier(name) == f"`{name}`"


@pytest.mark.parametrize(
    "name", ["", "1abc", "a b", "a`b", "Code) DETACH DELETE (n", "é", "Code\n"]
)
def test_quote_identifier_rejects_everything_else(name: str) -> None:
    with pytest.raises(QueryFileError):
        quote_identifier(name)


@pytest.mark.parametrize("bad", [0, 7, -1, True, 2.0, "3"])
def test_hop_bound_rejects_out_of_range(bad: object) -> None:
    with pytest.raises(QueryFileError):
        hop_bound(bad)  # type: ignore[arg-type]


def test_hop_bound_accepts_range() -> None:
    assert [hop_bound(n) for n in range(1, 7)] == list(range(1, 7))
    assert hop_bound(0, minimum=0, maximum=3) == 0  # the search's graph leg: seeds only
    with pytest.raises(QueryFileError):
        hop_bound(4, minimum=0, maximum=3)


def test_replace_block_swaps_the_marked_lines_keeping_indentation() -> None:
    text = "CALL () {\n  WITH 1 AS x\n  // BEGIN leg\n  RETURN x AS y\n  // END leg\n}\n"
    other = "CYPHER 25\n// BEGIN leg\nWITH x\nRETURN 2 * x AS y\n// END leg\nRETURN y\n"
    assert replace_block(text, "leg", other) == (
        "CALL () {\n  WITH 1 AS x\n  // BEGIN leg\n  WITH x\n  RETURN 2 * x AS y\n  // END leg\n}\n"
    )


@pytest.mark.parametrize(
    "text", ["no markers", "// BEGIN leg\n", "// END leg\n// BEGIN leg\n", "// BEGIN leg\n" * 2]
)
def test_replace_block_refuses_missing_or_broken_markers(text: str) -> None:
    with pytest.raises(QueryFileError):
        replace_block(text, "leg", "// BEGIN leg\nx\n// END leg\n")


def test_paste_identifier_replaces_the_one_whole_identifier() -> None:
    text = "SEARCH n IN (VECTOR INDEX code_embedding FOR v LIMIT 1) // not `code_embedding`s"
    assert paste_identifier(text, "code_embedding", "my_index") == (
        "SEARCH n IN (VECTOR INDEX `my_index` FOR v LIMIT 1) // not `code_embedding`s"
    )
    with pytest.raises(QueryFileError):
        paste_identifier(text, "code_embedding", "x` OR 1=1 //")
    with pytest.raises(QueryFileError):
        paste_identifier("code_embedding code_embedding", "code_embedding", "x")
    with pytest.raises(QueryFileError):
        paste_identifier("code_embeddings", "code_embedding", "x")


def test_the_procedure_form_is_the_shipped_file() -> None:
    for in_repo in (True, False):
        text = hybrid_search_query(
            VectorSearchForm.PROCEDURE, in_repo=in_repo, vector_index="anything"
        )
        assert text == load_query("search/hybrid_search")


@pytest.mark.parametrize("in_repo", [True, False])
def test_the_search_form_replaces_only_the_vector_leg(in_repo: bool) -> None:
    base = load_query("search/hybrid_search")
    text = hybrid_search_query(VectorSearchForm.SEARCH, in_repo=in_repo, vector_index="vectors_2")
    assert text.startswith("CYPHER 25\n")
    assert "db.index.vector.queryNodes" not in text
    assert "SEARCH node IN (VECTOR INDEX `vectors_2` FOR embedding" in text
    assert ("WHERE node.repo = $repo LIMIT $candidates" in text) == in_repo
    # everything outside the vector leg is the shipped text, line for line
    outside = base.split("// BEGIN vector leg")[0], base.split("// END vector leg")[1]
    assert text.removeprefix("CYPHER 25\n").startswith(outside[0])
    assert text.endswith(outside[1])
    with pytest.raises(QueryFileError):
        hybrid_search_query(VectorSearchForm.SEARCH, in_repo=in_repo, vector_index="bad name")


@pytest.mark.parametrize(
    ("version", "cypher", "filters"),
    [
        ("5.26.30", ("5",), False),
        ("5.27-aura", ("5",), False),
        ("2025.10.1", ("5", "25"), False),
        ("2026.01.4", ("5", "25"), True),
        ("2026.08.1", ("5", "25"), True),
        ("2027.1.0", ("5", "25"), True),
        ("2026.08.1", ("5",), False),  # no Cypher 25: no SEARCH whatever the number says
        ("", ("5",), False),
    ],
)
def test_capabilities_from_the_server_components(
    version: str, cypher: tuple[str, ...], filters: bool
) -> None:
    row = {"version": version, "edition": "community", "cypher_versions": list(cypher)}
    capabilities = ServerCapabilities.from_row(row)
    assert capabilities.vector_search_filters is filters
    assert capabilities.cypher_25 is ("25" in cypher)


def test_a_repository_label_and_index_name_from_any_repository_name() -> None:
    names = ("flask", "flask-extras", "Flask", "bench-django-5.1.4", "a b/c")
    tokens = {repo_token(name) for name in names}
    assert len(tokens) == len(names)
    for name in names:
        assert len(repo_token(name)) == 16
        assert set(repo_token(name)) <= set("bcdfghjklmnpqrtvwxz")
        assert quote_identifier(repo_label(name)) == f"`Repo_{repo_token(name)}`"
        assert repository_text_index("code_search_text", name).startswith("code_search_text_")
    assert repo_token("flask") == repo_token("flask")


# -- names are matched whole (issue 57, item 12) ------------------------------------------------
@pytest.mark.parametrize("name", ["victim\n", "\nvictim", "vic\ntim", "victim\r", "a" * 101])
def test_a_repository_name_with_a_newline_is_refused(name: str) -> None:
    """Before: `$` matched before a final newline and "victim\\n" became a repository."""
    with pytest.raises(IngestError, match="repository name"):
        valid_repo_name(name)
    assert valid_repo_name("victim-2.x_y") == "victim-2.x_y"


def test_a_query_name_with_a_newline_is_refused() -> None:
    with pytest.raises(QueryFileError, match="invalid query name"):
        load_query("schema/create\n")
