"""The `graphrag-code` command line. Each command group lives in its own module."""

from .main import main

__all__ = ["main"]
