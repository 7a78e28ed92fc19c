"""Evaluation harness: retrieval metrics, BEIR datasets, and runs through Neo4j.

    metrics     pure ranking metrics (nDCG, recall, precision, MRR, strict accuracy) and means
    beir        a BEIR dataset's test split: corpus, query texts, judgements
    documents   plain text documents as :Document nodes with their own vector/full-text indexes
    search      the hybrid query (both legs, one round trip) and its RRF fusion
    run         passes over a query set, scored and recorded as JSONL

`benchmarks/scifact.py` puts them together on BEIR SciFact.
"""
