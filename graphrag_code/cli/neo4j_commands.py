"""`graphrag-code neo4j start | stop | status | build`: the managed local Neo4j server."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .output import print_json
from .progress import say_waiting

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["register"]


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "neo4j", help="start, stop or inspect the managed local Neo4j server"
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, handler, text in (
        ("start", _start, "build (first time), start and wait until ready"),
        ("stop", _stop, "stop cleanly"),
        ("status", _status, "report whether it runs, and where"),
        ("build", _build, "only build the Java launcher with Maven (CI warms this cache)"),
    ):
        sub = actions.add_parser(name, help=text)
        sub.add_argument("--neo4j-version", help="Neo4j version (default 5.26 LTS)")
        sub.add_argument("--bolt-port", type=int, help="Bolt port on 127.0.0.1 (default 7687)")
        sub.add_argument("--http-port", type=int, help="Browser port, 0 disables (default 7474)")
        sub.add_argument("--json", action="store_true", help="machine-readable output")
        sub.set_defaults(handler=handler)


def _server(args: argparse.Namespace) -> Any:
    from ..runtime.server.endpoints import local_server
    from ..settings import load_settings

    settings = load_settings(
        neo4j_version=args.neo4j_version, bolt_port=args.bolt_port, http_port=args.http_port
    )
    return settings, local_server(settings)


def _print_status(console: Console, status: Any, as_json: bool) -> None:
    if as_json:
        print_json(
            console,
            {
                "running": status.running,
                "pid": status.pid,
                "bolt_uri": status.bolt_uri,
                "browser_url": status.browser_url,
                "neo4j_version": status.neo4j_version,
                "auth": status.auth,
                "home": str(status.home),
            },
        )
    else:
        console.print(status.describe(), highlight=False)


def _start(args: argparse.Namespace, console: Console) -> int:
    settings, server = _server(args)
    before = server.status()
    if not before.running and not args.json:
        console.print(
            f"starting Neo4j {settings.neo4j_version} (first start builds it with Maven)…"
        )
    status = server.start(on_wait=say_waiting)
    if before.running and not args.json:
        console.print("already running")
    _print_status(console, status, args.json)
    if status.auth and not args.json:
        console.print(
            f"user: neo4j, password: in {server.password_file} (mode 0600)", highlight=False
        )
    return 0


def _stop(args: argparse.Namespace, console: Console) -> int:
    _, server = _server(args)
    stopped = server.stop()
    if args.json:
        print_json(console, {"stopped": stopped})
    else:
        console.print("stopped" if stopped else "was not running")
    return 0


def _status(args: argparse.Namespace, console: Console) -> int:
    _, server = _server(args)
    status = server.status()
    _print_status(console, status, args.json)
    return 0 if status.running else 3


def _build(args: argparse.Namespace, console: Console) -> int:
    from ..runtime.server.build import build_launcher
    from ..runtime.server.toolchain import find_java, required_java_major

    settings, _ = _server(args)
    java = find_java(required_java_major(settings.neo4j_version), settings.java_home)
    build = build_launcher(settings.neo4j_version, java, settings.cache_dir)
    console.print(f"launcher for Neo4j {settings.neo4j_version} ready in {build.directory}")
    return 0
