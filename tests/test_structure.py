"""STRUCTURE.md, the drawing of the package's folders and imports, is current and says that the
core reaches no language folder except through the registry."""

from __future__ import annotations

from harness.structure import DRAWING, box_of, drawing


def test_the_drawing_in_the_repository_is_current() -> None:
    assert DRAWING.read_text(encoding="utf-8") == drawing(), (
        "STRUCTURE.md is stale: run `.venv/bin/python -m harness.structure`"
    )


def test_no_arrow_runs_from_the_core_into_a_language_folder() -> None:
    assert drawing().splitlines()[-1] == "Arrows from the core into a language folder: none."


def test_modules_are_drawn_in_their_folder_and_languages_apart() -> None:
    assert box_of("graphrag_code.languages.python.values.engine") == "languages/python"
    assert box_of("graphrag_code.languages.python") == "languages/python"
    assert box_of("graphrag_code.languages.registry") == "languages"
    assert box_of("graphrag_code.model") == "records"
    assert box_of("graphrag_code.codegraph") == "front door"
    assert box_of("graphrag_code") == "front door"
    assert box_of("graphrag_code.graph.reader") == "graph"
