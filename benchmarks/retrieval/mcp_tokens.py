"""What an agent reads through `graphrag-code mcp` to reach an answer, against reading whole
files found by full-text search; and each tool's latency over the MCP transport.

Questions: the code questions (harness/code_questions: concept, callers, impact, definition,
from jedi's and grimp's outputs and docstrings, never from our graph) on pinned packages, and
questions from this repository's git history (a commit subject -> the Python files it changed,
asked of HEAD: graphrag_code.evaluation.history).

The agent (a fixed policy, no LLM) talks to a real `graphrag-code mcp` subprocess over stdio
with the SDK's client and calls, in order: `search(question)`; then the tool the question's
kind calls for, on the name the question spells (`callers`, `impact`, `symbol`); then
`context(question)`. It stops at the first answer whose text contains a gold location (the
`path:start` of a symbol that answers it, or the path of a module or file that does). The
baseline ranks the repository's files by BM25 over their text with the question's words (what
`grep` + reading does) and reads whole files, best first, until it has read a gold file.
Tokens are counted alike on both sides (word runs + punctuation, as the context assembler).

Latency: every tool called over the same stdio transport, p50/p95 per tool, on the largest
repository indexed (Django 5.1.4 with --django, indexed without vectors: the vector leg then
finds nothing and search runs its full-text and graph legs).

    .venv/bin/python -m benchmarks.retrieval.mcp_tokens                # requests, flask, this repo
    .venv/bin/python -m benchmarks.retrieval.mcp_tokens --django       # + latency on Django 5.1.4

Runs its own Neo4j (data in benchmarks/cache/neo4j-mcp, so reruns reuse the vectors) and writes
benchmarks/results/mcp_tokens.{json,md}.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import CallToolResult, TextContent
from rich.console import Console

from benchmarks.common.paths import CACHE_DIR, CHECKOUT, RESULTS_DIR
from benchmarks.oracles.packages import fetch
from benchmarks.retrieval.code_questions import oracle_source
from graphrag_code.api import index_repository
from graphrag_code.embedding import MiniLMEmbedder
from graphrag_code.evaluation.history import HistoryOptions, Revision, export_tree
from graphrag_code.evaluation.history import build_questions as history_questions
from graphrag_code.evaluation.runlog import git_commit
from graphrag_code.graph import GraphReader, Neo4jClient
from graphrag_code.retrieval.context import estimate_tokens
from graphrag_code.runtime.endpoint import Neo4jEndpoint
from graphrag_code.runtime.server.endpoints import local_endpoint
from graphrag_code.runtime.server.local import LocalNeo4jServer, free_port
from graphrag_code.settings import Settings, load_settings
from harness.code_questions import build_questions, prepare_package
from harness.code_questions.questions import CodeQuestion

RESULTS = RESULTS_DIR
SERVER_HOME = CACHE_DIR / "neo4j-mcp"
WORK = CACHE_DIR / "mcp"
PACKAGES = ("requests==2.32.3", "flask==3.0.3")
HISTORY_REPO = "history-head"
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|_")
_MAX_FILES_READ = 20


# -- questions and their gold locations --------------------------------------------------------
@dataclass(frozen=True)
class Question:
    id: str
    kind: str  # concept, callers, impact, definition, history
    text: str
    repo: str
    folder: Path  # the indexed folder (the baseline reads its files)
    gold_marks: tuple[str, ...]  # strings whose presence in an answer means "found"
    gold_files: tuple[str, ...]  # repository-relative paths of files that hold an answer
    subject: str | None  # the name the question spells, for callers / impact / symbol


def spelled_subject(question: str) -> str | None:
    """The symbol, module or path a question names: `backticked`, or `change PATH?`, or
    `Where is NAME defined?` when NAME is one identifier."""
    ticked = re.search(r"`([^`]+)`", question)
    if ticked:
        return ticked.group(1)
    for pattern in (r"change (\S+)\?$", r"^Where is ([\w.]+) defined\?$"):
        found = re.search(pattern, question)
        if found:
            return found.group(1)
    return None


def gold_of(reader: GraphReader, ids: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`path:start` of each symbol, the path of each module; and the files."""
    marks: list[str] = []
    files: list[str] = []
    for definition in reader.describe(ids).values():
        location = definition.symbol.location
        files.append(location.path)
        if definition.symbol.kind == "Module" or location.start_line is None:
            marks.append(location.path)
        else:
            marks.append(f"{location.path}:{location.start_line}")
    return tuple(dict.fromkeys(marks)), tuple(dict.fromkeys(files))


