"""Write the notebooks from this script, so their source stays reviewable and outputs stay out
of git. Run: .venv/bin/python notebooks/build_notebooks.py"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).parent


def write(name: str, cells: list[nbformat.NotebookNode]) -> None:
    for number, cell in enumerate(cells):  # stable ids: regenerating changes nothing
        cell["id"] = f"{Path(name).stem}-{number:02d}"
    notebook = new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {
        "display_name": "Python 3",
        "language": "python",
        "name": "python3",
    }
    nbformat.write(notebook, HERE / name)


SETUP = """import os
from pathlib import Path

from graphrag_code import CodeGraph

# NEO4J_URI (Aura, Desktop, Docker) if set, else the local server (started if needed).
REPO_PATH = Path(os.environ.get("GRAPHRAG_CODE_NOTEBOOK_REPO", Path.cwd().parent / "graphrag_code"))
REPO = os.environ.get("GRAPHRAG_CODE_NOTEBOOK_REPO_NAME", "graphrag_code")
graph = CodeGraph()
print("Neo4j:", graph.client.endpoint.uri, "| database:", graph.client.database)"""

write(
    "01_quickstart.ipynb",
    [
        new_markdown_cell(
            "# Quickstart\n\nIndex a repository into Neo4j, then search it, ask relationship "
            "questions and assemble context for an LLM. By default this notebook indexes "
            "graphrag_code's own source; set `GRAPHRAG_CODE_NOTEBOOK_REPO` to index another."
        ),
        new_code_cell(SETUP),
        new_markdown_cell(
            "## Index\n\nThe first run parses and embeds everything; later runs are "
            "incremental (only changed files are parsed, only changed symbols re-embedded)."
        ),
        new_code_cell(
            "report = graph.index(REPO_PATH, REPO)\n"
            'print(f"{report.files_total} files, {report.symbols} symbols, "\n'
            '      f"{sum(report.edges.values())} edges in {report.total_seconds:.1f} s")\n'
            "for kind, count in sorted(report.edges.items()):\n"
            '    print(f"  {kind:24s} {count}")'
        ),
        new_markdown_cell(
            "## Hybrid search\n\nOne Cypher query runs three legs (vector, full-text, graph); "
            "their rankings are fused with Reciprocal Rank Fusion. `ranks` shows where each "
            "leg put a hit, `explain` the graph path that reached it."
        ),
        new_code_cell(
            'result = graph.search("where are call sites resolved to functions?", repo=REPO, k=5)\n'
            'print("intent:", result.question.intent.value, "| timings (ms):", '
            "{k: round(v, 1) for k, v in result.timings_ms.items()})\n"
            "for hit in result.hits:\n"
            '    print(f"{hit.score:.4f}  {hit.qualified_name:60s} {hit.location:40s} {hit.ranks}")'
        ),
        new_code_cell(
            'result = graph.search("What calls link_file?", repo=REPO, k=5)\n'
            "for hit in result.hits:\n"
            "    print(f\"{hit.qualified_name:55s} {hit.ranks}  {hit.explain or ''}\")"
        ),
        new_markdown_cell(
            "## Relationships\n\nAnswers separate certain edges (resolved by scope, imports or "
            "type inference) from possible ones (matched by a unique name only)."
        ),
        new_code_cell(
            'callers = graph.callers("link_file", repo=REPO, depth=2)\n'
            "for r in callers.all:\n"
            '    print(r.distance, "certain " if r.certain else "possible", r.qualified_name, r.location)'
        ),
        new_markdown_cell(
            "A path is a list of steps: each node with the edge that led to it (its type and, "
            "for calls, how it was resolved). Every result that points into the repository "
            "carries a `Location`, written `path:start-end`."
        ),
        new_code_cell(
            'path = graph.path("api.index_repository", "linker.link_file", repo=REPO)\n'
            "for step in path.steps:\n"
            '    arrow = f"  └─{step.edge} ({step.resolution or \'-\'})─▶ " if step.edge else ""\n'
            "    print(f\"{arrow}{step.qualified_name}  {step.location}\")\n"
            "if not path.found:\n"
            '    print("no call/import chain")'
        ),
        new_code_cell(
            'impact = graph.impact("model.py", repo=REPO, depth=2)\n'
            'print(len(impact.all), "symbols and modules may be affected; nearest:")\n'
            "for r in impact.all[:10]:\n"
            '    print(" ", r.distance, r.edge, r.qualified_name)'
        ),
        new_markdown_cell(
            "## Context for an LLM\n\n`build_context` returns the code of the best hits plus "
            "what they call, use and sit next to, within a token budget, each piece headed by "
            "a `path:start-end` citation. `graph.ask(...)` sends it to a chat model "
            "(needs `OPENAI_API_KEY`)."
        ),
        new_code_cell(
            'context = graph.build_context("How does incremental indexing decide what to re-link?",\n'
            "                              repo=REPO, max_tokens=1500)\n"
            'print(context.tokens, "tokens, truncated:", context.truncated)\n'
            'print("\\n".join(context.citations))'
        ),
        new_code_cell("graph.close()"),
    ],
)

write(
    "02_architecture.ipynb",
    [
        new_markdown_cell(
            "# Architecture from the graph\n\nCentrality, dependency structure and the impact "
            "of a change, computed from the code graph in Neo4j."
        ),
        new_code_cell(
            SETUP
            + '\nimport matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\n'
            + "graph.index(REPO_PATH, REPO)\nclient = graph.client"
        ),
        new_markdown_cell(
            "## The most central modules and functions (PageRank over calls and imports)"
        ),
        new_code_cell(
            "rows = client.read(\n"
            '    "MATCH (n:Code {repo: $repo}) WHERE n:Module OR n:Function OR n:Method "\n'
            '    "RETURN n.qualified_name AS name, n.kind AS kind, n.language AS language, "\n'
            '    "n.pagerank AS pagerank ORDER BY pagerank DESC LIMIT 15", {"repo": REPO})\n'
            'colors = {"Module": "#68BDF6", "Function": "#6DCE9E", "Method": "#FFD86E"}\n'
            "fig, ax = plt.subplots(figsize=(9, 5))\n"
            'labels = [f"{r[\'name\'].removeprefix(REPO + \'.\')} [{r[\'language\']}]" for r in rows]\n'
            'ax.barh(labels[::-1],\n'
            '        [r["pagerank"] for r in rows][::-1],\n'
            '        color=[colors[r["kind"]] for r in rows][::-1])\n'
            'ax.set_xlabel("PageRank")\nax.set_title("Most central code")\nfig.tight_layout()\n'
            'plt.show()'
        ),
        new_markdown_cell(
            "## Dependency structure\n\nWhich packages import which: the module import graph "
            "collapsed to the first package level below the root."
        ),
        new_code_cell(
            "edges = client.read(\n"
            '    "MATCH (a:Module {repo: $repo})-[r:IMPORTS]->(b:Module {repo: $repo}) "\n'
            '    "WHERE r.via IS NULL RETURN a.qualified_name AS a, b.qualified_name AS b",\n'
            '    {"repo": REPO})\n'
            "def package(name):\n"
            '    parts = name.split(".")\n'
            "    return parts[1] if len(parts) > 1 else parts[0]\n"
            'packages = sorted({package(e["a"]) for e in edges} | {package(e["b"]) for e in edges})\n'
            "index = {p: i for i, p in enumerate(packages)}\n"
            "import numpy as np\n"
            "matrix = np.zeros((len(packages), len(packages)))\n"
            "for e in edges:\n"
            '    matrix[index[package(e["a"])], index[package(e["b"])]] += 1\n'
            "fig, ax = plt.subplots(figsize=(7, 6))\n"
            'image = ax.imshow(matrix, cmap="Blues")\n'
            'ax.set_xticks(range(len(packages)), packages, rotation=60, ha="right")\n'
            "ax.set_yticks(range(len(packages)), packages)\n"
            'ax.set_xlabel("imported package")\nax.set_ylabel("importing package")\n'
            'fig.colorbar(image, label="import edges")\nfig.tight_layout()\nplt.show()'
        ),
        new_markdown_cell(
            "## Impact of a change\n\nEverything that imports, calls, subclasses or uses the "
            "changed file, by distance."
        ),
        new_code_cell(
            'impact = graph.impact("model.py", repo=REPO, depth=3)\n'
            "from collections import Counter\n"
            'by_distance = Counter((r.distance, r.kind or "External") for r in impact.all)\n'
            'kinds = ["Module", "Class", "Function", "Method"]\n'
            "fig, ax = plt.subplots(figsize=(7, 4))\n"
            "bottom = np.zeros(3)\n"
            "for kind in kinds:\n"
            "    counts = np.array([by_distance.get((d, kind), 0) for d in (1, 2, 3)])\n"
            '    ax.bar(["1 hop", "2 hops", "3 hops"], counts, bottom=bottom, label=kind)\n'
            "    bottom += counts\n"
            'ax.set_ylabel("affected nodes")\nax.set_title("What may break if model.py changes")\n'
            "ax.legend()\nfig.tight_layout()\nplt.show()\n"
            'print("certain:", len(impact.certain), "possible:", len(impact.possible), '
            '"truncated:", impact.truncated)'
        ),
        new_code_cell("graph.close()"),
    ],
)

write(
    "03_evaluation.ipynb",
    [
        new_markdown_cell(
            "# Evaluation results\n\nThe committed benchmark results in `benchmarks/results/`, "
            "as tables and charts. Every number comes from a script that can be rerun (the "
            "commands are in `BENCHMARKS.md`); this notebook only reads their JSON, so it needs "
            "neither Neo4j nor a model."
        ),
        new_code_cell(
            "%matplotlib inline\nimport json\nimport os\nfrom pathlib import Path\n\n"
            "from IPython.display import Markdown, display\n\n"
            "from graphrag_code.evaluation.report import bar_chart, load_scores, markdown_table\n\n"
            'RESULTS = Path(os.environ.get("GRAPHRAG_CODE_RESULTS", '
            'Path.cwd().parent / "benchmarks" / "results"))\n\n'
            "def read(name):\n"
            '    return json.loads((RESULTS / name).read_text(encoding="utf-8"))\n\n'
            'print("results from", RESULTS)'
        ),
        new_markdown_cell(
            "## Graph accuracy against independent oracles\n\nImport edges against grimp, call "
            "edges against jedi's `goto` on every call site (certain tiers: exact + inferred; "
            "the name tier is reported apart because it is only a guess)."
        ),
        new_code_cell(
            'accuracy = {row["package"]: {\n'
            '    "imports P": row["imports"]["precision"],\n'
            '    "imports R": row["imports"]["recall"],\n'
            '    "calls P": row["calls_certain"]["precision"],\n'
            '    "calls P (judged)": row["calls_certain_judged_precision"],\n'
            '    "calls R": row["calls_certain"]["recall"],\n'
            '    "name-tier P": row["calls_by_tier"]["name"]["precision"],\n'
            '} for row in read("graph_accuracy.json")}\n'
            'columns = list(next(iter(accuracy.values())))\n'
            'display(Markdown(markdown_table(accuracy, columns=columns, row_label="package")))\n'
            'bar_chart(accuracy, columns=columns[:5], title="Edges against grimp and jedi", '
            "width=10)"
        ),
        new_markdown_cell(
            "## Code questions (requests, flask, click)\n\nConcept questions from docstrings "
            "(asked of a copy without docstrings), callers from jedi, impact from grimp, "
            "definitions in four spellings. MRR by category for each system."
        ),
        new_code_cell(
            'code = read("code_questions.json")\n'
            'categories = ["all", "concept", "callers", "impact", "definition"]\n'
            'mrr = {system: {c: by_category[c]["MRR"] for c in categories}\n'
            '       for system, by_category in code["pooled"].items()}\n'
            'display(Markdown(markdown_table(mrr, columns=categories, row_label="system (MRR)")))\n'
            'shown = ["text", "vector", "vector+text", "hybrid", "neo4j-graphrag"]\n'
            "bar_chart({s: mrr[s] for s in shown if s in mrr}, columns=categories, "
            'ylabel="MRR", title="Code questions", width=10)'
        ),
        new_markdown_cell(
            "## BEIR SciFact (the retrieval legs on a public benchmark)\n\n"
            "nDCG@10 and Recall@100 over the 300 test queries."
        ),
        new_code_cell(
            'scifact = load_scores(RESULTS / "scifact-512tokens.json")\n'
            "display(Markdown(markdown_table(scifact, row_label=\"system\", digits=4)))\n"
            "main = [name for name in scifact if name.startswith(('full-text flat/english', "
            "'vector only', 'RRF(full-text flat/english'))]\n"
            'bar_chart({name: scifact[name] for name in main}, title="SciFact", width=10)'
        ),
        new_markdown_cell(
            "## Questions from this repository's history\n\nEach commit message asked at the "
            "parent revision; the answer is the set of Python files the commit changed."
        ),
        new_code_cell(
            'history = load_scores(RESULTS / "history-main-parent.json")\n'
            'display(Markdown(markdown_table(history, columns=["acc@1", "acc@5", "mrr@10", '
            '"recall@10"], row_label="ablation")))'
        ),
        new_markdown_cell("## Speed\n\nDjango 5.1.4 (about 2,800 files) on two cores."),
        new_code_cell(
            'speed = read("index_speed_django.json")\n'
            'print(f"full index: {speed[\'files\']} files, {speed[\'symbols\']} symbols in "\n'
            "      f\"{speed['full_seconds']} s; stages (s): {speed['stages']}\")\n"
            'for name, run in speed["incremental"].items():\n'
            '    print(f"  {name:32s} {run[\'seconds\']:6.2f} s")\n'
            'latency = read("search_latency.json")\n'
            'rows = {f"ours: {name}": timing for name, timing in latency["ours"].items()}\n'
            'rows |= {f"neo4j-graphrag top_k={k}": timing for k, timing in '
            'latency["baseline"].items()}\n'
            'rows |= {f"neo4j-graphrag top_k={k} + embedding": timing\n'
            '         for k, timing in latency.get("baseline_with_embed", {}).items()}\n'
            'display(Markdown(markdown_table(rows, columns=["p50", "p95"], '
            'row_label="search latency (ms)", digits=1)))'
        ),
    ],
)
