"""Write the three notebooks, execute them and save them with their outputs: one script, so the
committed code and the committed tables and pictures cannot drift apart.
tests/test_notebooks.py checks the committed files against `notebooks()` and runs `execute` on a
small fixture.

    .venv/bin/python notebooks/build_notebooks.py              # what gets committed
    .venv/bin/python notebooks/build_notebooks.py --repo ../rich --out /tmp/nb   # try another

Without `NEO4J_URI` it starts a throwaway local Neo4j (free ports, a temporary folder), so the
outputs do not depend on what the user's own database holds; the embedder is the configured
one (`GRAPHRAG_CODE_EMBEDDER`, default bge-small). `01` and `02` explore the repository that
`GRAPHRAG_CODE_NOTEBOOK_REPO` names (`--repo` sets it; default: this project's own source) and
pick every name they show from the graph; their figures are drawn inline and saved under
`GRAPHRAG_CODE_NOTEBOOK_FIGURES` (default `notebooks/figures/`, git-ignored).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
FIGURE = "figure"  # the tag of a cell that must draw a picture (image/png)
TIMEOUT = 900  # seconds per cell: the first index of a repository embeds every symbol


def code(source: str, *, figure: bool = False) -> nbformat.NotebookNode:
    cell = new_code_cell(source.strip("\n"))
    if figure:
        cell.metadata["tags"] = [FIGURE]
    return cell


def markdown(source: str) -> nbformat.NotebookNode:
    return new_markdown_cell(source.strip("\n"))


def notebook(stem: str, cells: list[nbformat.NotebookNode]) -> nbformat.NotebookNode:
    for number, cell in enumerate(cells):  # stable ids: regenerating changes nothing
        cell["id"] = f"{stem}-{number:02d}"
    book = new_notebook(cells=cells)
    book.metadata["kernelspec"] = {
        "display_name": "Python 3",
        "language": "python",
        "name": "python3",
    }
    return book


# Figures: inline at a modest resolution (small committed notebooks) and saved as files too.
FIGURES = """
%matplotlib inline
import matplotlib.pyplot as plt
from IPython.display import display

from graphrag_code.evaluation.report import save_figure

plt.rcParams["figure.dpi"] = 72  # inline size; the saved files are drawn at 120 dpi
# GRAPHRAG_CODE_NOTEBOOK_FIGURES: where the figures are saved (default notebooks/figures/)
FIGURES = Path(os.environ.get("GRAPHRAG_CODE_NOTEBOOK_FIGURES", Path.cwd() / "figures"))


def show(fig, name):
    \"\"\"Draw `fig` in the notebook and save it as FIGURES/<name>.png.\"\"\"
    saved = save_figure(fig, FIGURES / f"{name}.png")
    display(fig)
    plt.close(fig)
    print("saved", saved.relative_to(FIGURES))
"""

SETUP = """
import os
from pathlib import Path

from graphrag_code import CodeGraph

# The one setting, GRAPHRAG_CODE_NOTEBOOK_REPO: a folder to index, or the name of a repository
# already in the graph (explored as it is). Default: this project's own source.
TARGET = os.environ.get("GRAPHRAG_CODE_NOTEBOOK_REPO", str(Path.cwd().parent / "graphrag_code"))
graph = CodeGraph()  # NEO4J_URI (Aura, Desktop, Docker) if set, else the local server
indexed = {info.name: info for info in graph.repositories()}
if TARGET in indexed:
    REPO, REPO_PATH = TARGET, None
else:  # a folder: indexed again under the name it has in the graph, else its folder's name
    REPO_PATH = Path(TARGET).expanduser().resolve()
    REPO = next((name for name, info in indexed.items() if info.root == str(REPO_PATH)), None)
server = graph.client.server_info()
print(f"Neo4j {server['version']} {server['edition']}, database {graph.client.database!r}")
"""

INDEX = """
if REPO_PATH is not None:  # incremental after the first run: only changed files are parsed
    report = graph.index(REPO_PATH, REPO)
    REPO = report.repo
FIGURES = FIGURES / REPO
"""

# Names to show, found in the graph rather than written here, so any repository works.
PICK = """
points = graph.entry_points(REPO, limit=300)
# tests are entry points too (nothing calls them), often the busiest: the code's own come first
tests = {row["id"] for row in graph.client.read(
    "MATCH (t:Code {repo: $repo}) WHERE t.test_code RETURN t.id AS id", {"repo": REPO})}