def code_questions(
    reader: GraphReader, questions: Sequence[CodeQuestion], folders: Mapping[str, Path]
) -> list[Question]:
    kept = []
    for q in questions:
        marks, files = gold_of(reader, q.relevant)
        if not marks:  # an answer our graph does not hold at all: nothing to look for
            continue
        subject = spelled_subject(q.question)
        kept.append(
            Question(
                q.id, q.category.value, q.question, q.repo, folders[q.repo], marks, files, subject
            )
        )
    return kept


# -- the agent: a fixed policy over the MCP tools ----------------------------------------------
_FOLLOW_UP = {"callers": "callers", "impact": "impact", "definition": "symbol"}


def plan(question: Question) -> list[tuple[str, dict[str, Any]]]:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("search", {"question": question.text, "repo": question.repo})
    ]
    tool = _FOLLOW_UP.get(question.kind)
    if tool is not None and question.subject:
        argument = {"callers": "symbol", "impact": "target", "symbol": "name"}[tool]
        calls.append((tool, {argument: question.subject, "repo": question.repo}))
    calls.append(("context", {"question": question.text, "repo": question.repo}))
    return calls


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


@dataclass
class AgentRun:
    found: bool
    tokens: int
    calls: int
    first_tool: str | None  # the tool whose answer held the gold location


async def ask(client: Client, question: Question, latencies: dict[str, list[float]]) -> AgentRun:
    tokens = 0
    for calls, (tool, arguments) in enumerate(plan(question), start=1):
        started = time.perf_counter()
        result = await client.call_tool(tool, arguments)
        latencies.setdefault(tool, []).append((time.perf_counter() - started) * 1000)
        body = text_of(result)
        tokens += estimate_tokens(body)
        if not result.is_error and any(mark in body for mark in question.gold_marks):
            return AgentRun(True, tokens, calls, tool)
    return AgentRun(False, tokens, len(plan(question)), None)


# -- the baseline: full-text search over files, then read whole files --------------------------
def terms(text: str) -> list[str]:
    words: list[str] = []
    for word in _WORD.findall(text):
        parts = [p for p in _SPLIT.split(word) if p]
        words += [p.lower() for p in parts if len(p) > 1]
        if len(parts) > 1:
            words.append(word.lower())
    return words


@dataclass
class FileIndex:
    """BM25 over the source files of one folder (k1 1.2, b 0.75)."""

    folder: Path
    files: dict[str, Counter[str]] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)

    @classmethod
    def build(cls, folder: Path, suffixes: tuple[str, ...] = (".py",)) -> FileIndex:
        index = cls(folder)
        for path in sorted(folder.rglob("*")):
            if path.suffix in suffixes and path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                relative = path.relative_to(folder).as_posix()
                index.files[relative] = Counter(terms(text))
                index.tokens[relative] = estimate_tokens(text)
        return index

    def rank(self, question: str) -> list[str]:
        query = set(terms(question))
        count = len(self.files)
        average = sum(sum(c.values()) for c in self.files.values()) / max(count, 1)
        df = {t: sum(1 for c in self.files.values() if t in c) for t in query}
        scores: dict[str, float] = {}
        for path, counts in self.files.items():
            length = sum(counts.values())
            score = 0.0
            for term in query:
                tf = counts.get(term, 0)
                if not tf:
                    continue
                idf = math.log(1 + (count - df[term] + 0.5) / (df[term] + 0.5))
                score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average))
            if score > 0:
                scores[path] = score
        return sorted(scores, key=lambda p: (-scores[p], p))


def read_files(index: FileIndex, question: Question) -> AgentRun:
    tokens = 0
    gold = set(question.gold_files)
    for read, path in enumerate(index.rank(question.text)[:_MAX_FILES_READ], start=1):
        tokens += index.tokens[path]
        if path in gold:
            return AgentRun(True, tokens, read, "read")
    return AgentRun(False, tokens, _MAX_FILES_READ, None)


# -- running ----------------------------------------------------------------------------------
@contextmanager
def dedicated_server(settings: Settings, console: Console) -> Iterator[Neo4jEndpoint]:
    server = LocalNeo4jServer(
        SERVER_HOME, cache_dir=settings.cache_dir, neo4j_version=settings.neo4j_version,
        bolt_port=free_port(), http_port=0, heap="1g", pagecache="256m",
        java_home=settings.java_home,
    )  # fmt: skip
    console.print(f"starting a dedicated Neo4j in {SERVER_HOME}")
    server.start(attached=True)
    try:
        yield local_endpoint(server)
    finally:
        server.stop()


