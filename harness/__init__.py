"""The research harness: benchmarks that measure graphrag_code, outside the package.

Importable from the repository root like `benchmarks` (which holds the scripts that run these
and the independent oracles); never shipped in the wheel. It may import `graphrag_code`, and
`graphrag_code` never imports it.

    queries          the harness's own Cypher (`harness/cypher/`)
    beir             a BEIR dataset's test split: corpus, query texts, judgements
    documents        plain text documents as :Document nodes with their own indexes
    search           the two-leg document query (one round trip) and its RRF fusion
    passes           passes over a query set: retrieved, fused, scored, recorded
    scifact          BEIR SciFact end to end (`python -m benchmarks.retrieval.scifact`)
    baselines        neo4j-graphrag's HybridRetriever on our indexes
    code_questions   questions about pinned packages answered by jedi, grimp and docstrings
                     (`python -m benchmarks.retrieval.code_questions`)
"""