roots = sorted(points.roots, key=lambda p: p.id in tests)
print("most central (PageRank over calls and imports):")
for point in points.central[:8]:
    print(f"  {point.pagerank:.4f}  {point.kind:9s} {point.qualified_name}  {point.location}")
print("entry points (public, called by nothing in the repository, calling others):")
for point in roots[:5]:
    print(f"  out {point.out_degree:3d}  {point.qualified_name}  {point.location}")

# the most central function or method that something calls: its callers make a good table
callables = [p for p in points.central if p.kind in ("Function", "Method") and p.in_degree]
CENTRAL = (callables or points.central)[0]
# a chain that exists: from an entry point to the farthest code it certainly reaches
SOURCE = TARGET_SYMBOL = None
for root in roots[:10]:
    reached = graph.callees(root.qualified_name, repo=REPO, depth=3, within=True)
    inside = [r for r in reached.certain if not r.external]
    farthest = max(inside, key=lambda r: r.distance, default=None)
    if farthest and (TARGET_SYMBOL is None or farthest.distance > TARGET_SYMBOL.distance):
        SOURCE, TARGET_SYMBOL = root.qualified_name, farthest
    if TARGET_SYMBOL and TARGET_SYMBOL.distance == 3:
        break
print("\\ncallers of:", CENTRAL.qualified_name)
print("path from:", SOURCE, "to:", TARGET_SYMBOL and TARGET_SYMBOL.qualified_name)
print("impact of:", CENTRAL.location.path)
"""

QUICKSTART = [
    markdown("""
# Quickstart

Index a repository into Neo4j, then search it, ask relationship questions and assemble context
for an LLM. By default this notebook indexes graphrag_code's own source; set
`GRAPHRAG_CODE_NOTEBOOK_REPO` to a folder (or to the name of a repository already indexed) to
explore another: every name below is found in the graph, none is written in the notebook.
"""),
    code(SETUP),
    markdown("""
## Index

The first run parses and embeds everything; later runs are incremental (only changed files are
parsed, only changed symbols re-embedded).
"""),
    code("""
if REPO_PATH is not None:
    report = graph.index(REPO_PATH, REPO)
    REPO = report.repo
    print(f"{report.mode} run: {report.files_parsed} of {report.files_total} files parsed")
info = next(info for info in graph.repositories() if info.name == REPO)
print(f"{REPO}: {info.files} files, {info.symbols} symbols; files by language: {info.languages}")
edges = graph.client.read(
    "MATCH (:Code {repo: $repo})-[r]->() "
    "RETURN type(r) + coalesce('/' + r.resolution, '') AS edge, count(*) AS count ORDER BY edge",
    {"repo": REPO})
for row in edges:
    print(f"  {row['edge']:24s} {row['count']:6d}")
"""),
    markdown("""
## What to look at

Entry points and the most central code, read from the graph; the cells below ask about them.
"""),
    code(PICK),
    markdown("""
## Hybrid search

One Cypher query runs three legs (vector, full-text, graph); their rankings are fused with
Reciprocal Rank Fusion. `ranks` shows where each leg put a hit, `explain` the graph path that
reached it.
"""),
    code("""
result = graph.search("where are errors handled and reported?", repo=REPO, k=5)
print("intent:", result.question.intent.value)
for hit in result.hits:
    print(f"{hit.score:.4f}  {hit.qualified_name:55s} {hit.location}  {hit.ranks}")
"""),
    code("""
result = graph.search(f"What calls {CENTRAL.qualified_name.split('.')[-1]}?", repo=REPO, k=5)
for hit in result.hits:
    print(f"{hit.qualified_name:55s} {hit.ranks}  {hit.explain or ''}")
"""),
    markdown("""
## Relationships

Answers separate certain edges (resolved by scope, imports or type inference) from possible
ones (matched by a unique name only).
"""),
    code("""
callers = graph.callers(CENTRAL.qualified_name, repo=REPO, depth=2)
print(len(callers.certain), "certain and", len(callers.possible), "possible callers; nearest:")
for r in callers.all[:12]:
    print(r.distance, "certain " if r.certain else "possible", r.qualified_name, r.location)
"""),
    markdown("""
A path is a list of steps: each node with the edge that led to it (its type and, for calls, how
it was resolved). Every result that points into the repository carries a `Location`, written
`path:start-end`.
"""),
    code("""
if SOURCE is None:
    print("no entry point of this repository calls code of its own")
else:
    path = graph.path(SOURCE, TARGET_SYMBOL.qualified_name, repo=REPO)
    for step in path.steps:
        arrow = f"  └─{step.edge} ({step.resolution or '-'})─▶ " if step.edge else ""
        print(f"{arrow}{step.qualified_name}  {step.location}")
