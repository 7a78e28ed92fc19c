"""Documents in a real Neo4j: ingest, the one-query hybrid search, hostile queries, caching."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from graphrag_code.embedding import HashingEmbedder, WrappedEmbedder
from graphrag_code.errors import ConfigurationError, EmbeddingMismatchError
from graphrag_code.graph.client import Neo4jClient
from harness.documents import (
    Document,
    DocumentSchema,
    FulltextIndex,
    FulltextLayout,
    count_documents,
    delete_corpus,
    ensure_document_schema,
    ingest_documents,
)
from harness.search import FULLTEXT, VECTOR, Legs, fuse, lucene_query, search_legs

pytestmark = pytest.mark.integration

TOPICS = [
    ("Photosynthesis", "Chlorophyll in plant leaves converts sunlight into chemical energy."),
    ("Volcanoes", "Magma rises through the crust and erupts as lava and ash."),
    ("Glaciers", "Compacted snow forms ice sheets that carve valleys as they move."),
    ("Tides", "The moon's gravity pulls the oceans, raising water twice a day."),
    ("Antibiotics", "Penicillin kills bacteria by breaking their cell walls."),
    ("Vaccines", "Immunisation trains antibodies to recognise a virus before infection."),
    ("Insulin", "The pancreas releases insulin to lower glucose in the blood."),
    ("Neurons", "Axons carry electrical impulses between nerve cells across synapses."),
    ("Telescopes", "Mirrors gather faint starlight to image distant galaxies."),
    ("Semiconductors", "Doped silicon controls current in transistors and chips."),
    ("Compilers", "A parser builds a syntax tree that is lowered to machine code."),
    ("Databases", "Indexes on tables speed up queries by avoiding full scans."),
    ("Encryption", "Public keys encrypt messages that only private keys decrypt."),
    ("Bees", "Honeybees pollinate flowers while collecting nectar for the hive."),
    ("Coral reefs", "Warming seas bleach corals by expelling their symbiotic algae."),
    ("Earthquakes", "Tectonic plates slip along faults and release seismic waves."),
    ("Rainbows", "Raindrops refract and reflect sunlight into a spectrum of colours."),
    ("Batteries", "Lithium ions move between electrodes as the cell charges."),
    ("Fermentation", "Yeast turns sugar into alcohol and carbon dioxide without oxygen."),
    ("Migration", "Arctic terns fly from pole to pole following the summer."),
]
DOCUMENTS = [Document(f"doc{i}", title, text) for i, (title, text) in enumerate(TOPICS)]
EMBEDDER = HashingEmbedder(256)
SCHEMA = DocumentSchema(
    dimensions=256,
    vector_index="test_document_vectors",
    fulltext=(
        FulltextIndex("test_document_flat", FulltextLayout.FLAT, "english"),
        FulltextIndex("test_document_fields", FulltextLayout.MULTIFIELD, "english"),
    ),
)
HOSTILE = [
    "foo) OR (",
    "a/b",
    '~^"',
    "title:",
    "AND",
    "OR NOT AND TO",
    "\\",
    "",
    "   ",
    "*",
    "?",
    "[1 TO 5]",
    "{a TO b}",
    "a && b || !c",
    "+-",
    'title:"unterminated',
    "text:(x",
    "/regex/",
    "fuzzy~2 boost^3",
    "\x00\t\n",
    "the of and",
    "héllo wörld 中文 \u3000",
]


class CountingEmbedder(WrappedEmbedder):
    """The hashing embedder, counting the texts it embeds (to prove the cache skips them)."""

    def __init__(self) -> None:
        super().__init__(EMBEDDER)
        self.embedded = 0

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.embedded += len(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


@pytest.fixture
def corpus(neo4j: Neo4jClient) -> Neo4jClient:
    ensure_document_schema(neo4j, SCHEMA)
    ingest_documents(neo4j, "tiny", DOCUMENTS, EMBEDDER, embed_batch=7)
    return neo4j


def _search(client: Neo4jClient, text: str, index: str = "test_document_flat") -> Legs:
    return search_legs(
        client,
        corpus="tiny",
        fulltext_index=index,
        vector_index=SCHEMA.vector_index,
        lucene=lucene_query(text),
        vector=EMBEDDER.embed_query(text),
        depth=5,
    )


def test_known_query_ranks_its_document_first_in_each_leg_and_fused(corpus: Neo4jClient) -> None:
    legs = _search(corpus, "penicillin kills bacteria")
    assert legs.fulltext[0].id == "doc4"
    assert legs.vector[0].id == "doc4"
    fused = fuse(legs)
    assert fused[0].id == "doc4"
    assert fused[0].ranks == {FULLTEXT: 1, VECTOR: 1}
    assert fused[0].score == pytest.approx(2 / 61)
    assert len(legs.fulltext) <= 5
    assert len(legs.vector) == 5


def test_multifield_index_and_title_boost(corpus: Neo4jClient) -> None:
    legs = search_legs(
        corpus,
        corpus="tiny",
        fulltext_index="test_document_fields",
        vector_index=SCHEMA.vector_index,
        lucene=lucene_query("glaciers", field_boosts={"title": 2.0, "text": 1.0}),
        vector=None,
    )
    assert [hit.id for hit in legs.fulltext] == ["doc2"]
    assert legs.vector == ()


def test_hostile_queries_never_raise(corpus: Neo4jClient) -> None:
    rng = random.Random(3)
    alphabet = '+-&|!(){}[]^"~*?:\\/ aAND OR NOT TO title: text: é\t'
    fuzz = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 20))) for _ in range(60)]
    cases = [(text, boosts) for text in HOSTILE for boosts in (None, {"title": 2.0, "text": 1.0})]
    for text, boosts in [*cases, *((text, None) for text in fuzz)]:
        lucene = lucene_query(text, field_boosts=boosts)
        search_legs(
            corpus,
            corpus="tiny",
            fulltext_index="test_document_fields" if boosts else "test_document_flat",
            vector_index=SCHEMA.vector_index,
            lucene=lucene,
            vector=EMBEDDER.embed_query(text),
        )
    assert lucene_query("") is None
    assert lucene_query(" \t") is None


def test_escaped_words_still_match(corpus: Neo4jClient) -> None:
    legs = _search(corpus, "(penicillin)")
    assert legs.fulltext[0].id == "doc4"


def test_reingest_neither_duplicates_nor_reembeds(corpus: Neo4jClient) -> None:
    counting = CountingEmbedder()
    report = ingest_documents(corpus, "tiny", DOCUMENTS, counting)
    assert (report.written, report.embedded, report.reused) == (0, 0, len(DOCUMENTS))
    assert counting.embedded == 0
    assert count_documents(corpus, "tiny") == (len(DOCUMENTS), len(DOCUMENTS))

    changed = [*DOCUMENTS[:-1], Document("doc19", "Migration", "Swallows cross the Sahara.")]
    report = ingest_documents(corpus, "tiny", changed, counting)
    assert (report.written, report.embedded, counting.embedded) == (1, 1, 1)
    # A new embedding key (e.g. another truncation) re-embeds everything once.
    report = ingest_documents(corpus, "tiny", changed, counting, embedding_key="other")
    assert report.embedded == len(DOCUMENTS)


def test_embedder_of_another_size_is_refused(corpus: Neo4jClient) -> None:
    with pytest.raises(EmbeddingMismatchError, match="256 dimensions"):
        ingest_documents(corpus, "tiny", DOCUMENTS, HashingEmbedder(32))


def test_corpora_coexist_and_filter(corpus: Neo4jClient) -> None:
    ingest_documents(corpus, "other", DOCUMENTS[:3], EMBEDDER)
    assert count_documents(corpus, "other") == (3, 3)
    legs = search_legs(
        corpus,
        corpus="other",
        fulltext_index="test_document_flat",
        vector_index=SCHEMA.vector_index,
        lucene=lucene_query("penicillin bacteria volcanoes"),
        vector=EMBEDDER.embed_query("penicillin bacteria"),
        depth=3,
        fetch=40,
    )
    assert {hit.id for hit in legs.fulltext} == {"doc1"}
    assert {hit.id for hit in legs.vector} <= {"doc0", "doc1", "doc2"}
    assert delete_corpus(corpus, "other") == 3
    assert count_documents(corpus, "tiny")[0] == len(DOCUMENTS)


def test_schema_rebuilds_fulltext_on_analyzer_change_and_guards_vectors(
    corpus: Neo4jClient,
) -> None:
    standard = DocumentSchema(
        dimensions=256,
        vector_index=SCHEMA.vector_index,
        fulltext=(FulltextIndex("test_document_flat", FulltextLayout.FLAT, "standard"),),
    )
    ensure_document_schema(corpus, standard)
    rows = corpus.read(
        "SHOW FULLTEXT INDEXES YIELD name, options WHERE name = 'test_document_flat' "
        "RETURN options.indexConfig.`fulltext.analyzer` AS analyzer"
    )
    assert rows == [{"analyzer": "standard"}]
    # english stems "kills" to "kill"; standard does not, so only the exact form matches now.
    assert [hit.id for hit in _search(corpus, "kills").fulltext] == ["doc4"]
    assert _search(corpus, "kill").fulltext == ()
    with pytest.raises(EmbeddingMismatchError):
        ensure_document_schema(
            corpus, DocumentSchema(dimensions=32, vector_index=SCHEMA.vector_index)
        )


def test_schema_validation() -> None:
    with pytest.raises(ConfigurationError):
        DocumentSchema(dimensions=4, fulltext=(FulltextIndex("a"), FulltextIndex("b")))
    with pytest.raises(ConfigurationError):
        FulltextIndex("bad name")
    with pytest.raises(ConfigurationError):
        lucene_query("x", field_boosts={"ti tle": 1.0})
