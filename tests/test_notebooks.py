"""The notebooks: committed with the outputs `notebooks/build_notebooks.py` produced from the
code it writes (checked offline), and that code runs on any indexed repository (executed here on
the shop fixture, with the same `execute` the builder uses)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

from graphrag_code.graph.client import Neo4jClient
from graphrag_code.runtime.endpoint import Neo4jEndpoint

from .conftest import point_the_cli_at, wipe

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
SHOP = Path(__file__).parent / "fixtures" / "shop"


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_notebooks", NOTEBOOKS / "build_notebooks.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _builder()
NAMES = sorted(BUILD.notebooks())


def _code(book: nbformat.NotebookNode) -> list[tuple[str, str, list[str]]]:
    return [(cell.cell_type, cell.source, cell.metadata.get("tags", [])) for cell in book.cells]


@pytest.mark.parametrize("name", NAMES)
def test_committed_notebook_is_the_builders_code_with_its_outputs(name: str) -> None:
    committed = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert _code(committed) == _code(BUILD.notebooks()[name]), (
        f"{name} differs from what notebooks/build_notebooks.py writes: run it again"
    )
    assert BUILD.problems(committed) == []
    figures = [c for c in committed.cells if BUILD.FIGURE in c.metadata.get("tags", [])]
    assert figures or name == "01_quickstart.ipynb"
    printed = [c for c in committed.cells if c.cell_type == "code" and c.outputs]
    assert len(printed) >= len([c for c in committed.cells if c.cell_type == "code"]) - 1
    for cell in committed.cells:  # nothing that changes on every run is kept
        assert "execution" not in cell.metadata
    assert "version" not in committed.metadata.get("language_info", {})
    # pictures at a modest resolution keep the repository small
    assert (NOTEBOOKS / name).stat().st_size < 400_000


def test_problems_names_failed_unexecuted_and_pictureless_cells() -> None:
    book = BUILD.notebooks()["02_architecture.ipynb"]
    cells = [c for c in book.cells if c.cell_type == "code"]
    cells[0].execution_count = 1
    cells[0].outputs = [
        nbformat.v4.new_output("error", ename="SymbolNotFoundError", evalue="x", traceback=[])
    ]
    cells[1].execution_count = 2
    cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="drawn?")]
    found = BUILD.problems(book)
    assert found[0] == f"{cells[0]['id']}: SymbolNotFoundError: x"
    assert found[1] == f"{cells[1]['id']}: drew no picture (image/png)"
    assert found[2] == f"{cells[2]['id']}: not executed"


@pytest.fixture(scope="module")
def shop_environment(
    neo4j_endpoint: Neo4jEndpoint,
    session_client: Neo4jClient,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Path]:
    """The kernels' environment: the test server, emptied; the shop fixture as the one
    setting; a cache (incremental state) shared by the notebooks; figures in a folder of ours."""
    wipe(session_client)
    folder = tmp_path_factory.mktemp("notebooks")
    with pytest.MonkeyPatch.context() as monkeypatch:
        point_the_cli_at(monkeypatch, neo4j_endpoint, folder / "cache")
        monkeypatch.setenv("GRAPHRAG_CODE_NOTEBOOK_REPO", str(SHOP))
        monkeypatch.setenv("GRAPHRAG_CODE_NOTEBOOK_FIGURES", str(folder / "figures"))
        yield folder / "figures"


# a front end over Cypher the other server tests run: the LTS line only
@pytest.mark.front_end
@pytest.mark.parametrize(
    ("name", "printed", "saved"),
    [
        ("01_quickstart.ipynb", "path from: shop.", []),
        ("02_architecture.ipynb", "certain:", ["centrality.png", "imports.png", "impact.png"]),
    ],
)
def test_notebook_runs_on_another_repository(
    name: str, printed: str, saved: list[str], shop_environment: Path
) -> None:
    book = BUILD.execute(BUILD.notebooks()[name])
    assert BUILD.problems(book) == []
    text = "".join(o.get("text", "") for c in book.cells for o in c.get("outputs", []))
    assert printed in text
    assert "graphrag_code" not in text  # every name shown was found in the shop's graph
    assert sorted(p.name for p in (shop_environment / "shop").glob("*.png")) == sorted(saved)


def test_evaluation_notebook_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """03 reads the committed benchmark results only (no server, no model)."""
    monkeypatch.setenv("GRAPHRAG_CODE_NOTEBOOK_FIGURES", str(tmp_path))
    book = BUILD.execute(BUILD.notebooks()["03_evaluation.ipynb"])
    assert BUILD.problems(book) == []
    assert len(list((tmp_path / "evaluation").glob("*.png"))) == 3