"""),
    code("""
impact = graph.impact(CENTRAL.location.path, repo=REPO, depth=2)
print(len(impact.all), "symbols and modules may be affected by", CENTRAL.location.path)
for r in impact.all[:10]:
    print(" ", r.distance, r.edge, r.qualified_name)
"""),
    markdown("""
## Context for an LLM

`build_context` returns the code of the best hits plus what they call, use and sit next to,
within a token budget, each piece headed by a `path:start-end` citation. `graph.ask(...)` sends
it to a chat model (needs `OPENAI_API_KEY`).
"""),
    code("""
question = f"How does {(SOURCE or CENTRAL.qualified_name).split('.')[-1]} work?"
context = graph.build_context(question, repo=REPO, max_tokens=1500)
print(question, "|", context.tokens, "tokens, truncated:", context.truncated)
print("\\n".join(context.citations))
"""),
    code("graph.close()"),
]

CENTRALITY = """
rows = graph.client.read(
    "MATCH (n:Code {repo: $repo}) WHERE n:Module OR n:Function OR n:Method "
    "RETURN n.qualified_name AS name, n.kind AS kind, n.language AS language, "
    "n.pagerank AS pagerank ORDER BY pagerank DESC, name LIMIT 15", {"repo": REPO})
colors = {"Module": "#68BDF6", "Function": "#6DCE9E", "Method": "#FFD86E"}
fig, ax = plt.subplots(figsize=(9, 5))
labels = [f"{r['name']} [{r['language']}]" for r in rows]
ax.barh(labels[::-1], [r["pagerank"] for r in rows][::-1],
        color=[colors[r["kind"]] for r in rows][::-1])
ax.set_xlabel("PageRank")
ax.set_title(f"Most central code of {REPO}")
fig.tight_layout()
show(fig, "centrality")
"""

IMPORTS = """
import numpy as np
from matplotlib.colors import PowerNorm

edges = graph.client.read(
    "MATCH (a:Module {repo: $repo})-[r:IMPORTS]->(b:Module {repo: $repo}) "
    "WHERE r.via IS NULL RETURN a.qualified_name AS a, b.qualified_name AS b",
    {"repo": REPO})
modules = {e["a"] for e in edges} | {e["b"] for e in edges}
# collapse to the first level below the prefix every module shares (`pkg.` or `src/`)
prefix = os.path.commonprefix([m.replace("/", ".").split(".") for m in modules]) if modules else []
def package(name):
    parts = name.replace("/", ".").split(".")
    return parts[len(prefix)] if len(parts) > len(prefix) else parts[-1]
# the 15 packages with the most import edges; the rest drawn as one row, "(other)"
weight = {}
for e in edges:
    for end in (package(e["a"]), package(e["b"])):
        weight[end] = weight.get(end, 0) + 1
kept = sorted(sorted(weight, key=lambda p: (-weight[p], p))[:15])
def group(name):
    return package(name) if package(name) in kept else "(other)"
packages = kept + (["(other)"] if len(weight) > len(kept) else []) or ["(no imports)"]
index = {p: i for i, p in enumerate(packages)}
matrix = np.zeros((len(packages), len(packages)))
for e in edges:
    matrix[index[group(e["a"])], index[group(e["b"])]] += 1
fig, ax = plt.subplots(figsize=(7, 6))
image = ax.imshow(matrix, cmap="Blues", norm=PowerNorm(0.5))  # a few busy cells dim the rest less
ax.set_xticks(range(len(packages)), packages, rotation=60, ha="right")
ax.set_yticks(range(len(packages)), packages)
ax.set_xlabel("imported package")
ax.set_ylabel("importing package")
ax.set_title(f"Imports between the packages of {REPO}")
fig.colorbar(image, label="import edges")
fig.tight_layout()
show(fig, "imports")
"""

IMPACT = """
from collections import Counter

changed = graph.entry_points(REPO, limit=1).central[0].location.path  # the most central file
impact = graph.impact(changed, repo=REPO, depth=3)
by_distance = Counter((r.distance, r.kind or "External") for r in impact.all)
kinds = sorted({kind for _, kind in by_distance})
fig, ax = plt.subplots(figsize=(7, 4))
bottom = np.zeros(3)
for kind in kinds:
    counts = np.array([by_distance.get((d, kind), 0) for d in (1, 2, 3)])
    ax.bar(["1 hop", "2 hops", "3 hops"], counts, bottom=bottom, label=kind)
    bottom += counts
