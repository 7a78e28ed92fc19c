"""Which ghost-text recipe finds a function from a description of it? Docstring -> function.

~300 functions (and methods) of the installed standard library that have a docstring. The
question is the docstring's first sentence; the document is the ghost text of the function
with its docstring removed (so the answer is never copied into the document). Every question
is scored against all documents by cosine; reported are recall at 1 and 10 and the mean
reciprocal rank, per recipe and embedder. "whole function" embeds the docstring-less source
as written (MiniLM cuts it at 256 tokens), the baseline of /work/shared/EMBEDDINGS.md.

    .venv/bin/python benchmarks/retrieval/ghost_text_quality.py [--functions 300] [--max-words 104]
        [--embedders minilm bge-small e5-small hashing] [--recipes name_sig_doc_body whole]

Questions go through `embed_query` (bge's instruction and e5's "query: " prefix), documents
through `embed_documents`.
"""

from __future__ import annotations

import argparse
import ast
import random
import re
import sys
import sysconfig
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graphrag_code.embedding import (
    DEFAULT_MAX_WORDS,
    Embedder,
    GhostRecipe,
    HashingEmbedder,
    MiniLMEmbedder,
    ghost_text,
    make_embedder,
)
from graphrag_code.settings import load_settings

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


@dataclass(frozen=True)
class Function:
    path: str
    qualified_name: str
    signature: str
    code: str  # with the docstring removed
    question: str


def first_sentence(docstring: str) -> str:
    paragraph = " ".join(docstring.strip().split("\n\n", 1)[0].split())
    return _SENTENCE_END.split(paragraph, 1)[0]


def _functions_in(path: Path, root: Path) -> list[Function]:
    source = path.read_text(encoding="utf-8", errors="replace")
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    lines = source.splitlines()
    module = path.stem
    found: list[Function] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}.{child.name}")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                function = _function(child, prefix, lines, path.relative_to(root))
                if function:
                    found.append(function)

    visit(tree, module)
    return found


def _function(
    node: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str, lines: list[str], path: Path
) -> Function | None:
    docstring = ast.get_docstring(node)
    doc_node = node.body[0]
    if not docstring or len(node.body) < 2 or node.end_lineno is None:
        return None
    if doc_node.lineno == node.lineno or doc_node.end_lineno is None:
        return None  # one-line "def f(): '''doc'''" cannot be cut by lines
    question = first_sentence(docstring)
    if len(question.split()) < 4:
        return None
    code_lines = (
        lines[node.lineno - 1 : doc_node.lineno - 1] + lines[doc_node.end_lineno : node.end_lineno]
    )
    if len(code_lines) < 4:
        return None
    signature = " ".join(line.strip() for line in lines[node.lineno - 1 : doc_node.lineno - 1])
    return Function(
        path=f"Lib/{path}",
        qualified_name=f"{prefix}.{node.name}",
        signature=signature.removesuffix(":"),
        code="\n".join(code_lines),
        question=question,
    )


def stdlib_functions(count: int) -> list[Function]:
    root = Path(sysconfig.get_paths()["stdlib"])
    candidates = [f for path in sorted(root.glob("*.py")) for f in _functions_in(path, root)]
    seen: set[str] = set()
    unique = []
    for function in candidates:  # the same question twice would have two right answers
        if function.question.lower() not in seen:
            seen.add(function.question.lower())
            unique.append(function)
    random.Random(0).shuffle(unique)
    return unique[:count]


def documents(functions: Sequence[Function], recipe: GhostRecipe | None, words: int) -> list[str]:
    if recipe is None:
        return [function.code for function in functions]
    return [
        ghost_text(
            path=function.path,
            qualified_name=function.qualified_name,
            kind="function",
            signature=function.signature,
            docstring=None,
            code=function.code,
            max_words=words,
            recipe=recipe,
        )
        for function in functions
    ]


def scores(embedder: Embedder, questions: list[str], docs: list[str]) -> tuple[float, ...]:
    q = np.asarray([embedder.embed_query(text) for text in questions], dtype=np.float32)
    d = np.asarray(embedder.embed_documents(docs), dtype=np.float32)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    similarity = q @ d.T
    correct = np.diag(similarity)
    ranks = 1 + (similarity > correct[:, None]).sum(axis=1)  # ties count in our favour
    return (
        float(np.mean(ranks == 1)),
        float(np.mean(ranks <= 10)),
        float(np.mean(1.0 / ranks)),
    )


def _embedder(name: str) -> Embedder:
    if name == "minilm":
        return MiniLMEmbedder()
    if name == "hashing":
        return HashingEmbedder()
    return make_embedder(load_settings(embedder=name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=300)
    parser.add_argument("--max-words", type=int, nargs="+", default=[DEFAULT_MAX_WORDS])
    parser.add_argument(
        "--embedders", nargs="+", default=["minilm", "hashing"], help="GRAPHRAG_CODE_EMBEDDER names"
    )
    parser.add_argument(
        "--recipes",
        nargs="+",
        default=[recipe.value for recipe in GhostRecipe] + ["whole"],
        help="ghost-text recipes; 'whole' = the whole function as written",
    )
    args = parser.parse_args()

    functions = stdlib_functions(args.functions)
    questions = [function.question for function in functions]
    embedders = [_embedder(name) for name in args.embedders]
    command = " ".join(["python", "benchmarks/retrieval/ghost_text_quality.py", *sys.argv[1:]])
    print(f"{len(functions)} stdlib functions; question = first docstring sentence")
    print(f"command: `{command}`\n")
    print("| embedder | document | max words | R@1 | R@10 | MRR | seconds |")
    print("|---|---|---:|---:|---:|---:|---:|")
    variants: list[tuple[GhostRecipe | None, int]] = [
        (recipe, words)
        for words in args.max_words
        for recipe in GhostRecipe
        if recipe.value in args.recipes
    ]
    if "whole" in args.recipes:
        variants.append((None, 0))
    for embedder in embedders:
        for recipe, words in variants:
            docs = documents(functions, recipe, words)
            start = time.perf_counter()
            r1, r10, mrr = scores(embedder, questions, docs)
            elapsed = time.perf_counter() - start
            label = recipe.value if recipe else "whole function"
            shown = str(words) if recipe else "—"
            print(
                f"| {embedder.name} | {label} | {shown} | {r1:.3f} | {r10:.3f} | {mrr:.3f} "
                f"| {elapsed:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
