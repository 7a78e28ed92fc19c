"""`graphrag-code demo`: the main job on a fresh machine, end to end."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from ..connection import Neo4jClient, resolve_endpoint
from ..schema import SchemaConfig, ensure_schema
from ..settings import load_settings

__all__ = ["register"]


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "demo", help="start Neo4j (local unless NEO4J_URI is set) and prepare the schema"
    )
    parser.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace, console: Console) -> int:
    settings = load_settings()
    endpoint = resolve_endpoint(settings)
    console.print(f"Neo4j: {endpoint.uri} (database {endpoint.database}, source {endpoint.source})")
    with Neo4jClient(endpoint) as client:
        client.verify()
        ensure_schema(
            client,
            SchemaConfig(
                vector_index=settings.vector_index, fulltext_index=settings.fulltext_index
            ),
        )
        info = client.server_info()
    console.print(f"schema ready on Neo4j {info.get('version')} ({info.get('edition')})")
    return 0
