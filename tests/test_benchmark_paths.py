"""Every benchmark file and script the documents name exists, so a reader can open the raw
result behind a figure and rerun its command (offline, reads text only)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["BENCHMARKS.md", "README.md", "benchmarks/oracles/README.md"]

# `benchmarks/results/x.json`, `benchmarks/results/x_{a,b}.json`, `benchmarks/results/search_*`
_PATH = re.compile(r"benchmarks/[A-Za-z0-9_.+\-/{},*<>]*[A-Za-z0-9_}*>/]")
# What a command writes need not be there yet; `benchmarks/cache/` is downloaded, not committed.
_OUTPUT = re.compile(r"--(?:json|markdown|out|sample-out)[ =]+$")
_MODULE = re.compile(r"\b(benchmarks(?:\.[a-z_]\w*)+)")
_NOTEBOOK_INPUT = re.compile(r"""(?:RESULTS / |read\()\\?"([^"\\]+)""")


def _expand(pattern: str) -> list[str]:
    """`a_{x,y}.json` -> `a_x.json`, `a_y.json` (braces as the shell reads them)."""
    brace = re.search(r"\{([^{}]*)\}", pattern)
    if brace is None:
        return [pattern]
    head, tail = pattern[: brace.start()], pattern[brace.end() :]
    return [name for part in brace.group(1).split(",") for name in _expand(head + part + tail)]


def _exists(pattern: str) -> bool:
    glob = re.sub(r"<[^>]*>", "*", pattern)
    if "*" in glob:
        return any(CHECKOUT.glob(glob.rstrip("/")))
    return (CHECKOUT / glob).exists()


def _is_module(dotted: str) -> bool:
    path = CHECKOUT / dotted.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _cited(document: str) -> list[tuple[int, str]]:
    cited = []
    for number, line in enumerate((CHECKOUT / document).read_text().splitlines(), 1):
        for match in _PATH.finditer(line):
            path = match.group(0)
            if path.startswith("benchmarks/cache") or _OUTPUT.search(line[: match.start()]):
                continue
            cited += [(number, name) for name in _expand(path)]
    return cited


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_benchmark_path_a_document_names_exists(document: str) -> None:
    missing = [
        f"{document}:{number}: {path}" for number, path in _cited(document) if not _exists(path)
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_benchmark_module_a_document_names_exists(document: str) -> None:
    modules = _MODULE.findall((CHECKOUT / document).read_text())
    missing = [m for m in modules if not _is_module(m)]
    assert not missing, f"{document}: no such module: {sorted(set(missing))}"


def test_the_evaluation_notebook_reads_committed_results() -> None:
    source = (CHECKOUT / "notebooks" / "build_notebooks.py").read_text()
    names = _NOTEBOOK_INPUT.findall(source)
    assert names
    missing = [name for name in names if not (CHECKOUT / "benchmarks" / "results" / name).is_file()]
    assert not missing, missing


def test_expand_braces() -> None:
    assert _expand("r/a_{x,y}.{json,md}") == ["r/a_x.json", "r/a_x.md", "r/a_y.json", "r/a_y.md"]
    assert _expand("r/a.json") == ["r/a.json"]
