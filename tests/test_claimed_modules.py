"""One module name under two import roots (issue 57, fault 14): `src/dup/util.py` and
`lib/dup/util.py` are both `dup.util`. An import resolves to the importer's own root, or
becomes a possible edge that says why; never a certain edge into the other root."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_code.ingest.offline import LinkedRepository, link_repository
from graphrag_code.ingest.rows import file_node_ids
from graphrag_code.linking.claims import import_root
from graphrag_code.model import Edge, EdgeKind

IMPORTER = "from dup.util import helper\n\n\ndef {name}():\n    return helper()\n"
FILES = {
    "src/dup/__init__.py": "",
    "src/dup/util.py": "def helper():\n    return 1\n",
    "src/dup/app.py": IMPORTER.format(name="main"),
    "lib/dup/__init__.py": "",
    "lib/dup/util.py": "def helper():\n    return 2\n",
    "lib/dup/tool.py": IMPORTER.format(name="run"),
    "scripts/go.py": IMPORTER.format(name="go"),  # from the repository root: neither root
}


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> LinkedRepository:
    root = tmp_path_factory.mktemp("claims")
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return link_repository(root, repo="t")


def _edge(linked: LinkedRepository, kind: EdgeKind, source: str) -> Edge:
    (edge,) = [e for e in linked.edges() if e.kind == kind and e.source == source]
    return edge


def test_each_root_calls_its_own_helper(linked: LinkedRepository) -> None:
    nodes = {n for parsed in linked.parsed.values() for n in file_node_ids(parsed, linked.ids)}
    lib_call = _edge(linked, EdgeKind.CALLS, "t:dup.tool.run")
    src_call = _edge(linked, EdgeKind.CALLS, "t:dup.app.main")
    assert (lib_call.target, lib_call.resolution and lib_call.resolution.value) == (
        "t:dup.util.helper",
        "exact",
    )
    # was: an exact edge to lib's helper
    assert (src_call.target, src_call.resolution and src_call.resolution.value) == (
        "t:dup.util.helper@src/dup/util.py",
        "exact",
    )
    assert _edge(linked, EdgeKind.IMPORTS, "t:dup.app").target == "t:dup.util@src/dup/util.py"
    assert {lib_call.target, src_call.target} <= nodes  # both are nodes the writer creates


def test_a_root_without_its_own_claimant_gets_a_possible_edge(linked: LinkedRepository) -> None:
    call = _edge(linked, EdgeKind.CALLS, "t:scripts.go.go")
    assert call.resolution is not None
    assert call.resolution.value == "name"
    assert call.via == (
        "`dup.util` is the module of several files: lib/dup/util.py, src/dup/util.py"
    )


def test_the_import_root_is_the_folder_a_module_name_counts_from(
    linked: LinkedRepository,
) -> None:
    roots = {path: import_root(parsed) for path, parsed in linked.parsed.items()}
    assert roots["src/dup/util.py"] == roots["src/dup/__init__.py"] == "src"
    assert roots["lib/dup/tool.py"] == "lib"
    assert roots["scripts/go.py"] == ""


def test_nothing_changes_where_no_name_is_claimed_twice(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "util.py").write_text("def helper():\n    return 1\n")
    (tmp_path / "pkg" / "app.py").write_text(IMPORTER.format(name="main").replace("dup", "pkg"))
    linked = link_repository(tmp_path, repo="t")
    call = _edge(linked, EdgeKind.CALLS, "t:pkg.app.main")
    assert (call.target, call.resolution and call.resolution.value) == (
        "t:pkg.util.helper",
        "exact",
    )
    assert linked.index.shadowed_files == {}