def server_env(endpoint: Neo4jEndpoint, settings: Settings) -> dict[str, str]:
    return {
        "NEO4J_URI": endpoint.uri,
        "NEO4J_USERNAME": endpoint.username,
        "NEO4J_PASSWORD": endpoint.password.get_secret_value() if endpoint.password else "",
        "NEO4J_DATABASE": endpoint.database,
        "GRAPHRAG_CODE_CACHE_DIR": str(settings.cache_dir),
        "HOME": os.environ.get("HOME", ""),
    }


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def summarise(runs: Sequence[AgentRun]) -> dict[str, float]:
    found = [r for r in runs if r.found]
    return {
        "questions": len(runs),
        "found": len(found) / len(runs) if runs else 0.0,
        "median_tokens_found": statistics.median(r.tokens for r in found) if found else 0.0,
        "mean_tokens_all": statistics.fmean(r.tokens for r in runs) if runs else 0.0,
        "mean_calls_found": statistics.fmean(r.calls for r in found) if found else 0.0,
    }


async def drive(
    env: dict[str, str],
    questions: Sequence[Question],
    latency_calls: Sequence[tuple[str, dict[str, Any]]],
    console: Console,
) -> tuple[list[AgentRun], dict[str, list[float]], dict[str, list[float]]]:
    params = StdioServerParameters(
        command=str(Path(sys.executable).parent / "graphrag-code"), args=["mcp"], env=env
    )
    with tempfile.TemporaryFile("w+") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            await client.call_tool("repositories", {})  # connect, load the model
            agent_latency: dict[str, list[float]] = {}
            runs = []
            for number, question in enumerate(questions, start=1):
                runs.append(await ask(client, question, agent_latency))
                if number % 25 == 0:
                    console.print(f"{number}/{len(questions)} questions")
            latency: dict[str, list[float]] = {}
            for tool, arguments in latency_calls:
                started = time.perf_counter()
                result = await client.call_tool(tool, arguments)
                latency.setdefault(tool, []).append((time.perf_counter() - started) * 1000)
                if result.is_error:
                    console.print(f"[yellow]{tool} {arguments}: {text_of(result)[:200]}[/]")
    return runs, agent_latency, latency


def latency_calls(reader: GraphReader, repo: str, rounds: int) -> list[tuple[str, dict[str, Any]]]:
    """Each tool on central symbols and modules of `repo` (the same calls every round)."""
    _roots, central = reader.entry_points(repo, limit=rounds)
    symbols = [p.qualified_name for p in central if p.kind in ("Function", "Method")]
    classes = [p.qualified_name for p in central if p.kind == "Class"] or symbols
    modules = sorted(reader.module_ids(repo))
    calls: list[tuple[str, dict[str, Any]]] = []
    for i in range(rounds):
        symbol = symbols[i % len(symbols)]
        module = modules[(i * 7) % len(modules)]
        calls += [
            ("search", {"question": f"what calls {symbol.rsplit('.', 1)[-1]}", "repo": repo}),
            ("search", {"question": "where are settings read from the environment", "repo": repo}),
            ("context", {"question": f"how does {symbol.rsplit('.', 1)[-1]} work", "repo": repo}),
            ("callers", {"symbol": symbol, "depth": 2, "repo": repo}),
            ("callees", {"symbol": symbol, "repo": repo}),
            ("importers", {"module": module, "repo": repo}),
            ("dependencies", {"module": module, "repo": repo}),
            ("impact", {"target": module, "depth": 2, "repo": repo}),
            ("path", {"source": symbols[(i + 1) % len(symbols)], "target": symbol, "repo": repo}),
            ("symbol", {"name": classes[i % len(classes)], "repo": repo}),
            ("entry_points", {"repo": repo}),
            ("repositories", {}),
        ]
    return calls


