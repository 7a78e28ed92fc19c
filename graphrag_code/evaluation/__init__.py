"""Evaluating retrieval on your own code (`graphrag-code eval history`).

    metrics    pure ranking metrics (nDCG, recall, precision, MRR, strict accuracy) and means
    ablation   one retrieval configuration to compare, as `SearchOptions`
    runlog     the JSONL run log every benchmark appends to, with the git commit it ran at
    report     Markdown tables and matplotlib figures from scores
    history    questions from a repository's git history: built, asked, scored, reported

The research harness (BEIR SciFact, the code-question benchmark, the neo4j-graphrag baseline)
lives outside the package, in the repository's `harness/`, and builds on these modules.
"""
