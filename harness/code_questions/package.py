"""Preparing a pinned package: its source and oracle outputs (`PackageSource`), a copy without
docstrings (`strip_docstrings`, `copy_package`), and both copies indexed (`prepare_package`)."""

from __future__ import annotations

import ast
import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphrag_code.api import index_repository
from graphrag_code.embedding.base import Embedder
from graphrag_code.errors import ConfigurationError
from graphrag_code.graph.client import Neo4jClient
from graphrag_code.ingest.state import StateStore
from graphrag_code.progress import ProgressReporter
from graphrag_code.settings import Settings

__all__ = [
    "PackageSource",
    "copy_package",
    "load_oracle",
    "prepare_package",
    "strip_docstrings",
]


@dataclass(frozen=True)
class PackageSource:
    """A pinned package's source and the oracle outputs computed from it."""

    name: str
    version: str
    import_root: Path
    package: str  # top-level import name
    calls_oracle: Path  # jedi: benchmarks/cache/oracles/<name>-<version>.calls.json
    imports_oracle: Path  # grimp: benchmarks/cache/oracles/<name>-<version>.imports.json

    @property
    def spec(self) -> str:
        return f"{self.name}=={self.version}"

    @property
    def repo(self) -> str:
        """Where the package is indexed as is (callers, impact, definition questions)."""
        return f"cq-{self.name}-{self.version}"

    @property
    def nodoc_repo(self) -> str:
        """Where the copy without docstrings is indexed (concept questions)."""
        return f"{self.repo}-nodoc"


def load_oracle(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigurationError(f"oracle output not found: {path}") from exc
    if not isinstance(data, dict):
        raise ConfigurationError(f"{path}: expected a JSON object")
    return data


def _docstring_spans(tree: ast.Module) -> list[ast.Expr]:
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                spans.append(first)
    return spans


def strip_docstrings(source: str) -> str:
    """`source` with every docstring replaced by `""`, each line where it was.

    `""` rather than `pass`: a module docstring may precede `from __future__ import`, which
    nothing else may. A multi-line docstring leaves blank lines behind, or backslash
    continuations when code follows it on its last line, so line numbers do not move.

        >>> strip_docstrings('def f():\\n    \"\"\"Doc.\\n\\n    More.\"\"\"\\n    return 1\\n')
        'def f():\\n    ""\\n\\n\\n    return 1\\n'
    """
    tree = ast.parse(source)
    lines = source.encode("utf-8").splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    data = source.encode("utf-8")
    spans = sorted(_docstring_spans(tree), key=lambda node: (node.lineno, node.col_offset))
    for node in reversed(spans):
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        begin = starts[node.lineno - 1] + node.col_offset
        end = starts[node.end_lineno - 1] + node.end_col_offset
        rest = data[end : starts[node.end_lineno]].strip()
        breaks = node.end_lineno - node.lineno
        joiner = b" \\\n" if rest and not rest.startswith(b"#") else b"\n"
        data = data[:begin] + b'""' + joiner * breaks + data[end:]
    stripped = data.decode("utf-8")
    if stripped.count("\n") != source.count("\n"):
        raise ConfigurationError("docstring removal moved lines")  # pragma: no cover - a bug
    ast.parse(stripped)  # a SyntaxError here is a bug in the spans above
    return stripped


def _sync_file(source: Path, target: Path, text: str) -> bool:
    if target.is_file() and target.read_text(encoding="utf-8", errors="replace") == text:
        return False  # unchanged files keep their mtime: the next index run is incremental
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return True


def copy_package(
    import_root: Path, package: str, target: Path, *, without_docstrings: bool = False
) -> int:
    """Mirror the Python files of `package` under `target/<package>/` (optionally without
    docstrings); returns how many files changed. Other files of the package are not indexed,
    so they are not copied."""
    wanted: set[Path] = set()
    changed = 0
    for file in sorted((import_root / package).rglob("*.py*")):
        if file.suffix not in (".py", ".pyi") or not file.is_file():
            continue
        relative = file.relative_to(import_root)
        wanted.add(relative)
        text = file.read_text(encoding="utf-8", errors="replace")
        if without_docstrings:
            # not Python 3: copied unchanged, and our indexer skips it anyway
            with contextlib.suppress(SyntaxError):
                text = strip_docstrings(text)
        changed += _sync_file(file, target / relative, text)
    for stale in sorted((target / package).rglob("*")) if (target / package).exists() else []:
        if stale.is_file() and stale.relative_to(target) not in wanted:
            stale.unlink()
            changed += 1
    return changed


def prepare_package(
    source: PackageSource,
    work_dir: Path,
    *,
    client: Neo4jClient,
    settings: Settings,
    embedder: Embedder,
    store: StateStore | None = None,
    progress: ProgressReporter | None = None,
) -> dict[str, Any]:
    """Index the package as is and without docstrings (each under its own repository name),
    incrementally: copies are only rewritten where they differ, vectors are reused by content
    hash. Both copies sit under a folder named after the variant, so node paths read
    `requests/sessions.py` as in the package."""
    reports: dict[str, Any] = {}
    for repo, strip in ((source.repo, False), (source.nodoc_repo, True)):
        folder = work_dir / repo
        copy_package(source.import_root, source.package, folder, without_docstrings=strip)
        report = index_repository(
            folder,
            repo,
            client=client,
            settings=settings,
            embedder=embedder,
            store=store,
            progress=progress,
        )
        reports[repo] = {
            "files": report.files_total,
            "symbols": report.symbols,
            "embedded": report.embedded,
            "embedding_cache_hits": report.embedding_cache_hits,
        }
    return reports
