"""Helpers shared by benchmarks of more than one family."""
