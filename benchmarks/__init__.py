"""Benchmarks for graphrag_code: independent oracles, baselines and evaluation scripts."""