ax.set_ylabel("affected nodes")
ax.set_title(f"What may break if {changed} changes")
ax.legend()
fig.tight_layout()
show(fig, "impact")
print("certain:", len(impact.certain), "possible:", len(impact.possible),
      "truncated:", impact.truncated)
"""

ARCHITECTURE = [
    markdown("""
# Architecture from the graph

Centrality, dependency structure and the impact of a change, computed from the code graph in
Neo4j, for the repository `GRAPHRAG_CODE_NOTEBOOK_REPO` names (default: this project's source).
"""),
    code(SETUP + FIGURES + INDEX),
    markdown("## The most central modules and functions (PageRank over calls and imports)"),
    code(CENTRALITY, figure=True),
    markdown("""
## Dependency structure

Which packages import which: the module import graph collapsed to the first package level below
the root (the 15 busiest packages; the rest as one).
"""),
    code(IMPORTS, figure=True),
    markdown("""
## Impact of a change

Everything that imports, calls, subclasses or uses the most central file, by distance.
"""),
    code(IMPACT, figure=True),
    code("graph.close()"),
]

RESULTS = """
import json
import os
from pathlib import Path

from IPython.display import Markdown

from graphrag_code.evaluation.report import bar_chart, load_scores, markdown_table

RESULTS = Path(os.environ.get("GRAPHRAG_CODE_RESULTS", Path.cwd().parent / "benchmarks/results"))


def read(name):
    return json.loads((RESULTS / name).read_text(encoding="utf-8"))
"""

EVALUATION = [
    markdown("""
# Evaluation results

The committed benchmark results in `benchmarks/results/`, as tables and charts. Every number
comes from a script that can be rerun (the commands are in `BENCHMARKS.md`); this notebook only
reads their JSON, so it needs neither Neo4j nor a model.
"""),
    code(RESULTS + FIGURES + 'FIGURES = FIGURES / "evaluation"'),
    markdown("""
## Graph accuracy against independent oracles

Import edges against grimp, call edges against jedi's `goto` on every call site (certain tiers:
exact + inferred; the name tier is reported apart because it is only a guess).
"""),
    code(
        """
accuracy = {row["package"]: {
    "imports P": row["imports"]["precision"],
    "imports R": row["imports"]["recall"],
    "calls P": row["calls_certain"]["precision"],
    "calls P (judged)": row["calls_certain_judged_precision"],
    "calls R": row["calls_certain"]["recall"],
    "name-tier P": row["calls_by_tier"]["name"]["precision"],
} for row in read("graph_accuracy.json")}
columns = list(next(iter(accuracy.values())))
display(Markdown(markdown_table(accuracy, columns=columns, row_label="package")))
show(bar_chart(accuracy, columns=columns[:5], title="Edges against grimp and jedi", width=10),
     "accuracy")
""",
        figure=True,
    ),
    markdown("""
## Code questions (requests, flask, click)

Concept questions from docstrings (asked of a copy without docstrings), callers from jedi,
impact from grimp, definitions in four spellings. MRR by category for each system.
"""),
    code(
        """
code = read("code_questions.json")
categories = ["all", "concept", "callers", "impact", "definition"]
mrr = {system: {c: by_category[c]["MRR"] for c in categories}
       for system, by_category in code["pooled"].items()}
display(Markdown(markdown_table(mrr, columns=categories, row_label="system (MRR)")))
shown = ["text", "vector", "vector+text", "hybrid", "neo4j-graphrag"]
show(bar_chart({s: mrr[s] for s in shown if s in mrr}, columns=categories, ylabel="MRR",
               title="Code questions", width=10), "code_questions")
""",
        figure=True,
    ),
    markdown("""
## BEIR SciFact (the retrieval legs on a public benchmark)

nDCG@10 and Recall@100 over the 300 test queries.
"""),
    code(
        """
scifact = load_scores(RESULTS / "scifact-512tokens.json")
display(Markdown(markdown_table(scifact, row_label="system", digits=4)))
main = [name for name in scifact if name.startswith(
    ("full-text flat/english", "vector only", "RRF(full-text flat/english"))]
show(bar_chart({name: scifact[name] for name in main}, title="SciFact", width=10), "scifact")
""",
        figure=True,
    ),
    markdown("""
## Questions from this repository's history

Each commit message asked at the parent revision; the answer is the set of Python files the
commit changed.
"""),
    code("""
history = load_scores(RESULTS / "history-main-parent.json")
display(Markdown(markdown_table(history, columns=["acc@1", "acc@5", "mrr@10", "recall@10"],
                                row_label="ablation")))
