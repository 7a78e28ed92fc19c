"""Argument types the parser checks, so that bad input exits 2 with argparse's message before
anything connects."""

from __future__ import annotations

import argparse

__all__ = ["name_argument"]


def name_argument(text: str) -> str:
    """A symbol, module, path or repository name: blank is a usage error (exit 2), not a
    search for a symbol named "" that exits 1 (issue 55)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "empty name: give a qualified name, a short name or a file path"
        )
    return text
