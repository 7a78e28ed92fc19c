"""The notebooks run top to bottom against the real Neo4j (outputs are not kept in git)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from graphrag_code.runtime.endpoint import Neo4jEndpoint

from .conftest import point_the_cli_at

# its subject is a front end over Cypher the other server tests run: the LTS line only
pytestmark = pytest.mark.front_end

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


@pytest.mark.parametrize(
    ("name", "printed", "charts"),
    [
        ("01_quickstart.ipynb", "Neo4j:", 0),
        # pyplot under MPLBACKEND=Agg (below) draws without showing: no image output
        ("02_architecture.ipynb", "Neo4j:", 0),
        # reads the committed benchmark results only (no server, no model); inline figures
        ("03_evaluation.ipynb", "full index:", 3),
    ],
)
def test_notebook_runs(
    name: str,
    printed: str,
    charts: int,
    neo4j_endpoint: Neo4jEndpoint,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), (
        "commit notebooks without outputs (notebooks/build_notebooks.py writes them clean)"
    )
    point_the_cli_at(monkeypatch, neo4j_endpoint, tmp_path / "cache")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()
    errors = [
        output
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert errors == []
    text = "".join(
        output.get("text", "") for cell in notebook.cells for output in cell.get("outputs", [])
    )
    assert printed in text
    images = [
        output
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    ]
    assert len(images) == charts