"""),
    markdown("## Speed\n\nDjango 5.1.4 (about 2,800 files) on two cores."),
    code("""
speed = read("index_speed_django.json")
print(f"full index: {speed['files']} files, {speed['symbols']} symbols in "
      f"{speed['full_seconds']} s; stages (s): {speed['stages']}")
for name, run in speed["incremental"].items():
    print(f"  {name:32s} {run['seconds']:6.2f} s")
latency = read("search_latency.json")
rows = {f"ours: {name}": timing for name, timing in latency["ours"].items()}
rows |= {f"neo4j-graphrag top_k={k}": timing for k, timing in latency["baseline"].items()}
rows |= {f"neo4j-graphrag top_k={k} + embedding": timing
         for k, timing in latency.get("baseline_with_embed", {}).items()}
display(Markdown(markdown_table(rows, columns=["p50", "p95"], row_label="search latency (ms)",
                                digits=1)))
"""),
]


def notebooks() -> dict[str, nbformat.NotebookNode]:
    """Every notebook by file name, code only (no outputs): what `main` executes."""
    return {
        "01_quickstart.ipynb": notebook("01_quickstart", QUICKSTART),
        "02_architecture.ipynb": notebook("02_architecture", ARCHITECTURE),
        "03_evaluation.ipynb": notebook("03_evaluation", EVALUATION),
    }


def execute(book: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Run `book` top to bottom in a fresh kernel started in this folder (the environment is
    this process's), then drop what changes on every run (timings, the Python patch level)."""
    NotebookClient(
        book,
        timeout=TIMEOUT,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(HERE)}},
    ).execute()
    language = book.metadata.get("language_info", {})
    book.metadata["language_info"] = {
        key: value for key, value in language.items() if key in ("name", "file_extension")
    }
    return book


def problems(book: nbformat.NotebookNode) -> list[str]:
    """What is wrong with an executed notebook: a cell that failed or never ran, a figure cell
    without a picture. Empty when all is well."""
    found = []
    for cell in book.cells:
        if cell.cell_type != "code":
            continue
        outputs = cell.get("outputs", [])
        errors = [o for o in outputs if o.get("output_type") == "error"]
        if errors:
            found.append(f"{cell['id']}: {errors[0]['ename']}: {errors[0]['evalue']}")
        elif cell.get("execution_count") is None:
            found.append(f"{cell['id']}: not executed")
        elif FIGURE in cell.metadata.get("tags", []) and not any(
            "image/png" in o.get("data", {}) for o in outputs
        ):
            found.append(f"{cell['id']}: drew no picture (image/png)")
    return found


@contextmanager
def neo4j_for_kernels() -> Iterator[None]:
    """`NEO4J_URI` as set, else a throwaway local server the kernels are pointed at."""
    if os.environ.get("NEO4J_URI"):
        yield
        return
    from graphrag_code.runtime.server.endpoints import temporary_local_server
    from graphrag_code.settings import load_settings

    with temporary_local_server(load_settings()) as (_server, endpoint):
        password = endpoint.password
        os.environ.update(
            NEO4J_URI=endpoint.uri,
            NEO4J_USERNAME=endpoint.username,
            NEO4J_PASSWORD=password.get_secret_value() if password else "",
            NEO4J_DATABASE=endpoint.database,
        )
        yield


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", help="GRAPHRAG_CODE_NOTEBOOK_REPO: a folder or indexed name")
    parser.add_argument("--out", type=Path, default=HERE, help="where to write (default: here)")
    parser.add_argument("--only", nargs="*", help="these notebooks (file names) only")
    parser.add_argument("--no-execute", action="store_true", help="write the code only")
    args = parser.parse_args(argv)
    if args.repo:
        os.environ["GRAPHRAG_CODE_NOTEBOOK_REPO"] = str(Path(args.repo).resolve())
    books = {n: b for n, b in notebooks().items() if not args.only or n in args.only}
    args.out.mkdir(parents=True, exist_ok=True)
    if args.no_execute:
        for name, book in books.items():
            nbformat.write(book, args.out / name)
        return 0
    failed = False
    with neo4j_for_kernels():
        for name, book in books.items():  # in order: 01 indexes, 02 finds it indexed
            print(f"executing {name}", file=sys.stderr)
            execute(book)
            found = problems(book)
            failed = failed or bool(found)
            for problem in found:
                print(f"  {problem}", file=sys.stderr)
            nbformat.write(book, args.out / name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
