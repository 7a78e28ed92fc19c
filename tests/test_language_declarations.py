"""The registry routes files by declarations kept apart from the plug-ins' code, and loads a
plug-in only for a language whose files or project files a tree holds (issue 56)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphrag_code.ingest.languages import LanguageRun
from graphrag_code.languages import language_named
from graphrag_code.languages.declarations import DECLARED, Declaration, declare
from graphrag_code.linking.index import RepositoryIndex

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = ("python", "ecmascript", "go", "java", "rust")


@pytest.mark.parametrize("declared", DECLARED, ids=lambda d: d.name)
def test_each_declaration_is_what_its_plugin_declares(declared: Declaration) -> None:
    assert declared == declare(language_named(declared.name), declared.home)


_PROBE = """
import json, sys
from graphrag_code.ingest.offline import link_repository
linked = link_repository(sys.argv[1])
print(json.dumps({"edges": sum(len(l.edges) for l in linked.links.values()),
                  "modules": sorted(sys.modules)}))
"""


def test_a_python_tree_loads_the_python_plugin_alone(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "b.py").write_text("from a import f\n\ndef g():\n    return f()\n")
    (tmp_path / "notes.txt").write_text("not code\n")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60, check=True,
    )  # fmt: skip
    result = json.loads(done.stdout)
    assert result["edges"] > 0
    loaded = {
        folder
        for folder in PLUGINS
        if f"graphrag_code.languages.{folder}.plugin" in result["modules"]
    }
    assert loaded == {"python"}


def test_a_project_file_brings_in_the_languages_that_read_it() -> None:
    """A `tsconfig.json` in a tree without TypeScript still reaches the TypeScript linker
    (which reports a broken one), as when every plug-in ran; a tree without files or
    project files of a language leaves its plug-in out."""
    run = LanguageRun.of(None)
    empty = RepositoryIndex([], {})
    assert run.present(empty, []) == ()
    found = run.present(empty, ["sub/tsconfig.json", "go.sum", "setup.cfg"])
    assert [lang.name for lang in found] == ["python", "typescript", "javascript"]
    assert [lang.name for lang in LanguageRun.of(["py"]).present(empty, ["tsconfig.json"])] == []