def _markdown(result: Mapping[str, Any]) -> str:
    lines = [
        "| questions | n | found: tools | found: files | median tokens to the answer: tools "
        "| files | ratio | mean tool calls |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, row in result["tokens"].items():
        tools, files = row["tools"], row["files"]
        ratio = files["median_tokens_found"] / max(tools["median_tokens_found"], 1)
        lines.append(
            f"| {name} | {tools['questions']} | {tools['found']:.2f} | {files['found']:.2f} | "
            f"{tools['median_tokens_found']:.0f} | {files['median_tokens_found']:.0f} | "
            f"{ratio:.1f}x | {tools['mean_calls_found']:.2f} |"
        )
    lines += ["", f"Latency over stdio on {result['latency_repo']} (ms):", ""]
    lines += ["| tool | calls | p50 | p95 |", "|---|---|---|---|"]
    for tool, row in result["latency_ms"].items():
        lines.append(f"| {tool} | {row['calls']} | {row['p50']:.1f} | {row['p95']:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--packages", nargs="+", default=list(PACKAGES), metavar="NAME==VERSION")
    parser.add_argument("--sample", type=int, default=30, help="code questions per category")
    parser.add_argument("--history", type=int, default=50, help="commit-history questions")
    parser.add_argument("--django", action="store_true", help="latency on Django 5.1.4")
    parser.add_argument("--rounds", type=int, default=20, help="latency calls per tool")
    parser.add_argument("--output-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    settings = load_settings()
    embedder = MiniLMEmbedder(batch_size=settings.embed_batch_size)
    WORK.mkdir(parents=True, exist_ok=True)
    with dedicated_server(settings, console) as endpoint, Neo4jClient(endpoint) as client:
        client.verify()
        reader = GraphReader(client)
        questions: list[Question] = []
        for spec in args.packages:
            source = oracle_source(spec)
            console.print(f"indexing {spec}")
            prepare_package(source, WORK, client=client, settings=settings, embedder=embedder)
            folders = {source.repo: WORK / source.repo, source.nodoc_repo: WORK / source.nodoc_repo}
            asked = build_questions(source, sample=args.sample)
            questions += code_questions(reader, asked, folders)
        history = history_questions(
            CHECKOUT, HistoryOptions(revision=Revision.HEAD, max_questions=args.history)
        )
        tree = WORK / HISTORY_REPO
        export_tree(history.root, history.head, tree)
        console.print(f"indexing this repository at {history.head[:10]}")
        index_repository(tree, HISTORY_REPO, client=client, settings=settings, embedder=embedder)
        for item in history.questions:
            gold = tuple(p for p in item.paths if (tree / p).is_file())
            if gold:
                questions.append(
                    Question(
                        f"history/{item.id}", "history", item.text, HISTORY_REPO, tree, gold,
                        gold, None,
                    )
                )  # fmt: skip
        latency_repo = HISTORY_REPO
        if args.django:
            django = fetch("django", "5.1.4")
            console.print("indexing django 5.1.4 (no vectors)")
            index_repository(
                django.import_root, "django", client=client, settings=settings, embed=False
            )
            latency_repo = "django"
        calls = latency_calls(reader, latency_repo, args.rounds)
        env = server_env(endpoint, settings)
        console.print(f"asking {len(questions)} questions through graphrag-code mcp")
        runs, agent_latency, latency = anyio.run(drive, env, questions, calls, console)
        indexes = {folder: FileIndex.build(folder) for folder in {q.folder for q in questions}}
        baseline = [read_files(indexes[q.folder], q) for q in questions]
    kinds = sorted({q.kind for q in questions})
    tokens = {
        kind: {
            "tools": summarise([r for r, q in zip(runs, questions, strict=True) if q.kind == kind]),
            "files": summarise(
                [r for r, q in zip(baseline, questions, strict=True) if q.kind == kind]
            ),
        }
        for kind in kinds
    }
    code = [i for i, q in enumerate(questions) if q.kind != "history"]
    tokens["all code questions"] = {
        "tools": summarise([runs[i] for i in code]),
        "files": summarise([baseline[i] for i in code]),
    }
    first_tool = Counter(r.first_tool or "not found" for r in runs)
    result = {
        "config": {
            "packages": args.packages,
            "sample": args.sample,
            "history_questions": args.history,
            "history_head": history.head,
            "embedder": embedder.name,
            "max_files_read": _MAX_FILES_READ,
            "git": git_commit(CHECKOUT),
        },
        "tokens": tokens,
        "first_tool_with_the_answer": dict(first_tool.most_common()),
        "latency_repo": latency_repo,
        "latency_ms": {
            tool: {"calls": len(ms), "p50": percentile(ms, 0.5), "p95": percentile(ms, 0.95)}
            for tool, ms in sorted(latency.items())
        },
        "agent_latency_ms": {
            tool: {"calls": len(ms), "p50": percentile(ms, 0.5), "p95": percentile(ms, 0.95)}
            for tool, ms in sorted(agent_latency.items())
        },
        "questions": [
            {"id": q.id, "kind": q.kind, "tools": asdict(r), "files": asdict(b)}
            for q, r, b in zip(questions, runs, baseline, strict=True)
        ],
    }
    args.output_dir.mkdir(parents=True, exist_ok=True)
    (args.output_dir / "mcp_tokens.json").write_text(json.dumps(result, indent=2) + "\n")
    markdown = _markdown(result)
    (args.output_dir / "mcp_tokens.md").write_text(markdown)
    print(markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
