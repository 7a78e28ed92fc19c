// The graphrag_code schema. Idempotent: every statement is IF NOT EXISTS.
// Parameters: $fulltext_index, $file_index, $fulltext_analyzer
CREATE CONSTRAINT repository_name IF NOT EXISTS FOR (r:Repository) REQUIRE r.name IS UNIQUE;
CREATE CONSTRAINT code_id IF NOT EXISTS FOR (n:Code) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT external_name IF NOT EXISTS FOR (e:External) REQUIRE e.qualified_name IS UNIQUE;
CREATE CONSTRAINT embedding_index_name IF NOT EXISTS FOR (m:EmbeddingIndex) REQUIRE m.name IS UNIQUE;
CREATE INDEX code_repo IF NOT EXISTS FOR (n:Code) ON (n.repo);
CREATE INDEX code_qualified_name IF NOT EXISTS FOR (n:Code) ON (n.qualified_name);
CREATE INDEX code_name IF NOT EXISTS FOR (n:Code) ON (n.name);
CREATE INDEX code_path IF NOT EXISTS FOR (n:Code) ON (n.path);
// ENDS WITH on paths ("storage/base.py" names "src/shop/storage/base.py") needs a text index
CREATE TEXT INDEX code_path_text IF NOT EXISTS FOR (n:Code) ON (n.path);
CREATE INDEX code_content_hash IF NOT EXISTS FOR (n:Code) ON (n.content_hash);
// the cross-repository stage looks up the externals of the packages another repository provides
CREATE INDEX external_package IF NOT EXISTS FOR (e:External) ON (e.package);
// Only the edges the cross-repository stage linked to another repository's node carry
// `external_name`: these index them alone, so that stage finds a repository's cross edges
// without reading all its relationships (Django beside two others: 0.12 s -> 0.004 s a count).
CREATE INDEX calls_external_name IF NOT EXISTS FOR ()-[r:CALLS]-() ON (r.external_name);
CREATE INDEX imports_external_name IF NOT EXISTS FOR ()-[r:IMPORTS]-() ON (r.external_name);
CREATE INDEX inherits_external_name IF NOT EXISTS FOR ()-[r:INHERITS]-() ON (r.external_name);
// The vector index: schema/create_vector.cypher, or create_vector_filtered.cypher on 2026.01+.
// The full-text index over every repository; each repository has one of its own too
// (create_repository_text.cypher, graph/scoping.py).
// Eventually consistent: the server applies a write's index updates on a thread of their own
// instead of in the writing transaction (Django's node writes 16.3-17.3 -> 13.8-14.1 s on two
// cores); a run waits for them before it is marked done (ingest/await_text_indexes.cypher), so
// a search after `index` returns sees everything it wrote.
CREATE FULLTEXT INDEX $fulltext_index IF NOT EXISTS
FOR (n:Code) ON EACH [n.search_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: $fulltext_analyzer, `fulltext.eventually_consistent`: true}};
// Module nodes' whole-file text (file-level search, retrieval/units.py): an index of its own,
// so that BM25 weighs a file as one document; per repository too (create_repository_files.cypher).
CREATE FULLTEXT INDEX $file_index IF NOT EXISTS
FOR (n:Code) ON EACH [n.file_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: $fulltext_analyzer, `fulltext.eventually_consistent`: true}};
