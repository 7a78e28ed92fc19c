"""Benchmarks for graphrag_code, one folder per family (accuracy, speed, retrieval, impact,
scale), with independent oracles in `oracles/`. They measure through the public API or a named
module, never `graphrag_code.graph.queries` (a contract in `.importlinter`)."""
